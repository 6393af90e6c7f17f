"""R67/R69: setting up a jackpot scheme on some games or tables, ending one, and which scheme a
table's pots drop into.

A scheme's rules never change once posted: other rules are a new scheme, and the old one's pool
moves to it when it ends (R69: a scheme that ends names where its pool goes; all of a pool is
awarded to players). A game, and a table name, runs one scheme at most (R67, and the database's
unique indexes): at most one drop a pot, never into both a bad-beat and a high-hand pool (NJ). A
table takes part through its name where a scheme names it, else through its game. Services never
commit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from roomops.errors import Conflict, Invalid
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Game, Table
from roomops.jackpots.drop import DEFAULT_MIN_DEALT, DropRule
from roomops.jackpots.models import JackpotLink, JackpotRow, JackpotScheme
from roomops.jackpots.pool import amounts, locked_scheme, write
from roomops.jackpots.rules import (
    DEFAULT_CAMERA_THRESHOLD,
    KINDS,
    MOST_TAKEN_BP,
    Kind,
    check_bp,
    check_links,
    check_name,
    check_prize_bp,
    check_qualifying,
    check_text,
)
from roomops.jackpots.shares import WHOLE_BP, Split

NOT_ELIGIBLE = "staff of the room on duty"  # R67: the default of who may not win


@dataclass(frozen=True)
class Terms:
    """R67: what a scheme posts. Amounts in minor units, parts in basis points."""

    name: str
    kind: Kind
    drop: int
    threshold: int
    qualifying: str
    games: tuple[int, ...] = ()
    tables: tuple[str, ...] = ()
    min_dealt: int = DEFAULT_MIN_DEALT
    flop_required: bool = True
    both_cards_play: bool = True
    split: Split = field(default_factory=Split)
    prize_bp: int = WHOLE_BP
    fee_bp: int = 0
    backup_bp: int = 0
    camera_threshold: int = DEFAULT_CAMERA_THRESHOLD
    cheque_threshold: int | None = None
    away_table_share: bool = False
    not_eligible: str = NOT_ELIGIBLE


def start(unit: UnitOfWork, terms: Terms) -> JackpotScheme:
    """R67: a supervisor (the policy right) starts a scheme on its games and tables, none of them
    already in a running scheme. Audited (R60)."""
    unit.actor.require("policy")
    _check(terms)
    room_id = unit.actor.room_id
    games = _games(unit.session, room_id, terms.games)
    _free(unit.session, room_id, terms.games, terms.tables)
    split = terms.split if terms.kind == "bad_beat" else Split(0, WHOLE_BP, 0)
    scheme = JackpotScheme(
        room_id=room_id, name=check_name(terms.name), kind=terms.kind, drop_amount=terms.drop,
        threshold=terms.threshold, min_dealt=terms.min_dealt, flop_required=terms.flop_required,
        qualifying=terms.qualifying, both_cards_play=terms.both_cards_play,
        split_losing_bp=split.losing_bp, split_winning_bp=split.winning_bp,
        split_table_bp=split.table_bp, prize_bp=terms.prize_bp, fee_bp=terms.fee_bp,
        backup_bp=terms.backup_bp, camera_threshold=terms.camera_threshold,
        cheque_threshold=terms.cheque_threshold, away_table_share=terms.away_table_share,
        not_eligible=check_text(terms.not_eligible, "who may not win", "R67", required=True),
        created_at=unit.now, created_by_id=unit.actor.staff_id, ended=False)
    unit.session.add(scheme)
    unit.session.flush()
    unit.session.add_all([JackpotLink(scheme_id=scheme.id, room_id=room_id, game_id=g, ended=False)
                          for g in terms.games] +
                         [JackpotLink(scheme_id=scheme.id, room_id=room_id, table_name=t, ended=False)
                          for t in terms.tables])
    unit.session.flush()
    unit.audit("jackpot.scheme_started", ("jackpot_scheme", scheme.id), name=scheme.name,
               kind=scheme.kind, drop=scheme.drop_amount, threshold=scheme.threshold,
               min_dealt=scheme.min_dealt, flop_required=scheme.flop_required,
               qualifying=scheme.qualifying, split=[split.losing_bp, split.winning_bp, split.table_bp],
               prize_bp=scheme.prize_bp, fee_bp=scheme.fee_bp, backup_bp=scheme.backup_bp,
               camera_threshold=scheme.camera_threshold, cheque_threshold=scheme.cheque_threshold,
               games=[g.variant for g in games], tables=list(terms.tables))
    return scheme


def end(unit: UnitOfWork, scheme_id: int, successor_id: int | None, reason: str | None = None) -> None:
    """R69: a scheme ends and names where its pool goes: all of it (and its backup) to the
    running scheme ``successor_id``, or, when the pools are empty, nowhere (``reason`` says why
    it ends). Its games and tables are free for another scheme. Audited (R60)."""
    unit.actor.require("policy")
    scheme = locked_scheme(unit.session, unit.actor.room_id, scheme_id)
    if scheme.ended:
        raise Conflict(f"{scheme.name} has already ended", "R69")
    held = amounts(unit.session, [scheme.id])[scheme.id]
    text = check_text(reason, "the reason", "R69")
    if successor_id is None:
        if held.main or held.backup:
            raise Conflict(f"{scheme.name} still holds players' money: name the scheme its pool goes "
                           "to (all of a pool is awarded to players)", "R69")
        went = text or "nothing was left in the pool"
    else:
        went = _hand_over(unit, scheme, successor_id, held.main, held.backup, text)
    scheme.ended, scheme.ended_at, scheme.ended_by_id = True, unit.now, unit.actor.staff_id
    scheme.pool_went = went
    for link in unit.session.scalars(select(JackpotLink).where(JackpotLink.scheme_id == scheme.id)):
        link.ended = True
    unit.session.flush()
    unit.audit("jackpot.scheme_ended", ("jackpot_scheme", scheme.id), text, pool_went=went,
               successor_id=successor_id, main=held.main, backup=held.backup)


def _hand_over(unit: UnitOfWork, scheme: JackpotScheme, successor_id: int, main: int, backup: int,
               reason: str | None) -> str:
    """R69: the pools' rows out of ``scheme`` and into the successor's same pools."""
    if successor_id == scheme.id:
        raise Invalid("a scheme's pool goes to another scheme", "R69")
    heir = locked_scheme(unit.session, scheme.room_id, successor_id)
    if heir.ended:
        raise Conflict(f"{heir.name} has ended: the pool goes to a running scheme", "R69")
    why = reason or f"{scheme.name} ended"
    for pool, amount in (("main", main), ("backup", backup)):
        if amount:
            write(unit, scheme, [JackpotRow(pool=pool, kind="transfer", amount=-amount, reason=why,
                                            other_scheme_id=heir.id)])
            write(unit, heir, [JackpotRow(pool=pool, kind="transfer", amount=amount, reason=why,
                                          other_scheme_id=scheme.id)])
    return f"to {heir.name}"


def running(session: Session, room_id: int) -> list[JackpotScheme]:
    """The room's running schemes, by name."""
    return list(session.scalars(select(JackpotScheme).where(
        JackpotScheme.room_id == room_id, ~JackpotScheme.ended).order_by(JackpotScheme.name)))


