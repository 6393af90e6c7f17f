"""R69: a scheme's pool held in trust, as its append-only ledger (``jackpot_rows``).

A pool's amount is the sum of its rows, never a stored figure: the board and the tables show that
sum (``amounts``). Rows are written here only, each audited (R60), in the gaming day and shift
the room's ledger would post to now (R54: a closed shift takes no row). The scheme's row is
locked first, so the rows of one pool are written one transaction at a time and the check that a
pool never goes below nothing (which the database repeats) sees the others' rows. Services never
commit."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session, aliased

from roomops.actors import get_in_room
from roomops.errors import Conflict, Forbidden, Invalid
from roomops.floor.unit import UnitOfWork
from roomops.jackpots.models import JackpotRow, JackpotScheme
from roomops.jackpots.rules import Pool, check_text
from roomops.ledger.placing import shift_to_post
from roomops.rooms.models import Room, Staff
from roomops.rooms.roles import rights_in

SECOND = frozenset({"floor", "cash", "deal", "dealers", "authorise"})  # R70: any working staff member


@dataclass(frozen=True)
class Amounts:
    """R69: a scheme's pool and its backup pool now, in minor units."""

    main: int = 0
    backup: int = 0


def amounts(session: Session, scheme_ids: Iterable[int]) -> dict[int, Amounts]:
    """R69: each scheme's pools, the sums of their rows (a scheme with no row yet: nothing)."""
    ids = list(scheme_ids)
    sums: dict[int, dict[str, int]] = {i: {} for i in ids}
    if ids:
        for scheme_id, pool, total in session.execute(
                select(JackpotRow.scheme_id, JackpotRow.pool, func.sum(JackpotRow.amount))
                .where(JackpotRow.scheme_id.in_(ids)).group_by(JackpotRow.scheme_id, JackpotRow.pool)):
            sums[scheme_id][pool] = int(total)
    return {i: Amounts(s.get("main", 0), s.get("backup", 0)) for i, s in sums.items()}


def locked_scheme(session: Session, room_id: int, scheme_id: int) -> JackpotScheme:
    """The room's scheme, row-locked until the transaction ends (R69: one pool's rows in turn)."""
    scheme = session.scalar(select(JackpotScheme).where(
        JackpotScheme.id == scheme_id, JackpotScheme.room_id == room_id).with_for_update()
        .execution_options(populate_existing=True))
    if scheme is None:
        raise Conflict(f"no jackpot scheme {scheme_id} in this room", "R67")
    return scheme


def write(unit: UnitOfWork, scheme: JackpotScheme, rows: list[JackpotRow]) -> list[JackpotRow]:
    """Add ``rows`` to the scheme's pools (room, day, shift, time and staff filled in here),
    refused where a pool would go below nothing; each row audited (R60)."""
    room = unit.session.get_one(Room, scheme.room_id)
    shift = shift_to_post(unit.session, room, unit.now)
    now = amounts(unit.session, [scheme.id])[scheme.id]
    after = {"main": now.main, "backup": now.backup}
    for row in rows:
        after[row.pool] += row.amount
        if after[row.pool] < 0:
            raise Conflict(f"the {_pool_name(row.pool)} of {scheme.name} holds {{held}}: it never goes "
                           "below nothing", "R69", amounts={"held": getattr(now, row.pool)})
        row.room_id, row.scheme_id = scheme.room_id, scheme.id
        row.gaming_day, row.shift_no, row.at = shift.gaming_day, shift.number, unit.now
        row.staff_id = unit.actor.staff_id
        row.fee = row.fee or 0  # a drop's, or its reversal's (negative)
    unit.session.add_all(rows)
    unit.session.flush()
    for row in rows:
        unit.audit(f"jackpot.{row.kind}", ("jackpot_row", row.id), row.reason, scheme_id=scheme.id,
                   pool=row.pool, amount=row.amount, fee=row.fee, table_id=row.table_id,
                   hand_id=row.hand_id, claim_id=row.claim_id, player_id=row.player_id,
                   method=row.method, reverses_id=row.reverses_id,
                   second_staff_id=row.second_staff_id, gaming_day=row.gaming_day.isoformat())
    return rows


def _pool_name(pool: Pool) -> str:
    return "pool" if pool == "main" else "backup pool"


