"""Computer players on the site: bot accounts, and the task that makes their moves.

The thinking is in ``bots/`` (no Django); this app only gives it a seat: a
bot's turn begins (``games.signals.turn_started``), a task is queued after the
move's transaction commits, and the task acts through ``games.play.act`` like
any player, with the page token of what the bot saw (``seen``), so a
duplicate or late task is refused instead of acting twice.
"""
