"""The release this checkout is: /readyz and the admin show it, Sentry tags errors with it,
and CHANGELOG.md names it."""

__version__ = "1.0.0"
