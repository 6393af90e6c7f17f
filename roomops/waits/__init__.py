"""Estimated waits to be seated, learned from the room's history (R10, R13, R14; docs/waits.md)."""
