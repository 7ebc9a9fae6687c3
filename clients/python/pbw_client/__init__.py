"""A client of the play-by-web site's API: ``Client``, ``ApiError`` and ``Bot``."""

from .bot import Bot
from .client import ApiError, Client

__all__ = ["ApiError", "Bot", "Client"]
