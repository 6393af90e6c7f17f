"""R70: a jackpot claimed at the table, verified by two staff, and paid share by share.

A claim names the hand (its table and number), the qualifying hands' seats and cards, and the
players at the table: those dealt in, and those seated but not (away, or waiting with a
missed-blind button), who take a table share only where the scheme says. The players are the
table's seats when the claim is made, which is at once, before anyone leaves.

A supervisor (the authorise right) and a second staff member verify it: above the scheme's camera
threshold the hand is shown to surveillance and the claim records its reference, the cards kept
sealed for 7 days (WA). Claims of one scheme on hands dealt within ``AT_ONCE`` of each other are
claims at once: verified together, they share the prize equally (``shares.claims_split``), the
earliest claim first. The prize is the scheme's part of the pool; each player's share is a pool row,
paid in cash or chips, or owed by cheque within 24 hours above the scheme's cheque threshold. Once
a prize is paid, the backup pool seeds the next (R69). A claim may be refused instead, with the
reason. Each step audited (R60). Services never commit."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.actors import get_in_room
from roomops.errors import Conflict, Invalid
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Table
from roomops.hands.models import Hand
from roomops.hands.seats import sittings
from roomops.jackpots.models import JackpotClaim, JackpotDecision, JackpotRow, JackpotScheme
from roomops.jackpots.pool import amounts, check_second, locked_scheme, write
from roomops.jackpots.rules import PaidIn, ShareKind, check_text
from roomops.jackpots.schemes import scheme_of_table, split_of
from roomops.jackpots.shares import WHOLE_BP, Dealt, claims_split, prize_shares
from roomops.jackpots.shares import Hand as Qualifying
from roomops.ledger.hand_rows import hand_at
from roomops.rooms.models import Player, Staff

AT_ONCE = timedelta(minutes=1)  # R70: hands this close are claims at once
SEALED = timedelta(days=7)  # R70 (WA): the sealed hand is kept this long
CHEQUE_WITHIN = timedelta(hours=24)  # R70: a prize above the cheque threshold is paid by then
MAX_CARDS = 40


def make(unit: UnitOfWork, table_id: int, hand_no: int, *, winning_seat: int, winning_cards: str,
         losing_seat: int | None = None, losing_cards: str | None = None) -> JackpotClaim:
    """R70: the claim of hand ``hand_no`` at the table (the deal or floor right): a bad beat
    names the losing and the winning hands, a high hand the hand alone; both are seats dealt in."""
    if not (unit.actor.can("deal") or unit.actor.can("floor")):
        unit.actor.require("deal")
    table = get_in_room(unit.session, Table, table_id, unit.actor, "table")
    hand = hand_at(unit.session, table, hand_no)
    scheme = scheme_of_table(unit.session, table)
    if scheme is None:
        raise Conflict(f"table {table.name} takes part in no jackpot scheme", "R70")
    _check_hands(scheme, hand, winning_seat, losing_seat)
    dealt = _at_table(unit.session, table, hand, scheme.away_table_share)
    claim = JackpotClaim(
        room_id=table.room_id, scheme_id=scheme.id, table_id=table.id, hand_id=hand.id,
        hand_no=hand.hand_no, winning_seat=winning_seat, losing_seat=losing_seat,
        winning_cards=_cards(winning_cards, "the winning hand's cards"),
        losing_cards=_cards(losing_cards, "the losing hand's cards") if losing_seat else None,
        dealt=dealt, made_at=unit.now, made_by_id=unit.actor.staff_id)
    unit.session.add(claim)
    unit.session.flush()
    unit.audit("jackpot.claimed", ("jackpot_claim", claim.id), scheme_id=scheme.id, table_id=table.id,
               hand_no=hand.hand_no, winning_seat=winning_seat, losing_seat=losing_seat,
               winning_cards=claim.winning_cards, losing_cards=claim.losing_cards, dealt=dealt)
    return claim


def _check_hands(scheme: JackpotScheme, hand: Hand, winning: int, losing: int | None) -> None:
    dealt = set(hand.dealt_in or ())
    if scheme.kind == "bad_beat" and losing is None:
        raise Invalid("a bad-beat claim names the losing hand's seat too", "R70")
    if scheme.kind == "high_hand" and losing is not None:
        raise Invalid("a high-hand claim names the one hand that won it", "R70")
    for seat in (winning, *(() if losing is None else (losing,))):
        if seat not in dealt:
            raise Invalid(f"seat {seat} was not dealt in to hand {hand.hand_no}", "R70")
    if losing == winning:
        raise Invalid("the losing and the winning hands are two seats", "R70")


def _cards(text: str | None, what: str) -> str:
    value = " ".join((text or "").split())
    if not value or len(value) > MAX_CARDS:
        raise Invalid(f"{what}, as dealt (for example As Ad Ah Kc Kd), in at most {MAX_CARDS} "
                      "characters", "R70")
    return value


def _at_table(session: Session, table: Table, hand: Hand, away_share: bool) -> list[dict[str, object]]:
    """R70: everyone seated at the table, dealt in or not, with whether they take a table share:
    those dealt in do; the others only where the scheme says."""
    sat = sittings(session, table.id)
    dealt = set(hand.dealt_in or ())
    missing = sorted(dealt - set(sat))
    if missing:
        raise Conflict(f"seat {missing[0]} was dealt in but nobody sits there now: claim the hand "
                       "before the players leave the table", "R70")
    names = {p.id: p.full_name for p in session.scalars(
        select(Player).where(Player.id.in_([s.player_id for s in sat.values()])))}
    return [{"seat_no": n, "player_id": s.player_id, "name": names.get(s.player_id, ""),
             "dealt_in": n in dealt, "table_share": n in dealt or away_share}
            for n, s in sorted(sat.items())]


@dataclass(frozen=True)
class Paid:
    """R70: a verified hit: the prize and each claim's decision and payout rows."""

    prize: int
    decisions: list[JackpotDecision]
    rows: list[JackpotRow]


