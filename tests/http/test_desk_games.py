"""A desk re-reading is sent only the games that changed (issue 21: "what a change marks as changed
is narrow"): each game of the live part is keyed by what it shows, the key holds while the clocks
run (R20's countdown and R25's time away are desk.js's), and a desk naming the keys it shows gets
those games as empty sections with their keys (roomops.desk.shared). A game whose inputs are the
same is not drawn again (roomops.desk.fingerprint): what is shown again must be what drawing it
anew gives, whatever the clock did (R20, R22, R24, R25, R27)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import create_engine, select, text

from roomops.absences import services as absences
from roomops.desk.fingerprint import digest
from roomops.desk.shared import KEY as DRAWINGS
from roomops.desk.shared import Drawings
from roomops.games import services as games
from roomops.games.models import Table
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.seating import seats
from roomops.seating.snapshot import SeatView
from tests.services.helpers import full_game, live_offer
from tests.units import act

KEY = re.compile(r'<section class="game" data-key="([0-9a-f]{16})"( data-same></section>)?'
                 r'(?: id="game-(\d+)")?')
SHOWS = "X-Desk-Shows"


def _games(html: str) -> list[tuple[str, bool]]:
    """Each game's key in order, and whether it was sent in full."""
    return [(key, not same) for key, same, _game in KEY.findall(html)]


@pytest.fixture()
def two_games(room, session, now):
    """Game 1: an offer counting down (R20) and a player away (R25); game 2: a full table."""
    one, table = full_game(room, session, now, free=1)
    act(session, room.sup, now, lists.join, player_id=room.player(now, "Nora", "Quinn").id, game_id=one.id)
    first = session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated").order_by(SeatHold.seat_no)).first()
    act(session, room.sup, now, absences.mark_away, first.id)
    two, _ = full_game(room, session, now, free=0, name="2", small_blind=200, big_blind=500)
    session.commit()
    return one, two


def test_r20_r25_a_game_is_drawn_alike_while_only_its_clocks_run(sup_client, two_games, clock):
    html = sup_client.get("/desk/fragment").text
    assert "countdown" in html and "away since" in html
    clock.advance(minutes=3, seconds=7)  # nothing changes but the time: a drawing later
    again = sup_client.get("/desk/fragment").text
    assert _games(again) == _games(html) and len(_games(html)) == 2


def test_a_desk_is_sent_only_the_game_that_changed(sup_client, room, session, now, two_games, clock):
    _one, two = two_games
    whole = sup_client.get("/desk/fragment")
    (key1, _), (key2, _) = _games(whole.text)
    act(session, room.sup, now, lists.join, player_id=room.player(now, "Ola", "New").id, game_id=two.id)
    session.commit()
    clock.advance(seconds=5)
    resp = sup_client.get("/desk/fragment", headers={
        SHOWS: f"{key1} {key2}", "If-None-Match": whole.headers["ETag"]})
    assert resp.status_code == 200 and SHOWS in resp.headers["Vary"]
    (same, sent_same), (new, sent_new) = _games(resp.text)
    assert (same, sent_same) == (key1, False)  # game 1: as the desk shows it
    assert new != key2 and sent_new and "Ola New" in resp.text
    assert "Nora Quinn" not in resp.text  # game 1 not sent again: its offer, its players
    # a desk showing none of them (one just opened) is sent the whole part
    full = sup_client.get("/desk/fragment", headers={SHOWS: "0123456789abcdef"}).text
    assert [sent for _key, sent in _games(full)] == [True, True] and "Nora Quinn" in full


# ---- a game's drawing shown again while what it is drawn from is the same ----------------------


def _kept_and_fresh(app, client) -> tuple[str, str]:
    """The live part drawn with the desk's last drawing at hand, and drawn from nothing."""
    kept = client.get("/desk/fragment").text
    shared = app.extensions[DRAWINGS]
    app.extensions[DRAWINGS] = Drawings()
    try:
        fresh = client.get("/desk/fragment").text
    finally:
        app.extensions[DRAWINGS] = shared
    return kept, fresh


