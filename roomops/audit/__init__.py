"""The audit trail (R60): append-only, written in the same transaction as the change it records."""
