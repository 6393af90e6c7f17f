"""Building a large, realistic room fast, with bulk inserts instead of the services.

Every row satisfies the schema's constraints and the room rules the services keep (R10-R15,
R20-R22, R60), so the timed desk actions afterwards meet a room that looks like a busy Saturday
night with weeks of history behind it:

* tables of 10 seats, most of them seated; every other seat of a game with a list is called
  (a live offer to the earliest eligible entry, as ``auto_offer`` would have done, R14/R20);
* the last few games are new: their lists hold only phone entries awaiting check-in (R12), so
  their tables show open seats nobody can be offered yet;
* waiting lists and reserve lists (table changes, R18) with in-person and phone entries;
* barred pairs (R15) kept apart;
* history: ended seat holds and list entries from earlier days, and the audit trail (R60), history
  first so ids grow with time as they would in real use.

The generator is deterministic (``seed``): two builds that differ only in ``audit_rows`` hold the
same room, so the ops timed on them differ only in the size of the audit history.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, time, timedelta
from typing import Any

from sqlalchemy import Engine, insert, text

from roomops.absences.models import Absence
from roomops.audit.models import AuditEvent
from roomops.games.models import Game, Table
from roomops.holds.models import SeatHold
from roomops.holds.playovers import Playover
from roomops.lists.models import ListEntry
from roomops.rooms.gaming_day import gaming_day
from roomops.rooms.models import BarredPair, Player, Room, Staff, StaffRole
from roomops.rooms.staff import hash_token

NOW = datetime(2026, 11, 21, 22, 0, 0, tzinfo=UTC)  # a Saturday night, 10 pm
SEATS = 10
FIRST = ["Ana", "Ben", "Chen", "Dara", "Eli", "Fatima", "Gus", "Hana", "Ivan", "Jo", "Kofi", "Lena",
         "Marco", "Nina", "Omar", "Pia", "Quinn", "Rosa", "Sam", "Tara", "Uma", "Victor", "Wen",
         "Xavier", "Yusuf", "Zoe"]
LAST = ["Silva", "Okafor", "Wei", "Byrne", "Cohen", "Khan", "Moreau", "Sato", "Petrov", "Murphy",
        "Mensah", "Vogel", "Rossi", "Berg", "Haddad", "Lund", "Shaw", "Diaz", "Patel", "Novak"]
VARIANTS = ["NL Hold'em", "PL Omaha", "Dealer's Choice", "PL Omaha Hi-Lo", "Short Deck", "Limit Hold'em"]
BLINDS = [(25, 50), (50, 100), (100, 200), (200, 400), (500, 1000), (1000, 2000), (2500, 5000)]
# A precomputed werkzeug scrypt hash (of a random password nobody knows): staff log in by token.
PASSWORD_HASH = "scrypt:32768:8:1$bench$" + "0" * 128
# Each history action's share of the audit trail, roughly as a night's desk work produces them.
HISTORY_ACTIONS = [
    ("entry.joined", "list_entry", 22), ("offer.made", "list_entry", 20),
    ("offer.claimed", "list_entry", 14), ("seat.taken", "seat_hold", 14),
    ("entry.seated", "list_entry", 14), ("seat.left", "seat_hold", 10),
    ("offer.expired", "list_entry", 3), ("offer.declined", "list_entry", 1),
    ("entry.removed", "list_entry", 2),
]


@dataclass
class RoomSpec:
    tables: int = 250
    games: int = 40
    new_games: int = 3  # games whose lists only hold phone entries awaiting check-in: open seats
    players: int = 7000
    active_entries: int = 3000
    reserve_per_table: float = 2.5
    offers_per_table: float = 1.0  # live offers per table of the other games
    open_per_new_table: int = 3
    barred_pairs: int = 30
    history_holds: int = 20000
    history_entries: int = 25000
    audit_rows: int = 200_000
    seed: int = 7
    # Offers are made this long before NOW, spread so their deadlines fall 5-10 minutes ahead
    # (claim timer 10 minutes, R20); a sweep-scale room makes them all due instead.
    offers_due: bool = False
    # Breaks and away pickups (each) all due at NOW, on seats spread over the room (R24/R26).
    absences_due: int = 0
    # Of those absent players' seats, how many are played over (R29): the playover ends as the
    # seat is released.
    playovers_due: int = 0

    def scaled(self, tables: int) -> RoomSpec:
        """The same room shape at ``tables`` tables: games, players, lists and history in proportion
        (at least 4 games, one of them new, and 2 barred pairs)."""
        f = tables / self.tables
        return replace(self, tables=tables, games=max(4, round(self.games * f)),
                       new_games=max(1, round(self.new_games * f)), players=int(self.players * f),
                       active_entries=int(self.active_entries * f),
                       barred_pairs=max(2, int(self.barred_pairs * f)),
                       history_holds=int(self.history_holds * f),
                       history_entries=int(self.history_entries * f),
                       audit_rows=int(self.audit_rows * f))

    def small(self) -> RoomSpec:
        """The same room shape at 10 tables, for the board's fixed-statement check."""
        return self.scaled(10)


