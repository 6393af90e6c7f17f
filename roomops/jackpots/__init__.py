"""Jackpot schemes held in trust for the players (R67-R71; docs/jackpots.md)."""
