"""Texts to players (R20): the outbox, its providers and its sending (docs/messages.md)."""
