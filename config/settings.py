"""One settings file, driven by environment variables (django-environ).

Without any variables set, the site runs on embedded defaults: SQLite in WAL
mode, an in-process cache, Celery tasks run eagerly, e-mail to the console.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import environ
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.utils.translation import gettext_lazy as _

from config.version import __version__
from ops import errors

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = env.str(
    "SECRET_KEY",
    default="dev-only-insecure-key-set-SECRET_KEY-in-production" if DEBUG else environ.Env.NOTSET,
)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[SITE_URL])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "template_partials",
    "django_htmx",
    "csp",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "siam",
    "tal",
    "notify",
    "moderation",
    "community",
    "botplay",
    "lobby",
    "tournaments",
    "automatch",
    "live",
    "agreements",
    "notes",
    "review",
    "social",
    "learn",
    "ops",
    "privacy",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.RejectUnstorableInput",
    "csp.middleware.CSPMiddleware",
    "config.middleware.StaticFiles",
    # Below the static files: they are neither counted nor logged with a request id.
    "ops.middleware.Observe",
    # Below whitenoise, which serves static files compressed ahead of time and
    # answers before reaching it; above CompactHTML, which must see the page
    # before it is compressed. Since Django 4.2 it pads against BREACH.
    "config.middleware.GZip",
    "config.middleware.CompactHTML",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Below CompactHTML and GZip, which must see the page with the banner in it.
    "ops.middleware.StaffBanner",
    "accounts.middleware.UserPreferencesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # A bot account's session may not act on the site's pages (api.botaccounts).
    "api.middleware.BotAccountsUseTheApi",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"
# ASGI (config.asgi): the threads of each app process that run Django's synchronous
# code (middleware, views, the ORM), each keeping its database connection.
ASGI_THREADS = env.int("ASGI_THREADS", default=8)

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "games.context_processors.turn_count",
                "games.context_processors.contact",
            ],
        },
    },
    # The titles' board templates (<app>/jinja2/): drawn anew on every move (games.jinja).
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "APP_DIRS": True,
        "OPTIONS": {"environment": "games.jinja.environment"},
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the page polls read while a move is being written; IMMEDIATE
    # takes the write lock at BEGIN so two moves serialise instead of failing.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Keep a connection open between requests: opening one costs PostgreSQL more
# than a small page. The health check replaces a connection the server dropped.
DATABASES["default"]["CONN_MAX_AGE"] = env.int(
    "CONN_MAX_AGE",
    default=60 if DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3" else 0,
)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env.bool("CONN_HEALTH_CHECKS", default=True)
if DATABASES["default"]["ENGINE"].startswith("django.db.backends.postgresql"):
    # A database host that does not answer must fail a request (and /readyz) in seconds,
    # not hang it: libpq waits for ever by default.
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = env.int(
        "DATABASE_CONNECT_TIMEOUT", default=5
    )
    # The few queries sent on every game request (games.rows.planned_cursor) are
    # planned once per connection: planning the page-cache key's query costs
    # PostgreSQL more than running it. Off behind a pooler that cannot keep
    # prepared statements (pgbouncer before 1.21 in transaction mode).
    if env.bool("DATABASE_PREPARED_STATEMENTS", default=True):
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            prepare_threshold=0,
            # Only those statements are prepared. By default PostgreSQL weighs a generic
            # plan against planning each call anew, and with a full database (statistics
            # of 100,000 games) it kept planning anew: the cost prepared statements save.
            options="-c plan_cache_mode=force_generic_plan",
        )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL and os.environ.get("PYTEST_XDIST_WORKER"):
    # Parallel test processes (pytest-xdist: gw0, gw1, ...) each get a Redis database
    # of their own, after the one named: every test clears the cache it uses.
    _url = urlsplit(REDIS_URL)
    _db = int(_url.path.strip("/") or 0) + 1 + int(os.environ["PYTEST_XDIST_WORKER"][2:])
    REDIS_URL = urlunsplit(_url._replace(path=f"/{_db}"))
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="pbw"),
            # A dead or unreachable Redis must cost milliseconds, not a hung request.
            "OPTIONS": {
                "socket_connect_timeout": 0.5,
                "socket_timeout": 0.5,
                # One pool per process (config.cache), so a bound keeps threads from
                # opening a connection each; a connection idle this long is pinged first.
                "max_connections": env.int("REDIS_MAX_CONNECTIONS", default=50),
                "health_check_interval": 30,
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery: Redis in production. Without it, a broker in files under .celery/
# that `make run` serves with a worker beside runserver; anything else run
# without Redis (a shell, a management command) runs tasks in-process unless
# CELERY_TASK_ALWAYS_EAGER=0 says a worker is there.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "filesystem://")
CELERY_QUEUE_DIR = BASE_DIR / ".celery"
if CELERY_BROKER_URL.startswith("filesystem://"):
    # kombu's filesystem transport with whole-file writes (config.broker_files):
    # its own lets a worker read a half-written message and die (kombu#1551).
    CELERY_BROKER_TRANSPORT = "config.broker_files:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_QUEUE_DIR / "queue"),
        "data_folder_out": str(CELERY_QUEUE_DIR / "queue"),
        "processed_folder": str(CELERY_QUEUE_DIR / "processed"),
        "control_folder": str(CELERY_QUEUE_DIR / "control"),
        "store_processed": False,
    }
    for _folder in ("queue", "processed", "control"):
        (CELERY_QUEUE_DIR / _folder).mkdir(parents=True, exist_ok=True)
elif CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # A broker that accepts the connection and then never answers must not hang
    # the move that queues a mail (the outbox row waits for the drain instead).
    # Above the worker's 1 s BRPOP, so the worker's own polling is unaffected.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_timeout": 5, "socket_connect_timeout": 2}
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="celery")
# Pushes and webhook posts go on a queue of their own, for a worker (pool) of their own:
# a receiver that is slow or down never holds up a mail or a computer's move.
CELERY_PINGS_QUEUE = env.str("CELERY_PINGS_QUEUE", default="pings")
CELERY_TASK_ROUTES = {
    "notify.tasks.deliver_ping": {"queue": CELERY_PINGS_QUEUE},
    "notify.tasks.drain_pings": {"queue": CELERY_PINGS_QUEUE},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(CELERY_QUEUE_DIR / "beat-schedule")
# Publishing must not hang a move when the broker is down: fail fast, the
# drain sends the row later.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2}
CELERY_BEAT_SCHEDULE = {
    "notify-drain": {"task": "notify.tasks.drain", "schedule": 60.0},
    "notify-drain-pings": {"task": "notify.tasks.drain_pings", "schedule": 60.0},
    "notify-reminders": {"task": "notify.tasks.remind", "schedule": 300.0},
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": 5 * 60},
    "prune-receipts": {"task": "games.tasks.prune_receipts", "schedule": 60 * 60},
    # Starts tournaments whose sign-up is over and rounds whose games have all ended.
    "tournaments-advance": {"task": "tournaments.tasks.advance_all", "schedule": 60.0},
    "ladders-pair": {"task": "tournaments.tasks.pair_ladders", "schedule": 5 * 60},
    # Matches open tickets (a new one is matched at once), lapses old ones and lets
    # computer players fill the tables whose wait is over.
    "automatch": {"task": "automatch.tasks.match_tickets", "schedule": 60.0},
    # Deletes what the privacy notice promises to keep no longer (privacy.retention).
    "privacy-retention": {"task": "privacy.tasks.apply_retention", "schedule": 60 * 60},
}

# Sessions live in the database: a Redis outage must not sign everyone out.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
# Messages ("Confirmation e-mail sent", ...) ride in the session, not in a cookie of their
# own: the site sets only the cookies the privacy notice names (session, CSRF, language).
MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_REDIRECT_URL = "my_games"
LOGIN_URL = "account_login"
ACCOUNT_LOGIN_METHODS = {"email", "username"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
# Behind a reverse proxy, rate limits must count the client, not the proxy:
# set how many proxies append to X-Forwarded-For, or the header one of them sets.
ALLAUTH_TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
ALLAUTH_TRUSTED_CLIENT_IP_HEADER = env.str("CLIENT_IP_HEADER", default="") or None
# Failed sign-ins are limited per client address and per account *from that address*
# (accounts.signin_limits makes the key the account and the address), so nobody can
# lock an owner out from elsewhere; in a burst of failures against one account from
# many addresses, each address gets only two tries.
ACCOUNT_RATE_LIMITS = {
    "login_failed": "10/m/ip,5/5m/key",
    "login_failed_in_burst": "2/1h/key",
}
# A burst: this many failed sign-ins to one account, from all addresses, in this many
# minutes (its owner gets one e-mail per burst).
SIGNIN_BURST_FAILURES = env.int("SIGNIN_BURST_FAILURES", default=20)
SIGNIN_BURST_MINUTES = env.int("SIGNIN_BURST_MINUTES", default=15)
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupForm"
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if SITE_URL.startswith("https") else "http"

EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
# Well below the outbox's claim timeout (10 minutes): a stalled SMTP server
# must fail the send before another worker may take the row over.
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=30)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Play by Web <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Where players write to (the sign-up and password pages say "contact us"): shown at
# the foot of every page when set.
CONTACT_EMAIL = env.str("CONTACT_EMAIL", default="")

# Who runs the site, for the imprint (§ 5 DDG, § 18 MStV) and the privacy notice
# (privacy/): `manage.py check --deploy` warns while the required ones are empty with
# DEBUG=0. A multi-line value (an address) separates its lines with "|" or "\n".
OPERATOR_NAME = env.str("OPERATOR_NAME", default="")
OPERATOR_ADDRESS = env.str("OPERATOR_ADDRESS", default="")
OPERATOR_EMAIL = env.str("OPERATOR_EMAIL", default="") or CONTACT_EMAIL
OPERATOR_PHONE = env.str("OPERATOR_PHONE", default="")
# E.g. "Amtsgericht Berlin-Charlottenburg, HRB 12345" and "DE123456789"; optional.
OPERATOR_REGISTER = env.str("OPERATOR_REGISTER", default="")
OPERATOR_VAT_ID = env.str("OPERATOR_VAT_ID", default="")
# Responsible for the content (§ 18 Abs. 2 MStV): name and address; empty: the operator.
CONTENT_RESPONSIBLE = env.str("CONTENT_RESPONSIBLE", default="")
# Who hosts the site's servers and who delivers its mail: name and address of each.
HOSTING_PROVIDER = env.str("HOSTING_PROVIDER", default="")
MAIL_PROVIDER = env.str("MAIL_PROVIDER", default="")

# How long what the privacy notice names is kept (privacy.retention, hourly): an account
# whose address was never confirmed and that never sat at a game; sent or abandoned
# outbox rows (addresses, texts, delivery errors); a client address in a rate limit.
RETAIN_UNVERIFIED_DAYS = env.int("RETAIN_UNVERIFIED_DAYS", default=7)
RETAIN_SENT_DAYS = env.int("RETAIN_SENT_DAYS", default=30)
RETAIN_ADDRESS_MINUTES = env.int("RETAIN_ADDRESS_MINUTES", default=10)

# Scripts only from our own files: no inline script, no eval (htmx is told not
# to use it). Boards colour their pieces through style attributes (CSS custom
# properties), which style-src-attr allows; style elements stay forbidden.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        # The service worker of pushes (/sw.js, notify.views.service_worker).
        "worker-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

LANGUAGE_CODE = "en"
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = not DEBUG
LANGUAGES = [("en", _("English")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
FORMAT_MODULE_PATH = ["config.formats"]
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# LOG_FORMAT=json: one JSON object per line (python-json-logger) with the request id,
# user id, route name and game id of the request that wrote it (ops.logcontext).
LOG_FORMAT = env.str("LOG_FORMAT", default="plain")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request": {"()": "ops.logcontext.RequestContext"}},
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s %(user_id)s"
            " %(route)s %(game_id)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request"],
            **({"formatter": "json"} if LOG_FORMAT == "json" else {}),
        }
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

# The release (config/version.py): /readyz and the admin's header show it.
VERSION = __version__

# Health (ops): the Celery worker and beat each write a heartbeat this often (seconds),
# and count as gone when none came for HEARTBEAT_STALE_SECONDS; the outbox is late when
# its oldest due row has waited OUTBOX_STALE_SECONDS. /readyz answers 503 and staff see
# a banner then.
HEARTBEAT_INTERVAL_SECONDS = env.int("HEARTBEAT_INTERVAL_SECONDS", default=30)
HEARTBEAT_STALE_SECONDS = env.int("HEARTBEAT_STALE_SECONDS", default=120)
OUTBOX_STALE_SECONDS = env.int("OUTBOX_STALE_SECONDS", default=600)
# /metrics (Prometheus) answers only with "Authorization: Bearer <METRICS_TOKEN>"; without
# a token it is not there (404). PROMETHEUS_MULTIPROC_DIR (read by prometheus-client
# itself) is where each process writes its counters when there are several.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")

# Errors: to Sentry when SENTRY_DSN is set (web and Celery, nothing personal: ops.errors);
# otherwise mailed to ADMINS ("Name <address>, ...") when DEBUG is off.
SENTRY_DSN = env.str("SENTRY_DSN", default="")
SENTRY_ENVIRONMENT = env.str("SENTRY_ENVIRONMENT", default="")
SENTRY_TRACES_SAMPLE_RATE = env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0)
if SENTRY_DSN:
    errors.init(SENTRY_DSN, SENTRY_ENVIRONMENT, SENTRY_TRACES_SAMPLE_RATE, VERSION)
    ADMINS = []
else:
    ADMINS = errors.admins(env.list("ADMINS", default=[]))

# games.pagecache: render every cached game page again and fail if it differs
# (the tests turn it on; it costs the whole saving).
PAGE_CACHE_CHECK = env.bool("PAGE_CACHE_CHECK", default=False)

# Game hosting limits.
CHAT_MAX_LENGTH = 500
GAME_TIME_LIMIT_DAYS = [1, 3, 7, 14]
VACATION_DAYS_PER_YEAR = env.int("VACATION_DAYS_PER_YEAR", default=30)
# A rematch is arranged right after a game: within this many days of its end. Then nobody
# can propose or accept one any more, and "My games" stops listing an offer.
REMATCH_DAYS = env.int("REMATCH_DAYS", default=14)
# The lobby's list of running games to watch is drawn once in this many seconds (per
# language, time zone, filter and page) and kept in the cache: the same for everyone.
LOBBY_WATCH_SECONDS = env.int("LOBBY_WATCH_SECONDS", default=10)
# Reports one player may file in 24 hours.
REPORTS_PER_DAY = env.int("REPORTS_PER_DAY", default=10)
# A player downloads their data (accounts.export) at most once in this many minutes.
DATA_EXPORT_INTERVAL_MINUTES = env.int("DATA_EXPORT_INTERVAL_MINUTES", default=10)
# Tournaments a player (not a moderator) may have created that are not over yet.
TOURNAMENTS_PER_PLAYER = env.int("TOURNAMENTS_PER_PLAYER", default=2)
TOURNAMENT_MAX_ENTRANTS = 128

# Live updates (live/): server-sent events tell open pages of each change. Streams per
# player (anonymous viewers: per client address), across all app servers; over it a page
# polls as before. Redis carries the changes between app servers (without it, one process).
LIVE_STREAMS_PER_USER = env.int("LIVE_STREAMS_PER_USER", default=4)
LIVE_REDIS_URL = env.str("LIVE_REDIS_URL", default=REDIS_URL)
LIVE_HEARTBEAT_SECONDS = 25
# Then the browser reconnects (and is let in anew: a game made private, a ban).
LIVE_STREAM_SECONDS = env.int("LIVE_STREAM_SECONDS", default=3600)
# The per-process thread of live.keeper (presence, stream counts; changes from other
# processes without Redis). The tests switch it off and run its rounds themselves.
LIVE_KEEPER = env.bool("LIVE_KEEPER", default=True)

# The API (api/): requests per token, as "<count>/<period>" (s, m, h, d), every method
# counted (the project's rate limiter, allauth's, in the cache).
API_RATE_LIMIT = env.str("API_RATE_LIMIT", default="300/m")

# Pushes and webhooks (notify.push, notify.webhooks; README "Pushes and webhooks").
# The VAPID key pair that signs pushes: `manage.py vapid_keys` makes one. Without it
# the site offers no push.
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default=f"mailto:{CONTACT_EMAIL or 'admin@localhost'}")
# Seconds to connect, and to wait for each read, when posting to a push service or a webhook.
PING_TIMEOUT = env.float("PING_TIMEOUT", default=5.0)
# A push or webhook claim older than this (seconds) belongs to a worker that died.
PING_CLAIM_TIMEOUT = env.int("PING_CLAIM_TIMEOUT", default=120)
# Private networks pushes and webhooks may still reach (e.g. 127.0.0.0/8 for tests, or
# an intranet's chat server); by default only addresses on the public internet.
PING_ALLOWED_NETWORKS = env.list("PING_ALLOWED_NETWORKS", default=[])
# A webhook that fails this many times in a row is switched off (its owner is told).
WEBHOOK_MAX_FAILURES = env.int("WEBHOOK_MAX_FAILURES", default=20)
# How long a one-click sign-in link in a mail or push works (it works once).
SIGNIN_LINK_DAYS = env.int("SIGNIN_LINK_DAYS", default=7)
