"""The board's pure helpers, no database: the countdown filled in when served (R20, R22), one game
drawn from its rows (R11, R12, R14, R61), and the per-game cache's bounds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from markupsafe import escape

from roomops.board import countdown
from roomops.board.countdown import Timed
from roomops.board.render import absences_running, game_board
from roomops.board.rows import taken_seats, utc
from roomops.money import Money

GBP = Money("GBP")

T0 = datetime(2026, 11, 21, 20, 0, 0, tzinfo=UTC)
T0_MS = 1795291200000


# ---- countdown ----------------------------------------------------------------------------------


def test_to_ms_is_exact_and_floors():
    assert countdown.to_ms(T0) == T0_MS
    assert countdown.to_ms(T0 + timedelta(microseconds=999)) == T0_MS
    assert countdown.to_ms(T0 + timedelta(microseconds=1000)) == T0_MS + 1
    # float timestamps lose this one: 1795291200.123 * 1000 is 1795291200122.9999
    assert countdown.to_ms(T0 + timedelta(milliseconds=123)) == T0_MS + 123


@pytest.mark.parametrize("left_ms,seconds,text,live", [
    (600_000, 600, "10:00", True), (395_400, 395, "6:35", True), (1_000, 1, "0:01", True),
    (999, 0, "expired", False), (0, 0, "expired", False), (-5_000, 0, "expired", False),
])
def test_r20_r22_time_left_in_whole_seconds(left_ms, seconds, text, live):
    assert countdown.seconds_left(T0_MS + left_ms, T0_MS) == seconds
    assert countdown.clock_text(seconds) == text
    assert countdown.is_live(T0_MS + left_ms, T0_MS) is live


def test_timed_fills_every_mark_for_now_and_leaves_the_rest_alone():
    a, b = T0_MS + 65_000, T0_MS + 3_000
    timed = Timed.of(f"<p>a {countdown.mark(a)}</p><p>b {countdown.mark(b)}</p><p>c</p>")
    assert timed.deadlines == (a, b)
    assert timed.at(T0_MS) == (
        f'<p>a <span class="countdown" data-deadline="{a}" data-seconds-left="65">1:05</span></p>'
        f'<p>b <span class="countdown" data-deadline="{b}" data-seconds-left="3">0:03</span></p>'
        "<p>c</p>")
    later = timed.at(T0_MS + 2_500)  # the same cached value, later: only the countdowns move
    assert 'data-seconds-left="62">1:02<' in later and 'data-seconds-left="0">expired<' in later


def test_timed_without_marks_is_the_html_itself():
    assert Timed.of("<p>no calls</p>").at(T0_MS) == "<p>no calls</p>"


def test_text_that_looks_like_a_mark_is_escaped_and_never_filled():
    name = str(countdown.mark(T0_MS))  # a player could be called this
    html = f"<span class=\"who\">{escape(name)}</span>"
    assert Timed.of(html).at(T0_MS) == html


def test_an_expired_call_is_drawn_as_shown():
    assert str(countdown.expired(T0_MS)) == (
        f'<span class="countdown expired" data-deadline="{T0_MS}" data-seconds-left="0">expired</span>')
    assert Timed.of(str(countdown.expired(T0_MS))).deadlines == ()


# ---- one game from its rows --------------------------------------------------------------------

def seats(*numbers: int) -> int:
    """A table row's taken seats, as the board's reader reads them (bit n: seat n)."""
    return sum(1 << n for n in numbers)


def test_taken_seats_and_times_as_the_reader_reads_them():
    assert taken_seats(seats(1, 2, 10), 10) == [1, 2, 10]
    assert taken_seats(0, 9) == []
    # the database's text of a stored UTC time: SQLite's and PostgreSQL's forms
    assert utc("2026-11-21 20:30:00.000000") == utc("2026-11-21 20:30:00") == T0 + timedelta(minutes=30)
    assert utc("2026-11-21 20:00:00.123000") == T0 + timedelta(milliseconds=123)


GAME = (7, "NL Hold'em", 100, 200, 0, 10000, 40000, 9, "rake", 0, 550, 500, True, 1, False, False, True,
        100, False, 0, (), (), (), ())


def test_r11_r12_r14_r22_one_game_from_its_rows():
    deadline = T0_MS + 300_000
    rows = (GAME,
            # natural order: 2 before 10; seat 3 of table 10 plays behind (R31)
            ((21, "10", seats(1, 2, 3), (), None, ((3, 20000),)), (20, "2", 0, (), 21, ())),
            ((21, 4, 101, deadline, "Ana", "Silva"), (21, 5, 102, deadline, "Ben", "Okafor")),
            ((101, None, None, "Ana", "Silva"), (103, 99, None, "Cy", "Wu"),  # table 99 is closed
             (102, 21, None, "Ben", "Okafor"), (104, None, "2026-11-21 20:30:00", "Di", "Lo")))
    board = game_board(rows, "first_initial", ZoneInfo("Europe/Zurich"), GBP, (True, False), ())
    assert [(t.name, t.feeds) for t in board.tables] == [("2", "10"), ("10", None)]  # R17
    assert [t.behind for t in board.tables] == [[], ["Seat 3: playing behind £200.00"]]  # R31
    assert board.fees == "Rake: 5.5%, max £5.00 a pot, no flop no drop"  # R51/R53: 550 bp
    ten = board.tables[1]
    assert ten.seats[:6] == [(1, "seated"), (2, "seated"), (3, "seated"), (4, "offered"), (5, "expired"),
                             (6, "empty")]
    assert (ten.seated, ten.open_seats) == (3, [6, 7, 8, 9])
    assert [(c.seat_no, c.name, c.state) for c in ten.called] == [(4, "Ana S.", "offered"),
                                                                   (5, "Ben O.", "expired")]
    assert [(p.position, p.name, p.kind, p.note) for p in board.waiting] == [
        (1, "Ana S.", "called", "called to table 10 seat 4"),
        (2, "Cy W.", "", ""),  # a reserve entry of a table no longer open stays on the game's list
        (3, "Di L.", "checkin", "on the way, check in by 21:30")]
    assert [(p.name, p.kind, p.note) for p in ten.reserve] == [
        ("Ben O.", "expired", "missed table 10 seat 5, re-calling")]
    assert board.open_count == 9 + 4


def test_r23_r24_r25_r61_break_and_away_seats_from_rows():
    """Seat 2 on a break with 12:31 left, seat 4 on a break past its deadline (not yet swept), seat 5
    away: shown as such, with no name; the break's time left is a mark filled in when served."""
    now_ms = T0_MS + 3_600_000  # 21:00 UTC, 22:00 in Zurich
    running_ms = now_ms + 751_000  # 12:31 left, back by 22:12 in Zurich
    rows = (GAME,
            ((30, "1", seats(1, 2, 4, 5), ((2, "break", running_ms, None), (4, "break", now_ms - 1, None),
                                   (5, "away", None, None)), None, ()),),
            (), ())
    running = absences_running(rows, now_ms)
    assert running == (True, False, True)
    assert absences_running(rows, running_ms - 1_000) == (True, False, True)
    assert absences_running(rows, running_ms - 999) == (False, False, True)  # no whole second left
    board = game_board(rows, "full", ZoneInfo("Europe/Zurich"), GBP, (), running)
    (table,) = board.tables
    assert table.seats[:6] == [(1, "seated"), (2, "break"), (3, "empty"), (4, "over"), (5, "away"),
                               (6, "empty")]
    assert (table.seated, table.open_seats) == (4, [3, 6, 7, 8, 9])
    assert [(a.seat_no, a.state, a.text) for a in table.absent] == [
        (2, "break", "Seat 2 on a break · back by 22:12 ·"), (4, "over", "Seat 4: break over"),
        (5, "away", "Seat 5 away")]
    assert table.absent[0].countdown == countdown.mark(running_ms)
    assert table.absent[1].countdown == table.absent[2].countdown == ""
    # The same game later: the break that was running is now over too (R24, from the deadline).
    later = game_board(rows, "full", ZoneInfo("Europe/Zurich"), GBP, (), absences_running(rows, running_ms))
    assert [a.state for a in later.tables[0].absent] == ["over", "over", "away"]
    assert later.tables[0].seats[1] == (2, "over")


