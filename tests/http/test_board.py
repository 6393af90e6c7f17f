"""The public board over HTTP: what players see (R4, R10-R13, R20-R22, R40, R53, R61), the ETag poll,
and a number of SQL statements that does not grow with the room."""

from __future__ import annotations

import html
import re
from collections import Counter
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import event, func, select

from roomops.absences import services as absences
from roomops.absences.models import Absence
from roomops.audit.models import AuditEvent
from roomops.board.rows import GameParts, RowsCache
from roomops.board.views import CACHE, ROWS
from roomops.games import services as games
from roomops.games.terms import fee_text, straddle_text
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.money import Money
from roomops.rooms.services import add_player, update_policy
from roomops.seating import closing, seats
from tests.factories import Room_
from tests.units import act, uow


def latest_id(session, room_id):
    """The room's newest audit id (what the ETag must not key on alone, R60)."""
    return session.scalar(select(func.max(AuditEvent.id)).where(AuditEvent.room_id == room_id)) or 0

PHONE = "+44 7700 900123"


# ---- helpers ----------------------------------------------------------------------------------


def full_table(room, session, now, game, name, free=0, prefix="S"):
    """A table of ``game`` with every seat taken except the last ``free`` ones."""
    table = room.table(now, game, name)
    for i, p in enumerate(room.players(now, game.seats_per_table - free, f"{prefix}{name}-"), 1):
        act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=i, player_id=p.id,
            buy_in=game.min_buyin)
    return table


def listed(page: str, label: str) -> list[str]:
    """The names on the list labelled ``label``, top to bottom."""
    pattern = r'<ol class="places" aria-label="' + re.escape(label) + r'">(.*?)</ol>'
    m = re.search(pattern, html.unescape(page), re.S)
    assert m, f"no list labelled {label!r}"
    return re.findall(r'<span class="who">(.*?)</span>', m.group(1))


def live_offer(session, player_id):
    return session.scalar(select(SeatHold).where(
        SeatHold.player_id == player_id, SeatHold.kind == "offer", SeatHold.ended_at.is_(None)))


# ---- money and the terms of a game (R4, R40, R53) ---------------------------------------------


GBP = Money("GBP")


def test_r4_r40_r53_wording():
    assert GBP.stakes(100, 250) == "1/2.50"
    assert GBP.stakes(100, 200, 50) == "1/2 ante 0.50"
    assert straddle_text(False, 3, True) == "No straddles"
    assert straddle_text(True, 1, False) == "Straddle: UTG only, no button straddle"
    assert straddle_text(True, 3, True) == ("Straddles: up to 3, in rotation from UTG, "
                                            "button straddle with the floor's consent")
    assert fee_text(GBP, "hourly", 1050, 0, 0) == "Time: £10.50 per hour, paid in advance"
    assert fee_text(GBP, "rake", 0, 550, 500) == "Rake: 5.5%, max £5.00 a pot"  # 550 bp
    assert fee_text(GBP, "none", 0, 0, 0) == "No fee"
    assert fee_text(GBP, "rake", 0, 500, 500, no_flop_no_drop=True) == (
        "Rake: 5%, max £5.00 a pot, no flop no drop")
    assert fee_text(GBP, "hourly", 500, 0, 0, [{"players": 7, "fee": 600}, {"players": 2, "fee": 300}]) == (
        "Time: £5.00 per hour, £3.00 from 2 players, £6.00 from 7 players, paid in advance")  # R50/R53


def test_r4_r40_r53_board_shows_stakes_buy_in_straddles_and_fees(client, room, session, now):
    room.game(now, variant="NL Hold'em", small_blind=100, big_blind=250, min_buyin=10000,
              max_buyin=50050, fee_kind="rake", rake_bp=500, rake_cap=600, straddle_allowed=True,
              max_straddles=2, button_straddle=True)
    room.game(now, variant="PL Omaha", small_blind=500, big_blind=1000, ante=100, min_buyin=50000,
              max_buyin=200000, fee_kind="hourly", time_fee=1200)
    session.commit()
    page = html.unescape(client.get("/board").text)
    assert "NL Hold'em" in page and ">1/2.50<" in page
    assert "£100.00 to £500.50" in page
    assert "Rake: 5%, max £6.00 a pot" in page
    assert "Straddles: up to 2, in rotation from UTG, button straddle with the floor's consent" in page
    assert "PL Omaha" in page and ">5/10 ante 1<" in page
    assert "£500.00 to £2,000.00" in page
    assert "Time: £12.00 per hour, paid in advance" in page
    assert "No straddles" in page


