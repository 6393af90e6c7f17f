"""Absence from a seat: breaks (R23, R24) and away (R25, R26)."""
