"""The manager's figures on a year of a 250-table room (issue 43, R80): how long the read model takes.

    .venv/bin/python bench/figures.py [--backend sqlite|postgresql] [--days 365] [--month-days 31]
                                      [--tables 250] [--samples 30] [--pg-url URL]

Builds, straight into the tables (SQLAlchemy Core, many rows a statement), two rooms' histories
ending on a Saturday night (``NOW``) in one fresh database: one of ``--days`` days (a year: about 3
million seat rows and 8,000 list entries a day at 250 tables) and one of ``--month-days``. Each
gaming day, tables open as the evening fills and close as it empties (weekends busier); each seat
is sat in sessions one after another; most players come from the waiting list after a wait that
grows with the evening, were shown an estimate as they joined, and some leave the list, never check
in or let a call run out (R10-R22); every table's dealer down (one per half hour) is recorded with
its rake (R51), hourly games pay their session fees (R50). Rows running at ``NOW`` are live.

Then, each beside a floor (``SELECT 1`` through the same session, timed in turns, docs/benchmarks.md
"The floor"): the hourly rollup the sweep runs for one closed hour (target under 1 s), ``rebuild``
of each room's whole history (a command: no target), the figures of each period (today, a gaming
day, the week, the month; all games and one game) through ``roomops.figures.services.figures``
(target p99 under 1 s, and the year room within 1.5x of the month room), and the same through the
app's test client: ``GET /api/v1/figures`` and, where the app has it, the figures page
``GET /figures``. A benchmark: it prints, exit status 0.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock_time
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parent)]  # harness and roomgen, run as a file or imported

import harness  # noqa: E402
import roomgen  # noqa: E402
from sqlalchemy import Engine, func, insert, select, text, update  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402
from werkzeug.security import generate_password_hash  # noqa: E402

from roomops import migrate  # noqa: E402
from roomops.clock import FrozenClock  # noqa: E402
from roomops.config import Settings  # noqa: E402
from roomops.db import make_engine, make_sessionmaker  # noqa: E402
from roomops.factory import create_app  # noqa: E402
from roomops.figures import keep  # noqa: E402
from roomops.figures.models import FigureRoll  # noqa: E402
from roomops.figures.rollup import HOUR, hour_of  # noqa: E402
from roomops.figures.services import figures  # noqa: E402
from roomops.figures.shape import PERIODS, PeriodKind  # noqa: E402
from roomops.games.models import Game, Table  # noqa: E402
from roomops.holds.models import SeatHold  # noqa: E402
from roomops.ledger.models import DealerDown, LedgerEntry  # noqa: E402
from roomops.lists.endings import MISSED_CALL, NO_SHOW  # noqa: E402
from roomops.lists.models import ListEntry  # noqa: E402
from roomops.rooms.gaming_day import day_start, gaming_day  # noqa: E402
from roomops.rooms.models import Player, Room, Staff, StaffRole  # noqa: E402
from roomops.rooms.staff import hash_token  # noqa: E402
from roomops.web import access  # noqa: E402

NOW = roomgen.NOW + timedelta(minutes=40)  # Saturday 22:40 UTC: today's last hour not rolled up yet
TZ, DAY_START = "Europe/London", clock_time(6, 0)
TARGET_S = 1.0  # the hourly rollup, and any figures' p99
FLAT = 1.5  # the year room's p99 over the month room's
PASSWORD = "bench-figures-password"
# demand by weekday (Monday first): the share of the room's tables that open at the evening's peak
WEEKDAY = (0.55, 0.55, 0.6, 0.7, 0.9, 1.0, 0.75)
SESSION_HOURS, SESSION_SIGMA = 1.6, 0.7  # lognormal seat sessions: median 1.6 h
GAP_MINUTES = 6.0  # mean time a seat stays empty between two players
# of the seats taken: the share from the waiting list; for each, the chance of another entry of the
# game that left the list, never checked in (R12) or missed its call (R22)
FROM_LIST, ABANDON, NO_SHOW_SHARE, MISSED = 0.75, 0.12, 0.06, 0.05
SHOWN = 0.9  # entries shown an estimate as they joined (the rest joined before there was one)


@dataclass(frozen=True)
class HistorySpec:
    days: int = 365
    tables: int = 250
    games: int = 40
    players: int = 20000
    seed: int = 43
    slug: str = "year"


@dataclass
class Built:
    room_id: int
    token: str
    username: str
    game_ids: list[int]
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


class _Ids:
    """The next id of each table written to, from its largest so far: several rooms in a database."""

    def __init__(self, engine: Engine, models: list[Any]) -> None:
        with engine.connect() as conn:
            self.last = {m.__tablename__: conn.scalar(select(func.coalesce(func.max(m.id), 0))) or 0
                         for m in models}

    def next(self, model: Any) -> int:
        self.last[model.__tablename__] += 1
        return self.last[model.__tablename__]


MODELS = [Room, Staff, Game, Player, Table, ListEntry, SeatHold, DealerDown, LedgerEntry]


class _Day:
    """One gaming day's rows, generated; written out with ``_write``."""

    def __init__(self) -> None:
        self.rows: dict[Any, list[dict[str, Any]]] = {m: [] for m in (Table, ListEntry, SeatHold, DealerDown,
                                                                    LedgerEntry)}


