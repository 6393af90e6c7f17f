"""A whole night through the API, on every configured database (R2, R20-R32, R50-R54, R60, R61).

Three tables from an empty room: a raked hold'em game taken per hand, one taken per dealer down,
and an Omaha game on hourly time. Walk-ins and a list player claiming an offer, a break that runs
out, a player who leaves and returns within two hours with the same stack, a playover, chips in
transit delivered at the table by the dealer, fees for a whole table, rake per hand and per down, a
buy-in posted by mistake and reversed by a second person, every player cashing out, every shift
counted and closed, and the gaming day closed after it ended.

Beside the API the test keeps its own book: what each table's ledger should hold per shift,
from the amounts it sent. Each close counts every table at that figure, so the day report must
show the ledger's expected equal to the counted, a zero variance at every table and in total."""

from __future__ import annotations

from collections import Counter
from datetime import date
from typing import Any

from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from roomops.clock import FrozenClock
from tests.factories import Room_
from tests.http.test_api import Api, refused, token_for
from tests.units import sweep

DAY = date(2026, 11, 21)  # the server's clock starts at 20:00 UTC, in shift 2 of 06:00, 14:00, 22:00


class Night:
    """The API as four staff members, the clock, and the test's own book of each table's chips
    per shift (``book``): what the ledger should hold from what was sent."""

    def __init__(self, client: FlaskClient, room: Room_, session: Session, clock: FrozenClock):
        self.session, self.clock, self.room = session, clock, room
        self.sup, self.cashier, self.dealer, self.admin = (
            Api(client, token_for(room, session, role))
            for role in ("supervisor", "cashier", "dealer", "admin"))
        self.book: Counter[tuple[int, int | None]] = Counter()  # (shift, table) -> net amount
        self.shift = 2
        self.player_of: dict[int, int] = {}  # hold -> player

    def ok(self, resp: Any, status: int = 201) -> Any:
        assert resp.status_code == status, resp.text
        return resp.json

    def later(self, **delta: int) -> None:
        self.clock.advance(**delta)

    def until(self, hh: int, mm: int) -> None:
        """On to the next hh:mm (UTC, the room's time zone)."""
        now = self.clock.now()
        at = now.replace(hour=hh, minute=mm, second=0, microsecond=0)
        self.clock.advance(seconds=int((at - now).total_seconds()) % 86400)

    def moved(self, table: int, amount: int) -> None:
        """The ledger gains ``amount`` at ``table`` in the current shift (and in the total)."""
        self.book[(self.shift, table)] += amount
        self.book[(self.shift, None)] += amount

    # -- the floor --------------------------------------------------------------------------------
    def game(self, **fields: Any) -> int:
        return self.ok(self.sup.post("/games", json={
            "variant": "NL Hold'em", "small_blind": 100, "big_blind": 200, "min_buyin": 10000,
            "max_buyin": 50000, **fields}))["id"]

    def table(self, game: int, name: str) -> int:
        return self.ok(self.sup.post("/tables", json={"game_id": game, "name": name}))["id"]

    def player(self, name: str) -> int:
        first, last = name.split()
        return self.ok(self.sup.post("/players", json={"first_name": first, "last_name": last}))["id"]

    def seat(self, table: int, seat_no: int, who: str | int, buy_in: int) -> int:
        """A walk-in (a new player's name, or a known player) seated at an open seat, paying cash
        at the table (R30, R32)."""
        player = self.player(who) if isinstance(who, str) else who
        hold = self.ok(self.sup.post("/seats", json={
            "table_id": table, "seat_no": seat_no, "player_id": player, "buy_in": buy_in}))
        self.moved(table, buy_in)
        self.player_of[hold["id"]] = player
        return int(hold["id"])

    def leave(self, hold: int, table: int, amount: int) -> None:
        """R27: the player leaves with ``amount`` recorded, and the cage pays exactly that."""
        self.ok(self.sup.post(f"/seats/{hold}/leave", json={"leave_amount": amount}), 200)
        self.cash_out(hold, table, amount)

    def cash_out(self, hold: int, table: int, amount: int) -> None:
        self.ok(self.cashier.post("/ledger/cash-outs", json={"hold_id": hold, "amount": amount}))
        self.moved(table, -amount)

    def place(self, game: int, player: int) -> dict[str, Any]:
        room = self.ok(self.sup.get("/room"), 200)
        (view,) = [g for g in room["games"] if g["id"] == game]
        return next(p for p in view["waiting"] if p["player_id"] == player)

    def seat_of(self, table: int, player: int) -> dict[str, Any]:
        room = self.ok(self.sup.get("/room"), 200)
        tables = [t for g in room["games"] for t in g["tables"] if t["id"] == table]
        return next(s for s in tables[0]["seats"] if s["player_id"] == player)

    def collect_table(self, table: int, players: int, fee: int) -> None:
        """R50: the coming period's fee from everyone due at the table, in chips."""
        done = self.ok(self.cashier.post(f"/tables/{table}/session-fees", json={}))
        assert [r["amount"] for r in done["rows"]] == [-fee] * players
        self.moved(table, -fee * players)

    # -- the dealer -------------------------------------------------------------------------------
    def hands(self, table: int, first: int, last: int) -> None:
        for no in range(first, last + 1):
            self.ok(self.dealer.post(f"/tables/{table}/hands", json={
                "hand_no": no, **({"high_card_seat": 1} if no == 1 else {})}))

    def rake(self, table: int, hand_no: int, pot: int, rake: int) -> None:
        self.ok(self.dealer.post(f"/tables/{table}/hands/{hand_no}/rake",
                                 json={"pot": pot, "flop": True, "rake": rake}))
        self.moved(table, -rake)

    # -- the cage ---------------------------------------------------------------------------------
    def close(self, shift: int, tables: list[int]) -> dict[str, Any]:
        """R54: the cashier and the supervisor each count every table at the test's book and the
        total, and close the shift together."""
        counts = [{"table_id": t, "counted": self.book[(shift, t)]} for t in tables
                  if (shift, t) in self.book]
        counts.append({"table_id": None, "counted": self.book[(shift, None)]})
        path = f"/ledger/days/{DAY.isoformat()}"
        for who in (self.cashier, self.sup):
            self.ok(who.post(f"{path}/counts?shift={shift}", json={"counts": counts}))
        return self.ok(self.sup.post(f"{path}/close?shift={shift}", json={
            "second_staff_id": self.room.staff["cashier"].id}))

    def report(self, shift: int) -> dict[str, Any]:
        return self.ok(self.cashier.get(f"/ledger/days/{DAY.isoformat()}/report?shift={shift}"), 200)


