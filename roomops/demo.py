"""A small demo room: games, tables, a few seated players and a waiting list."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select

from roomops.actors import Actor, console
from roomops.dealers.roster import check_in
from roomops.demo_history import play_evenings
from roomops.figures.keep import roll_up
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Game
from roomops.games.services import open_game, open_table
from roomops.lists.services import join
from roomops.rooms.models import Room, Staff
from roomops.rooms.roles import roles_in
from roomops.rooms.services import add_player, create_room, update_policy
from roomops.rooms.staff import create_staff, reset_password
from roomops.seating.seats import seat_directly

PLAYERS = ["Ana Silva", "Ben Okafor", "Chen Wei", "Dara Byrne", "Eli Cohen", "Fatima Khan",
           "Gus Moreau", "Hana Sato", "Ivan Petrov", "Jo Murphy", "Kofi Mensah", "Lena Vogel",
           "Marco Rossi", "Nina Berg", "Omar Haddad", "Pia Lund", "Quinn Shaw", "Rosa Diaz",
           "Sam Patel", "Tara Quinn"]


DEMO_SLUG, DEMO_NAME, TIMEZONE = "main", "Demo Card Room", "Europe/London"
STAFF = (("admin", "admin"), ("super", "supervisor"), ("cashier", "cashier"), ("dealer", "dealer"),
         ("coordinator", "coordinator"), ("manager", "manager"))
# R62: the demo's other dealers on tonight's roster, with no log-in printed (the coordinator
# checks them in and out)
DEALERS = ("Dee Nolan", "Raj Mehta")
NAMES = {"dealer": "Dana Lee"}  # the demo dealer's name as the desk and the roster show it (R62)


def load_demo(unit: UnitOfWork, history_days: int = 0) -> list[tuple[str, str, str]]:
    """Returns (username, password, role) of the staff created, or [] if a room exists already.
    With ``history_days``, the room opened that many days ago and ran its evenings since
    (``roomops.demo_history``): the figures have those days to show (R80).

    Table 1 is full, table 2 has two open seats: the first two of the four players joining the
    NL Hold'em list are offered them at once (R14, R20), the others wait; PL Omaha has a list
    and no table yet. Players may join the lists from their phones (R12). The room runs its
    dealers' rotation here: three dealers are checked in, two dealing and one waiting to push
    (R62-R64)."""
    if unit.session.scalar(select(Room.id).limit(1)):
        return []
    tz = ZoneInfo(TIMEZONE)
    first_day = datetime.combine((unit.now.astimezone(tz) - timedelta(days=history_days)).date(),
                                 time(12), tz).astimezone(UTC)
    opened = unit.at(first_day) if history_days else unit
    room = create_room(unit.session, opened.now, slug=DEMO_SLUG, name=DEMO_NAME, timezone=TIMEZONE)
    logins, staff = [], {}
    for username, role in STAFF:
        password = _password()
        staff[role] = opened.acting(console(room.id)).run(create_staff, username=username,
                                                          password=password, roles=(role,),
                                                          display_name=NAMES.get(role))
        logins.append((username, password, role))
    actor = Actor(room.id, staff["supervisor"].id, "super", frozenset({"supervisor"}))
    nlh, plo = _games(opened.acting(actor))
    if history_days:
        play_evenings(opened.acting(actor), (nlh, plo), first_day, history_days, tz, unit.now)
    boss = unit.acting(actor)
    boss.run(update_policy, remote_entries=True, dealer_rotation=True)  # R12, R62
    tables = [boss.run(open_table, nlh.id, name) for name in ("1", "2")]

    players = [boss.run(add_player, first_name=first, last_name=last)
               for first, last in (n.split() for n in PLAYERS)]
    for i, player in enumerate(players[:16]):
        boss.run(seat_directly, table_id=tables[i // 9].id, seat_no=i % 9 + 1,
                 player_id=player.id, buy_in=20000)
    for player in players[16:]:
        boss.run(join, player_id=player.id, game_id=nlh.id)
    for player in players[14:18]:
        boss.run(join, player_id=player.id, game_id=plo.id)
    others = [unit.acting(console(room.id)).run(create_staff, username=name.split()[0].lower(),
                                                password=_password(), roles=("dealer",), display_name=name)
              for name in DEALERS]
    for dealer in (staff["dealer"], *others):
        boss.run(check_in, dealer.id)
    roll_up(unit.session, room.id, unit.now, limit=None)  # R80: the past evenings' figures at once
    return logins


def _games(boss: UnitOfWork) -> tuple[Game, Game]:
    nlh = boss.run(open_game, variant="NL Hold'em", small_blind=100, big_blind=200,
                   min_buyin=10000, max_buyin=40000, seats_per_table=9, fee_kind="rake",
                   rake_bp=500, rake_cap=500, straddle_allowed=True, max_straddles=1)
    plo = boss.run(open_game, variant="PL Omaha", small_blind=200, big_blind=500,
                   min_buyin=20000, max_buyin=100000, seats_per_table=9, fee_kind="hourly",
                   time_fee=1000)
    return nlh, plo


def renew_demo_logins(unit: UnitOfWork) -> list[tuple[str, str, str]]:
    """The demo room's staff with new passwords, as (username, password, role): only hashes are
    kept (R61), so a login printed once and lost is given anew, audited as the console's reset
    (R60). [] when there is no demo room or none of its staff is left."""
    session = unit.session
    room = session.scalar(select(Room).where(Room.slug == DEMO_SLUG, Room.name == DEMO_NAME))
    if room is None:
        return []
    logins = []
    for username, role in STAFF:
        member = session.scalar(select(Staff).where(Staff.username == username))
        if member is not None and roles_in(session, member.id, room.id):
            password = _password()
            unit.acting(console(room.id)).run(reset_password, member.id, password)
            logins.append((username, password, role))
    return logins


def _password() -> str:
    return secrets.token_urlsafe(12)  # 16 characters: R61's policy