class _Gen:
    def __init__(self, spec: HistorySpec, ids: _Ids, room_id: int, staff: tuple[int, int],
                 games: list[dict[str, Any]]) -> None:
        self.s, self.ids, self.room_id = spec, ids, room_id
        self.supervisor, self.dealer = staff
        self.r = random.Random(spec.seed)
        self.games = games
        self.live_player = 0  # live rows get players of their own (one live seat, entry a player)
        self.first_player = ids.last["players"] - spec.players + 1

    def player(self, live: bool) -> int:
        if live:
            self.live_player += 1
            return self.first_player + self.live_player - 1
        return self.r.randint(self.first_player + self.s.players // 2, self.first_player + self.s.players - 1)

    def day(self, d: date) -> _Day:
        """Gaming day ``d``: tables ranked 0.. open while the day's demand reaches them."""
        out, r = _Day(), self.r
        start = day_start(d, TZ, DAY_START)
        season = 1 + 0.1 * math.sin(2 * math.pi * d.timetuple().tm_yday / 365)
        running = min(self.s.tables, round(self.s.tables * WEEKDAY[d.weekday()] * season))
        for rank in range(running):
            depth = rank / max(running, 1)
            opened = start + timedelta(hours=6 + 8 * depth ** 0.7, minutes=r.uniform(-15, 15))
            closed = start + timedelta(hours=23 - 5 * depth, minutes=r.uniform(-30, 0))
            if closed - opened < timedelta(hours=1):
                closed = opened + timedelta(hours=1)
            if opened < NOW:
                self.table(out, d, rank, opened, closed)
        return out

    def table(self, out: _Day, d: date, rank: int, opened: datetime, closed: datetime) -> None:
        game = self.games[rank % len(self.games)]
        live = closed > NOW
        table_id = self.ids.next(Table)
        out.rows[Table].append(dict(id=table_id, room_id=self.room_id, game_id=game["id"], name=str(rank + 1),
                                    status="open" if live else "closed", opened_at=opened,
                                    closed_at=None if live else closed))
        until = min(closed, NOW)
        for seat in range(1, game["seats_per_table"] + 1):
            at = opened + timedelta(minutes=self.r.uniform(0, 20))
            while at < until:
                length = timedelta(hours=SESSION_HOURS * math.exp(self.r.gauss(0, SESSION_SIGMA)))
                ended = min(at + length, closed)
                self.seat(out, game, table_id, seat, at, ended)
                at = ended + timedelta(minutes=self.r.expovariate(1 / GAP_MINUTES))
        self.downs(out, d, game, table_id, opened, until)

    def seat(self, out: _Day, game: dict[str, Any], table_id: int, seat: int, at: datetime,
             ended: datetime) -> None:
        """A seated session at ``at``, its player from the list after a wait (longer in the evening)."""
        r, live = self.r, ended > NOW
        player = self.player(live)
        out.rows[SeatHold].append(dict(
            id=self.ids.next(SeatHold), room_id=self.room_id, table_id=table_id, seat_no=seat,
            player_id=player, kind="seated", entry_id=None, started_at=at, deadline=None,
            ended_at=None if live else ended, outcome=None if live else "left",
            buy_in=game["min_buyin"] * r.randint(1, 4),
            leave_amount=None if live else r.randint(0, 4 * game["max_buyin"])))
        # hours into the gaming day by UTC: London's in winter, an hour early in summer (no matter here)
        into_day = (at.hour + 24 - 6) % 24
        median_wait = 6 + 30 * max(0.0, 1 - abs(into_day - 15) / 8)  # minutes, longest at 21:00
        if r.random() < FROM_LIST:
            wait = timedelta(minutes=median_wait * math.exp(r.gauss(0, 0.6)))
            self.entry(out, game["id"], at - wait, at, "seated", f"seated at table {table_id}", player)
        for share, reason in ((ABANDON, "left the list"), (NO_SHOW_SHARE, f"{NO_SHOW}: did not check in"),
                              (MISSED, f"{MISSED_CALL} (expired)")):
            if r.random() < share:
                joined = at - timedelta(minutes=r.uniform(5, 60))
                gone = joined + timedelta(minutes=r.uniform(3, 50))
                if gone > NOW:
                    continue
                entry = self.entry(out, game["id"], joined, gone, "removed", reason, self.player(False),
                                   phone=reason.startswith(NO_SHOW))
                if reason.startswith(MISSED_CALL):
                    self.missed_offer(out, table_id, seat, entry, gone)

    def entry(self, out: _Day, game_id: int, joined: datetime, ended: datetime, status: str, reason: str,
              player: int, phone: bool = False) -> dict[str, Any]:
        r, active = self.r, ended > NOW
        shown: tuple[int | None, ...] = (None, None, None)
        if r.random() < SHOWN:
            real = (ended - joined).total_seconds() / 60
            median = max(1, round(real * math.exp(r.gauss(0, 0.45))))
            shown = (round(median * 0.6), median, None if median > 180 else round(median * 1.7) + 1)
        row = dict(id=self.ids.next(ListEntry), room_id=self.room_id,
                   player_id=self.player(True) if active else player, kind="waiting", game_id=game_id,
                   table_id=None, source="phone" if phone else "in_person", joined_at=joined, queue_at=joined,
                   checkin_deadline=joined + timedelta(minutes=30) if phone else None, checked_in_at=None,
                   status="active" if active else status, ended_at=None if active else ended,
                   end_reason=None if active else reason, shown_low=shown[0], shown_median=shown[1],
                   shown_high=shown[2])
        out.rows[ListEntry].append(row)
        return row

    def missed_offer(self, out: _Day, table_id: int, seat: int, entry: dict[str, Any],
                     gone: datetime) -> None:
        """R22: the call the entry let run out (or declined) before it was taken off."""
        made = gone - timedelta(minutes=10)
        out.rows[SeatHold].append(dict(
            id=self.ids.next(SeatHold), room_id=self.room_id, table_id=table_id, seat_no=seat,
            player_id=entry["player_id"], kind="offer", entry_id=entry["id"], started_at=made,
            deadline=gone, ended_at=gone - timedelta(minutes=self.r.choice((0, 4))),
            outcome=self.r.choice(("expired", "declined")), buy_in=None, leave_amount=None))

    def downs(self, out: _Day, d: date, game: dict[str, Any], table_id: int, opened: datetime,
              until: datetime) -> None:
        """R51/R63: a down recorded each half hour the table ran, with its rake (rake games); R50:
        each hour's session fee of the table (hourly games)."""
        k = 0
        while (at := opened + timedelta(minutes=30 * (k + 1))) <= until:
            down_id = self.ids.next(DealerDown)
            out.rows[DealerDown].append(dict(
                id=down_id, room_id=self.room_id, table_id=table_id, first_hand_no=12 * k + 1,
                last_hand_no=12 * k + 12, dealer_id=self.dealer, recorded_by_id=self.supervisor,
                recorded_at=at, spell_id=None))
            if game["fee_kind"] == "rake":
                rake = -self.r.randint(20, 120) * game["big_blind"]
                out.rows[LedgerEntry].append(self.money(d, at, "rake", rake, game, table_id, down_id=down_id))
            elif game["fee_kind"] == "hourly" and k % 2 == 1:
                out.rows[LedgerEntry].append(self.money(
                    d, at, "session_fee", -game["time_fee"] * game["seats_per_table"], game, table_id,
                    period_start=at - HOUR, period_end=at))
            k += 1

    def money(self, d: date, at: datetime, kind: str, amount: int, game: dict[str, Any], table_id: int,
              down_id: int | None = None, period_start: datetime | None = None,
              period_end: datetime | None = None) -> dict[str, Any]:
        return dict(id=self.ids.next(LedgerEntry), room_id=self.room_id, gaming_day=d, at=at, kind=kind,
                    amount=amount, method="chips", game_id=game["id"], table_id=table_id,
                    staff_id=self.supervisor, down_id=down_id, period_start=period_start,
                    period_end=period_end)


def _room_rows(spec: HistorySpec, ids: _Ids) -> tuple[dict[Any, list[dict[str, Any]]], Built]:
    """The room, its supervisor (a password and an API token), a dealer, games and players."""
    first = NOW - timedelta(days=spec.days + 1)
    room_id = ids.next(Room)
    rows: dict[Any, list[dict[str, Any]]] = {}
    rows[Room] = [dict(id=room_id, slug=f"bench-{spec.slug}", name=f"Bench {spec.slug}", timezone=TZ,
                       gaming_day_start=DAY_START, display_name="first_initial", claim_minutes=10,
                       on_claim_expiry="remove", checkin_minutes=30, auto_offer=True, placement="most_need",
                       max_away_minutes=None, created_at=first)]
    token = username = _login_name(spec.slug, room_id)
    supervisor, dealer = ids.next(Staff), ids.next(Staff)
    rows[Staff] = [dict(id=supervisor, username=username, display_name="Bench Supervisor",
                        password_hash=generate_password_hash(PASSWORD), api_token_hash=hash_token(token),
                        api_token_room_id=room_id, active=True, created_at=first),
                   dict(id=dealer, username=f"{username}-dealer", display_name="Bench Dealer",
                        password_hash=roomgen.PASSWORD_HASH, api_token_hash=None, api_token_room_id=None,
                        active=True, created_at=first)]
    rows[StaffRole] = [dict(staff_id=supervisor, room_id=room_id, role="supervisor", granted_at=first),
                       dict(staff_id=dealer, room_id=room_id, role="dealer", granted_at=first)]
    rows[Game] = []
    for g in range(spec.games):
        sb, bb = roomgen.BLINDS[g % len(roomgen.BLINDS)]
        fee = ("rake", "rake", "hourly")[g % 3]
        rows[Game].append(dict(
            id=ids.next(Game), room_id=room_id, variant=roomgen.VARIANTS[g // len(roomgen.BLINDS) % 6],
            small_blind=sb, big_blind=bb, ante=0, min_buyin=50 * bb, max_buyin=200 * bb,
            seats_per_table=(9, 10)[g % 2], fee_kind=fee, time_fee=1000 if fee == "hourly" else 0,
            rake_bp=500 if fee == "rake" else 0, rake_cap=500 * bb if fee == "rake" else 0, smallest_chip=sb,
            straddle_allowed=False, max_straddles=0, button_straddle=False, status="open", opened_at=first,
            closed_at=None))
    rows[Player] = [dict(id=ids.next(Player), room_id=room_id, first_name=roomgen.FIRST[p % 26],
                         last_name=roomgen.LAST[p * 7 % 20], phone=None, created_at=first)
                    for p in range(spec.players)]
    built = Built(room_id, token, username, [g["id"] for g in rows[Game]])
    return rows, built


def _copy(conn: Any, model: Any, rows: list[dict[str, Any]]) -> None:
    """PostgreSQL: ``rows`` by COPY, the columns left out given their defaults (Core's insert would
    add them), times as naive UTC (``roomops.db.UTCDateTime``)."""
    defaults = {c.name: c.default.arg for c in model.__table__.columns
                if c.name not in rows[0] and c.default is not None and c.default.is_scalar}
    names = [*rows[0], *defaults]
    cursor = conn.connection.dbapi_connection.cursor()
    with cursor.copy(f"COPY {model.__tablename__} ({', '.join(names)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row([v.astimezone(UTC).replace(tzinfo=None) if isinstance(v, datetime) else v
                            for v in (*row.values(), *defaults.values())])


def _login_name(slug: str, room_id: int) -> str:
    """The room's supervisor's user name, and their API token (nobody else's room)."""
    return f"bench-figures-{slug}-{room_id}"


def built_before(engine: Engine, slug: str) -> Built | None:
    """The room ``build_history`` made in this database earlier (``--url``), if any."""
    with engine.connect() as conn:
        room_id = conn.scalar(select(Room.id).where(Room.slug == f"bench-{slug}"))
        if room_id is None:
            return None
        games = list(conn.scalars(select(Game.id).where(Game.room_id == room_id).order_by(Game.id)))
        counts = {m.__tablename__: conn.scalar(select(func.count()).where(m.room_id == room_id)) or 0
                  for m in (Table, ListEntry, SeatHold)}
    name = _login_name(slug, room_id)
    return Built(room_id, name, name, games, counts)


def _write(conn: Any, rows: dict[Any, list[dict[str, Any]]], counts: dict[str, int]) -> None:
    """Each model's rows, many a statement (COPY on PostgreSQL)."""
    for model, chunk in rows.items():
        if not chunk:
            continue
        if conn.dialect.name == "postgresql":
            _copy(conn, model, chunk)
        else:
            for i in range(0, len(chunk), 5000):
                conn.execute(insert(model), chunk[i:i + 5000])
        counts[model.__tablename__] = counts.get(model.__tablename__, 0) + len(chunk)


def build_history(engine: Engine, spec: HistorySpec) -> Built:
    """A room with ``spec.days`` gaming days of history up to ``NOW``, written a day at a time."""
    t0 = time.perf_counter()
    ids = _Ids(engine, MODELS)
    room_rows, built = _room_rows(spec, ids)
    gen = _Gen(spec, ids, built.room_id, (room_rows[Staff][0]["id"], room_rows[Staff][1]["id"]),
               room_rows[Game])
    today = gaming_day(NOW, TZ, DAY_START)
    with engine.begin() as conn:
        _write(conn, room_rows, built.counts)
        for n in range(spec.days, -1, -1):
            _write(conn, gen.day(today - timedelta(days=n)).rows, built.counts)
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            for model in MODELS:
                name = model.__tablename__
                conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                  f"(SELECT max(id) FROM {name}))"))
    with engine.begin() as conn:
        conn.execute(text("ANALYZE"))
    built.seconds = time.perf_counter() - t0
    return built