def test_r6_changed_conditions_show_at_once(client, room, session, now):
    game = room.game(now, straddle_allowed=False)
    session.commit()
    assert "No straddles" in client.get("/board/main").text
    act(session, room.sup, now, games.update_game, game.id, straddle_allowed=True, max_straddles=1,
        small_blind=200, big_blind=500)
    session.commit()
    page = client.get("/board/main").text
    assert "Straddle: UTG only" in page and ">2/5<" in page


# ---- tables, seats and lists (R10, R11, R13, R14) ---------------------------------------------


def test_r10_r11_r13_lists_in_order(client, room, session, now):
    game = room.game(now)
    t1 = full_table(room, session, now, game, "1")
    full_table(room, session, now, game, "2")
    names = ["Zed", "Amy", "Kim", "Bob"]
    people = {n: room.player(now, n, "Lastname") for n in names}
    for i, n in enumerate(names):  # joined in this order, which is not alphabetical
        act(session, room.sup, now + timedelta(seconds=i), lists.join, player_id=people[n].id,
            game_id=game.id)
    entries = {}
    for i, n in enumerate(["Kim", "Zed"]):
        entries[n] = act(session, room.sup, now + timedelta(seconds=10 + i),
                         lists.join,
                         player_id=people[n].id, table_id=t1.id)
    session.commit()
    page = client.get("/board/main").text
    assert listed(page, "NL Hold'em 1/2 waiting list") == ["Zed L.", "Amy L.", "Kim L.", "Bob L."]
    assert listed(page, "Table 1 reserve list") == ["Kim L.", "Zed L."]
    assert "Table 2 reserve list" not in page
    # R13: a reorder with a reason moves the entry, and the board follows.
    act(session, room.sup, now, lists.reorder, entries["Zed"].id, 1, "floor decision")
    session.commit()
    assert listed(client.get("/board/main").text, "Table 1 reserve list") == ["Zed L.", "Kim L."]


def test_r14_open_seats_and_table_order(client, room, session, now):
    game = room.game(now)
    full_table(room, session, now, game, "10", free=2)
    full_table(room, session, now, game, "2")
    session.commit()
    page = client.get("/board/main").text
    assert page.index('data-table="2"') < page.index('data-table="10"')  # natural order
    assert "Open: seats 8, 9" in page
    assert "2 open seats" in page
    assert ">7/9<" in page and ">9/9<" in page


def test_r5_closed_tables_and_games_are_not_shown(client, room, session, now):
    game = room.game(now, variant="Short Deck")
    table = room.table(now, game, "7")
    act(session, room.sup, now, closing.close_table, table.id)
    act(session, room.sup, now, closing.close_game, game.id)
    session.commit()
    page = client.get("/board/main").text
    assert "Short Deck" not in page and 'data-table="7"' not in page
    assert "No games are running right now." in page


def test_r12_phone_entry_shows_its_checkin_time_in_the_room_zone(client, session, now):
    room = Room_(session, now, timezone="Europe/Zurich")
    game = room.game(now)
    p = room.player(now, "Ana", "Silva")
    act(session, room.sup, now, lists.join, player_id=p.id, game_id=game.id, source="phone")
    session.commit()
    # 20:00 UTC + 30 min (R12 default) = 21:30 in Zurich in November.
    assert "on the way, check in by 21:30" in client.get("/board/main").text


# ---- R61: names only as the policy allows, nothing private -------------------------------------


