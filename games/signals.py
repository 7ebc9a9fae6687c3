"""What happened to a game, for whoever must hear of it (e-mail, bots, ratings).

Sent inside the transaction that made the change, so a receiver that writes
rows (an outbox) commits or rolls back together with the move. Receivers must
not do slow work here: they write rows and queue tasks with ``on_commit``.
``changed`` alone is sent after the commit (see there).
"""

from django.dispatch import Signal

# A player took a seat of an open game. kwargs: game, user.
joined = Signal()

# The game has started. kwargs: game.
game_started = Signal()

# These seats' turn has just begun (they were not to move before this change).
# kwargs: game, seats (list of Seat), move_count (moves in force when the turn began).
turn_started = Signal()

# The game has ended. kwargs: game (its ``result`` holds winners, ranking and reason).
game_finished = Signal()

# A late player's seat was emptied for a substitute (timeout policy "substitute").
# kwargs: game, number (the seat), user (the player who left it).
seat_opened = Signal()

# A player asked to cancel the game by agreement, and nobody had asked before.
# kwargs: game, user (who asked), vote (the primary key of their vote).
cancel_asked = Signal()

# A player was invited by name to an open game (a new invitation, not a repeated one).
# kwargs: game, user (the invitee), by (who invited).
invited = Signal()

# A player proposed a rematch of a finished game. kwargs: game (the finished game),
# user (who proposed), rematch (the primary key of the offer).
rematch_offered = Signal()

# A computer player took over a late player's seat (timeout policy "stand-in").
# kwargs: game, number (the seat), user (the player it stands in for).
seat_stood_in = Signal()

# What the pages of a game show has changed: its version (a move, take-back, join, start,
# time-out, end, a vote, a seat taken) or its chat count (a line said, hidden or shown).
# Sent AFTER the commit, once per operation, from one place (``games.play.locked`` and
# ``create_game``), so receivers tell open pages about rows they can already read.
# kwargs: game_id, version, chat_count, version_changed (False: only the chat changed).
# Receivers must not fail the request: the change is committed already.
changed = Signal()
# Moves were recorded: a player's action and the forced moves and queued actions it set
# off. Sent after the commit (metrics count them). kwargs: game, moves (how many rows).
moved = Signal()
# A player wrote a line in a game's chat. kwargs: game, message (the ChatMessage).
chat_posted = Signal()
# A player's queued actions (games.premoves) were not played when their turn came: one of
# them was not legal then. kwargs: game, seat (its number), user (whose queue it was).
premove_dropped = Signal()
