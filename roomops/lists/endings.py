"""How an entry's end reason begins when it came off a list without a seat, for those who count
the endings (R80, roomops.figures): pure, no Flask or database."""

NO_SHOW = "no-show"  # R12, R13: a call-in that did not check in, a lockup that ran out
MISSED_CALL = "missed call"  # R22: taken off after a call it did not answer