@pytest.mark.parametrize("policy,shown,label", [
    ("full", "Ana Silvestri", "full names"),
    ("first_initial", "Ana S.", "first name and initial"),
    ("initials", "A.S.", "initials"),
])
def test_r61_display_name_policy(client, session, now, policy, shown, label):
    room = Room_(session, now, display_name=policy)
    game = room.game(now)
    table = full_table(room, session, now, game, "1", free=1)
    ana = act(session, room.sup, now, add_player, first_name="Ana", last_name="Silvestri", phone=PHONE)
    bea = act(session, room.sup, now, add_player, first_name="Beatrix", last_name="Quartermaine",
              phone="07700 900456")
    act(session, room.sup, now, lists.join, player_id=ana.id, game_id=game.id)  # called to seat 9
    act(session, room.sup, now, lists.join, player_id=bea.id, table_id=table.id)
    session.commit()
    for url in ("/board", "/board/main", "/board/main/live"):
        page = html.unescape(client.get(url).text)
        assert shown in page
        assert ("Silvestri" in page) == (policy == "full")
        assert ("Quartermaine" in page) == (policy == "full")
        if policy == "initials":
            assert "Ana" not in page and "Beatrix" not in page
        for private in (PHONE, "7700", "900123", "900456", "main-supervisor", "main-admin",
                        "main-cashier", "scheduler"):
            assert private not in page
        assert not re.search(r"(player|entry|hold|staff)[_-]?id", page, re.I)
        assert f'data-player="{ana.id}"' not in page
    assert f"Names shown as {label}." in client.get("/board/main").text


def test_r61_policy_change_shows_at_once_and_moves_the_etag(client, room, session, now):
    game = room.game(now)
    act(session, room.sup, now, lists.join, player_id=room.player(now, "Ana", "Silvestri").id,
        game_id=game.id)
    session.commit()
    first = client.get("/board/main/live")
    assert "Ana S." in first.text and "Silvestri" not in first.text
    act(session, room.actor("admin"), now, update_policy, display_name="full")
    session.commit()
    second = client.get("/board/main/live", headers={"If-None-Match": first.headers["ETag"]})
    assert second.status_code == 200 and "Ana Silvestri" in second.text


# ---- R20/R22: the called seat, its time left and expiry before any sweep --------------------------


def test_r20_r22_called_seat_counts_down_then_reads_expired_before_the_sweep(client, room, session,
                                                                            clock):
    now = clock.now()
    game = room.game(now)
    full_table(room, session, now, game, "1", free=1)
    ana = room.player(now, "Ana", "Silva")
    act(session, room.sup, now, lists.join, player_id=ana.id, game_id=game.id)
    session.commit()
    offer = live_offer(session, ana.id)
    assert offer.deadline == now + timedelta(minutes=10)

    clock.advance(minutes=3, seconds=25)
    page = client.get("/board/main/live").text
    called = re.search(r'<p class="called state-(\w+)" data-state="\w+" data-seat="9">(.*?)</p>', page, re.S)
    assert called and called.group(1) == "offered"
    assert "Seat 9 called" in called.group(2) and "Ana S." in called.group(2)
    assert 'data-seconds-left="395"' in called.group(2) and ">6:35<" in called.group(2)
    deadline_ms = int(offer.deadline.timestamp() * 1000)
    assert f'data-deadline="{deadline_ms}"' in called.group(2)
    assert "called to table 1 seat 9" in page  # and on the waiting list, with the same countdown

    clock.set(offer.deadline - timedelta(seconds=1))
    assert 'data-seconds-left="1"' in client.get("/board/main/live").text
    clock.set(offer.deadline)  # R22: at the deadline to the second it is gone
    page = client.get("/board/main/live").text
    assert 'data-state="expired"' in page and 'data-state="offered"' not in page
    assert 's-expired" data-seat="9"' in page
    assert "Seat 9 re-calling" in page and ">expired<" in page
    assert "missed table 1 seat 9, re-calling" in page
    session.expire_all()
    assert live_offer(session, ana.id) is not None  # no sweep ran: state comes from the deadline


# ---- the poll: ETag, 304, server time -----------------------------------------------------------


