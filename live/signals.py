"""Streams opening and closing, for whoever counts them (the metrics of ``ops``)."""

from django.dispatch import Signal

# A live stream was let in (it holds its place under the cap); no kwargs.
stream_opened = Signal()
# That stream ended, however it ended (sent once per opened stream); no kwargs.
stream_closed = Signal()
