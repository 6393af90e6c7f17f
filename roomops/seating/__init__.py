"""Seats: offers with the claim timer (R14, R20-R22), seating and leaving."""