def test_poll_is_304_until_an_audited_change(client, room, session, clock):
    now = clock.now()
    game = room.game(now)
    session.commit()
    first = client.get("/board/main/live")
    assert first.status_code == 200 and first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    assert first.headers["X-Server-Now"] == str(int(now.timestamp() * 1000))
    tag = first.headers["ETag"]

    again = client.get("/board/main/live", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == tag
    clock.advance(seconds=7)  # time passing is not a change, but the 304 carries the new time
    later = client.get("/board/main/live", headers={"If-None-Match": tag})
    assert later.status_code == 304
    assert later.headers["X-Server-Now"] == str(int(clock.now().timestamp() * 1000))

    act(session, room.sup, clock.now(), lists.join, player_id=room.player(now, "Ana").id, game_id=game.id)
    session.commit()
    changed = client.get("/board/main/live", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag and "Ana P." in changed.text
    page = client.get("/board/main")
    assert f'data-etag="{changed.headers["ETag"]}"' in html.unescape(page.text)  # the page polls from it


@pytest.mark.parametrize("change", ["player", "join", "game", "table", "policy", "any_audit_row"])
def test_r60_any_audited_change_moves_the_etag(client, room, session, now, change):
    game = room.game(now)
    session.commit()
    before = client.get("/board/main/live").headers["ETag"]
    if change == "player":
        room.player(now, "New")
    elif change == "join":
        act(session, room.sup, now, lists.join, player_id=room.player(now, "New").id, game_id=game.id)
    elif change == "game":
        act(session, room.sup, now, games.update_game, game.id, max_buyin=50000)
    elif change == "table":
        room.table(now, game, "5")
    elif change == "policy":
        act(session, room.actor("admin"), now, update_policy, claim_minutes=5)
    else:
        unit = uow(session, room.sup, now)
        unit.audit("anything.at.all", ("room", room.room.id))
        unit.commit()
    session.commit()
    resp = client.get("/board/main/live", headers={"If-None-Match": before})
    assert resp.status_code == 200 and resp.headers["ETag"] != before


def test_r60_a_late_commit_with_a_lower_audit_id_still_moves_the_etag(client, room, session, now):
    """On PostgreSQL ids are handed out before commit, so a row can land below the latest id."""
    session.commit()
    top = latest_id(session, room.room.id)
    session.add(AuditEvent(id=top + 5, room_id=room.room.id, at=now, actor="x", action="a",
                           entity_type="room", entity_id=room.room.id, detail={}))
    session.commit()
    before = client.get("/board/main/live").headers["ETag"]
    session.add(AuditEvent(id=top + 2, room_id=room.room.id, at=now, actor="x", action="b",
                           entity_type="room", entity_id=room.room.id, detail={}))
    session.commit()
    assert latest_id(session, room.room.id) == top + 5  # the counter alone did not move
    resp = client.get("/board/main/live", headers={"If-None-Match": before})
    assert resp.status_code == 200 and resp.headers["ETag"] != before


def test_etag_is_per_room(client, session, now):
    a, b = Room_(session, now, slug="a"), Room_(session, now, slug="b")
    a.game(now)
    b.game(now)
    session.commit()
    tag_a = client.get("/board/a/live").headers["ETag"]
    assert client.get("/board/b/live", headers={"If-None-Match": tag_a}).status_code == 200


# ---- rooms, 404, read-only ----------------------------------------------------------------------


def test_r1_board_is_the_room_when_there_is_one(client, room, session, now):
    room.game(now, variant="Dealer's Choice")
    session.commit()
    resp = client.get("/board")
    assert resp.status_code == 200 and "Dealer&#39;s Choice" in resp.text
    assert "Room main" in resp.text
    assert 'data-live-url="/board/main/live"' in resp.text


def test_r1_several_rooms_get_a_chooser_and_each_slug_works(client, session, now):
    a, b = Room_(session, now, slug="north"), Room_(session, now, slug="south")
    a.game(now, variant="Razz")
    b.game(now, variant="Badugi")
    session.commit()
    chooser = client.get("/board")
    assert chooser.status_code == 200
    assert 'href="/board/north"' in chooser.text and 'href="/board/south"' in chooser.text
    assert "Razz" not in chooser.text
    north = client.get("/board/north").text
    assert "Razz" in north and "Badugi" not in north  # R1: one room's board shows only that room


def test_unknown_room_is_404(client, room, session):
    session.commit()
    for url in ("/board/nope", "/board/nope/live"):
        assert client.get(url).status_code == 404


def test_no_room_at_all_is_404(client):
    assert client.get("/board").status_code == 404


def test_r61_board_is_public_and_read_only(client, room, session, now):
    room.game(now)
    session.commit()
    assert client.get("/board/main").status_code == 200  # no login
    assert client.get("/board/main/live").status_code == 200
    top = latest_id(session, room.room.id)
    for url in ("/board", "/board/main", "/board/main/live"):
        assert client.post(url).status_code == 405
    assert latest_id(session, room.room.id) == top


# ---- SQL statements do not grow with the room ---------------------------------------------------


class Statements:
    def __init__(self, engine):
        self.engine, self.sql = engine, []

    def __enter__(self):
        event.listen(self.engine, "before_cursor_execute", self._on)
        return self

    def __exit__(self, *exc):
        event.remove(self.engine, "before_cursor_execute", self._on)

    def _on(self, _conn, _cursor, statement, *_args):
        if not statement.lstrip().upper().startswith(("SAVEPOINT", "RELEASE", "ROLLBACK TO")):
            self.sql.append(statement)


def _count(client, engine, url, **headers):
    with Statements(engine) as st:
        resp = client.get(url, headers=headers)
    return resp, len(st.sql)


def _measure(client, engine):
    client.get("/board/main")  # the room's wait history, read once per TTL (test_board_waits.py)
    page, n_page = _count(client, engine, "/board/main")
    alone, n_alone = _count(client, engine, "/board")
    live, n_live = _count(client, engine, "/board/main/live")
    cached, n_304 = _count(client, engine, "/board/main/live", **{"If-None-Match": live.headers["ETag"]})
    assert (page.status_code, alone.status_code, live.status_code, cached.status_code) == (200, 200, 200,
                                                                                           304)
    return {"page": n_page, "board": n_alone, "live": n_live, "304": n_304}, page.text


# A page's statements: room, change mark, the freshest sweep, games, absences, chips behind,
# tables, calls, entries, the room's running jackpot schemes (R67; none here) (and two more, the
# room's wait history, once per roomops.waits TTL); a 304 is three.
STATEMENTS = {"page": 10, "board": 10, "live": 10, "304": 3}


def _grow(room, session, now, first, games_n, tables_per_game, waiting_per_game):
    for g in range(first, first + games_n):
        game = room.game(now, variant=f"Game {g}", small_blind=100 * (g + 1), big_blind=200 * (g + 1))
        tables = [full_table(room, session, now, game, f"{g}-{t}", free=2, prefix=f"x{g}")
                  for t in range(tables_per_game)]
        for i, p in enumerate(room.players(now, waiting_per_game, f"W{g}-")):
            act(session, room.sup, now + timedelta(seconds=i), lists.join, player_id=p.id, game_id=game.id)
        for i, p in enumerate(room.players(now, 3, f"R{g}-")):
            act(session, room.sup, now, lists.join, player_id=p.id, table_id=tables[i % len(tables)].id)
    session.commit()


def test_statement_count_does_not_grow_with_tables_games_or_entries(client, engine, room, session, now):
    _grow(room, session, now, 0, games_n=1, tables_per_game=2, waiting_per_game=3)
    small, small_page = _measure(client, engine)
    assert small_page.count('class="table"') == 2
    _grow(room, session, now, 1, games_n=4, tables_per_game=7, waiting_per_game=12)
    large, large_page = _measure(client, engine)
    assert large_page.count('class="table"') == 30
    assert large_page.count('data-state="offered"') >= 30  # busy: every free seat is called
    assert large == small
    assert small == STATEMENTS


# ---- the per-game cache: only a changed game is drawn again, and what is served is right for now ----


def section(page: str, game) -> str:
    m = re.search(r'<section class="game" data-key="g' + str(game.id) + r'".*?</section>', page, re.S)
    assert m, f"no section for game {game.id}"
    return m.group(0)


@pytest.fixture()
def cache(app):
    return app.extensions[CACHE]


class CountedReads(RowsCache):
    """The board's rows cache, counting how many times each game's rows were read (and kept)."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = Counter[int]()

    def put(self, key: tuple[int, int], stamp: int, value: GameParts) -> None:
        self.reads[key[1]] += 1
        super().put(key, stamp, value)


@pytest.fixture()
def known(app):
    app.extensions[ROWS] = reads = CountedReads()
    return reads


def test_a_change_to_one_game_reads_and_draws_that_game_again_and_no_other(client, room, session, now,
                                                                          cache, known):
    nlh, plo, dc = room.game(now), room.game(now, variant="PL Omaha"), room.game(now, variant="Razz")
    for game in (nlh, plo, dc):
        act(session, room.sup, now, lists.join, player_id=room.player(now, f"First{game.id}").id,
            game_id=game.id)
    session.commit()
    before = client.get("/board/main").text
    assert cache.misses == 3 and known.reads == {nlh.id: 1, plo.id: 1, dc.id: 1}
    act(session, room.sup, now, lists.join, player_id=room.player(now, "Newcomer", "Quinn").id,
        game_id=plo.id)
    session.commit()
    after = client.get("/board/main").text
    assert cache.misses == 4 and cache.hits == 2
    # its board mark moved: only PL Omaha's rows were read again (the others' were kept)
    assert known.reads == {nlh.id: 1, plo.id: 2, dc.id: 1}
    assert "Newcomer Q." in section(after, plo) and "Newcomer" not in before
    assert listed(after, "PL Omaha 1/2 waiting list") == [f"First{plo.id} P.", "Newcomer Q."]
    for game in (nlh, dc):
        assert section(after, game) == section(before, game)
    assert client.get("/board/main/live").text.count("Newcomer Q.") == 1  # the fragment: all hits
    assert cache.misses == 4


def test_r20_countdown_is_right_for_now_on_a_cache_hit(client, room, session, clock, cache):
    now = clock.now()
    game = room.game(now)
    full_table(room, session, now, game, "1", free=1)
    act(session, room.sup, now, lists.join, player_id=room.player(now, "Ana", "Silva").id, game_id=game.id)
    session.commit()
    assert 'data-seconds-left="600">10:00<' in client.get("/board/main/live").text
    misses = cache.misses
    clock.advance(minutes=2, seconds=7, milliseconds=400)  # 7:52.6 left: 472 whole seconds
    page = client.get("/board/main").text
    assert cache.misses == misses  # the game came from the cache ...
    assert page.count('data-seconds-left="472">7:52</span>') == 2  # ... the called seat and the list
    assert 'data-left' not in page and "10:00" not in page


def test_r22_a_call_past_its_deadline_reads_expired_with_no_write_in_between(client, room, session,
                                                                              clock, cache):
    now = clock.now()
    game = room.game(now)
    full_table(room, session, now, game, "1", free=1)
    ana = room.player(now, "Ana", "Silva")
    act(session, room.sup, now, lists.join, player_id=ana.id, game_id=game.id)
    session.commit()
    deadline = live_offer(session, ana.id).deadline
    top = latest_id(session, room.room.id)
    clock.set(deadline - timedelta(seconds=1))
    live = client.get("/board/main/live")
    assert 'data-state="offered"' in live.text and ">0:01</span>" in live.text
    misses = cache.misses
    clock.set(deadline)  # R22: at the deadline to the second it is gone, though nothing was written
    page = client.get("/board/main/live").text
    assert cache.misses == misses + 1  # the call's state is in the key: the game is drawn again
    assert 'data-state="expired"' in page and 'data-state="offered"' not in page
    assert "missed table 1 seat 9, re-calling" in page and 'data-left' not in page
    assert latest_id(session, room.room.id) == top
    # The poll's ETag did not move (no write); the page's countdown expires it on screen (board.js).
    assert client.get("/board/main/live", headers={"If-None-Match": live.headers["ETag"]}).status_code == 304


def test_two_rooms_never_share_a_cached_game(client, session, now, cache):
    a, b = Room_(session, now, slug="a"), Room_(session, now, slug="b", display_name="full")
    for r, name in ((a, "Alma"), (b, "Bruno")):
        game = r.game(now)
        act(session, r.sup, now, lists.join, player_id=r.player(now, name, "Vance").id, game_id=game.id)
    session.commit()
    page_a, page_b = client.get("/board/a").text, client.get("/board/b").text
    assert "Alma V." in page_a and "Bruno" not in page_a
    assert "Bruno Vance" in page_b and "Alma" not in page_b
    assert client.get("/board/a").text == page_a and cache.misses == 2


def test_r61_policy_change_shows_at_once_on_every_game(client, room, session, now, cache):
    games_ = [room.game(now), room.game(now, variant="PL Omaha")]
    for game in games_:
        act(session, room.sup, now, lists.join, player_id=room.player(now, "Ana", f"Silva{game.id}").id,
            game_id=game.id)
    session.commit()
    assert client.get("/board/main").text.count("Ana S.") == 2
    act(session, room.actor("admin"), now, update_policy, display_name="initials")
    session.commit()
    page = client.get("/board/main").text
    assert page.count("A.S.") == 2 and "Ana" not in page
    assert "Names shown as initials." in page


def test_r12_time_zone_change_shows_in_the_checkin_time_at_once(client, room, session, now):
    game = room.game(now)
    act(session, room.sup, now, lists.join, player_id=room.player(now, "Ana").id, game_id=game.id,
        source="phone")
    session.commit()
    assert "check in by 20:30" in client.get("/board/main").text  # UTC
    act(session, room.actor("admin"), now, update_policy, timezone="Europe/Zurich")
    session.commit()
    assert "check in by 21:30" in client.get("/board/main").text


def test_a_change_made_by_hand_moves_the_etag_and_shows(client, room, session, now):
    """A change no service made writes no audit row, but the database moves the game's board mark:
    the poll's ETag moves (a TV showing the board fetches it) and the game's rows are read again."""
    game = room.game(now)
    ana = room.player(now, "Ana", "Silva")
    act(session, room.sup, now, lists.join, player_id=ana.id, game_id=game.id)
    session.commit()
    live = client.get("/board/main/live")
    assert "Ana S." in live.text
    top = latest_id(session, room.room.id)
    ana.first_name = "Anabel"  # not through a service: no audit row
    session.commit()
    assert latest_id(session, room.room.id) == top
    again = client.get("/board/main/live", headers={"If-None-Match": live.headers["ETag"]})
    assert again.status_code == 200 and "Anabel S." in again.text
    assert "Anabel S." in client.get("/board/main").text


# ---- R23-R25: seats on a break or away, never with a name (R61) ----------------------------------


def _text(fragment: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html.unescape(fragment))).strip()


def _absence_line(page: str, seat: int) -> str:
    m = re.search(r'<p class="absence state-\w+" data-state="(\w+)" data-seat="' + str(seat)
                  + r'"[^>]*>(.*?)</p>', page, re.S)
    assert m, f"no absence line for seat {seat}"
    return f"{m.group(1)}: {_text(m.group(2))}"


def test_r23_r24_r25_r61_break_and_away_on_the_board(client, engine, room, session, clock, cache):
    now = clock.now()
    game = room.game(now)
    table = full_table(room, session, now, game, "1", free=1)
    holds = {h.seat_no: h for h in session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated", SeatHold.ended_at.is_(None)))}
    session.commit()
    before, _page = _measure(client, engine)
    clock.advance(hours=1)  # R23: a break after an hour of play
    on_break = act(session, room.sup, clock.now(), absences.grant_break, holds[4].id, stack=10000)
    act(session, room.sup, clock.now(), absences.mark_away, holds[6].id)
    session.commit()
    room.room.timezone = "Europe/London"
    session.commit()
    deadline = on_break.deadline
    back_by = deadline.astimezone(ZoneInfo("Europe/London")).strftime("%H:%M")

    clock.set(deadline - timedelta(minutes=12, seconds=31, milliseconds=400))  # 12:31.4 left
    page = client.get("/board/main/live").text
    assert _absence_line(page, 4) == f"break: Seat 4 on a break · back by {back_by} · 12:31 left"
    assert f'data-deadline="{int(deadline.timestamp() * 1000)}" data-seconds-left="751"' in page
    assert _absence_line(page, 6) == "away: Seat 6 away"
    assert 's-break" data-seat="4"' in page and 's-away" data-seat="6"' in page
    assert ">8/9<" in page  # an absent player still holds the seat
    for seated in ("S1-4", "S1-6"):  # R61: the board never says who is absent
        assert seated not in page
    assert 'data-left' not in page
    with_absences, _page = _measure(client, engine)
    assert with_absences == before == STATEMENTS

    misses = cache.misses
    clock.set(deadline - timedelta(seconds=1))
    page = client.get("/board/main/live").text
    assert cache.misses == misses  # only the countdown moved: a cache hit
    assert _absence_line(page, 4).endswith("· 0:01 left")
    clock.set(deadline)  # R24: at the deadline the break is over, though the sweep has not run
    page = client.get("/board/main/live").text
    assert cache.misses == misses + 1  # the break's state is in the key
    assert _absence_line(page, 4) == "over: Seat 4: break over"
    assert 's-over" data-seat="4"' in page and 'data-left' not in page
    session.expire_all()
    assert session.get_one(Absence, on_break.id).ended_at is None  # no sweep: state from the deadline

    act(session, room.sup, clock.now(), absences.come_back, holds[6].id)  # R25: back from away
    session.commit()
    page = client.get("/board/main/live").text
    assert 'data-seat="6"><' not in page and 's-seated" data-seat="6"' in page
    assert 'class="absence' in page and "Seat 6 away" not in page


def test_r23_back_from_a_break_shows_the_seat_plain_seated(client, room, session, clock):
    now = clock.now()
    game = room.game(now)
    table = full_table(room, session, now, game, "1")
    hold = session.scalar(select(SeatHold).where(SeatHold.table_id == table.id, SeatHold.seat_no == 2,
                                                 SeatHold.kind == "seated"))
    clock.advance(hours=1)
    act(session, room.sup, clock.now(), absences.grant_break, hold.id, stack=5000)
    session.commit()
    clock.advance(minutes=5)
    page = client.get("/board/main").text
    assert _absence_line(page, 2).endswith("· 55:00 left") and 's-break" data-seat="2"' in page
    act(session, room.sup, clock.now(), absences.come_back, hold.id)
    session.commit()
    page = client.get("/board/main").text
    assert 'class="absence' not in page and 's-seated" data-seat="2"' in page


def test_the_tv_shows_a_qr_code_of_the_phone_page(client, room):
    """Issue 21: the board's footer has a QR code of the room's phone page (its address from
    ROOMOPS_PUBLIC_URL, as the footer's text), cacheable, public; an unknown room is a 404."""
    page = client.get("/board/main").text
    assert '<img class="qr" src="/board/main/qr.svg"' in page
    qr = client.get("/board/main/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert qr.headers["Cache-Control"] == "public, max-age=86400"
    assert qr.text.startswith("<svg") and "QR code: http://localhost:5000/board/main" in qr.text
    assert client.get("/board/nowhere/qr.svg").status_code == 404


def test_a_tv_given_some_games_shows_only_those_and_keeps_them_on_its_poll(client, room, session, now):
    """A room with several TVs gives each some games (?games=ids): the page and its live fragment
    show only those; a filter that is not game numbers is a clear 422 (no 500)."""
    small = room.game(now)
    big = room.game(now, small_blind=500, big_blind=1000, min_buyin=50000, max_buyin=200000)
    session.commit()
    page = client.get(f"/board/main?games={big.id}").text
    assert f'data-key="g{big.id}"' in page and f'data-key="g{small.id}"' not in page
    assert f'data-live-url="/board/main/live?games={big.id}"' in page
    both = client.get(f"/board/main/live?games={small.id},{big.id}").text
    assert f'data-key="g{big.id}"' in both and f'data-key="g{small.id}"' in both
    assert f'data-key="g{small.id}"' in client.get("/board/main").text
    bad = client.get("/board/main?games=3,x")
    assert bad.status_code == 422 and "games= takes game numbers" in bad.text
