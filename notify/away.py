def on_vacation_here(user, game) -> bool:
    """A vacation silences a game's e-mail only where it also stops that game's
    clock: in a game that does not allow vacation, the player must still hear
    that time is running."""
    return user.on_vacation() and game.vacation_allowed
