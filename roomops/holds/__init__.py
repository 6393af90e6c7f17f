"""Seat holds (offers and seated players) and playovers: their models, the pure seat rules and the
reads and refusals every package that touches a seat needs, below all of them (docs/architecture.md,
"Dependencies")."""
