"""The dealers: their roster, downs and breaks, and the rotation plan (R62-R66; docs/dealers.md)."""
