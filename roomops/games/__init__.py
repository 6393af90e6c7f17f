"""Games (R4, R6) and tables (R5)."""