def test_issue21_only_the_game_that_changed_is_drawn_again(app, sup_client, room, session, now,
                                                            two_games, games_drawn, clock):
    one, two = two_games
    sup_client.get("/desk/fragment")
    assert sorted(games_drawn) == sorted([one.id, two.id])
    act(session, room.sup, now, lists.join, player_id=room.player(now, "Ola", "New").id, game_id=two.id)
    session.commit()
    games_drawn.clear()
    assert "Ola New" in sup_client.get("/desk/fragment").text
    assert games_drawn == [two.id]
    clock.advance(minutes=1)  # a minute of clocks only: nothing is drawn again
    games_drawn.clear()
    sup_client.get("/desk/fragment")
    assert games_drawn == []


def test_r5_a_table_opened_draws_its_own_game_only(app, sup_client, room, session, now, two_games,
                                                     games_drawn):
    """A game names only its own tables (R14's offers, R17's main table, R19's moves): a table
    opened in another game leaves it as drawn, and what is shown is what drawing anew gives."""
    one, two = two_games
    sup_client.get("/desk/fragment")
    act(session, room.sup, now, games.open_table, two.id, "7")
    session.commit()
    games_drawn.clear()
    kept, fresh = _kept_and_fresh(app, sup_client)
    assert games_drawn == [two.id, one.id, two.id]  # kept: game 2 drawn; from nothing: both
    assert kept == fresh and "Table 7" in kept


def test_r20_r22_r24_r25_a_game_shown_again_is_the_game_drawn_anew(app, sup_client, room, session,
                                                                   now, two_games, clock):
    """Whatever the clock or a change does to a game, its drawing shown again is what drawing it
    from nothing gives: an offer counting down then expired (R20, R22), a break running then over
    (R23, R24), "note needed" once away 30 minutes (R25), a change to the other game."""
    one, two = two_games
    seated = list(session.scalars(select(SeatHold).where(
        SeatHold.kind == "seated", SeatHold.ended_at.is_(None)).order_by(SeatHold.id)))
    act(session, room.sup, now, absences.grant_break, seated[1].id, 20000, override_reason="test")
    session.commit()
    steps = [{"seconds": 1}, {"minutes": 9, "seconds": 58}, {"seconds": 2}, {"minutes": 20},
             {"minutes": 31}, {"seconds": 1}]
    for step in steps:
        clock.advance(**step)
        kept, fresh = _kept_and_fresh(app, sup_client)
        assert kept == fresh, f"at {clock.now()}"
    assert "break over" in kept and "note-needed" in kept and "expired" in kept
    act(session, room.sup, clock.now(), lists.join, player_id=room.player(now, "Ola", "New").id,
        game_id=two.id)
    session.commit()
    kept, fresh = _kept_and_fresh(app, sup_client)
    assert kept == fresh and "Ola New" in kept and one.id


def test_r27_the_return_rule_running_out_is_drawn(app, sup_client, room, session, now, clock):
    """R27 on an offered seat ("R27 >= £650.00") goes when the two hours since the player left
    pass, with nothing else changing: the game is drawn again, not shown as before."""
    game, table = full_game(room, session, now, free=0)
    first = session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated").order_by(SeatHold.seat_no)).first()
    act(session, room.sup, now, seats.leave, first.id, 65000)
    room.room.auto_offer = True
    clock.advance(hours=1, minutes=55)
    act(session, room.sup, clock.now(), lists.join, player_id=first.player_id, game_id=game.id)
    session.commit()
    assert "return ≥ £650.00" in sup_client.get("/desk/fragment").text
    clock.advance(minutes=5, seconds=1)
    kept, fresh = _kept_and_fresh(app, sup_client)
    assert kept == fresh and "return ≥" not in kept and 'class="seat state-offered"' in kept


# ---- roomops.desk.fingerprint on its own --------------------------------------------------------

T = datetime(2026, 11, 28, 21, 0, tzinfo=UTC)


def test_a_moment_counts_with_whether_it_has_passed():
    before, after, later = (T - timedelta(seconds=1), T + timedelta(seconds=1),
                            T + timedelta(hours=1))
    assert digest(T, before) != digest(T, after) == digest(T, later)


def test_the_seconds_to_a_deadline_do_not_count_and_the_rest_does():
    assert digest(SeatView(9, "offered", seconds_left=5), T) == digest(
        SeatView(9, "offered", seconds_left=4), T)
    assert digest(SeatView(9, "offered"), T) != digest(SeatView(9, "expired"), T)


def test_a_mapped_object_counts_by_its_columns_and_an_unknown_kind_is_refused():
    assert digest(Table(name="1"), T) == digest(Table(name="1"), T) != digest(Table(name="2"), T)
    with pytest.raises(TypeError, match=r"roomops\.desk\.fingerprint"):
        digest([object()], T)


