"""The timed operations: the desk's actions, the public board, the sweep.

Each desk action and board request is timed through every way in (``vias``: the test client and
the waitress server), taking turns op by op (client, server, server, client, ...) so both meet the
same machine load, each op on a fresh target. Right after each timed request the same way in
serves the floor (``Bench.FLOOR``, a route doing nothing), timed too: the floor printed beside a
figure was measured in the same moments as the figure.

Targets are picked from ``GET /api/v1/room`` and every change outside the timed request goes
through the API as well (``Bench.api``), untimed.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import count
from typing import Any

from harness import API, Bench, Figure, log
from vias import Answer, Request, Via

from roomops.jobs.scheduler import sweep_once

DESK_OPS = ("join", "leave", "claim", "offer", "decline", "hand")
BOARD_OPS = ("board", "board_cached", "board_live", "board_poll304")


@dataclass
class Op:
    """One kind of timed request. ``prepare(k)`` (untimed) returns the request for the k-th fresh
    target, or None when there are no more; ``done(answer)`` (untimed) sees each answer."""

    name: str
    prepare: Callable[[int], Request | None]
    expect: int = 200
    done: Callable[[Answer], None] | None = None


def measure(b: Bench, op: Op, vias: list[Via], n: int, warmup: int) -> list[Figure]:
    """``n`` timed requests of ``op`` through each way in, after ``warmup`` untimed ones each.
    Round ``i`` sends targets ``2i`` and ``2i + 1``, one through each way in, the order swapped
    every other round."""
    figs = {v.name: Figure(op.name, v.name) for v in vias}
    floor = Request("GET", Bench.FLOOR, headers=b.headers)
    targets = count()
    gc.collect()
    for i in range(n + warmup):
        for via in vias if i % 2 == 0 else vias[::-1]:
            req = op.prepare(next(targets))
            if req is None:
                continue
            b.counter.start()
            c0, t0 = time.process_time(), time.perf_counter()
            answer = via.send(req)
            elapsed = (time.perf_counter() - t0) * 1000
            cpu = (time.process_time() - c0) * 1000
            statements = b.counter.stop()
            if answer.status != op.expect:
                raise RuntimeError(f"{op.name} via {via.name}: {req.method} {req.path} {req.body} -> "
                                   f"{answer.status}: {answer.body[:300]!r}")
            if op.done is not None:
                op.done(answer)
            t0 = time.perf_counter()
            if via.send(floor).status != 200:
                raise RuntimeError(f"the floor via {via.name} did not answer 200")
            floor_ms = (time.perf_counter() - t0) * 1000
            if i >= warmup:
                fig = figs[via.name]
                fig.samples_ms.append(elapsed)
                fig.cpu_ms.append(cpu)
                fig.statements.append(statements)
                fig.floor_ms.append(floor_ms)
    for fig in figs.values():
        if len(fig.samples_ms) < n:
            log(f"  {fig.name} via {fig.via}: only {len(fig.samples_ms)} of {n} targets were available")
        elif fig.samples_ms:
            log(f"  {fig.name:<14} {fig.via:<7} p50 {fig.p50:7.2f} ms  p99 {fig.p99:7.2f} ms  "
                f"{fig.stmts} stmts  floor p50 {fig.floor_p50:.2f} ms")
    return list(figs.values())


# ---------------------------------------------------------------- the room as the API shows it


@dataclass
class Seat:
    hold_id: int
    player_id: int
    table_id: int
    seat_no: int
    game_id: int
    state: str  # seated, offered, expired
    deadline: str | None


@dataclass
class RoomView:
    """What the set-up needs from ``GET /api/v1/room``."""

    seats: list[Seat] = field(default_factory=list)
    tables_of: dict[int, list[int]] = field(default_factory=dict)  # open tables of each game
    waiting: dict[int, set[int]] = field(default_factory=dict)  # game -> players on its list
    reserve: dict[int, set[int]] = field(default_factory=dict)  # table -> players on its list
    min_buyin: dict[int, int] = field(default_factory=dict)

    @classmethod
    def read(cls, b: Bench) -> RoomView:
        view = cls()
        for g in b.room()["games"]:
            view.min_buyin[g["id"]] = g["min_buyin"]
            view.waiting[g["id"]] = {p["player_id"] for p in g["waiting"]}
            view.tables_of[g["id"]] = [t["id"] for t in g["tables"]]
            for t in g["tables"]:
                view.reserve[t["id"]] = {p["player_id"] for p in t["reserve"]}
                view.seats += [Seat(s["hold_id"], s["player_id"], t["id"], s["seat_no"], g["id"],
                                    s["state"], s["deadline"])
                               for s in t["seats"] if s["hold_id"] is not None]
        return view

    def seated(self, games: list[int] | None = None) -> list[Seat]:
        return [s for s in self.seats if s.state == "seated" and (games is None or s.game_id in games)]


def running_games(b: Bench, view: RoomView) -> list[int]:
    """The games with players waiting to be called: all but roomgen's newest (``new_games``),
    whose lists hold only phone entries not checked in yet."""
    return sorted(view.tables_of)[: -b.spec.new_games]


def next_entry(b: Bench, game_id: int, table_id: int, seat_no: int) -> int | None:
    """R14's next eligible entry for an open seat. The API has no read for it (a supervisor who
    offers out of order learns it from the R13 refusal), so the set-up asks the seating service,
    read-only, as ``POST /api/v1/offers`` itself does."""
    from roomops.games.models import Game
    from roomops.seating import offers

    with b.ext.read_sessions() as s:
        game = s.get_one(Game, game_id)
        nxt = offers.next_for_seat(s, game, offers.open_seat(s, game, table_id, seat_no))
    return nxt.entry_id if nxt is not None else None


# ---------------------------------------------------------------- the desk's actions


@dataclass
class Desk:
    """One run of the desk's actions on a room, in order: each action's targets are what the one
    before left (the leaves make the offers the claims take, the offers by hand are declined)."""

    b: Bench
    vias: list[Via]
    n: int
    warmup: int
    r: random.Random
    figs: list[Figure] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Fresh targets each kind of action needs."""
        return len(self.vias) * (self.n + self.warmup)

    @property
    def auth(self) -> dict[str, str]:
        return self.b.headers

    def run(self, op: Op) -> None:
        self.figs.extend(measure(self.b, op, self.vias, self.n, self.warmup))

    def from_list(self, items: list[Any],
                  request: Callable[[Any], Request]) -> Callable[[int], Request | None]:
        """The k-th item's request, 100 ms after the one before."""
        def prepare(k: int) -> Request | None:
            self.b.tick()
            return request(items[k]) if k < len(items) else None
        return prepare


