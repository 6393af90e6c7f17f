"""R12-R18, R61: the pure rules of a player's remote entries, and why an entry was passed over
(the allocation's ``passed``, no database)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from roomops.holds.allocation import Candidate, TableState, allocate
from roomops.remote import rules
from roomops.remote.rules import PASSED, history_line, new_token, over_cap, token_hash

T0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_r61_tokens_are_unguessable_and_stored_as_their_hash():
    tokens = {new_token() for _ in range(100)}
    assert len(tokens) == 100 and all(len(t) >= 32 for t in tokens)
    token = tokens.pop()
    assert token_hash(token) == token_hash(token) != token and len(token_hash(token)) == 64


def test_r12_cap_counts_what_is_held_and_what_is_joining():
    assert not over_cap(1, 2, 3)
    assert over_cap(2, 2, 3)
    assert over_cap(3, 1, 3)


def test_r15_an_entry_passed_over_because_barred_is_named_once():
    tables = [TableState(1, [3, 4], {9})]
    cands = [Candidate(1, 1, at(0)), Candidate(2, 2, at(1)), Candidate(3, 3, at(2))]
    first, second = allocate(tables, cands, {frozenset((1, 9))}, set())
    assert (first.entry_id, first.passed) == (2, ((1, "barred"),))
    assert second.passed == ()  # told once per round


def test_r14_already_at_the_table_and_r18_short_are_named():
    tables = [TableState(1, [3], {1}, seated=8), TableState(2, [], {5, 6}, seated=2)]
    cands = [Candidate(1, 1, at(0), table_id=1), Candidate(5, 5, at(1), seated_at=2),
             Candidate(7, 7, at(2))]
    [a] = allocate(tables, cands, set(), set())
    assert a.entry_id == 7
    assert dict(a.passed) == {1: "at_table", 5: "short"}


def test_r17_a_must_move_player_going_first_names_the_head_of_the_list():
    tables = [TableState(1, [3], set())]
    mover = Candidate(None, 50, at(5), from_hold_id=77)
    [a] = allocate(tables, [Candidate(1, 1, at(0)), Candidate(2, 2, at(1)), mover], set(), set())
    assert (a.player_id, a.passed) == (50, ((1, "must_move"),))


def test_r11_r14_a_reserve_entry_ahead_names_the_waiting_entry_it_went_before():
    tables = [TableState(1, [5], set())]
    [a] = allocate(tables, [Candidate(2, 2, at(10), table_id=1), Candidate(1, 1, at(30))],
                   set(), set())
    assert (a.entry_id, a.passed) == (2, ((1, "reserve"),))


def test_r14_list_order_names_nobody():
    tables = [TableState(1, [5], set())]
    [a] = allocate(tables, [Candidate(1, 1, at(0)), Candidate(2, 2, at(1))], set(), set())
    assert a.passed == ()


TABLES = {4: "4"}


def test_r13_r16_history_in_the_players_words():
    assert history_line("entry.joined", {"source": "remote"}, None, TABLES) == (
        "You joined the waiting list from your phone.")
    assert history_line("offer.made", {"table_id": 4, "seat_no": 7}, None, TABLES) == (
        "You were called to table 4 seat 7.")
    assert history_line("offer.expired", {"policy": "remove"}, None, TABLES) == (
        "You missed the call: the time to claim ran out, so you came off the list.")
    assert history_line("offer.declined", {"policy": "bottom"}, None, TABLES) == (
        "You missed the call: you declined it, so you went to the bottom of the list.")
    for action in ("offer.expired", "offer.declined"):  # R29: called while playing over a seat
        assert history_line(action, {"policy": "playing_over"}, None, TABLES) == (
            "You were called while playing over a seat and could not come: you keep your place "
            "on the list.")
    for because, words in PASSED.items():
        assert history_line("entry.passed_over", {"table_id": 4, "seat_no": 2, "because": because},
                            None, TABLES) == f"A seat opened at table 4 seat 2: {words}."
    assert not any("(R" in words for words in PASSED.values())  # words for players, no rule ids
    assert history_line("entry.reordered", {"from_position": 5, "to_position": 2}, "a mistake",
                        TABLES) == "A supervisor moved you from place 5 to place 2: a mistake."
    assert history_line("entry.seated", {}, None, TABLES) == "You were seated. Good luck!"
    assert history_line("entry.left", {}, "left from the phone", TABLES) == "You left this list."


def test_r16_a_removal_says_why_and_a_missed_calls_second_row_says_nothing():
    assert history_line("entry.removed", {}, "went home", TABLES) == (
        "The desk took you off the list: went home.")
    assert history_line("entry.removed", {}, "missed call (expired)", TABLES) is None
    assert history_line("player_link.made", {}, None, TABLES) is None


# ---- issue 40: the code that proves the phone, the link's end (R12, R2, R61) ----------------


def test_r12_a_code_is_six_digits_stored_keyed_with_the_pending_secret():
    code = rules.new_code()
    assert len(code) == 6 and code.isdigit()
    stored = rules.code_hash("secret-a", code)
    assert code not in stored and stored != rules.code_hash("secret-b", code)
    assert rules.code_matches("secret-a", f" {code[:3]} {code[3:]} ", stored)  # spaces typed
    assert not rules.code_matches("secret-b", code, stored)


def test_r12_a_codes_state_comes_from_its_deadline_tries_and_use():
    made = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
    deadline = made + rules.CODE_LIFE
    assert rules.code_state(deadline, 0, None, made) == "open"
    assert rules.code_state(deadline, 0, None, deadline) == "expired"
    assert rules.code_state(deadline, rules.CODE_TRIES, None, made) == "spent"
    assert rules.code_state(deadline, 1, made, made + timedelta(hours=1)) == "used"
    assert not rules.too_many_codes(rules.CODES_PER_NUMBER - 1)
    assert rules.too_many_codes(rules.CODES_PER_NUMBER)


def test_r2_a_link_ends_at_the_start_of_the_second_gaming_day_after_its_join():
    six, london = time(6, 0), "Europe/London"
    end = datetime(2026, 11, 23, 6, 0, tzinfo=UTC)
    # 23:00 on the 21st and 03:00 on the 22nd are both the 21st's gaming day
    assert rules.link_deadline(datetime(2026, 11, 21, 23, 0, tzinfo=UTC), london, six) == end
    assert rules.link_deadline(datetime(2026, 11, 22, 3, 0, tzinfo=UTC), london, six) == end
    assert rules.link_deadline(datetime(2026, 11, 22, 7, 0, tzinfo=UTC), london, six) == (
        datetime(2026, 11, 24, 6, 0, tzinfo=UTC))
    # across the clocks going back (25 October 2026): 06:00 local, BST then GMT
    assert rules.link_deadline(datetime(2026, 10, 24, 12, 0, tzinfo=UTC), london, six) == (
        datetime(2026, 10, 26, 6, 0, tzinfo=UTC))
    assert rules.link_live(end, datetime(2026, 11, 23, 5, 59, tzinfo=UTC))
    assert not rules.link_live(end, end)
