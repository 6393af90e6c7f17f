"""Flask wiring shared by every blueprint: the unit of work, the acting staff member, errors."""