def desk_ops(b: Bench, vias: list[Via], n: int, warmup: int, seed: int) -> list[Figure]:
    desk = Desk(b, vias, n, warmup, random.Random(seed))
    # policy: the cheapest authenticated API request (the token, one read), for reference.
    desk.run(Op("policy", lambda _k: Request("GET", f"{API}/policy", headers=desk.auth)))
    join(desk)
    leave(desk)
    claim(desk)
    decline(desk, offer(desk))
    hand(desk)
    return desk.figs


def join(desk: Desk) -> None:
    """A player on no list of that game joins its waiting list or (one in four) a table's reserve
    list; join then runs the R14 allocation for the game (auto_offer is on). Targets are taken in
    pairs, one through each way in: both joins of a pair are of the same kind."""
    view = RoomView.read(desk.b)
    games = running_games(desk.b, view)
    seated_game = {(s.player_id, s.game_id) for s in view.seated()}
    seated_table = {(s.player_id, s.table_id) for s in view.seated()}
    n_players = desk.b.built.counts["players"]
    joins: list[dict[str, int]] = []
    while len(joins) < desk.total:
        p, g = desk.r.randint(1, n_players), desk.r.choice(games)
        if len(joins) // len(desk.vias) % 4 == 3:
            t = desk.r.choice(view.tables_of[g])
            if (p, t) not in seated_table and p not in view.reserve[t]:
                view.reserve[t].add(p)
                joins.append({"player_id": p, "table_id": t})
        elif (p, g) not in seated_game and p not in view.waiting[g]:
            view.waiting[g].add(p)
            joins.append({"player_id": p, "game_id": g})
    desk.run(Op("join", desk.from_list(joins, lambda body: Request(
        "POST", f"{API}/entries", body, desk.auth)), 201))