def pay(unit: UnitOfWork, claim_id: int, second: Staff, *, paid_in: PaidIn = "cash",
        camera_ref: str | None = None) -> Paid:
    """R70: the actor (the authorise right) and ``second`` (authenticated by the caller) verify
    the claim and those at once with it, and the prize is paid. ``paid_in``: cash or chips for
    a share up to the scheme's cheque threshold."""
    unit.actor.require("authorise")
    if paid_in not in ("cash", "chips"):
        raise Invalid("a prize is paid in cash or chips; above the cheque threshold by cheque", "R70")
    claim = _open_claim(unit, claim_id)
    scheme = locked_scheme(unit.session, claim.room_id, claim.scheme_id)
    check_second(unit, second, "a jackpot claim")
    claims = at_once(unit.session, claim)
    pool = amounts(unit.session, [scheme.id])[scheme.id].main
    prize = pool * scheme.prize_bp // WHOLE_BP
    ref = check_text(camera_ref, "the surveillance reference", "R70",
                     required=prize > scheme.camera_threshold)
    if prize <= 0:
        raise Conflict(f"{scheme.name}'s pool is empty: there is no prize to pay", "R70")
    decisions, rows = [], []
    for c, part in zip(claims, claims_split(prize, len(claims)), strict=True):
        decisions.append(_decide(unit, c, "paid", second, part, scheme.camera_threshold, ref, None))
        button = unit.session.get_one(Hand, c.hand_id).button
        rows += _payouts(unit.now, scheme, c, part, paid_in, button)
    written = write(unit, scheme, rows)
    _seed_from_backup(unit, scheme)
    return Paid(prize, decisions, written)


def refuse(unit: UnitOfWork, claim_id: int, second: Staff, reason: str) -> JackpotDecision:
    """R70: the claim refused by a supervisor and a second staff member, with the reason."""
    unit.actor.require("authorise")
    claim = _open_claim(unit, claim_id)
    scheme = locked_scheme(unit.session, claim.room_id, claim.scheme_id)
    check_second(unit, second, "a jackpot claim")
    text = check_text(reason, "the reason the claim is refused", "R70", required=True)
    return _decide(unit, claim, "refused", second, 0, scheme.camera_threshold, None, text)


