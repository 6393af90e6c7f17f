"""Failed log-ins and wrong approvals, throttled per (username, address) and per address (R61,
R28; docs/security.md, "Logins")."""