def leave(desk: Desk) -> None:
    """A seated player leaves with a counted stack; the seat is offered at once (R14, R20)."""
    view = RoomView.read(desk.b)
    seated = view.seated(running_games(desk.b, view))
    desk.r.shuffle(seated)
    desk.run(Op("leave", desk.from_list([s.hold_id for s in seated[:desk.total]], lambda hold: Request(
        "POST", f"{API}/seats/{hold}/leave", {"leave_amount": 10000 + hold % 50000}, desk.auth))))


def claim(desk: Desk) -> None:
    """The offers the leaves made (the newest deadlines first), each claimed in time with the
    game's minimum buy-in (R21, R30)."""
    view = RoomView.read(desk.b)
    offered = sorted((s for s in view.seats if s.state == "offered"), key=lambda s: s.deadline or "",
                     reverse=True)
    desk.run(Op("claim", desk.from_list(offered[:desk.total], lambda s: Request(
        "POST", f"{API}/offers/{s.hold_id}/claim", {"buy_in": view.min_buyin[s.game_id]}, desk.auth))))


def offer(desk: Desk) -> list[int]:
    """In a room that offers by hand (auto_offer off, R3), seats freed just before (untimed) are
    each offered to the next eligible entry (R14). Returns the offers made."""
    b = desk.b
    b.api("PATCH", "/policy", {"auto_offer": False})
    view = RoomView.read(b)
    freed = view.seated(running_games(b, view))
    desk.r.shuffle(freed)
    del freed[desk.total:]
    for s in freed:
        b.tick()
        b.api("POST", f"/seats/{s.hold_id}/leave", {"leave_amount": 20000})
    made: list[int] = []

    def prepare(_k: int) -> Request | None:
        b.tick()
        while freed:  # a seat nobody is eligible for is skipped
            s = freed.pop(0)
            entry = next_entry(b, s.game_id, s.table_id, s.seat_no)
            if entry is not None:
                return Request("POST", f"{API}/offers",
                               {"table_id": s.table_id, "seat_no": s.seat_no, "entry_id": entry}, desk.auth)
        return None

    desk.run(Op("offer", prepare, 201, lambda answer: made.append(answer.json()["id"])))
    b.api("PATCH", "/policy", {"auto_offer": True})
    return made


def decline(desk: Desk, offers: list[int]) -> None:
    """The offers made by hand, each declined with auto_offer back on: a missed call (R22), the
    seat offered to the next player."""
    desk.run(Op("decline", desk.from_list(offers, lambda offer: Request(
        "POST", f"{API}/offers/{offer}/decline", None, desk.auth))))


def hand(desk: Desk) -> None:
    """The dealer records the next hand at a table (R33-R35), each table in turn; every table's
    first hand is dealt from the high card beforehand, untimed."""
    b = desk.b
    at_table: dict[int, list[int]] = {}
    for s in RoomView.read(b).seated():
        at_table.setdefault(s.table_id, []).append(s.seat_no)
    tables = sorted(t for t, seats in at_table.items() if len(seats) >= 3)
    hand_no = dict.fromkeys(tables, 1)
    for t in tables:
        b.api("POST", f"/tables/{t}/hands", {"hand_no": 1, "high_card_seat": min(at_table[t])})

    def prepare(k: int) -> Request:
        b.tick()
        t = tables[k % len(tables)]
        hand_no[t] += 1
        return Request("POST", f"{API}/tables/{t}/hands", {"hand_no": hand_no[t]}, desk.auth)

    desk.run(Op("hand", prepare, 201))


# ---------------------------------------------------------------- the public board


