"""A whole night through the screens only, in Chromium against a server on SQLite (R2, R20-R32,
R50-R54, R60, R61). The same night runs through the API on every database in
tests/http/test_whole_night.py.

From an empty room: the supervisor sets the shifts, opens three games and their tables (rake per
hand, rake per dealer down, hourly time), players join the lists and claim the seats they are
offered; time is collected, dealers deal and record rake per hand and per down, chips in transit are
asked at the cage, authorised and confirmed by the dealer at the table, an add-on posted by mistake
is reversed by the supervisor, a break runs out, a player leaves and comes back with their stack, a
waiting player plays over a seat; every player leaves and is cashed out at the cage; each shift is
counted by a cashier and a supervisor and closed, the day once it has ended. The test keeps its own
book of what each table's ledger should hold per shift, from the amounts it typed; every count is
that figure, and the report's expected must equal it: zero variance at every table and in total.
The server's clock is frozen and advanced by the test; nothing sleeps."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import SHOTS, Live, log_in

DAY = date(2026, 11, 21)  # the server's clock starts at 20:00 UTC, in shift 2 of 06:00, 14:00, 22:00


@dataclass
class Night:
    """Three people at their screens (the supervisor at the desk, the cashier at the cage, the
    dealer at the table) and the test's own book: (shift, table name or None) -> minor units."""

    live: Live
    desk: Page
    cage: Page
    dealer: Page
    book: Counter[tuple[int, str | None]] = field(default_factory=Counter)
    shift: int = 2

    def moved(self, table: str, amount: int) -> None:
        self.book[(self.shift, table)] += amount
        self.book[(self.shift, None)] += amount

    def until(self, hh: int, mm: int) -> None:
        now = self.live.clock.now()
        at = now.replace(hour=hh, minute=mm, second=0, microsecond=0)
        self.live.clock.advance(seconds=int((at - now).total_seconds()) % 86400)

    def ok(self, page: Page, text: str) -> None:
        expect(page.locator(".flash.ok")).to_contain_text(text)

    # -- the desk ---------------------------------------------------------------------------------
    def panel(self, title: str) -> None:
        """The panel's section ``title`` open: it stays as the supervisor left it, the page kept."""
        section = self.desk.locator("details", has=self.desk.locator("summary", has_text=title))
        if not section.evaluate("d => d.open"):
            section.locator("summary").click()

    def open_game(self, variant: str, blinds: tuple[str, str], buy_ins: tuple[str, str],
                  fee: str, **fields: str) -> None:
        d = self.desk
        d.goto(f"{self.live.url}/desk")
        self.panel("Open a game")
        form = d.locator("form", has=d.locator("button", has_text="Open game"))
        form.locator("input[name=variant]").fill(variant)
        form.locator("input[name=small_blind]").fill(blinds[0])
        form.locator("input[name=big_blind]").fill(blinds[1])
        form.locator("input[name=min_buyin]").fill(buy_ins[0])
        form.locator("input[name=max_buyin]").fill(buy_ins[1])
        form.locator("select[name=fee_kind]").select_option(fee)
        for name, value in fields.items():
            target = form.locator(f"[name={name}]")
            if target.evaluate("e => e.tagName") == "SELECT":
                target.select_option(value)
            else:
                target.fill(value)
        form.locator("button[type=submit]").click()
        self.ok(d, "Opened")

    def open_table(self, game: str, name: str) -> None:
        d = self.desk
        self.panel("Open a table")
        form = d.locator("form", has=d.locator("button", has_text="Open table"))
        form.locator("select[name=game_id]").select_option(label=game)
        form.locator("input[name=name]").fill(name)
        form.locator("button[type=submit]").click()
        self.ok(d, "Opened table")

    def add_to_list(self, first: str, last: str, game: str) -> None:
        d = self.desk
        form = d.locator("form[data-form=add-player]")
        form.locator("input[name=first_name]").fill(first)
        form.locator("input[name=last_name]").fill(last)
        form.locator("label", has_text=game).locator("input[name=game_id]").check()
        form.locator("button[type=submit]").click()
        self.ok(d, f"Put {first} {last} on 1 list")

    def seat(self, table: str, seat_no: int) -> object:
        return self.desk.locator(f"#table-{self.table_id(table)} .seat[data-seat-no='{seat_no}']")

    def table_id(self, name: str) -> str:
        return self.desk.locator(f"#desk-live article[data-table-name='{name}']").get_attribute(
            "data-table-id") or ""

    def act(self, table: str, seat_no: int) -> object:
        """Open the desk's dialog for a seat."""
        if not self.desk.url.endswith("/desk"):
            self.desk.goto(f"{self.live.url}/desk")
        self.desk.locator(
            f"#desk-live article[data-table-name='{table}'] .seat[data-seat-no='{seat_no}'] button"
        ).click()
        dialog = self.desk.locator("dialog#act")
        expect(dialog).to_be_visible()
        return dialog

    def claim(self, table: str, seat_no: int, name: str, buy_in: int) -> None:
        """R21: the offered player takes the seat, paying cash at the table."""
        dialog = self.act(table, seat_no)
        form = dialog.locator("section[data-for=seat-offered] form").first  # type: ignore[attr-defined]
        form.locator("input[name=buy_in]").fill(money(buy_in))
        form.locator("button[type=submit]").click()
        self.ok(self.desk, f"{name} took seat {seat_no} at table {table}")
        self.moved(table, buy_in)

    def leave(self, table: str, seat_no: int, amount: int) -> None:
        dialog = self.act(table, seat_no)
        form = dialog.locator("section[data-for=seat-seated] form").first  # type: ignore[attr-defined]
        form.locator("input[name=leave_amount]").fill(money(amount))
        form.locator("button[type=submit]").click()
        self.ok(self.desk, "left")

    # -- the cage ---------------------------------------------------------------------------------
    def find(self, query: str) -> None:
        self.cage.goto(f"{self.live.url}/desk/cage")
        self.cage.get_by_label("find a player by name, table or seat").fill(query)
        self.cage.get_by_role("button", name="Find").click()

    def cash_out(self, name: str, table: str, amount: int) -> None:
        """R27: the cashier pays the amount the desk recorded as the player left."""
        self.find(name)
        form = self.cage.locator("#find form[data-form=cash-out]").first
        expect(form.locator("input[name=amount]")).to_have_value(money(amount))
        form.locator("select[name=method]").select_option("cash")
        form.get_by_role("button", name="Pay cash-out").click()
        self.ok(self.cage, "Cash-out of")
        self.moved(table, -amount)

    def close(self, shift: int, tables: list[str]) -> None:
        """R54: the cashier and the supervisor each count every table at the test's book and the
        total, and the supervisor closes the shift with the cashier."""
        for page in (self.cage, self.desk):
            page.goto(f"{self.live.url}/desk/cage/days/{DAY.isoformat()}/report?shift={shift}")
            for table in tables:
                if (shift, table) in self.book:
                    tid = self.desk_table_ids[table]
                    page.fill(f"input[name=count-{tid}]", money(self.book[(shift, table)]))
            page.fill("input[name=count-total]", money(self.book[(shift, None)]))
            page.get_by_role("button", name="Record my counts").click()
            self.ok(page, "counts recorded")
        self.desk.select_option("select[name=second_staff_id]", label="main-cashier (cashier)")
        self.desk.once("dialog", lambda d: d.accept())  # R54: the close states its totals first
        self.desk.get_by_role("button", name=f"Close shift {shift}").click()
        self.ok(self.desk, f"Shift {shift} of gaming day {DAY.isoformat()} closed")

    desk_table_ids: dict[str, str] = field(default_factory=dict)

    # -- the fees page ----------------------------------------------------------------------------
    def collect_time(self, table: str, players: int, fee: int) -> None:
        """R50: the coming hour's fee from every player seated at the table, in one action."""
        page = self.cage
        page.goto(f"{self.live.url}/desk/fees")
        row = page.locator(f"tr[data-table='{self.desk_table_ids[table]}']")
        row.get_by_role("button", name=f"Collect from the whole table ({players} due)").click()
        self.ok(page, f"{players} fees of {money_text(fee)} collected from the whole table")
        self.moved(table, -fee * players)

    # -- the dealer -------------------------------------------------------------------------------
    def at_table(self, table: str) -> Page:
        self.dealer.goto(f"{self.live.url}/dealer/tables/{self.desk_table_ids[table]}")
        return self.dealer

    def deal(self, table: str, hands: int) -> None:
        page = self.at_table(table)
        for _ in range(hands):
            page.locator("#deal").click()
            self.ok(page, "button")

    def rake(self, table: str, pot: int, rake: int) -> None:
        """R51: the rake of the last hand dealt."""
        form = self.at_table(table).locator("#rake-form")
        form.locator("input[name=pot]").fill(money(pot))
        form.locator("input[name=rake]").fill(money(rake))
        form.get_by_role("button", name="Record rake").click()
        self.ok(self.dealer, "recorded")
        self.moved(table, -rake)

    def down(self, table: str, rake: int) -> None:
        """R51: the rake of a dealer down, every hand since the last down."""
        form = self.at_table(table).locator("#down-form")
        form.locator("input[name=rake]").fill(money(rake))
        form.get_by_role("button", name="Record the down's rake").click()
        self.ok(self.dealer, "Rake of the down")
        self.moved(table, -rake)


