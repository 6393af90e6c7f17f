"""The desk read standing at arm's length all night (issue 40): names, seat numbers and list names at
least 14 px on the 1366 px laptop and larger on a 1920 px screen, where the tables use the width
(no band of blank beside them) and a seated player's name stays on one line."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SHOTS, log_in
from tests.browser.test_desk import populated_desk

# The computed font size, in px, of the first element each selector finds on the live desk.
SIZES = """sels => Object.fromEntries(sels.map(s => {
  const el = document.querySelector('#desk-live ' + s);
  return [s, el ? parseFloat(getComputedStyle(el).fontSize) : null];
}))"""
READ = (".seat.state-seated .who", ".seat .no", "table.list .name .linkish")
# The share of each game's tables area, right of its list, that its table cards leave blank.
BLANK = """() => Math.max(...[...document.querySelectorAll('#desk-live .game .tables')].map(area => {
  const box = area.getBoundingClientRect();
  const cards = [...area.querySelectorAll('.table-card')];
  const right = Math.max(...cards.map(c => c.getBoundingClientRect().right));
  return (box.right - right) / box.width;
}))"""
WRAPPED = """() => [...document.querySelectorAll('#desk-live .seat.state-seated .who')]
  .filter(e => e.scrollWidth > e.clientWidth
    || e.getBoundingClientRect().height > parseFloat(getComputedStyle(e).lineHeight) * 1.5)
  .map(e => e.textContent.trim())"""


@pytest.mark.parametrize("width,height,least", [(1366, 768, 14), (1920, 1080, 16)])
def test_names_and_seat_numbers_read_from_arms_length(live, page, width, height, least):
    populated_desk(live)
    page.set_viewport_size({"width": width, "height": height})
    log_in(page, live)
    expect(page.locator("#desk-live .seat.state-offered").first).to_be_visible()
    page.screenshot(path=str(SHOTS / f"desk-{width}.png"))
    sizes, blank, wrapped = page.evaluate(SIZES, list(READ)), page.evaluate(BLANK), page.evaluate(WRAPPED)
    assert all(size is not None and size >= least for size in sizes.values()), (width, sizes, blank)
    if width == 1920:
        assert blank < 0.1, blank  # the tiles use the width
        assert wrapped == []  # a first and last name on one line, whole


# In the shown sections of the open dialog, in order: each submit button's text and classes.
BUTTONS = """() => [...document.querySelectorAll(
    'dialog#act section:not([hidden]) form:not([hidden]) [type=submit]')]
  .filter(b => b.getClientRects().length).map(b => [b.textContent.trim(), b.className])"""


def test_a_seated_players_dialog_leads_with_the_break_its_stack_filled_in(live, page):
    """R23: the break is what the floor does most for a seated player: its button is the first
    and the primary one, its stack the seat's last known one (the buy-in) to count over; nothing
    destructive comes first and "Record leaving" is no default."""
    populated_desk(live)
    live.clock.advance(hours=1)  # seated long enough for a break (R23)
    log_in(page, live)
    page.locator("#desk-live .table-card[data-table-name='1'] .seat[data-seat-no='1'] button").click()
    dialog = page.locator("dialog#act")
    expect(dialog).to_be_visible()
    buttons = page.evaluate(BUTTONS)
    assert buttons[0] == ["Grant a break", "btn primary"], buttons
    assert [b for b in buttons if "primary" in b[1]] == [buttons[0]]
    stack = dialog.locator("section[data-for=seat-present] input[name=stack]").first
    expect(stack).to_have_value("225")  # Ana Silva bought in for £225
    expect(stack).to_be_focused()
    page.screenshot(path=str(SHOTS / "desk-seated-dialog.png"))
    stack.press("Enter")
    expect(page.locator(".flash.ok")).to_contain_text("break")