def scheme_of_table(session: Session, table: Table) -> JackpotScheme | None:
    """R67: the running scheme a table's pots drop into: the one naming the table, else its game's."""
    links = list(session.scalars(select(JackpotLink).where(
        JackpotLink.room_id == table.room_id, ~JackpotLink.ended,
        or_(JackpotLink.table_name == table.name, JackpotLink.game_id == table.game_id))))
    link = next((k for k in links if k.table_name is not None), links[0] if links else None)
    return None if link is None else session.get_one(JackpotScheme, link.scheme_id)


def links_of(session: Session, scheme_ids: Sequence[int]) -> dict[int, tuple[list[int], list[str]]]:
    """Each scheme's games and table names."""
    out: dict[int, tuple[list[int], list[str]]] = {i: ([], []) for i in scheme_ids}
    for link in session.scalars(select(JackpotLink).where(JackpotLink.scheme_id.in_(list(scheme_ids)))
                                .order_by(JackpotLink.id)):
        games, tables = out[link.scheme_id]
        if link.game_id is not None:
            games.append(link.game_id)
        elif link.table_name is not None:
            tables.append(link.table_name)
    return out


def drop_rule(scheme: JackpotScheme) -> DropRule:
    """R68: the scheme's drop as the pure rules take it."""
    return DropRule(scheme.drop_amount, scheme.threshold, scheme.min_dealt, scheme.flop_required)


