"""Seats: offers with the claim timer (R14, R20-R22), seating and leaving, moves (R17-R19), seat
changes (R36), closing tables (R5) and releasing seats (R24, R26): the top of the domain packages,
above those whose rows it ends (docs/architecture.md, "Dependencies")."""