def test_issue21_rows_keyed_by_their_marks_are_left_out_and_nothing_else():
    """The desk keys a kept game's rows by the marks they were read at (roomops.seating.rows):
    the rows' values are left out of its digest, the records around them are not."""
    engine = create_engine("sqlite://")
    with engine.connect() as conn:
        one, two = (conn.execute(text(f"SELECT {n} AS seat_no")).one() for n in (1, 2))
    assert digest(one, T) != digest(two, T)
    assert digest(SeatView(9, "seated", hold=one), T, rows_keyed=True) == digest(
        SeatView(9, "seated", hold=two), T, rows_keyed=True)
    assert digest(SeatView(9, "seated", hold=one), T, rows_keyed=True) != digest(
        SeatView(8, "seated", hold=one), T, rows_keyed=True)


def _hold(session, table_id, seat_no, kind="seated"):
    return session.scalar(select(SeatHold).where(
        SeatHold.table_id == table_id, SeatHold.seat_no == seat_no, SeatHold.kind == kind,
        SeatHold.ended_at.is_(None))).id


def _free(session, table_id):
    taken = set(session.scalars(select(SeatHold.seat_no).where(
        SeatHold.table_id == table_id, SeatHold.ended_at.is_(None))))
    return min(set(range(1, 10)) - taken)


def test_r60_after_each_kind_of_desk_action_the_games_shown_are_the_games_drawn_anew(
        app, sup_client, room, session, now, clock):
    """A night's actions through the desk's forms, the clock running between them: after each,
    what the desk is shown (unchanged games as drawn before) is what drawing it all anew gives."""
    game, t1 = full_game(room, session, now, free=1)
    t2 = room.table(now, game, "2")
    for seat_no, player in enumerate(room.players(now, 3, "Two"), start=1):
        act(session, room.sup, now, seats.seat_directly, table_id=t2.id, seat_no=seat_no,
            player_id=player.id, buy_in=game.min_buyin)
    other, t3 = full_game(room, session, now, free=0, name="3", small_blind=200, big_blind=500)
    waiting = [room.player(now, name, "Wait") for name in ("Ada", "Bo", "Cy")]
    session.commit()
    actions = [
        ("/desk/join", lambda: {"player_id": str(waiting[0].id), "game_id": str(game.id)}),
        ("/desk/join", lambda: {"player_id": str(waiting[1].id), "game_id": str(game.id)}),
        (lambda: f"/desk/offers/{live_offer(session, waiting[0].id).id}/claim",
         lambda: {"buy_in": "150"}),
        (lambda: f"/desk/seats/{_hold(session, t1.id, 1)}/away", lambda: {"stack": ""}),
        (lambda: f"/desk/seats/{_hold(session, t1.id, 1)}/note", lambda: {"note": "at the bar"}),
        (lambda: f"/desk/seats/{_hold(session, t1.id, 2)}/move",
         lambda: {"table_id": str(t2.id), "seat_no": str(_free(session, t2.id)), "stack": "100"}),
        (lambda: f"/desk/seats/{_hold(session, t2.id, 1)}/penalty",
         lambda: {"kind": "warning", "reason": "slow roll"}),
        (lambda: f"/desk/seats/{_hold(session, t1.id, 3)}/seat-change-request", dict),
        (lambda: f"/desk/seats/{_hold(session, t3.id, 5)}/seat-change-request", dict),  # full
        (lambda: f"/desk/tables/{t2.id}/must-move", lambda: {"feeds_table_id": str(t1.id)}),
        ("/desk/barred", lambda: {"player_a": str(waiting[0].id), "player_b": str(waiting[2].id),
                                  "reason": "a dispute"}),
        (lambda: f"/desk/seats/{_hold(session, t3.id, 4)}/leave", lambda: {"leave_amount": "320"}),
        (lambda: f"/desk/seats/{_hold(session, t1.id, 1)}/back", dict),
    ]
    sup_client.get("/desk/fragment")
    for url, form in actions:
        clock.advance(minutes=2, seconds=13)
        path = url() if callable(url) else url
        resp = sup_client.post(path, data=form(), headers={"Accept": "application/json"})
        assert resp.status_code == 200, f"{path}: {resp.text}"
        kept, fresh = _kept_and_fresh(app, sup_client)
        assert kept == fresh, path
    assert other.id and "must-move" in kept and "Ada Wait" in kept