# ---------------------------------------------------------------- timing


@dataclass
class Timed:
    name: str
    samples: list[float] = field(default_factory=list)  # seconds
    floor: list[float] = field(default_factory=list)

    def p(self, q: float) -> float:
        return harness.percentile(self.samples, q)

    def row(self) -> str:
        floor = harness.percentile(self.floor, 0.5) if self.floor else float("nan")
        return (f"{self.name:<44} {1000 * self.p(0.5):9.1f} {1000 * self.p(0.99):9.1f} "
                f"{1000 * floor:8.2f} {self.p(0.5) / floor:8.0f}x")


def _timed(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def in_turns(name: str, samples: int, work: Callable[[], Any], floor: Callable[[], Any]) -> Timed:
    """``work`` and the floor in turns, ``samples`` of each, after one untimed warm-up of both."""
    work(), floor()
    out = Timed(name)
    for _ in range(samples):
        out.samples.append(_timed(work))
        out.floor.append(_timed(floor))
    return out


def select_one(session: Session) -> Callable[[], Any]:
    return lambda: session.execute(text("SELECT 1")).scalar()


def hourly_rollup(session: Session, room_id: int, samples: int) -> Timed:
    """The sweep's rollup of one closed hour (the evening's, the busiest), rolled back after each."""
    hours = [hour_of(NOW) - HOUR * (1 + k % 6) for k in range(samples + 1)]

    def one() -> None:
        hour = hours.pop()
        session.execute(update(FigureRoll).where(FigureRoll.room_id == room_id).values(through=hour))
        assert keep.roll_up(session, room_id, hour + HOUR + timedelta(seconds=5)) == 1
        session.rollback()

    return in_turns("hourly roll_up (one closed hour)", samples, one, select_one(session))


def period_calls(built: Built) -> list[tuple[str, PeriodKind, date, int | None]]:
    today = gaming_day(NOW, TZ, DAY_START)
    days = {"today": today, "day": today - timedelta(days=1), "week": today, "month": today}
    return [(f"{kind} {'one game' if game else 'all games'}", kind, days[kind], game)
            for kind in PERIODS for game in (None, built.game_ids[0])]


def service_figures(session: Session, built: Built, samples: int) -> list[Timed]:
    return [in_turns(f"figures {name}", samples,
                     lambda k=kind, d=day, g=game: figures(session, built.room_id, k, d, g, NOW),
                     select_one(session))
            for name, kind, day, game in period_calls(built)]


FLOOR = "/bench/floor"


def web_figures(url: str, built: Built, samples: int) -> list[Timed]:
    """``GET /api/v1/figures`` (and the page ``GET /figures`` if the app has it) through the test
    client, beside the harness's floor route."""
    app = create_app(Settings(database_url=url, scheduler="off", secret_key="bench", push_streams=0),
                     clock=FrozenClock(NOW))
    app.add_url_rule(FLOOR, "bench_floor", lambda: "ok")
    access.RIGHTS.setdefault("bench_floor", "floor")
    client = app.test_client(use_cookies=False)
    api = {"Authorization": f"Bearer {built.token}"}
    ways = [("api", "/api/v1/figures", api)]
    if any(rule.rule == "/figures" for rule in app.url_map.iter_rules()):
        ways.append(("page", "/figures", _log_in(app, built)))
    out = []
    for way, path, headers in ways:
        def floor(h: dict[str, str] = headers) -> None:
            assert client.get(FLOOR, headers=h).status_code == 200

        for name, kind, day, game in period_calls(built):
            query = f"{path}?period={kind}&day={day.isoformat()}" + (f"&game={game}" if game else "")

            def get(q: str = query, h: dict[str, str] = headers) -> None:
                resp = client.get(q, headers=h)
                assert resp.status_code == 200, (q, resp.status_code, resp.get_data(as_text=True)[:200])

            out.append(in_turns(f"GET {way} {name}", samples, get, floor))
    app.extensions["roomops"].engine.dispose()
    return out


def _log_in(app: Any, built: Built) -> dict[str, str]:
    """The room's supervisor logged in through ``/login``: the session's cookie as a header."""
    client = app.test_client()
    form = {**harness.login_form(client.get("/login").get_data(as_text=True), PASSWORD),
            "username": built.username}
    client.post("/login", data=form)
    cookie = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    if cookie is None:
        raise RuntimeError("the supervisor's log-in failed")
    return {"Cookie": f"{cookie.key}={cookie.value}"}


# ---------------------------------------------------------------- the run


def rebuild(session: Session, built: Built, label: str) -> float | None:
    """``keep.rebuild`` of the room's whole history, timed; None if an earlier run (``--url``)
    rolled it up to ``NOW`` already (rebuilding it again would only time the same thing)."""
    through = session.scalar(select(FigureRoll.through).where(FigureRoll.room_id == built.room_id))
    if through == hour_of(NOW):
        harness.log(f"  the {label} room rolled up by an earlier run: no rebuild")
        return None
    t0 = time.perf_counter()
    hours = keep.rebuild(session, built.room_id, NOW)
    session.commit()
    seconds = time.perf_counter() - t0
    harness.log(f"  rebuild of the {label} room: {hours:,} hours in {seconds:.1f} s")
    return seconds


def flat(month: list[Timed], year: list[Timed]) -> Iterator[str]:
    for m, y in zip(month, year, strict=True):
        ratio = y.p(0.99) / m.p(0.99)
        target = "PASS" if y.p(0.99) < TARGET_S and ratio <= FLAT else "MISS"
        yield (f"{y.name:<44} {1000 * m.p(0.99):9.1f} {1000 * y.p(0.99):9.1f} {ratio:7.2f}x  {target}")


def run(url: str, days: int, month_days: int, tables: int, samples: int) -> None:
    engine = make_engine(url)
    builds = {}
    for label, n in (("year", days), ("month", month_days)):
        b = built_before(engine, label)
        if b is None:
            spec = HistorySpec(days=n, tables=tables, players=max(200, 80 * tables), slug=label,
                               seed=43 + n)
            harness.log(f"building the {label} room: {n} days, {tables} tables")
            b = build_history(engine, spec)
        builds[label] = b
        harness.log(f"  the {label} room, built in {b.seconds:.0f} s (0: before this run): "
                    + ", ".join(f"{k} {v:,}" for k, v in b.counts.items()))
    if engine.dialect.name == "postgresql":
        harness.checkpoint(engine)
    session = make_sessionmaker(engine)()
    rebuilt = {label: rebuild(session, b, label) for label, b in builds.items()}
    roll = hourly_rollup(session, builds["year"].room_id, samples)
    timed = {label: service_figures(session, b, samples) for label, b in builds.items()}
    session.close()
    web = {label: web_figures(url, b, samples) for label, b in builds.items()}
    engine.dispose()
    print(f"\n# bench/figures.py, {engine.dialect.name}, {samples} samples, NOW {NOW:%Y-%m-%d %H:%M} UTC")
    print(f"year room: {days} days, {builds['year'].counts.get('seat_holds', 0):,} seat holds, "
          f"{builds['year'].counts.get('list_entries', 0):,} list entries, built in "
          f"{builds['year'].seconds:.0f} s; month room: {month_days} days")
    print("rebuild (a command: no target): " + ", ".join(
        f"{label} {'done before' if s is None else f'{s:.1f} s'}" for label, s in rebuilt.items()))
    print(f"\n{'what (year room)':<44} {'p50 ms':>9} {'p99 ms':>9} {'floor ms':>8} {'/floor':>9}")
    print(roll.row() + ("  PASS" if roll.p(0.99) < TARGET_S else "  MISS"))
    for label in ("year", "month"):
        print(f"\n{label} room")
        for t in (*timed[label], *web[label]):
            print(t.row())
    print(f"\n{'p99, month room vs year room':<44} {'month':>9} {'year':>9} {'ratio':>8}")
    for line in (*flat(timed["month"], timed["year"]), *flat(web["month"], web["year"])):
        print(line)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--pg-url", default=harness.DEFAULT_PG)
    ap.add_argument("--days", type=int, default=365)
    ap.add_argument("--month-days", type=int, default=31)
    ap.add_argument("--tables", type=int, default=250)
    ap.add_argument("--samples", type=int, default=30)
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--url", help="an existing database instead of a fresh one: migrated to the head, "
                                  "the rooms built there before reused (a new index timed on the same rows)")
    args = ap.parse_args()
    if args.url:
        migrate.upgrade(args.url)
        run(args.url, args.days, args.month_days, args.tables, args.samples)
        return
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="bench-figures-"))
    with harness.fresh_database(args.backend, workdir, "figures", args.pg_url) as url:
        run(url, args.days, args.month_days, args.tables, args.samples)


if __name__ == "__main__":
    main()
