"""The staff screens' notices, pure (issue 21): what a commit's audit rows tell which screen, the
staff hub's routing by key (a dealer of table A is not told of table B), a screen that falls
behind, and the push server's tokens (R61)."""

from __future__ import annotations

import json

from roomops.push.notices import CAGE, FLOOR, Notice, Row, dealer_keys, needs, parse, row_of, scope
from roomops.push.staff import EVERYTHING, LoggedIn, StaffHub, ThreadScreen, read_token, token

ROOM = 1
ME = LoggedIn(staff_id=7, version=3)


def row(entity: str, entity_id: int, action: str = "x.y", tables=(), games=(), room=ROOM) -> Row:
    return Row(room, entity, entity_id, action, tuple(tables), tuple(games))


def one(rows, found=None) -> Notice:
    (notice,) = scope(rows, found or {})
    return notice


def test_an_audit_row_as_queued_names_the_tables_and_game_of_its_detail():
    written = {"room_id": 3, "entity_type": "seat_hold", "entity_id": 9, "action": "seat.taken",
               "detail": {"table_id": 4, "from_table_id": 5, "game_id": 6, "player_id": 7,
                          "buy_in": 10000}}
    assert row_of(written) == Row(3, "seat_hold", 9, "seat.taken", (4, 5), (6,))


def test_a_seat_tells_the_desk_and_its_tables_dealer_only():
    rows = [row("seat_hold", 9, "break.started")]
    assert needs(rows) == {"seat_hold": {9}}
    notice = one(rows, {"seat_hold": {9: 4}})
    assert (notice.tables, notice.games, notice.floor, notice.cage) == ({4}, set(), True, False)
    assert notice.reaches() == {FLOOR, "t4"}


def test_a_move_tells_both_tables():
    notice = one([row("seat_hold", 9, "seat.taken", tables=(4, 5))], {"seat_hold": {9: 4}})
    assert notice.tables == {4, 5}


def test_a_list_change_tells_the_desk_alone():
    rows = [row("list_entry", 2, "entry.joined", games=(3,))]
    assert needs(rows) == {}
    notice = one(rows)
    assert notice.reaches() == {FLOOR}


def test_a_call_tells_its_tables_dealer_or_every_dealer_of_its_game_when_the_row_names_no_table():
    assert one([row("list_entry", 2, "offer.made", tables=(4,))]).reaches() == {FLOOR, "t4"}
    rows = [row("list_entry", 2, "offer.expired")]
    assert needs(rows) == {"list_entry": {2}}
    assert one(rows, {"list_entry": {2: 3}}).reaches() == {FLOOR, "g3"}


def test_a_game_and_a_table_tell_their_screens():
    assert one([row("game", 3, "game.changed")]).reaches() == {FLOOR, "g3"}
    assert one([row("table", 4, "hand.recorded")]).reaches() == {FLOOR, "t4"}


def test_slips_and_the_ledger_tell_the_cage_and_the_table_not_the_desk():
    rows = [row("transit_slip", 8, "transit.dispatched"), row("ledger_entry", 1, "ledger.buy_in", (5,))]
    assert needs(rows) == {"transit_slip": {8}}
    notice = one(rows, {"transit_slip": {8: 4}})
    assert (notice.cage, notice.floor, notice.tables) == (True, False, {4, 5})
    assert one([row("gaming_day", 1, "day.closed")]).reaches() == {CAGE}


def test_log_ins_tell_nobody_and_the_rooms_policy_or_an_unknown_entity_tells_everybody():
    assert scope([row("staff", 1, "staff.logged_in")], {}) == []
    assert one([row("room", ROOM, "policy.changed")]).everything
    assert one([row("something_new", 1)]).everything


def test_one_notice_per_room():
    notices = scope([row("game", 3), row("game", 4), row("game", 5, room=2)], {})
    assert {(n.room_id, n.games) for n in notices} == {(ROOM, frozenset({3, 4})), (2, frozenset({5}))}