def fresh_joins(b: Bench) -> Iterator[tuple[int, int]]:
    """(player, game) for joins the room accepts: players on no list and in no seat, each with
    every game in turn."""
    view = RoomView.read(b)
    busy = {s.player_id for s in view.seats} | set().union(*view.waiting.values(), *view.reserve.values())
    free = [p for p in range(1, b.built.counts["players"] + 1) if p not in busy]
    games = sorted(view.tables_of)
    return ((p, g) for p in free for g in games)


def joiner(b: Bench) -> Callable[[str, dict[str, str] | None], Callable[[int], Request]]:
    """``after_a_join(path, headers)``: the preparer of a GET of ``path`` timed "after a change":
    before each, a fresh player joins one game's waiting list (untimed, through the API), a
    different game each time."""
    fresh = fresh_joins(b)

    def after_a_join(path: str, headers: dict[str, str] | None = None) -> Callable[[int], Request]:
        def prepare(_k: int) -> Request:
            player_id, game_id = next(fresh)
            b.tick()
            b.api("POST", "/entries", {"player_id": player_id, "game_id": game_id})
            return Request("GET", path, headers=headers or {})
        return prepare
    return after_a_join


def board_ops(b: Bench, vias: list[Via], n: int, warmup: int) -> list[Figure]:
    """The public board: a screen loading the page after a change (``board``), again with nothing
    changed (``board_cached``, the per-game cache's hits), its poll after a change (``board_live``,
    the live fragment without an ETag) and its poll while nothing changed (``board_poll304``).

    "After a change" (``joiner``): what is timed is a render where one game's section is new and
    the others come from the cache."""
    after_a_join = joiner(b)
    slug = b.room()["slug"]
    live = f"/board/{slug}/live"

    def unchanged(path: str, headers: dict[str, str] | None = None) -> Callable[[int], Request]:
        def prepare(_k: int) -> Request:
            b.tick()  # time passes (countdowns move), nothing changes
            return Request("GET", path, headers=headers or {})
        return prepare

    figs = measure(b, Op("board", after_a_join("/board")), vias, n, warmup)
    figs += measure(b, Op("board_cached", unchanged("/board")), vias, n, warmup)
    figs += measure(b, Op("board_live", after_a_join(live)), vias, n, warmup)
    tag = b.client.get(live).headers.get("ETag", "")
    figs += measure(b, Op("board_poll304", unchanged(live, {"If-None-Match": tag}), 304), vias, n, warmup)
    return figs


def desk_screen(b: Bench, vias: list[Via], n: int, warmup: int) -> list[Figure]:
    """The desk's screen after a change (``desk_screen``): ``GET /desk/fragment`` as a
    supervisor's open desk re-reads it when its staff stream says the floor changed
    (docs/desk.md), the whole room's seats and lists. A reference figure: no target is set."""
    return measure(b, Op("desk_screen", joiner(b)("/desk/fragment", b.desk_cookie())), vias, n, warmup)


# ---------------------------------------------------------------- the sweep


def sweep(b: Bench, name: str) -> Figure:
    """Everything due in the room at once, swept in one run (``sweep_once``: one transaction).

    What the process held before is frozen first (``gc.freeze()``), as ``serve`` freezes what
    start-up built before its scheduler runs: the full collections the sweep's objects set off
    would otherwise walk the earlier rooms' leftovers too, which a serving process never holds."""
    fig = Figure(name, "job")
    gc.collect()
    gc.freeze()
    try:
        b.counter.start()
        c0, t0 = time.process_time(), time.perf_counter()
        result = sweep_once(b.app)
        fig.samples_ms.append((time.perf_counter() - t0) * 1000)
        fig.cpu_ms.append((time.process_time() - c0) * 1000)
        fig.statements.append(b.counter.stop())
    finally:
        gc.unfreeze()
    fig.extra.update(expired=len(result.expired_offers), released=len(result.released_absences))
    log(f"  {name}: {fig.p50:.0f} ms, {fig.stmts} stmts, {fig.extra}")
    return fig
