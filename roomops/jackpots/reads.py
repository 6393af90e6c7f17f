"""What the screens and the API read of the jackpots (R67, R69, R70): the posted schemes with their
pools, a pool's ledger and its gaming day's reconciliation, the claims waiting, and a prize's
record. Reads only."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.orm import Session

from roomops.games.models import Game, Table
from roomops.jackpots.models import JackpotClaim, JackpotDecision, JackpotRow, JackpotScheme
from roomops.jackpots.pool import Amounts, amounts
from roomops.jackpots.schemes import links_of, running, scheme_of_table
from roomops.jackpots.terms import Posting
from roomops.rooms.models import Staff


@dataclass(frozen=True)
class Posted:
    """R67/R69: a running scheme as it is posted: its rules, where it runs and its pools now."""

    scheme: JackpotScheme
    pools: Amounts
    games: list[str]
    tables: list[str]
    game_ids: list[int]


def posted(session: Session, room_id: int) -> list[Posted]:
    """The room's running schemes, by name, each with its games (by name), tables and pools."""
    schemes = running(session, room_id)
    if not schemes:
        return []
    ids = [s.id for s in schemes]
    links, pools = links_of(session, ids), amounts(session, ids)
    game_ids = {g for games, _t in links.values() for g in games}
    names = dict(session.execute(select(Game.id, Game.variant).where(Game.id.in_(game_ids))).tuples()
                 .all())
    return [Posted(s, pools[s.id], [names[g] for g in links[s.id][0]], links[s.id][1], links[s.id][0])
            for s in schemes]


def posting(p: Posted, tables: tuple[str, ...] = ()) -> Posting:
    """R67: a posted scheme as the board's plain values (``tables``: where it runs, when not at
    every table of the game)."""
    s = p.scheme
    return Posting(s.name, s.kind, p.pools.main, p.pools.backup, s.drop_amount, s.threshold, s.min_dealt,
                   s.flop_required, s.qualifying, s.both_cards_play,
                   (s.split_losing_bp, s.split_winning_bp, s.split_table_bp), s.prize_bp, s.fee_bp,
                   s.not_eligible, tables)


def by_game(session: Session, room_id: int) -> dict[int, tuple[Posting, ...]]:
    """R67: each game's posted schemes: one on the whole game, and those at some of its open
    tables (by the tables' names). Two statements and the pools' one."""
    shown = posted(session, room_id)
    if not shown:
        return {}
    open_games = dict(session.execute(select(Table.name, Table.game_id).where(
        Table.room_id == room_id, Table.status == "open")).tuples().all())
    out: dict[int, list[Posting]] = {}
    for p in shown:
        for game_id in p.game_ids:
            out.setdefault(game_id, []).append(posting(p))
        at: dict[int, list[str]] = {}
        for name in p.tables:
            if name in open_games:
                at.setdefault(open_games[name], []).append(name)
        for game_id, names in at.items():
            out.setdefault(game_id, []).append(posting(p, tuple(names)))
    return {g: tuple(v) for g, v in out.items()}


def for_table(session: Session, table: Table, shown: list[Posted]) -> Posted | None:
    """R67: of ``shown``, the scheme the table takes part in (by its name, else its game)."""
    scheme = scheme_of_table(session, table)
    return next((p for p in shown if scheme is not None and p.scheme.id == scheme.id), None)


def ledger(session: Session, scheme_id: int, limit: int = 200) -> list[JackpotRow]:
    """R69: the scheme's pool rows, newest first."""
    return list(session.scalars(select(JackpotRow).where(JackpotRow.scheme_id == scheme_id)
                                .order_by(JackpotRow.id.desc()).limit(limit)))


@dataclass(frozen=True)
class DayPool:
    """R69: a gaming day of a scheme's pools (both together): the amount at its start and end,
    the day's rows by kind (so that start + rows = end), and the drops taken at the tables (the
    pools' parts and the fee, reversed drops taken out), which the drop box's count is held to."""

    gaming_day: date
    opening: int
    closing: int
    by_kind: dict[str, int]
    dropped: int
    fees: int


