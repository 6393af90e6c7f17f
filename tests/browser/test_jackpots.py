"""R67-R70 in Chromium, as the floor works it: the supervisor starts a bad-beat scheme at the desk;
the dealer takes the jackpot drop with each hand's rake at the tablet (a pot too small is refused
in the form, in words); the board shows the pool before and after; the dealer claims a bad beat,
and the supervisor verifies it with the cashier's password and pays it; the prize record shows
every share."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import SHOTS, Live, log_in
from tests.browser.test_board import fill
from tests.browser.test_dealer import TABLET
from tests.factories import PASSWORD


def _raked(room, session, now):
    """A 5 % raked game in 1.00 chips with table 5 of eight players."""
    game = room.game(now, fee_kind="rake", rake_bp=500, smallest_chip=100)
    fill(room, session, now, game, "5", 8, "J")
    return game.id


def _start_scheme(page: Page, live: Live) -> None:
    log_in(page, live, "main-supervisor")
    page.goto(f"{live.url}/desk/jackpots")
    form = page.locator("form[data-form=start]")
    form.locator("input[name=name]").fill("Bad beat")
    form.locator("input[name=game_id]").first.check()
    form.locator("input[name=drop]").fill("1")
    form.locator("input[name=threshold]").fill("50")
    form.get_by_role("button", name="Start the scheme").click()
    expect(page.locator("[data-schemes]")).to_contain_text("Bad beat")
    page.evaluate("window.scrollTo(0, 0)")  # the reload kept the form's place: the docs show the top
    page.screenshot(path=str(SHOTS / "jackpots-desk.png"), full_page=True)
    page.locator("form[action='/logout'] button").click()


def _hand_with_rake(page: Page, hand_no: int, pot: str, rake: str) -> None:
    page.locator("#deal").click()
    expect(page.locator(".flashes")).to_contain_text(f"Hand {hand_no}:")
    form = page.locator("#rake-form")
    expect(form.locator("input[name=hand_no]")).to_have_value(str(hand_no))
    form.locator("input[name=pot]").fill(pot)
    form.locator("input[name=rake]").fill(rake)
    form.get_by_role("button", name="Record rake").click()


def test_r67_r70_a_night_with_drops_and_a_bad_beat_paid(live, page):
    live.build(_raked)
    _start_scheme(page, live)
    board = page.context.new_page()
    board.goto(f"{live.url}/board/main")
    expect(board.locator(".jackpot-amount")).to_have_text("Bad beat: £0.00")

    page.set_viewport_size(TABLET)
    log_in(page, live, "main-dealer")
    page.get_by_role("link", name="Table 5").click()
    page.select_option("select[name=high_card_seat]", "8")
    _hand_with_rake(page, 1, "40", "2")  # under the scheme's 50.00: refused in the form, nothing recorded
    refusal = page.locator("#rake-form .refusal")
    expect(refusal).to_contain_text("no jackpot drop from a pot under £50.00")
    page.locator("#rake-form input[name=jackpot_drop]").uncheck()
    page.locator("#rake-form").get_by_role("button", name="Record rake").click()
    expect(page.locator(".flashes")).to_contain_text("Rake of hand 1 recorded, no jackpot drop")
    for hand_no in (2, 3, 4):
        _hand_with_rake(page, hand_no, "60", "3")
        expect(page.locator(".flashes")).to_contain_text("and the jackpot drop of £1.00")
    expect(page.locator("#jackpot h2")).to_have_text("Bad beat: £3.00")
    expect(board.locator(".jackpot-amount")).to_have_text("Bad beat: £3.00")  # pushed to the board
    page.screenshot(path=str(SHOTS / "jackpots-tablet.png"), full_page=True)

    page.locator(".jackpot-claim summary").click()
    claim = page.locator("#jackpot-claim-form")
    claim.locator("input[name=losing_seat]").fill("5")
    claim.locator("input[name=losing_cards]").fill("Ah Ad Ac Kh Kd")
    claim.locator("input[name=winning_seat]").fill("3")
    claim.locator("input[name=winning_cards]").fill("Qh Qs Qc Qd")
    claim.get_by_role("button", name="Claim the jackpot").click()
    expect(page.locator(".flashes")).to_contain_text("a supervisor comes to verify it")

    page.set_viewport_size({"width": 1600, "height": 900})
    page.locator("form[action='/logout'] button").click()
    log_in(page, live, "main-supervisor")
    page.goto(f"{live.url}/desk/jackpots")
    pay = page.locator("form[data-form=pay]")
    pay.locator("input[name=second]").fill("main-cashier")
    pay.locator("input[name=second_password]").fill("wrong")
    pay.get_by_role("button", name="Verify and pay").click()
    expect(pay.locator(".refusal")).to_be_visible()
    pay.locator("input[name=second_password]").fill(PASSWORD)
    pay.get_by_role("button", name="Verify and pay").click()
    expect(page.locator(".flashes")).to_contain_text("Prize of £3.00 paid, verified with")
    record = page.locator("[data-prize-record]")  # the prize record opened, to print
    expect(record).to_be_visible()
    expect(record.locator("[data-prize]")).to_have_text("£3.00")
    expect(record.locator("[data-shares] tbody tr")).to_have_count(8)
    expect(record).to_contain_text("losing hand")
    page.screenshot(path=str(SHOTS / "jackpots-prize.png"), full_page=True)
    expect(board.locator(".jackpot-amount")).to_have_text("Bad beat: £0.00")
    board.screenshot(path=str(SHOTS / "jackpots-board.png"))