@dataclass
class Built:
    room_id: int
    token: str
    supervisor_id: int
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


def _chunks(rows: list[dict[str, Any]], n: int = 20000) -> Iterator[list[dict[str, Any]]]:
    for i in range(0, len(rows), n):
        yield rows[i:i + n]


class _Gen:
    def __init__(self, spec: RoomSpec) -> None:
        self.s = spec
        self.r = random.Random(spec.seed)
        self.rows: dict[str, list[dict[str, Any]]] = {}
        self.entry_id = 0
        self.hold_id = 0
        self.current_audit: list[dict[str, Any]] = []

    # ---- the room and its people ----
    def build(self) -> None:
        s = self.s
        self.rows["rooms"] = [dict(id=1, slug="bench", name="Bench Card Room", timezone="Europe/London",
                                   gaming_day_start=time(6, 0), display_name="first_initial",
                                   claim_minutes=10, on_claim_expiry="remove", checkin_minutes=30,
                                   auto_offer=True, placement="most_need",
                                   max_away_minutes=30 if s.absences_due else None,
                                   created_at=NOW - timedelta(days=90))]
        self.token = secrets.token_urlsafe(32)
        roles = ("supervisor", "admin", "cashier")
        self.rows["staff"] = [
            dict(id=i + 1, username=f"bench-{role}", display_name=f"Bench {role.title()}",
                 password_hash=PASSWORD_HASH,
                 api_token_hash=hash_token(self.token) if role == "supervisor" else None,
                 api_token_room_id=1 if role == "supervisor" else None, active=True,
                 created_at=NOW - timedelta(days=90))
            for i, role in enumerate(roles)
        ]
        self.rows["staff_roles"] = [dict(staff_id=i + 1, room_id=1, role=role,
                                         granted_at=NOW - timedelta(days=90))
                                    for i, role in enumerate(roles)]
        self.rows["games"] = []
        for g in range(1, s.games + 1):
            sb, bb = BLINDS[(g - 1) % len(BLINDS)]
            fee = ("rake", "hourly", "none")[g % 3]
            self.rows["games"].append(dict(
                id=g, room_id=1, variant=VARIANTS[(g - 1) // len(BLINDS) % len(VARIANTS)],
                small_blind=sb, big_blind=bb, ante=0, min_buyin=50 * bb, max_buyin=200 * bb,
                seats_per_table=SEATS, fee_kind=fee, time_fee=1000 if fee == "hourly" else 0,
                rake_bp=500 if fee == "rake" else 0, rake_cap=500 if fee == "rake" else 0, smallest_chip=sb,
                straddle_allowed=g % 2 == 0, max_straddles=1 if g % 2 == 0 else 0,
                button_straddle=False, status="open", opened_at=NOW - timedelta(hours=8), closed_at=None))
        self.rows["tables"] = [
            dict(id=t, room_id=1, game_id=(t - 1) % s.games + 1, name=str(t), status="open",
                 opened_at=NOW - timedelta(hours=8) + timedelta(seconds=t), closed_at=None)
            for t in range(1, s.tables + 1)
        ]
        self.rows["players"] = [
            dict(id=p, room_id=1, first_name=FIRST[p % len(FIRST)], last_name=LAST[p * 7 % len(LAST)],
                 phone=f"+44 7700 {p:06d}" if p % 3 == 0 else None,
                 created_at=NOW - timedelta(days=90) + timedelta(minutes=p))
            for p in range(1, s.players + 1)
        ]
        self.rows["list_entries"], self.rows["seat_holds"] = [], []
        self._current_state()
        self._absences()
        self._playovers()
        self._history()

    def _audit(self, action: str, entity: tuple[str, int], at: datetime, reason: str | None = None,
               **detail: Any) -> dict[str, Any]:
        return dict(room_id=1, at=at, actor_id=1, actor="bench-supervisor", action=action,
                    entity_type=entity[0], entity_id=entity[1], reason=reason, detail=detail)

    def _entry(self, player: int, game: int, table: int | None, joined: datetime, *,
               source: str = "in_person", checked_in: bool = True, status: str = "active",
               ended: datetime | None = None, reason: str | None = None) -> dict[str, Any]:
        self.entry_id += 1
        phone = source == "phone"
        row = dict(id=self.entry_id, room_id=1, player_id=player, kind="reserve" if table else "waiting",
                   game_id=game, table_id=table, source=source, joined_at=joined, queue_at=joined,
                   checkin_deadline=joined + timedelta(minutes=30) if phone else None,
                   checked_in_at=joined + timedelta(minutes=5) if phone and checked_in else None,
                   status=status, ended_at=ended, end_reason=reason)
        self.rows["list_entries"].append(row)
        return row

    def _hold(self, **kw: Any) -> dict[str, Any]:
        self.hold_id += 1
        row = {**dict(id=self.hold_id, room_id=1, entry_id=None, deadline=None, ended_at=None, outcome=None,
                      buy_in=None, leave_amount=None), **kw}
        self.rows["seat_holds"].append(row)
        return row

    def _current_state(self) -> None:
        s, r = self.s, self.r
        games = {g["id"]: g for g in self.rows["games"]}
        new_games = set(range(s.games - s.new_games + 1, s.games + 1))
        tables_of: dict[int, list[int]] = {}
        for t in self.rows["tables"]:
            tables_of.setdefault(t["game_id"], []).append(t["id"])
        pool = list(range(1, s.players + 1))
        r.shuffle(pool)
        seated_at: dict[int, int] = {}  # player -> table
        layout: dict[int, tuple[int, int]] = {}  # table -> (seated, offered)
        acc = 0.0
        for t in self.rows["tables"]:
            if t["game_id"] in new_games:
                layout[t["id"]] = (SEATS - s.open_per_new_table, 0)
            else:
                acc += s.offers_per_table
                k = int(acc)
                acc -= k
                layout[t["id"]] = (SEATS - k, k)
        it = iter(pool)
        for t in self.rows["tables"]:
            game = games[t["game_id"]]
            for seat in range(1, layout[t["id"]][0] + 1):
                p = next(it)
                seated_at[p] = t["id"]
                started = NOW - timedelta(minutes=r.randint(5, 420), seconds=r.randint(0, 59))
                hold = self._hold(table_id=t["id"], seat_no=seat, player_id=p, kind="seated",
                                  started_at=started, buy_in=r.randint(game["min_buyin"], game["max_buyin"]))
                self.current_audit.append(self._audit(
                    "seat.taken", ("seat_hold", hold["id"]), started, table_id=t["id"], seat_no=seat,
                    player_id=p, buy_in=hold["buy_in"]))
        free = [p for p in pool if p not in seated_at]  # the rail: players not seated anywhere
        game_of_table = {t["id"]: t["game_id"] for t in self.rows["tables"]}
        busy: set[int] = set()
        barred_list = free[len(free) - s.barred_pairs:]
        barred_players = list(barred_list)
        free = free[: len(free) - s.barred_pairs]
        fi = 0

        def next_free() -> int:
            nonlocal fi
            p = free[fi % len(free)]
            fi += 1
            return p

        n_phone_new = 40 * len(new_games) * s.tables // 250 or len(new_games) * 2
        n_reserve = int(s.reserve_per_table * sum(1 for t in layout if game_of_table[t] not in new_games))
        n_waiting = s.active_entries - n_phone_new - n_reserve
        normal = [g for g in games if g not in new_games]
        per_game = {g: n_waiting // len(normal) + (1 if i < n_waiting % len(normal) else 0)
                    for i, g in enumerate(normal)}
        # Waiting lists of the running games. The earliest entries hold the live offers (R14: the
        # seat went to the earliest eligible entry); the rest are the rail and players seated in
        # other games (R10: a player may be on several lists and stay on them while seated elsewhere).
        for g in normal:
            offered_tables = [(t, seat) for t in tables_of[g]
                              for seat in range(layout[t][0] + 1, layout[t][0] + layout[t][1] + 1)]
            on_list: set[int] = set()
            start = NOW - timedelta(minutes=300)
            step = 270 * 60 // max(per_game[g], 1)
            for i in range(per_game[g]):
                joined = start + timedelta(seconds=step * i + r.randint(0, step // 2),
                                           microseconds=r.randint(0, 999999))
                if i < len(offered_tables):
                    p = next_free()
                    while p in busy:
                        p = next_free()
                    busy.add(p)
                elif i % 10 == 9 and barred_players:
                    p = barred_players.pop()  # barred players wait on lists; never seated together
                else:
                    p = next_free() if i % 3 else r.choice(pool)
                    while p in on_list or p in busy or (p in seated_at and game_of_table[seated_at[p]] == g):
                        p = next_free()
                on_list.add(p)
                phone = i % 10 == 4
                e = self._entry(p, g, None, joined, source="phone" if phone else "in_person")
                self.current_audit.append(self._audit(
                    "entry.joined", ("list_entry", e["id"]), joined, player_id=p, kind="waiting",
                    game_id=g, table_id=None, source=e["source"]))
                if phone:
                    self.current_audit.append(self._audit(
                        "entry.checked_in", ("list_entry", e["id"]), e["checked_in_at"]))
                if i < len(offered_tables):
                    table_id, seat = offered_tables[i]
                    made = NOW - timedelta(seconds=300 - 3 * len(self.rows["seat_holds"]) % 290,
                                           microseconds=r.randint(0, 999999))
                    if self.s.offers_due:
                        made = NOW - timedelta(minutes=10, seconds=1 + i)
                    hold = self._hold(table_id=table_id, seat_no=seat, player_id=p, kind="offer",
                                      entry_id=e["id"], started_at=made,
                                      deadline=made + timedelta(minutes=10))
                    self.current_audit.append(self._audit(
                        "offer.made", ("list_entry", e["id"]), made, offer_id=hold["id"], table_id=table_id,
                        seat_no=seat, deadline=hold["deadline"].isoformat(), player_id=p))
        # Reserve lists: players seated at another table of the game asking for a table change (R18)
        # and players from the rail who asked for one table.
        acc = 0.0
        for t in self.rows["tables"]:
            g = t["game_id"]
            if g in new_games:
                continue
            acc += s.reserve_per_table
            k = int(acc)
            acc -= k
            for j in range(k):
                joined = NOW - timedelta(minutes=r.randint(1, 200), microseconds=r.randint(0, 999999))
                if j == 0:
                    mates = [tt for tt in tables_of[g] if tt != t["id"]]
                    p = self._seated_player(r.choice(mates), seated_at) if mates else next_free()
                else:
                    p = next_free()
                    while p in busy:
                        p = next_free()
                e = self._entry(p, g, t["id"], joined)
                self.current_audit.append(self._audit(
                    "entry.joined", ("list_entry", e["id"]), joined, player_id=p, kind="reserve",
                    game_id=g, table_id=t["id"], source="in_person"))
        # New games: only phone entries, not yet checked in (R12), so nobody can be offered a seat.
        new_list = sorted(new_games)
        for i in range(n_phone_new):
            g = new_list[i % len(new_list)]
            joined = NOW - timedelta(minutes=r.randint(0, 9), seconds=r.randint(0, 59),
                                     microseconds=r.randint(0, 999999))
            p = next_free()
            e = self._entry(p, g, None, joined, source="phone", checked_in=False)
            self.current_audit.append(self._audit(
                "entry.joined", ("list_entry", e["id"]), joined, player_id=p, kind="waiting", game_id=g,
                table_id=None, source="phone"))
        self._dedupe_reserve()
        # Each barred player waits on a list and is barred from one player seated somewhere (R15):
        # the allocation has to keep them away from that player's table.
        seated_players = sorted(seated_at)
        self.rows["barred_pairs"] = []
        for k, p in enumerate(barred_list):
            low, high = sorted((p, seated_players[k * 37 % len(seated_players)]))
            self.rows["barred_pairs"].append(dict(
                id=k + 1, room_id=1, player_low_id=low, player_high_id=high, reason="house decision",
                created_at=NOW - timedelta(days=k + 1), created_by_id=1, lifted_at=None))
        self.seated_at = seated_at

    def _absences(self) -> None:
        """``absences_due`` breaks (60 minutes, R23) and as many players away past
        ``max_away_minutes`` (30, R26), all due by NOW, alternating over the seated players."""
        self.rows["absences"] = []
        n = 2 * self.s.absences_due
        if not n:
            return
        seated = [h for h in self.rows["seat_holds"]
                  if h["kind"] == "seated" and h["started_at"] <= NOW - timedelta(minutes=61)]
        step = len(seated) / n
        day = gaming_day(NOW, "Europe/London", time(6, 0))
        for k in range(n):
            hold = seated[int(k * step)]
            kind, minutes = ("break", 60) if k % 2 == 0 else ("away", 30)
            started = NOW - timedelta(minutes=minutes, seconds=1 + k % 60)
            self.rows["absences"].append(dict(
                id=k + 1, room_id=1, hold_id=hold["id"], player_id=hold["player_id"], kind=kind,
                started_at=started, deadline=started + timedelta(minutes=minutes), gaming_day=day,
                ended_at=None, outcome=None, note=None, stack=hold["buy_in"]))
            self.current_audit.append(self._audit(
                f"{kind}.started", ("seat_hold", hold["id"]), started, absence_id=k + 1,
                player_id=hold["player_id"], stack=hold["buy_in"]))

    def _playovers(self) -> None:
        """``playovers_due`` of the absent seats played over by the earliest waiting player of the
        game who is not seated, not called to a seat and not barred from anyone (R29)."""
        self.rows["playovers"] = []
        if not self.s.playovers_due:
            return
        holds = {h["id"]: h for h in self.rows["seat_holds"]}
        table_game = {t["id"]: t["game_id"] for t in self.rows["tables"]}
        busy = {h["player_id"] for h in self.rows["seat_holds"] if h["kind"] == "offer"}
        busy |= set(self.seated_at) | {p for b in self.rows["barred_pairs"]
                                       for p in (b["player_low_id"], b["player_high_id"])}
        free: dict[int, list[dict[str, Any]]] = {}
        for e in sorted(self.rows["list_entries"], key=lambda e: e["queue_at"]):
            if e["status"] == "active" and e["kind"] == "waiting" and e["player_id"] not in busy \
                    and e["checkin_deadline"] is None:
                free.setdefault(e["game_id"], []).append(e)
        games = {g["id"]: g for g in self.rows["games"]}
        for absence in self.rows["absences"]:
            if len(self.rows["playovers"]) == self.s.playovers_due:
                break
            hold = holds[absence["hold_id"]]
            game = table_game[hold["table_id"]]
            entry = next((e for e in free.get(game, []) if e["player_id"] not in busy), None)
            if entry is None:
                continue
            busy.add(entry["player_id"])
            self.rows["playovers"].append(dict(
                id=len(self.rows["playovers"]) + 1, room_id=1, hold_id=hold["id"],
                absence_id=absence["id"], player_id=entry["player_id"], entry_id=entry["id"],
                started_at=absence["started_at"] + timedelta(minutes=1),
                buy_in=games[game]["min_buyin"], reason=None, ended_at=None, outcome=None))

    def _seated_player(self, table: int, seated_at: dict[int, int]) -> int:
        at = [p for p, t in seated_at.items() if t == table]
        return self.r.choice(at)

    def _dedupe_reserve(self) -> None:
        """One active entry per player per list (the partial unique indexes)."""
        seen: set[tuple[Any, ...]] = set()
        keep = []
        for e in self.rows["list_entries"]:
            key = (e["kind"], e["table_id"] or e["game_id"], e["player_id"])
            if key in seen:
                continue
            seen.add(key)
            keep.append(e)
        self.rows["list_entries"] = keep

    def _history(self) -> None:
        """Earlier nights: ended entries and holds (nothing is deleted, R16) at open tables' seats."""
        s, r = self.s, self.r
        tables = self.rows["tables"]
        for i in range(s.history_entries):
            t = r.choice(tables)
            joined = NOW - timedelta(days=1 + i % 30, minutes=r.randint(0, 600))
            seated = i % 3 != 0
            self._entry(r.randint(1, s.players), t["game_id"], t["id"] if i % 5 == 0 else None, joined,
                        status="seated" if seated else "removed", ended=joined + timedelta(minutes=40),
                        reason=f"seated at table {t['name']}" if seated else "left the list")
        first_hist_entry = self.entry_id - s.history_entries + 1
        for i in range(s.history_holds):
            t = r.choice(tables)
            started = NOW - timedelta(days=1 + i % 30, minutes=r.randint(0, 600))
            if i % 2:
                self._hold(table_id=t["id"], seat_no=r.randint(1, SEATS), player_id=r.randint(1, s.players),
                           kind="seated", started_at=started, ended_at=started + timedelta(hours=2),
                           outcome="left" if i % 7 else "moved", buy_in=20000,
                           leave_amount=r.randint(0, 90000))
            else:
                self._hold(table_id=t["id"], seat_no=r.randint(1, SEATS), player_id=r.randint(1, s.players),
                           kind="offer", entry_id=first_hist_entry + i % s.history_entries,
                           started_at=started,
                           deadline=started + timedelta(minutes=10), ended_at=started + timedelta(minutes=3),
                           outcome=("claimed", "claimed", "claimed", "expired", "declined")[i // 2 % 5])

    def current_audit_sorted(self) -> list[dict[str, Any]]:
        return sorted(self.current_audit, key=lambda a: a["at"])

    def history_audit(self, n: int) -> Iterator[list[dict[str, Any]]]:
        """``n`` audit rows from earlier nights, oldest first, in chunks."""
        r = random.Random(self.s.seed + 1)
        weights = [w for _a, _e, w in HISTORY_ACTIONS]
        max_entry, max_hold = max(self.entry_id, 1), max(self.hold_id, 1)
        span = 60 * 86400  # two months of history
        chunk: list[dict[str, Any]] = []
        for i in range(n):
            action, etype, _w = r.choices(HISTORY_ACTIONS, weights)[0]
            at = NOW - timedelta(days=1) - timedelta(seconds=span * (n - i) / n)
            ent = r.randint(1, max_entry if etype == "list_entry" else max_hold)
            detail: dict[str, Any] = {"player_id": r.randint(1, self.s.players)}
            if action.startswith("offer") or action.startswith("seat"):
                detail.update(table_id=r.randint(1, self.s.tables), seat_no=r.randint(1, SEATS))
            if action == "seat.taken":
                detail["buy_in"] = 20000
            chunk.append(dict(room_id=1, at=at, actor_id=None if action == "offer.expired" else 1,
                              actor="scheduler" if action == "offer.expired" else "bench-supervisor",
                              action=action, entity_type=etype, entity_id=ent,
                              reason="missed call (expired)" if action == "offer.expired" else None,
                              detail=detail))
            if len(chunk) == 50000:
                yield chunk
                chunk = []
        if chunk:
            yield chunk


def build(engine: Engine, spec: RoomSpec) -> Built:
    """Fill a freshly migrated, empty database with ``spec``'s room. Returns the API token."""
    import time as _time

    t0 = _time.perf_counter()
    gen = _Gen(spec)
    gen.build()
    order = [("rooms", Room), ("staff", Staff), ("staff_roles", StaffRole), ("games", Game),
             ("players", Player), ("barred_pairs", BarredPair), ("tables", Table),
             ("list_entries", ListEntry), ("seat_holds", SeatHold), ("absences", Absence),
             ("playovers", Playover)]
    counts: dict[str, int] = {}
    with engine.begin() as conn:
        for name, model in order:
            rows = gen.rows[name]
            for chunk in _chunks(rows):
                conn.execute(insert(model), chunk)
            counts[name] = len(rows)
    n_history = max(0, spec.audit_rows - len(gen.current_audit))
    audit = AuditEvent.__table__
    aid = 0
    if engine.dialect.name == "postgresql":
        # COPY: the only way to write two million rows in seconds on PostgreSQL.
        raw = engine.raw_connection()
        try:
            cur = raw.cursor()
            cols = "id, room_id, at, actor_id, actor, action, entity_type, entity_id, reason, detail"
            with cur.copy(f"COPY audit_events ({cols}) FROM STDIN") as copy:
                for chunk in [*gen.history_audit(n_history), gen.current_audit_sorted()]:
                    for row in chunk:
                        aid += 1
                        copy.write_row((aid, row["room_id"], row["at"].replace(tzinfo=None), row["actor_id"],
                                        row["actor"], row["action"], row["entity_type"], row["entity_id"],
                                        row["reason"], json.dumps(row["detail"])))
            raw.commit()
        finally:
            raw.close()
        with engine.begin() as conn:
            for name in ("rooms", "staff", "games", "players", "barred_pairs", "tables", "list_entries",
                         "seat_holds", "absences", "playovers", "audit_events"):
                conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                  f"(SELECT max(id) FROM {name}))"))
            conn.execute(text("ANALYZE"))
    else:
        with engine.begin() as conn:
            for chunk in [*gen.history_audit(n_history), gen.current_audit_sorted()]:
                for row in chunk:
                    aid += 1
                    row["id"] = aid
                conn.execute(insert(audit), chunk)
        with engine.begin() as conn:
            conn.execute(text("ANALYZE"))
        raw = engine.raw_connection()  # outside any transaction: fold the WAL into the file
        try:
            raw.cursor().execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            raw.close()
    counts["audit_events"] = aid
    return Built(room_id=1, token=gen.token, supervisor_id=1, counts=counts,
                 seconds=_time.perf_counter() - t0)
