"""Waiting lists per game (R10), reserve lists per table (R11), remote entries (R12), order (R13)."""
