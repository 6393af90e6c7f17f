"""The sweep's heartbeat: when each scheduler last swept, and whether the sweep is late."""
