"""A player's own remote entries: joining a list from the phone page, the personal link that
follows them, and the desk's bounds on it (R12, R13-R16, R61)."""
