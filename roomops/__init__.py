"""roomops: operations for a live poker room's cash games."""
