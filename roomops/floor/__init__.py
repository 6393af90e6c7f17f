"""The floor's unit of work: services raise events, the handler table reacts to them in the same
transaction, one commit, then the work that must wait for it (docs/architecture.md)."""
