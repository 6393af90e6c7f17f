"""Table moves at the desk in a real browser: the balancing suggestion moved with one click (R19),
then a table broken from its dialog, its players moved or put at the top of the list (R19)."""

from __future__ import annotations

import re
from datetime import timedelta

from playwright.sync_api import expect

from roomops.seating import seats
from tests.browser.conftest import log_in
from tests.units import act


def _two_tables(room, session, now):
    """Table 1 with 8 players, table 2 with 2: a difference of 6 (R19)."""
    game = room.game(now)
    t1, t2 = room.table(now, game, "1"), room.table(now, game, "2")
    for i, p in enumerate(room.players(now, 8, "One"), start=1):
        act(session, room.sup, now + timedelta(seconds=i), seats.seat_directly, table_id=t1.id, seat_no=i,
            player_id=p.id, buy_in=20000)
    for i, p in enumerate(room.players(now, 2, "Two"), start=1):
        act(session, room.sup, now, seats.seat_directly, table_id=t2.id, seat_no=i, player_id=p.id,
            buy_in=15000)
    return t1.id, t2.id


def test_r19_balance_then_break_a_table_from_the_desk(live, page):
    t1, t2 = live.build(_two_tables)
    log_in(page, live)
    balance = page.locator("#desk-live .balance")
    expect(balance).to_contain_text("One8 Player")  # the last to join table 1
    expect(balance).to_contain_text("last to join")
    balance.locator("button[type=submit]").click()
    expect(page.locator(".flash.ok")).to_contain_text("Moved One8 Player to seat 3 at table 2")
    expect(page.locator(f"#table-{t2} .seat[data-seat-no='3']")).to_contain_text("One8 Player")
    page.locator(f"#table-{t2} button[data-act=table]").click()
    dialog = page.locator("dialog#act")
    expect(dialog).to_be_visible()
    page.once("dialog", lambda question: question.accept())  # "Break this table?" (confirm.js)
    dialog.locator("section[data-for=table] button", has_text="Break table").click()
    expect(page.locator(".flash.ok")).to_contain_text("Broke table 2: 2 moved; 1 to the top of the "
                                                      "waiting list (R19)")
    expect(page.locator(f"#table-{t2}")).to_have_count(0)
    expect(page.locator(f"#table-{t1} .seat.state-seated")).to_have_count(9)
    expect(page.locator("#desk-live table[data-list=waiting] tr.entry")).to_have_count(1)
    expect(page.locator(f"#table-{t1}")).to_contain_text(re.compile("One8 Player|Two1 Player"))


def test_r19_the_balance_move_posts_without_javascript(live, browser):
    """The page's live part is the drawing the room's desks share, its forms' empty tokens
    replaced by this viewer's on the server (roomops.desk.views.index): without JavaScript the
    form posts as it is, and the move is made (a form left without its token is refused, 400)."""
    live.build(_two_tables)
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        log_in(page, live)
        with page.expect_navigation():
            page.locator("#desk-live .balance button[type=submit]").click()
        expect(page.locator(".flash.ok")).to_contain_text("Moved One8 Player to seat 3 at table 2")
    finally:
        context.close()


def test_r19_a_balance_that_arrives_with_a_redraw_moves_with_the_pages_token(live, page):
    """The desk's live part is drawn once for every desk, its forms with no CSRF token
    (roomops.desk.shared, issue 21): a form that arrives with a redraw takes the page's, so the
    move it suggests goes through (a form left without one would be refused, 400)."""
    def four_and_three(room, session, now):
        game = room.game(now)
        t1, t2 = room.table(now, game, "1"), room.table(now, game, "2")
        for i, p in enumerate(room.players(now, 7, "Early"), start=1):
            act(session, room.sup, now, seats.seat_directly, table_id=(t1 if i <= 4 else t2).id,
                seat_no=i, player_id=p.id, buy_in=20000)
        return t1.id, room.player(now, "Late").id

    t1, late = live.build(four_and_three)
    log_in(page, live)
    expect(page.locator("#desk-live .seat.state-seated")).to_have_count(7)
    expect(page.locator("#desk-live .balance")).to_have_count(0)  # 4 and 3
    # a fifth at table 1: 5 and 3
    live.act("main-supervisor", seats.seat_directly, table_id=t1, seat_no=8, player_id=late, buy_in=20000)
    page.evaluate("() => window.roomopsDesk.poll()")
    balance = page.locator("#desk-live .balance")
    expect(balance).to_contain_text("Late Player")
    token = page.evaluate("document.body.dataset.csrf")
    assert token and balance.locator("input[name=csrf_token]").input_value() == token
    balance.locator("button[type=submit]").click()
    expect(page.locator(".flash.ok")).to_contain_text("Moved Late Player")