def test_r29_a_played_over_seat_shows_the_overplayer_public_name():
    """Seat 2's owner on a break, played over by entry 7 (on the list: its public name); seat 5's
    owner away, played over by an entry no longer on the list (no name to show)."""
    now_ms = T0_MS
    rows = (GAME,
            ((30, "1", seats(1, 2, 5), ((2, "break", now_ms + 600_000, 7), (5, "away", None, 99)), None,
              ()),),
            (), ((7, None, None, "Ada", "Lovelace"),))
    board = game_board(rows, "first_initial", ZoneInfo("UTC"), GBP, (), absences_running(rows, now_ms))
    (table,) = board.tables
    assert table.seats[:5] == [(1, "seated"), (2, "played"), (3, "empty"), (4, "empty"), (5, "played")]
    assert [(a.seat_no, a.state, a.played) for a in table.absent] == [
        (2, "break", "played over by Ada L."), (5, "away", "played over")]


def test_r40_r53_a_player_offered_a_seat_is_told_the_straddles_and_fees():
    from types import SimpleNamespace

    from roomops.games.terms import told_before_sitting

    game = SimpleNamespace(straddle_allowed=True, max_straddles=1, button_straddle=False,
                           straddle_sanction=False,
                           fee_kind="rake", time_fee=0, rake_bp=500, rake_cap=500,
                           time_fee_by_players=None, drop_fee=0, drop_by_players=None,
                           rake_no_flop_no_drop=True,
                           rake_schedule=None, rake_caps_by_players=None, smallest_chip=100,
                           rake_min_one_chip=False)
    assert told_before_sitting(GBP, game) == ("Straddle: UTG only, no button straddle. "
                                         "Rake: 5%, max £5.00 a pot, no flop no drop.")
    game.rake_schedule = [{"pot": 4000, "rake": 200}, {"pot": 2000, "rake": 100}]
    game.rake_caps_by_players = [{"players": 5, "cap": 500}, {"players": 2, "cap": 300}]
    game.rake_cap = 200
    assert told_before_sitting(GBP, game).endswith(  # R51/R53: the schedule and caps by players dealt
        "Rake: £1.00 from a pot of £20.00, £2.00 from a pot of £40.00, max £2.00 a pot, max £3.00 "
        "from 2 players dealt in, max £5.00 from 5 players dealt in, no flop no drop.")
    game.rake_min_one_chip = True  # R51/R53: the one-chip rule is told too
    assert told_before_sitting(GBP, game).endswith(
        "from 5 players dealt in, at least £1.00 a raked pot, no flop no drop.")


def test_r40_a_game_whose_straddles_need_the_supervisors_sanction_says_so():
    from roomops.games.terms import straddle_text

    assert straddle_text(True, 1, False, sanction=True) == (
        "Straddle: UTG only, only when the supervisor sanctions them, no button straddle")


def test_r4_the_extra_seat_shows_like_any_seat_and_no_seat_is_open_at_the_count():
    """R4/R14 (issue 20): a 9-seat table one over shows seat 10; at or over 9 nothing is open."""
    rows = (GAME, ((30, "1", seats(*range(1, 11)), (), None, ()),
                   (31, "2", seats(1, 2, 3, 4, 5, 6, 7, 8, 10), (), None, ()),
                   (32, "3", seats(1, 2, 3, 4, 5, 6, 7, 10), (), None, ())), (), ())
    over, at, under = game_board(rows, "full", ZoneInfo("UTC"), GBP, (), ()).tables
    assert len(over.seats) == 10 and over.seats[9] == (10, "seated") and over.seated == 10
    assert over.open_seats == []
    assert at.seats[8:] == [(9, "empty"), (10, "seated")] and at.open_seats == []
    assert under.open_seats == [8]  # one seat, never seat 10