def money(minor: int) -> str:
    """An amount as staff type it: major units, pence only when there are some."""
    return f"{minor // 100}" if minor % 100 == 0 else f"{minor / 100:.2f}"


def money_text(minor: int) -> str:
    """An amount as the room's pages show it (GBP, en_GB)."""
    return f"£{minor / 100:,.2f}"


def _staff_only(room, session, now):
    return room.room.id


def test_a_whole_night_through_the_screens_closes_to_the_chip(live: Live, browser: Browser) -> None:
    live.build(_staff_only)
    pages = [browser.new_context(viewport={"width": 1600, "height": 900}).new_page()
             for _ in range(3)]
    night = Night(live, *pages)
    for page, who in zip(pages, ("main-supervisor", "main-cashier", "main-dealer"), strict=True):
        log_in(page, live, who)

    # The supervisor sets the shifts and the play before a break (R23, R54).
    desk = night.desk
    desk.goto(f"{live.url}/desk/policy")
    desk.fill("input[name=shifts]", "06:00, 14:00, 22:00")
    desk.fill("input[name=break_after_play_minutes]", "15")
    desk.get_by_role("button", name="Save policy").click()
    night.ok(desk, "Policy changed: break after play minutes, shift starts")

    # Three games and their tables (R4, R5, R50, R51).
    night.open_game("NL Hold'em", ("1", "2"), ("100", "500"), "rake", rake_bp="5", rake_cap="5")
    night.open_game("NL Hold'em", ("2", "5"), ("200", "1000"), "rake", rake_bp="5", rake_cap="6",
                    rake_recorded="per_down")
    night.open_game("PL Omaha", ("1", "2"), ("100", "500"), "hourly", time_fee="10")
    for game, table in (("NL Hold'em 1/2", "1"), ("NL Hold'em 2/5", "2"), ("PL Omaha 1/2", "3")):
        night.open_table(game, table)
        night.desk_table_ids[table] = night.table_id(table)
    tables = ["1", "2", "3"]

    # Players join the lists and claim the seats they are offered (R10, R20, R21, R30).
    plan = [("1", "NL Hold'em 1/2", 3, 20000), ("2", "NL Hold'em 2/5", 2, 50000),
            ("3", "PL Omaha 1/2", 9, 15000)]
    for table, game, players, buy_in in plan:
        for i in range(1, players + 1):
            first, last = f"T{table}p{i}", "Night"
            night.add_to_list(first, last, game)
            offered = desk.locator(f"#desk-live article[data-table-name='{table}'] .seat.state-offered")
            seat_no = int(offered.first.get_attribute("data-seat-no") or 0)
            night.claim(table, seat_no, f"{first} {last}", buy_in)
    desk.screenshot(path=str(SHOTS / "night-desk.png"))

    # Time at table 3, the coming hour from every player (R50).
    live.clock.advance(minutes=2)
    night.collect_time("3", 9, 1000)

    # The dealers: table 1 raked per hand, table 2 per down (R51).
    live.clock.advance(minutes=5)
    night.deal("1", 2)
    night.rake("1", 4000, 200)
    night.deal("1", 1)
    night.rake("1", 12000, 500)  # 5% capped at 5.00
    night.deal("2", 4)
    night.down("2", 1800)

    # Chips in transit: asked at the cage, authorised by the supervisor, confirmed by the dealer
    # at the table (R31, R61).
    live.clock.advance(minutes=5)
    night.find("1/1")
    transit = night.cage.locator("form[data-form=transit]")
    transit.locator("input[name=amount]").fill("100")
    transit.locator("select[name=method]").select_option("cash")
    transit.get_by_role("button", name="Request transit").click()
    night.ok(night.cage, "Slip 1")
    desk.goto(f"{live.url}/desk/cage")
    desk.locator("tr[data-slip='1']").get_by_role("button", name="Authorise").click()
    night.ok(desk, "Slip 1")
    dealer = night.at_table("1")
    dealer.locator("tr[data-slip='1']").get_by_role("button", name="Confirm delivery").click()
    night.ok(dealer, "Slip 1: delivered.")
    night.moved("1", 10000)

    # An add-on recorded by mistake, reversed by the supervisor with a reason (R52).
    night.find("2/1")
    add_on = night.cage.locator("form[data-movement=add_on]")
    add_on.locator("input[name=amount]").fill("50")
    add_on.locator("select[name=method]").select_option(label="cash at the table")
    add_on.locator("button[type=submit]").click()
    night.ok(night.cage, "Add-on of £50.00 recorded")
    night.moved("2", 5000)
    desk.goto(f"{live.url}/desk/cage?q=2/1")
    row = desk.locator("table.cage-rows tr", has_text="add on")
    row.get_by_label("reason to reverse", exact=False).fill("the wrong seat")
    row.get_by_role("button", name="Reverse").click()
    night.ok(desk, "reversed")
    night.moved("2", -5000)

    # A player leaves; the cage pays what the desk recorded (R27).
    night.leave("1", 2, 26500)
    night.cash_out("T1p2 Night", "1", 26500)

    # A break runs out: the sweep releases the seat and the cage pays the stack left (R23, R24).
    live.clock.advance(minutes=5)
    desk.goto(f"{live.url}/desk")
    dialog = night.act("2", 2)
    dialog.get_by_label("Stack left on the table").fill("410")
    dialog.get_by_role("button", name="Grant a break").click()
    night.ok(desk, "break")
    live.clock.advance(minutes=61)
    live.sweep()
    night.cage.goto(f"{live.url}/desk/cage")
    expect(night.cage.locator("#awaiting article")).to_contain_text("T2p2 Night")
    night.cash_out("T2p2 Night", "2", 41000)

    # The player who left comes back within two hours: the same stack at least (R27).
    desk.goto(f"{live.url}/desk")
    desk.locator("summary", has_text="Put a player on lists").click()
    join = desk.locator("form[data-form=join]")
    join.locator("input[name=player_id]").fill("T1p2 Night")
    join.locator("label", has_text="NL Hold'em 1/2").locator("input[name=game_id]").check()
    join.locator("button[type=submit]").click()
    night.ok(desk, "T1p2 Night")
    offered = desk.locator("#desk-live article[data-table-name='1'] .seat.state-offered").first
    seat_no = int(offered.get_attribute("data-seat-no") or 0)
    dialog = night.act("1", seat_no)
    claim = dialog.locator("section[data-for=seat-offered] form").first
    claim.locator("input[name=buy_in]").fill("100")
    claim.locator("button[type=submit]").click()
    expect(desk.locator("body")).to_contain_text("R27")
    desk.goto(f"{live.url}/desk")
    night.claim("1", seat_no, "T1p2 Night", 26500)

    # A playover: a player at the full Omaha table goes on a break and the first on the list plays
    # over with their own chips until the owner is back (R29).
    desk.goto(f"{live.url}/desk")
    night.add_to_list("Dora", "Over", "PL Omaha 1/2")
    dialog = night.act("3", 5)
    dialog.get_by_label("Stack left on the table").fill("160")
    dialog.get_by_role("button", name="Grant a break").click()
    night.ok(desk, "break")
    dialog = night.act("3", 5)
    start = dialog.locator("section[data-for=seat-absent] form[data-when=open]").first
    start.locator("input[name=buy_in]").fill("150")
    start.get_by_role("button", name="Start the playover").click()
    night.ok(desk, "Dora Over plays over seat 5 at table 3 with £150.00")
    night.moved("3", 15000)  # the overplayer's own buy-in, apart from the owner's box
    expect(night.at_table("3").locator("[data-played-seat='5']")).to_contain_text(
        "Dora O. plays over with £150.00 · the box is T3p5 N.'s: £160.00")
    live.clock.advance(minutes=20)
    dialog = night.act("3", 5)
    back = dialog.locator("section[data-for=seat-absent] form[data-when=played]",
                          has=desk.locator("input[name=overplayer_stack]"))
    back.locator("input[name=overplayer_stack]").fill("175")
    back.get_by_role("button", name="Back at the table").click()
    night.ok(desk, "Dora Over must leave at the end of the hand (R29)")
    night.cash_out("Dora Over", "3", 17500)

    # 22:00: shift 1 (nothing happened) and shift 2 are counted and closed by two people, with the
    # tables still running (the room's policy warns, R54).
    night.until(22, 1)
    night.close(1, tables)
    night.close(2, tables)
    expect(desk.locator(".flash.warn")).to_contain_text("Closed with tables still running")
    night.shift = 3

    # The night shift: another hour of time, more rake, and everyone leaves and is cashed out.
    night.collect_time("3", 9, 1000)
    night.deal("1", 2)
    night.rake("1", 3000, 100)
    desk.goto(f"{live.url}/desk")
    # Table 2 is short-handed (R33): a new player joins its list, and the seats go to the list in
    # order, first to the player whose break ran out (put at the bottom of it, R24).
    night.add_to_list("Late", "Comer", "NL Hold'em 2/5")
    offered = desk.locator("#desk-live article[data-table-name='2'] .seat.state-offered")
    expect(offered).to_have_count(2)
    for name, buy_in in (("T2p2 Night", 41000), ("Late Comer", 30000)):
        seat = offered.filter(has_text=name)
        night.claim("2", int(seat.get_attribute("data-seat-no") or 0), name, buy_in)
    night.deal("2", 2)
    night.down("2", 1000)
    night.until(1, 30)  # within the sessions' idle timeout (R61; docs/security.md)
    leaving = {"1": [31000, 18000, 25000], "2": [60000, 40000, 22000], "3": [20000, 12000, 9000, 14000,
                                                                     15000, 10000, 11000, 12000,
                                                                     11000]}
    for table, amounts in leaving.items():
        taken = desk.locator(f"#desk-live article[data-table-name='{table}'] .seat.state-seated")
        for amount in amounts:
            desk.goto(f"{live.url}/desk")
            seat = taken.first
            seat_no = int(seat.get_attribute("data-seat-no") or 0)
            name = seat.get_attribute("data-player") or ""
            night.leave(table, seat_no, amount)
            night.cash_out(name, table, amount)
    desk.goto(f"{live.url}/desk")
    expect(desk.locator("#desk-live .seat.state-seated")).to_have_count(0)

    # The day closes once it has ended (R2, R54): the night shift at 06:05, the desk and the cage
    # still logged in from the night (an idle session ends after 4 hours).
    night.until(4, 0)
    for page in (desk, night.cage):
        page.goto(f"{live.url}/desk/cage")
    night.until(6, 5)
    night.close(3, tables)
    expect(desk.locator("[data-closed]")).to_be_visible()
    for shift in (1, 2, 3):
        desk.goto(f"{live.url}/desk/cage/days/{DAY.isoformat()}/report?shift={shift}")
        counts = desk.locator("table.counts tbody tr")
        expect(counts.first).to_be_visible()
        for i in range(counts.count()):
            expect(counts.nth(i).locator("[data-variance]")).to_have_attribute("data-variance", "0")
    per_game = desk.locator("section", has=desk.locator("h2", has_text="Per game"))
    expect(per_game).to_contain_text("NL Hold'em 2/5")  # never the minor units (R4)
    desk.screenshot(path=str(SHOTS / "night-report.png"), full_page=True)
