"""What an operator needs to run the site in public: health and readiness (/healthz,
/readyz), the worker's and beat's heartbeats, the staff banner, Prometheus metrics
(/metrics), error reports (Sentry) and the request context of log lines."""