def test_a_whole_night_closes_to_the_chip(client, room, session, clock):
    n = Night(client, room, session, clock)
    n.ok(n.sup.patch("/policy", json={"shifts": ["06:00", "14:00", "22:00"],
                                       "break_after_play_minutes": 15}), 200)  # R23, R54
    hand_game = n.game(fee_kind="rake", rake_bp=500, rake_cap=500)
    down_game = n.game(small_blind=200, big_blind=500, min_buyin=20000, max_buyin=100000,
                       fee_kind="rake", rake_bp=500, rake_cap=600, rake_recorded="per_down")
    time_game = n.game(variant="PL Omaha", fee_kind="hourly", time_fee=1000)
    t1, t2, t3 = n.table(hand_game, "1"), n.table(down_game, "2"), n.table(time_game, "3")
    tables = [t1, t2, t3]

    # Walk-ins: four at table 1, four at table 2, a full table 3 (R30).
    one = [n.seat(t1, s, f"Ace{s} One", 20000) for s in range(1, 5)]
    two = [n.seat(t2, s, f"Bo{s} Two", 50000) for s in range(1, 5)]
    three = [n.seat(t3, s, f"Cy{s} Three", 15000) for s in range(1, 10)]

    # A list player is offered the open seat at table 1 and claims it (R20, R21).
    lena = n.player("Lena List")
    n.ok(n.sup.post("/entries", json={"player_id": lena, "game_id": hand_game}))
    offer = n.place(hand_game, lena)["offer_id"]
    assert offer is not None
    n.later(minutes=3)
    lena_hold = n.ok(n.sup.post(f"/offers/{offer}/claim", json={"buy_in": 30000}), 200)["id"]
    n.moved(t1, 30000)
    one.append(lena_hold)

    # Time for table 3: every seated player pays the coming hour, collected from the whole table
    # in one go (R50).
    n.later(minutes=2)
    n.collect_table(t3, 9, 1000)

    # The dealers: table 1 raked per hand, table 2 per down (R51).
    n.later(minutes=5)
    n.hands(t1, 1, 3)
    n.rake(t1, 1, 4000, 200)
    n.rake(t1, 3, 12000, 500)  # capped at 5.00
    n.hands(t2, 1, 4)
    n.ok(n.dealer.post(f"/tables/{t2}/downs", json={
        "first_hand_no": 1, "last_hand_no": 4, "rake": 1800}))
    n.moved(t2, -1800)

    # Chips in transit: asked at the cage, authorised by the supervisor, delivered by the dealer
    # at the table (R31, R61).
    n.later(minutes=5)
    slip = n.ok(n.cashier.post("/transits", json={"hold_id": one[0], "amount": 10000}))
    n.ok(n.sup.post(f"/transits/{slip['id']}/dispatch"), 200)
    refused(n.sup.post(f"/tables/{t1}/transits/{slip['id']}/deliver"), 409, "R31")
    n.ok(n.dealer.post(f"/tables/{t1}/transits/{slip['id']}/deliver"), 200)
    n.moved(t1, 10000)

    # An add-on posted twice by mistake, reversed with a reason by a supervisor, never by the
    # cashier who posted it (R52, R61).
    wrong = n.ok(n.cashier.post("/ledger/add-ons", json={"hold_id": two[0], "amount": 5000}))
    n.moved(t2, 5000)
    refused(n.cashier.post(f"/ledger/{wrong['id']}/reverse", json={"reason": "twice"}), 403, "R61")
    n.ok(n.sup.post(f"/ledger/{wrong['id']}/reverse", json={"reason": "posted twice"}))
    n.moved(t2, -5000)

    # A player leaves; the cage pays what the desk recorded (R27).
    n.leave(one[1], t1, 26500)

    # A break that runs out: the seat is released by the sweep and the stack cashed out (R23, R24).
    n.later(minutes=5)
    n.ok(n.sup.post(f"/seats/{two[3]}/break", json={"stack": 41000}))
    n.later(minutes=61)
    sweep(session, clock.now())
    session.commit()
    n.cash_out(two[3], t2, 41000)
    refused(n.cashier.post("/ledger/cash-outs", json={"hold_id": two[3], "amount": 41000}),
            409, "R28")  # once per seat

    # The player who left comes back within two hours: the same stack at least (R27).
    back = n.player_of[one[1]]
    need = n.ok(n.sup.get(f"/players/{back}/return-requirement?game_id={hand_game}"), 200)
    assert (need["rule"], need["minimum"]) == ("R27", 26500)
    refused(n.sup.post("/seats", json={"table_id": t1, "seat_no": 2, "player_id": back,
                                       "buy_in": 20000}), 409, "R27")
    one[1] = n.seat(t1, 2, back, 26500)

    # A playover: the owner of a seat at the full table 3 goes on a break, the first on the
    # Omaha list plays over with their own chips, and the owner comes back (R29).
    n.later(minutes=5)
    dora = n.player("Dora Over")
    n.ok(n.sup.post("/entries", json={"player_id": dora, "game_id": time_game}))
    n.ok(n.sup.post(f"/seats/{three[4]}/break", json={"stack": 16000}))
    playover = n.ok(n.sup.post(f"/seats/{three[4]}/playover", json={"buy_in": 15000}))
    n.moved(t3, 15000)  # the overplayer's own buy-in, apart from the owner's box
    assert n.seat_of(t3, n.player_of[three[4]])["playover"]["player_id"] == dora
    n.later(minutes=20)
    n.ok(n.sup.post(f"/seats/{three[4]}/back", json={"overplayer_stack": 17500}), 200)
    assert n.seat_of(t3, n.player_of[three[4]])["playover"] is None
    paid = {"hold_id": three[4], "amount": 17500, "playover_id": playover["id"]}
    n.ok(n.cashier.post("/ledger/cash-outs", json=paid))
    n.moved(t3, -17500)
    refused(n.cashier.post("/ledger/cash-outs", json=paid), 409, "R28")  # once per playover

    # Shift 2 ends at 22:00: shift 1 (nothing happened) and shift 2 are counted and closed,
    # tables still running (the room's policy warns, R54).
    n.until(22, 1)
    n.close(1, tables)
    closed = n.close(2, tables)
    assert closed["running_tables"] == ["1", "2", "3"]
    n.shift = 3

    # The night shift: another hour of time, more rake, and everyone cashes out.
    n.collect_table(t3, 9, 1000)
    n.hands(t1, 4, 5)
    n.rake(t1, 5, 3000, 100)
    n.hands(t2, 5, 6)
    n.ok(n.dealer.post(f"/tables/{t2}/downs", json={
        "first_hand_no": 5, "last_hand_no": 6, "rake": 1000}))
    n.moved(t2, -1000)
    n.later(hours=3)
    for table, holds, amounts in ((t1, one, [31000, 18000, 25000, 9800, 31400]),
                                  (t2, two[:3], [60000, 52000, 72200]),
                                  (t3, three, [20000, 12000, 9000, 14000, 15000, 10000, 11000,
                                               12000, 11000])):
        for hold, amount in zip(holds, amounts, strict=True):
            n.leave(hold, table, amount)

    # The day closes once it has ended (R2): after 06:00 the night shift is counted and closed.
    refused(n.sup.post(f"/ledger/days/{DAY.isoformat()}/close?shift=3", json={
        "second_staff_id": room.staff["cashier"].id}), 409, "R54")
    n.until(6, 5)
    assert n.close(3, tables)["running_tables"] == []

    for shift in (1, 2, 3):
        report = n.report(shift)
        (closed,) = report["closes"]
        assert report["closed"] and report["reconciled"]
        assert (closed["shift_no"], closed["closes_day"]) == (shift, shift == 3)
        assert closed["expected_total"] == closed["counted_total"] == n.book[(shift, None)]
        lines = [c for c in report["counts"] if c["staff"] == "main-supervisor"]
        assert lines and all(c["variance"] == 0 and c["counted"] == c["expected"] for c in lines)
        at_tables = {t: a for (s, t), a in n.book.items() if s == shift and t is not None}
        assert {c["table_id"]: c["expected"] for c in lines} == {
            **at_tables, None: n.book[(shift, None)]}
        assert {line["key"]: line["amount"] for line in report["by_table"]} == at_tables
    day = n.ok(n.cashier.get(f"/ledger/days/{DAY.isoformat()}/report"), 200)
    assert day["closed"] and day["reconciled"]
    # stakes read as players say them, never in minor units (R4)
    assert {line["name"] for line in day["by_game"]} == {"NL Hold'em 1/2", "NL Hold'em 2/5",
                                                         "PL Omaha 1/2"}
    assert day["total"]["amount"] == sum(a for (_s, t), a in n.book.items() if t is None)