def split_of(scheme: JackpotScheme) -> Split:
    return Split(scheme.split_losing_bp, scheme.split_winning_bp, scheme.split_table_bp)


def _check(terms: Terms) -> None:
    if terms.kind not in KINDS:
        raise Invalid("a scheme is a bad beat or a high hand", "R67")
    for amount, what in ((terms.drop, "the drop"), (terms.threshold, "the pot it is taken from"),
                         (terms.camera_threshold, "the camera threshold")):
        if type(amount) is not int or amount < 0:
            raise Invalid(f"{what} is an amount of money, not below nothing", "R68")
    if terms.cheque_threshold is not None and terms.cheque_threshold < 0:
        raise Invalid("the cheque threshold is an amount of money, not below nothing", "R70")
    if type(terms.min_dealt) is not int or not 2 <= terms.min_dealt <= 10:
        raise Invalid("the players dealt in for a drop is a number from 2 to 10", "R68")
    DropRule(terms.drop, terms.threshold, terms.min_dealt, terms.flop_required)  # R68's own checks
    check_qualifying(terms.qualifying)
    check_prize_bp(terms.prize_bp)
    check_bp(terms.fee_bp, "the administrative fee", "R67", MOST_TAKEN_BP)
    check_bp(terms.backup_bp, "the backup pool's share", "R69", MOST_TAKEN_BP)
    check_links(list(terms.games), list(terms.tables))
    if any(not t.strip() or len(t) > 20 for t in terms.tables):
        raise Invalid("a table is named as on the floor, in at most 20 characters", "R67")


def _games(session: Session, room_id: int, ids: Sequence[int]) -> list[Game]:
    games = list(session.scalars(select(Game).where(Game.id.in_(list(ids)), Game.room_id == room_id)))
    if len(games) != len(ids):
        raise Invalid("a scheme runs on this room's games", "R67")
    return games


def _free(session: Session, room_id: int, games: Sequence[int], tables: Sequence[str]) -> None:
    """R67: none of the games or tables (nor a table open for one of the games, nor the game of a
    table named) already takes part in a running scheme."""
    taken = list(session.execute(select(JackpotLink, JackpotScheme.name).join(
        JackpotScheme, JackpotScheme.id == JackpotLink.scheme_id).where(
        JackpotLink.room_id == room_id, ~JackpotLink.ended)).tuples())
    open_tables = list(session.execute(select(Table.name, Table.game_id, Game.variant).join(
        Game, Game.id == Table.game_id).where(Table.room_id == room_id, Table.status == "open")).tuples())
    variant = {g: v for _n, g, v in open_tables}
    for link, name in taken:
        if link.game_id in games:
            raise Conflict(f"{_game_name(session, link.game_id)} already takes part in {name}: a table "
                           "takes part in one jackpot scheme at most", "R67")
        if link.table_name in tables:
            raise Conflict(f"table {link.table_name} already takes part in {name}: a table takes part "
                           "in one jackpot scheme at most", "R67")
        for table_name, game_id, _v in open_tables:
            by_game = link.game_id == game_id and table_name in tables
            by_name = link.table_name == table_name and game_id in games
            if by_game or by_name:
                raise Conflict(f"table {table_name} ({variant[game_id]}) already takes part in {name}: "
                               "a table takes part in one jackpot scheme at most", "R67")


def _game_name(session: Session, game_id: int | None) -> str:
    return session.get_one(Game, game_id).variant if game_id is not None else ""
