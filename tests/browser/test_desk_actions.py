"""A desk action in a real browser keeps the page: the dialog closes, the live part is read again
and the message shows with the seats it speaks of (R20, R60); the supervisor's open panel and
place stay; a player added is put among the suggestions (R10); a table opened (R5) is put in the
page's forms, drawn again around the live part."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from roomops.games import services as games
from roomops.lists import services as lists
from tests.browser.conftest import SHOTS, log_in
from tests.browser.test_board import change
from tests.services.helpers import full_game
from tests.units import act

MARK = "() => { window.stillThisPage = true; }"
SAME_PAGE = "() => window.stillThisPage === true"


def _one_open_seat_and_two_waiting(room, session, now):
    game, _table = full_game(room, session, now, free=1)
    for first in ("Nora", "Pete"):
        act(session, room.sup, now, lists.join, player_id=room.player(now, first, "Quinn").id,
            game_id=game.id)
    return game.id


def test_r21_r60_a_claim_keeps_the_page_and_shows_its_message_with_the_seat(live, page):
    live.build(_one_open_seat_and_two_waiting)
    log_in(page, live)
    page.evaluate(MARK)
    seat = page.locator("#desk-live .seat[data-seat-no='9']")
    expect(seat).to_have_class(re.compile("state-offered"))  # R20: Nora, first on the list
    seat.locator("button").click()
    dialog = page.locator("dialog#act")
    dialog.locator("section[data-for=seat-offered] form").first.locator("button[type=submit]").click()
    expect(page.locator(".flash.ok")).to_have_text("Nora Quinn took seat 9 at table 1 with £100.00.")
    expect(dialog).to_be_hidden()
    expect(seat).to_have_class(re.compile("state-seated"))  # drawn before the message shows
    assert page.evaluate(SAME_PAGE)
    page.screenshot(path=str(SHOTS / "desk-action-kept-page.png"))


def test_r36_the_swap_offers_the_players_seated_since_the_page_loaded(live, page):
    live.build(_one_open_seat_and_two_waiting)
    log_in(page, live)
    page.evaluate(MARK)
    seat = page.locator("#desk-live .seat[data-seat-no='9']")
    seat.locator("button").click()
    page.locator("dialog#act section[data-for=seat-offered] form").first.locator(
        "button[type=submit]").click()
    expect(seat).to_have_class(re.compile("state-seated"))
    page.locator("#desk-live .seat[data-seat-no='1'] button").click()
    options = page.locator("dialog#act select[name=other_hold_id] option")
    expect(options).to_have_count(8)  # the table's other players, seat 9's newcomer among them
    expect(options.last).to_have_text("T1 seat 9 · Nora Quinn")
    assert page.evaluate(SAME_PAGE)


def test_r60_the_list_form_is_emptied_and_stays_open_for_the_next_player(live, page):
    def build(room, session, now):
        room.player(now, "Walk", "In")
        return _one_open_seat_and_two_waiting(room, session, now)

    game_id = live.build(build)
    log_in(page, live)
    page.evaluate(MARK)
    page.locator("summary", has_text="Put a player on lists").click()
    form = page.locator("form[data-form=join]")
    form.locator("input[name=player_id]").fill("Walk In")
    form.locator(f"input[name=game_id][value='{game_id}']").check()
    form.locator("button[type=submit]").click()
    expect(page.locator(".flash.ok")).to_have_text("Put Walk In on 1 list.")
    expect(page.locator("#desk-live")).to_contain_text("Walk In")
    expect(form.locator("input[name=player_id]")).to_have_value("")
    expect(form.locator(f"input[name=game_id][value='{game_id}']")).not_to_be_checked()
    expect(form).to_be_visible()
    assert page.evaluate(SAME_PAGE)


def test_r10_a_player_added_keeps_the_page_and_is_among_the_suggestions(live, page):
    """A new face is the desk's most common action on a busy night: the page stays (no reload of
    a 250-table room) and the player can be picked at once, by the name the suggestions give."""
    game_id = live.build(_one_open_seat_and_two_waiting)
    log_in(page, live)
    page.evaluate(MARK)
    added = page.locator("form[data-form=add-player]")
    added.locator("input[name=first_name]").fill("Ola")
    added.locator("input[name=last_name]").fill("New")
    added.locator("button[type=submit]").click()
    expect(page.locator(".flash.ok")).to_have_text("Added Ola New.")
    expect(added.locator("input[name=first_name]")).to_have_value("")
    suggestion = page.locator("datalist#players option").first
    expect(suggestion).to_have_attribute("value", re.compile(r"^Ola New #\d+$"))
    assert page.evaluate(SAME_PAGE)
    page.locator("summary", has_text="Put a player on lists").click()
    join = page.locator("form[data-form=join]")
    join.locator("input[name=player_id]").fill(suggestion.get_attribute("value") or "")
    join.locator(f"input[name=game_id][value='{game_id}']").check()
    join.locator("button[type=submit]").click()
    expect(page.locator(".flash.ok")).to_have_text("Put Ola New on 1 list.")
    expect(page.locator("#desk-live")).to_contain_text("Ola New")
    assert page.evaluate(SAME_PAGE)


def test_r5_r19_opening_a_table_keeps_the_page_and_draws_its_forms_again(live, page):
    """The page's forms list the tables: the new one is in them at once (the move dialog's
    tables, the lists' reserve boxes), the panel as the supervisor left it, no page loaded."""
    live.build(_one_open_seat_and_two_waiting)
    log_in(page, live)
    page.evaluate(MARK)
    page.locator("summary", has_text="Put a player on lists").click()
    page.locator("summary", has_text="Open a table").click()
    page.locator("form[action$='/desk/tables'] input[name=name]").fill("7")
    page.locator("form[action$='/desk/tables'] button[type=submit]").click()
    expect(page.locator(".flash.ok")).to_contain_text("Opened table 7")
    expect(page.locator("dialog#act select[name=table_id] option", has_text="T7")).to_have_count(1)
    expect(page.locator("form[data-form=join] .choice-tables label", has_text="T7")).to_have_count(1)
    expect(page.locator("form[data-form=join]")).to_be_visible()  # its section still open
    expect(page.locator("#sync")).to_have_attribute("data-state", "ok")
    assert page.evaluate(SAME_PAGE)
    # the dialog drawn again still works: a move to the new table (Pete, waiting, is offered its
    # seat 1, R14)
    page.locator("#desk-live .table-card[data-table-name='1'] .seat[data-seat-no='1'] button").click()
    moved = page.locator("dialog#act section[data-for=seat-seated] form[data-action$='/move']")
    t7 = moved.locator("select[name=table_id] option", has_text="T7").get_attribute("value")
    moved.locator("select[name=table_id]").select_option(t7)
    moved.locator("input[name=seat_no]").fill("2")
    moved.locator("input[name=stack]").fill("100")
    moved.locator("button[type=submit]").click()
    expect(page.locator(".flash.ok")).to_contain_text("at table 7")
    seat = page.locator("#desk-live .table-card[data-table-name='7'] .seat[data-seat-no='2']")
    expect(seat).to_have_attribute("data-state", "seated")
    assert page.evaluate(SAME_PAGE)


