"""R67: a scheme's rules in words, as the board, the phone pages, the dealer's tablet and the desk
post them, in the language of ``tr`` (``roomops.words``). Pure: no Flask, no database.

``Posting`` is a scheme as plain values with its pools now (hashable: a board section's key holds
it, so that a drop redraws and pushes the sections of its games, R69)."""

from __future__ import annotations

from typing import NamedTuple

from roomops.money import Money
from roomops.words import Translate, english


class Posting(NamedTuple):
    name: str
    kind: str
    main: int
    backup: int
    drop: int
    threshold: int
    min_dealt: int
    flop_required: bool
    qualifying: str
    both_cards_play: bool
    split: tuple[int, int, int]
    prize_bp: int
    fee_bp: int
    not_eligible: str
    tables: tuple[str, ...] = ()  # the tables it runs at, when not all of its game's


def hands(tr: Translate = english) -> dict[str, str]:
    """R67: each qualifying hand (``rules.QUALIFYING``) in words."""
    return {"royal_flush": tr("a royal flush"), "straight_flush": tr("a straight flush or better"),
            "four_of_a_kind": tr("four of a kind or better"), "quad_eights": tr("four eights or better"),
            "aces_full_of_kings": tr("aces full of kings or better"),
            "aces_full_of_tens": tr("aces full of tens or better"),
            "full_house": tr("a full house or better")}


def _pct(bp: int) -> str:
    return f"{bp / 100:g} %"


def headline(p: Posting, money: Money, tr: Translate = english) -> str:
    """"Bad beat 1,234.00 (backup 100.00)": the scheme's name and its pool now."""
    text = tr("{name}: {amount}").format(name=p.name, amount=money(p.main))
    return text + (" " + tr("(backup {amount})").format(amount=money(p.backup)) if p.backup else "")


def rules(p: Posting, money: Money, tr: Translate = english) -> list[str]:
    """R67: the drop and when it is taken, the qualifying hands, the shares, who may not win and
    the administrative fee, a line each."""
    drop = tr("Drop {drop} from each pot of {threshold} or more with {players} or more players "
              "dealt in").format(drop=money(p.drop), threshold=money(p.threshold), players=p.min_dealt)
    if p.flop_required:
        drop += tr(", once there is a flop")
    hand = hands(tr).get(p.qualifying, p.qualifying)
    qualifies = (tr("Qualifies: {hand} beaten") if p.kind == "bad_beat" else tr("Qualifies: {hand}")).format(
        hand=hand)
    if p.both_cards_play:
        qualifies += tr(", both hole cards playing")
    losing, winning, table = p.split
    shares = (tr("{losing} to the losing hand, {winning} to the winning hand, {table} shared by the "
                 "other players dealt in").format(losing=_pct(losing), winning=_pct(winning),
                                                   table=_pct(table))
              if p.kind == "bad_beat" else tr("The whole prize to the hand"))
    if p.prize_bp < 10_000:
        shares += tr("; the prize is {part} of the pool").format(part=_pct(p.prize_bp))
    lines = [drop, qualifies, shares, tr("Not eligible: {who}").format(who=p.not_eligible),
             tr("Administrative fee: {fee} of each drop").format(fee=_pct(p.fee_bp)) if p.fee_bp
             else tr("No administrative fee: every drop goes to the players")]
    if p.tables:
        lines.insert(0, tr("At tables {names}").format(names=", ".join(p.tables)))
    return lines
