#!/bin/sh
# The roles of the site's image. One argument names the role; `manage` takes the
# manage.py command after it. Settings come from the environment (deploy/.env.example).
set -eu
cd /app

# prometheus-client's multiprocess mode keeps one file per process here: files of an
# earlier run of this container would count its dead processes as living.
if [ -n "${PROMETHEUS_MULTIPROC_DIR:-}" ]; then
  rm -rf "$PROMETHEUS_MULTIPROC_DIR"
  mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
fi

role="${1:-web}"
[ $# -gt 0 ] && shift

case "$role" in
  web)
    # Uvicorn workers: the live pages' event streams wait in the event loop (config.asgi).
    # No access log: the privacy notice promises no file of client addresses (requests
    # are counted by route in /metrics instead). gunicorn.conf.py cleans up the metrics.
    # Two processes per core with two threads each: one process's threads share one GIL,
    # and with eight a thread back from a query waited for it behind the others' drawing
    # (bench/capacity.py held 1,500 players with 2 x 8, 3,000 with 4 x 2 on two cores).
    # Four by default, not two per `nproc`: nproc counts the host's cores, not a
    # container's CPU limit, and every thread keeps a database connection.
    export ASGI_THREADS="${ASGI_THREADS:-2}"
    exec gunicorn config.asgi:application \
      --worker-class uvicorn_worker.UvicornWorker \
      --bind "0.0.0.0:${PORT:-8000}" \
      --workers "${WEB_CONCURRENCY:-4}" \
      --graceful-timeout 30 \
      "$@"
    ;;
  worker)
    # Scale by running more containers. CELERY_QUEUES (comma-separated) limits this
    # worker to some queues; without it, both: mail and the rest, and pushes and webhook
    # posts (their own queue, so that a slow receiver never holds up mail).
    queues="${CELERY_TASK_DEFAULT_QUEUE:-celery},${CELERY_PINGS_QUEUE:-pings}"
    exec celery -A config worker \
      --loglevel "${LOG_LEVEL:-INFO}" \
      --concurrency "${CELERY_CONCURRENCY:-2}" \
      --without-gossip --without-mingle \
      --queues "${CELERY_QUEUES:-$queues}" \
      "$@"
    ;;
  beat)
    # Exactly one beat for the whole site, or every periodic task runs twice. Its
    # schedule file is in /tmp: the image's files are read-only for this user.
    mkdir -p /tmp/beat
    exec celery -A config beat \
      --loglevel "${LOG_LEVEL:-INFO}" \
      --schedule /tmp/beat/schedule \
      "$@"
    ;;
  migrate)
    # Once per deploy (the compose stack's one-off service); a second run at the same
    # time waits for the first (an advisory lock on PostgreSQL).
    exec python manage.py migrate_locked "$@"
    ;;
  manage)
    exec python manage.py "$@"
    ;;
  *)
    echo "unknown role '$role': web, worker, beat, migrate or manage <command>" >&2
    exit 64
    ;;
esac