def test_a_change_to_one_game_redraws_that_game_only(live, page):
    """Issue 21: a desk re-reading is sent the game that changed; the other stays the same
    element (nothing parsed or laid out again) and its countdown (R20) runs on."""
    def build(room, session, now):
        one = _one_open_seat_and_two_waiting(room, session, now)
        two, _ = full_game(room, session, now, free=0, name="2", small_blind=200, big_blind=500)
        return one, two.id, room.player(now, "Ola", "New").id

    one, two, ola = live.build(build)
    log_in(page, live)
    page.evaluate(f"() => {{ document.getElementById('game-{one}').stillThisGame = true; }}")
    change(live, lambda unit: lists.join(unit, player_id=ola, game_id=two))
    page.evaluate("() => window.roomopsDesk.poll()")
    expect(page.locator(f"#game-{two}")).to_contain_text("Ola New")
    assert page.evaluate(f"() => document.getElementById('game-{one}').stillThisGame === true")
    countdown = page.locator(f"#game-{one} .seat[data-seat-no='9'] .countdown")
    # from the server's frozen clock, plus the seconds the browser has run since its last answer
    expect(countdown).to_have_text(re.compile(r"^(10:00|9:[0-5]\d)$"))
    live.clock.advance(minutes=2)
    page.evaluate("() => window.roomopsDesk.poll()")  # a 304 that brings the server's clock
    expect(countdown).to_have_text(re.compile(r"^(8:00|7:[0-5]\d)$"))


def test_r5_a_table_opened_at_another_desk_is_in_the_forms_once_nothing_is_typed(live, page):
    """The page's forms list the games and tables: opened elsewhere, the table must be in them.
    What the supervisor is typing is not lost: the forms are drawn again once it is sent or
    cleared, and the page itself is never loaded again."""
    game_id = live.build(_one_open_seat_and_two_waiting)
    log_in(page, live)
    page.evaluate(MARK)
    first_name = page.locator("form[data-form=add-player] input[name=first_name]")
    first_name.fill("Half typed")
    change(live, lambda unit: games.open_table(unit, game_id, "7"))
    page.evaluate("() => window.roomopsDesk.poll()")
    expect(page.locator("#desk-live")).to_contain_text("Table 7")
    expect(page.locator("#sync")).to_have_attribute("data-state", "outdated")
    assert first_name.input_value() == "Half typed"
    expect(page.locator("dialog#act select[name=table_id] option", has_text="T7")).to_have_count(0)
    first_name.fill("")
    expect(page.locator("dialog#act select[name=table_id] option", has_text="T7")).to_have_count(1)
    expect(page.locator("#sync")).to_have_attribute("data-state", "ok")
    assert page.evaluate(SAME_PAGE)


def test_forms_drawn_for_another_shape_are_not_asked_for_again_and_again(live, page):
    """Forms that come back drawn for another shape than the live part's (a change landing
    between the two reads) are asked for again only once the live part moves: never once a
    second while the desk is open."""
    game_id = live.build(_one_open_seat_and_two_waiting)
    asked: list[str] = []

    def answer_for_another_shape(route):
        asked.append(route.request.url)
        drawn = route.fetch()
        route.fulfill(response=drawn, body=re.sub(r'data-shape="[^"]*"', 'data-shape="another"',
                                                  drawn.text(), count=1))

    page.route("**/desk/forms", answer_for_another_shape)
    log_in(page, live)
    change(live, lambda unit: games.open_table(unit, game_id, "7"))
    page.evaluate("() => window.roomopsDesk.poll()")
    expect(page.locator("dialog#act select[name=table_id] option", has_text="T7")).to_have_count(1)
    for _ in range(3):
        page.evaluate("() => window.roomopsDesk.tick()")
    page.evaluate("() => window.roomopsDesk.poll()")  # nothing changed: a 304
    assert len(asked) == 1, asked
