"""The money side of the room (R28, R30-R32, R52, R61): one append-only ledger of chip movements
and the chips-in-transit slips that feed it. See docs/ledger.md."""
