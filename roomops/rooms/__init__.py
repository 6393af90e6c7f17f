"""Rooms, their policies (R1-R3), staff and roles (R61), players and barred pairs (R15)."""
