"""The manager's figures (R80): the read model kept by the sweep, and what the figures screen shows."""