def day_pool(session: Session, scheme_id: int, day: date) -> DayPool:
    """R69: the scheme's gaming day ``day``."""
    before = int(session.scalar(select(func.coalesce(func.sum(JackpotRow.amount), 0)).where(
        JackpotRow.scheme_id == scheme_id, JackpotRow.gaming_day < day)) or 0)
    where = (JackpotRow.scheme_id == scheme_id, JackpotRow.gaming_day == day)
    by_kind = {kind: int(total) for kind, total in session.execute(
        select(JackpotRow.kind, func.sum(JackpotRow.amount)).where(*where).group_by(JackpotRow.kind))}
    dropped, fees = _dropped(session, *where)
    return DayPool(day, before, before + sum(by_kind.values()), by_kind, dropped, fees)


def drops_of_day(session: Session, room_id: int, day: date, shift_no: int | None = None) -> tuple[int, int]:
    """R68/R54: the jackpot drops taken in the room on the gaming day (or one of its shifts), every
    scheme's, and the fees among them: what the jackpot drop box holds, and the house's part."""
    where = [JackpotRow.room_id == room_id, JackpotRow.gaming_day == day]
    if shift_no is not None:
        where.append(JackpotRow.shift_no == shift_no)
    return _dropped(session, *where)


_DROP_IDS = select(JackpotRow.id).where(JackpotRow.kind == "drop").scalar_subquery()


def _dropped(session: Session, *where: ColumnElement[bool]) -> tuple[int, int]:
    """The drops of the rows ``where`` selects, fees included, less their reversals; and the fees."""
    of_drops = or_(JackpotRow.kind == "drop",
                   and_(JackpotRow.kind == "reversal", JackpotRow.reverses_id.in_(_DROP_IDS)))
    dropped, fees = session.execute(select(func.coalesce(func.sum(JackpotRow.amount + JackpotRow.fee), 0),
                                           func.coalesce(func.sum(JackpotRow.fee), 0))
                                    .where(*where, of_drops)).one()
    return int(dropped), int(fees)


@dataclass(frozen=True)
class ClaimView:
    """R70: a claim with its scheme, table, decision (None: waiting) and payout rows."""

    claim: JackpotClaim
    scheme: JackpotScheme
    table: str
    decision: JackpotDecision | None
    payouts: list[JackpotRow]
    made_by: str
    supervisor: str
    second: str


def waiting(session: Session, room_id: int) -> list[ClaimView]:
    """R70: the room's claims not yet verified or refused, oldest first."""
    ids = session.scalars(select(JackpotClaim.id).where(
        JackpotClaim.room_id == room_id,
        ~select(JackpotDecision.id).where(JackpotDecision.claim_id == JackpotClaim.id).exists())
        .order_by(JackpotClaim.id))
    return [claim_view(session, i) for i in ids]


def recent(session: Session, room_id: int, limit: int = 20) -> list[ClaimView]:
    """R70: the room's decided claims, newest first."""
    ids = session.scalars(select(JackpotDecision.claim_id).where(JackpotDecision.room_id == room_id)
                          .order_by(JackpotDecision.id.desc()).limit(limit))
    return [claim_view(session, i) for i in ids]


def claim_view(session: Session, claim_id: int) -> ClaimView:
    claim = session.get_one(JackpotClaim, claim_id)
    decision = session.scalar(select(JackpotDecision).where(JackpotDecision.claim_id == claim.id))
    payouts = list(session.scalars(select(JackpotRow).where(
        JackpotRow.claim_id == claim.id, JackpotRow.kind == "payout").order_by(JackpotRow.seat_no)))
    ids = {claim.made_by_id, *((decision.supervisor_id, decision.second_staff_id) if decision else ())}
    names = dict(session.execute(select(Staff.id, Staff.display_name).where(Staff.id.in_(ids))).tuples()
                 .all())
    return ClaimView(claim, session.get_one(JackpotScheme, claim.scheme_id),
                     session.get_one(Table, claim.table_id).name, decision, payouts,
                     names.get(claim.made_by_id, ""),
                     names.get(decision.supervisor_id, "") if decision else "",
                     names.get(decision.second_staff_id, "") if decision else "")
