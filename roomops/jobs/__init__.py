"""Scheduled work: timers are rows with deadlines, swept by idempotent jobs (never one job per timer)."""