def seed(unit: UnitOfWork, scheme_id: int, amount: int, *, from_backup: bool = False,
         reason: str | None = None) -> list[JackpotRow]:
    """R69: money put into the pool: the house's seed, or (``from_backup``) the backup pool's,
    which moves from one to the other. The policy right (a supervisor)."""
    unit.actor.require("policy")
    _positive(amount)
    scheme = locked_scheme(unit.session, unit.actor.room_id, scheme_id)
    _running(scheme)
    text = check_text(reason, "the reason", "R69")
    rows = [JackpotRow(pool="main", kind="seed", amount=amount, reason=text)]
    if from_backup:
        rows.append(JackpotRow(pool="backup", kind="seed", amount=-amount, reason=text))
    return write(unit, scheme, rows)


def adjust(unit: UnitOfWork, scheme_id: int, pool: Pool, amount: int, reason: str,
           second: Staff) -> JackpotRow:
    """R69: a documented adjustment of a pool (positive or negative) by two staff: the actor (the
    authorise right) and ``second`` (authenticated by the caller), with the reason."""
    unit.actor.require("authorise")
    if type(amount) is not int or amount == 0:
        raise Invalid("an adjustment is a whole number of minor units, up or down, not nothing", "R69")
    scheme = locked_scheme(unit.session, unit.actor.room_id, scheme_id)
    check_second(unit, second, "an adjustment of a jackpot pool")
    text = check_text(reason, "the reason for the adjustment", "R69", required=True)
    return write(unit, scheme, [JackpotRow(pool=pool, kind="adjustment", amount=amount, reason=text,
                                           second_staff_id=second.id)])[0]


def reverse(unit: UnitOfWork, row_id: int, reason: str) -> list[JackpotRow]:
    """R52/R69: a pool row undone by its opposite, naming it, with the reason (the authorise
    right); a row is reversed once, a reversal never, and a prize paid is corrected by an
    adjustment. A drop is undone whole (its pool and backup rows, the fee with them), which frees
    its hand for the right drop."""
    unit.actor.require("authorise")
    row = get_in_room(unit.session, JackpotRow, row_id, unit.actor, "jackpot pool row", "R69")
    scheme = locked_scheme(unit.session, row.room_id, row.scheme_id)
    if row.kind in ("reversal", "payout"):
        raise Conflict("a prize paid is corrected by an adjustment, with two staff" if row.kind == "payout"
                       else "a reversal is never reversed", "R52")
    if unit.session.scalar(select(JackpotRow.id).where(JackpotRow.reverses_id == row.id)) is not None:
        raise Conflict(f"pool row {row.id} is already reversed", "R52")
    text = check_text(reason, "the reason for the reversal", "R52", required=True)
    undone = [row] if row.kind != "drop" else list(unit.session.scalars(standing_drops(row.hand_id)))
    return write(unit, scheme, [JackpotRow(
        pool=r.pool, kind="reversal", amount=-r.amount, fee=-r.fee, reverses_id=r.id, reason=text,
        table_id=r.table_id, hand_id=r.hand_id) for r in undone])


_UNDONE = aliased(JackpotRow)


def standing_drops(hand_id: int | None) -> Select[tuple[JackpotRow]]:
    """R68: the hand's drop rows no reversal names (its pool's and its backup's)."""
    return select(JackpotRow).where(
        JackpotRow.hand_id == hand_id, JackpotRow.kind == "drop",
        ~select(_UNDONE.id).where(_UNDONE.reverses_id == JackpotRow.id).exists()).order_by(JackpotRow.id)


def check_second(unit: UnitOfWork, second: Staff, what: str) -> None:
    """R70/R69: a second person, not the actor, active and working in the room."""
    if second.id == unit.actor.staff_id:
        raise Conflict(f"{what} needs a second person, not the one making it", "R70")
    if not second.active or not SECOND & rights_in(unit.session, second.id, unit.actor.room_id):
        raise Forbidden(f"{second.display_name} does not work in this room and may not confirm {what}",
                        "R61")


def _positive(amount: int) -> None:
    if type(amount) is not int or amount <= 0:
        raise Invalid("the amount is a whole number of minor units above nothing", "R69")


def _running(scheme: JackpotScheme) -> None:
    if scheme.ended:
        raise Conflict(f"{scheme.name} has ended: its pool went to {scheme.pool_went}", "R69")

