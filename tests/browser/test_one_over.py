"""R4/R14/R20 (issue 20) through the desk: a tenth player seated at a full 9-seat table with the
floor's written reason, the table marked over its count, no offer while it is at or over it, and
the seat offered again once it is under."""

from __future__ import annotations

from playwright.sync_api import expect

from roomops.seating import seats
from tests.browser.conftest import SHOTS, full_table, log_in

REASON = "long list: the floor squeezes a chair in"


def _full_table(room, session, now):
    """Table 1 full (Seat1..Seat9); Ten then Later waiting for the game."""
    table_id, held = full_table(room, session, now, "Ten", "Later")
    return table_id, [h.id for h in held]


def _leave(live, hold_id):
    live.act("main-supervisor", seats.leave, hold_id, 20000)


def test_r4_a_tenth_player_at_a_nine_seat_table_and_offers_only_once_under(live, page):
    table_id, held = live.build(_full_table)
    log_in(page, live)
    card = page.locator(f"#table-{table_id}")
    card.locator(".seat[data-seat-no='10'] button").click()
    dialog = page.locator("dialog#act")
    expect(dialog).to_contain_text("One over a full table")
    form = dialog.locator("form", has=page.get_by_role("button", name="Seat player"))
    form.get_by_label("Player").fill("Ten Player")
    # below the game's minimum: refused, and what was typed stays
    form.get_by_label("Buy-in", exact=True).fill("5")
    form.get_by_label("One over the table's count").fill(REASON)
    form.get_by_role("button", name="Seat player").click()
    expect(form.locator(".refusal")).to_contain_text("Nothing was changed")
    expect(form.get_by_label("One over the table's count")).to_have_value(REASON)
    form.get_by_label("Buy-in", exact=True).fill("200")
    form.get_by_role("button", name="Seat player").click()
    expect(page.locator(".flash.ok")).to_contain_text("seat 10 at table 1")
    fill = card.locator(".fill")
    expect(fill).to_have_text("10/9 · over by one · no offers until under 9")
    expect(fill).to_have_attribute("title", f"seat 10 one over its 9 seats (R4): {REASON}")
    expect(card.locator(".seat[data-seat-no='10']")).to_contain_text("Ten Player")
    page.screenshot(path=str(SHOTS / "desk-one-over.png"))

    _leave(live, held[3])  # seat 4: nine players, still at its count: no offer (R14)
    page.reload()
    expect(card.locator(".seat[data-seat-no='4']")).to_have_attribute("data-state", "empty")
    expect(fill).to_have_text("9/9 · extra seat in use · no offers until under 9")
    expect(page.get_by_text("Later Player").first).to_be_visible()
    expect(card.locator(".seat[data-state=offered]")).to_have_count(0)

    _leave(live, held[5])  # seat 6: eight, under its count: a seat is offered, never seat 10
    page.reload()
    expect(card.locator(".seat[data-state=offered]")).to_have_count(1)
    expect(card.locator(".seat[data-state=offered]")).to_contain_text("Later Player")