def at_once(session: Session, claim: JackpotClaim) -> list[JackpotClaim]:
    """R70: the open claims of the claim's scheme on hands dealt within ``AT_ONCE`` of its hand,
    it among them, in the order they were made."""
    hand_at_ = session.get_one(Hand, claim.hand_id).at
    rows = session.execute(select(JackpotClaim, Hand.at).join(Hand, Hand.id == JackpotClaim.hand_id).where(
        JackpotClaim.scheme_id == claim.scheme_id,
        ~select(JackpotDecision.id).where(JackpotDecision.claim_id == JackpotClaim.id).exists())
        .order_by(JackpotClaim.made_at, JackpotClaim.id)).tuples()
    return [c for c, at in rows if abs(at - hand_at_) <= AT_ONCE or c.id == claim.id]


def _open_claim(unit: UnitOfWork, claim_id: int) -> JackpotClaim:
    session = unit.session
    claim = get_in_room(session, JackpotClaim, claim_id, unit.actor, "jackpot claim", "R70")
    decided = session.scalar(select(JackpotDecision).where(JackpotDecision.claim_id == claim.id))
    if decided is not None:
        raise Conflict(f"the claim of hand {claim.hand_no} is already {decided.decision}", "R70")
    return claim


def _decide(unit: UnitOfWork, claim: JackpotClaim, decision: str, second: Staff, prize: int,
            camera_threshold: int, ref: str | None, reason: str | None) -> JackpotDecision:
    sealed = unit.now + SEALED if ref else None
    row = JackpotDecision(room_id=claim.room_id, claim_id=claim.id, decision=decision, at=unit.now,
                          supervisor_id=unit.actor.staff_id, second_staff_id=second.id, prize=prize,
                          camera_threshold=camera_threshold, camera_ref=ref, sealed_until=sealed,
                          reason=reason)
    unit.session.add(row)
    unit.session.flush()
    unit.audit(f"jackpot.claim_{decision}", ("jackpot_claim", claim.id), reason, scheme_id=claim.scheme_id,
               table_id=claim.table_id, prize=prize, second_staff_id=second.id, camera_ref=ref)
    return row


def _payouts(now: datetime, scheme: JackpotScheme, claim: JackpotClaim, part: int,
             paid_in: PaidIn, button: int) -> list[JackpotRow]:
    """R70: the claim's part shared out as the scheme says, a row a player with a share; the
    odd cent from the hand's button, as an odd chip goes."""
    seats = {int(d["seat_no"]): d for d in claim.dealt}
    by_player = {int(d["player_id"]): int(d["seat_no"]) for d in claim.dealt}
    winner = int(seats[claim.winning_seat]["player_id"])
    if scheme.kind == "high_hand" or claim.losing_seat is None:
        shares = {winner: part}
    else:
        hand = Qualifying(
            losing=int(seats[claim.losing_seat]["player_id"]), winning=winner,
            dealt=tuple(Dealt(int(d["player_id"]), int(d["seat_no"]), bool(d["table_share"]))
                        for d in claim.dealt),
            button=button)
        shares = prize_shares(part, split_of(scheme), hand)
    cheque = scheme.cheque_threshold
    rows = []
    for player, share in shares.items():
        if share <= 0:
            continue
        by_cheque = cheque is not None and share > cheque
        seat = by_player[player]
        rows.append(JackpotRow(
            pool="main", kind="payout", amount=-share, claim_id=claim.id, player_id=player, seat_no=seat,
            table_id=claim.table_id, hand_id=claim.hand_id, share=_share_kind(claim, seat),
            method="cheque" if by_cheque else paid_in,
            cheque_due_at=now + CHEQUE_WITHIN if by_cheque else None))
    return rows


def _share_kind(claim: JackpotClaim, seat: int) -> ShareKind:
    if seat == claim.winning_seat:
        return "winning"
    return "losing" if seat == claim.losing_seat else "table"


def _seed_from_backup(unit: UnitOfWork, scheme: JackpotScheme) -> None:
    """R69: once a prize is paid, the backup pool seeds the next."""
    backup = amounts(unit.session, [scheme.id])[scheme.id].backup
    if backup > 0:
        write(unit, scheme, [JackpotRow(pool="main", kind="seed", amount=backup,
                                        reason="the backup pool seeds the next jackpot"),
                             JackpotRow(pool="backup", kind="seed", amount=-backup,
                                        reason="the backup pool seeds the next jackpot")])
