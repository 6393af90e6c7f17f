"""R51 on the dealer's tablet in Chromium: as the pot is typed, the most rake it allows (with the
cap for the players dealt in) shows before the rake is typed; more is refused in the room's money,
in the form where it was typed."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import SHOTS, log_in
from tests.browser.test_board import fill
from tests.browser.test_dealer import TABLET


def _per_hand(room, session, now):
    """5.5% capped at 5.00, 3.00 from 8 players dealt in, in 0.25 chips; 8 seated."""
    game = room.game(now, fee_kind="rake", rake_bp=550, rake_cap=500, smallest_chip=25,
                     rake_caps_by_players=[{"players": 8, "cap": 300}])
    return fill(room, session, now, game, "5", 8, "r").id


def test_r51_the_most_rake_shows_as_the_pot_is_typed(live, page):
    live.build(_per_hand)
    page.set_viewport_size(TABLET)
    log_in(page, live, "main-dealer")
    page.get_by_role("link", name="Table 5").click()
    page.select_option("select[name=high_card_seat]", "8")
    page.locator("#deal").click()
    form, limit = page.locator("#rake-form"), page.locator("#rake-limit")
    expect(form).to_contain_text("Rake: 5.5%, max £5.00 a pot")  # R53: the percent with decimals
    # a live refresh may swap the form in after the page loaded (live.js): a new one, as here
    page.evaluate("() => { const f = document.getElementById('rake-form');"
                  " f.replaceWith(f.cloneNode(true)); }")
    form.locator("input[name=pot]").fill("40")  # 5.5% of 40.00 is 2.20: down to the 0.25 chip
    expect(limit).to_have_text("Most rake for this pot: £2.00 (cap £3.00 with 8 dealt in)")
    form.locator("input[name=pot]").fill("100")
    expect(limit).to_have_text("Most rake for this pot: £3.00 (cap £3.00 with 8 dealt in)")
    page.screenshot(path=str(SHOTS / "dealer-rake-limit.png"))
    form.locator("input[name=flop]").uncheck()
    expect(limit).to_have_text("No flop, no drop: no rake")
    form.locator("input[name=flop]").check()
    form.locator("input[name=rake]").fill("3.25")
    form.get_by_role("button", name="Record rake").click()
    refusal = form.locator(".refusal")  # in the form, the pot and rake typed kept
    expect(refusal).to_contain_text("at most £3.00")
    expect(refusal).to_contain_text("R51")
    expect(form.locator("input[name=rake]")).to_have_value("3.25")
