"""The dealers' tips (R66; docs/dealers.md, "Tips"): a shift's pool counted by two people and
shared by the downs each dealer dealt. Above the ledger (a shift as the cage names it) and the
dealers' roster (the downs), and never a ledger row: tips are not house money."""
