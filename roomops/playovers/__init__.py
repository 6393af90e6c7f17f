"""Playovers: a waiting player plays over an absent owner's seat (R29)."""
