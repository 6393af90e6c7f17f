"""Telling players about their offers: run after the commit, never inside the transaction.

Empty hooks for now: the player notifications (a text message, a push to the phone page) will
hang here. A hook may fail without undoing the change it reports (``roomops.floor.unit``)."""

from __future__ import annotations

import logging

log = logging.getLogger("roomops.notify")


def offers_made(offer_ids: tuple[int, ...]) -> None:
    log.debug("offers made: %s", offer_ids)


def offers_ended(offer_ids: tuple[int, ...], outcome: str) -> None:
    log.debug("offers %s: %s", outcome, offer_ids)