def test_a_notice_carries_ids_only_encoded_once():
    notice = one([row("seat_hold", 9, tables=(4,))])
    data = json.loads(notice.sse.decode().split("data: ")[1])
    assert data == {"room": ROOM, "tables": [4], "games": [], "floor": True, "cage": False}
    assert notice.sse is notice.sse
    assert parse(notice.payload()) == notice
    assert parse(Notice(ROOM, everything=True).payload()).everything


def test_issue40_a_log_out_ends_the_screens_of_the_log_ins_before_it_only():
    """A log-out moves the staff member's session version on: their screens of earlier log-ins
    end (woken at once), a colleague's and their own new log-in's go on."""
    hub = StaffHub()
    mine = hub.subscribe(ThreadScreen(ROOM, {FLOOR}, ME))
    colleague = hub.subscribe(ThreadScreen(ROOM, {FLOOR}, LoggedIn(8, 1)))
    since = hub.subscribe(ThreadScreen(ROOM, {CAGE}, LoggedIn(ME.staff_id, ME.version + 1)))
    assert hub.end(ME.staff_id, ME.version + 1) == 1
    assert mine.ended and not colleague.ended and not since.ended
    assert mine.next(5) == b": keep-alive\n\n"  # woken now, not after its wait


def test_the_hub_tells_each_screen_only_of_its_keys():
    hub = StaffHub()
    desk = hub.subscribe(ThreadScreen(ROOM, {FLOOR}, ME))
    cage = hub.subscribe(ThreadScreen(ROOM, {CAGE}, ME))
    dealer_a = hub.subscribe(ThreadScreen(ROOM, dealer_keys(1, 10), ME))
    dealer_b = hub.subscribe(ThreadScreen(ROOM, dealer_keys(2, 10), ME))
    other_room = hub.subscribe(ThreadScreen(2, {FLOOR}, ME))
    b_changed = Notice(ROOM, tables=frozenset({2}), floor=True)
    assert hub.publish(b_changed) == 2
    assert desk.next(0) == dealer_b.next(0) == b_changed.sse
    assert dealer_a.next(0) is cage.next(0) is other_room.next(0) is None
    assert hub.publish(Notice(ROOM, games=frozenset({10}), floor=True)) == 3  # both dealers, once each
    assert hub.publish(Notice(ROOM, everything=True)) == 4
    hub.unsubscribe(desk)
    assert hub.watched() == 4


def test_a_screen_that_falls_behind_is_told_everything_once():
    hub = StaffHub()
    desk = hub.subscribe(ThreadScreen(ROOM, {FLOOR}, ME, size=2))
    for game in (1, 2, 3):
        hub.publish(Notice(ROOM, games=frozenset({game}), floor=True))
    assert desk.next(0) == EVERYTHING
    assert desk.next(0) is None


def test_a_token_opens_its_screen_until_it_expires_and_never_forged_or_altered():
    signed = token("secret", ROOM, {"t4", "g3"}, expires_ms=1000, login=LoggedIn(7, 2))
    assert read_token("secret", signed, now_ms=999) == (ROOM, frozenset({"t4", "g3"}), 1000,
                                                         LoggedIn(7, 2))
    assert read_token("secret", signed, now_ms=1000) is None  # expired
    assert read_token("another", signed, now_ms=0) is None  # forged
    assert read_token("secret", signed[:-2] + "xx", now_ms=0) is None  # altered
    assert read_token("secret", "", now_ms=0) is None


def test_r62_r64_a_dealers_check_in_or_break_tells_the_desk_and_the_table_they_left():
    notice = one([row("dealer", 12, "dealer.break_started", tables=(4,))])
    assert notice.reaches() == {FLOOR, "t4"}
    assert one([row("dealer", 12, "dealer.checked_in")]).reaches() == {FLOOR}


def test_r64_a_push_tells_the_desk_and_the_tables_dealer():
    assert one([row("table", 4, "dealer.down_started")]).reaches() == {FLOOR, "t4"}
