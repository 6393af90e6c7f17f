"""Hands recorded at the table: the button, the blinds and every seat's missed-blind buttons
(R33-R36, R40), kept by the pure engine in ``roomops.blinds``."""
