"""Staff log-in (Flask-Login, hashed passwords, CSRF) and per-staff API tokens (R61)."""
