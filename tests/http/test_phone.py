"""The phone pages over HTTP (R12-R16, R20, R61): joining from the phone, the personal page and
link, leaving, refusals that keep what was typed, throttling per address, and the desk's side
(remote entries marked, blocked numbers)."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from flask import Flask
from sqlalchemy import select

from roomops.audit.models import AuditEvent
from roomops.config import Settings
from roomops.factory import create_app
from roomops.games.models import Table
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.lists.models import ListEntry
from roomops.remote import services as remote
from roomops.remote.models import PlayerLink
from roomops.rooms.services import update_policy
from roomops.seating import seats
from roomops.security_log import security_event
from tests.conftest import login
from tests.services.helpers import full_game
from tests.units import act

M = timedelta(minutes=1)
PHONE = "07700 900123"


@pytest.fixture()
def games(room, session, now):
    act(session, room.sup, now, update_policy, remote_entries=True)
    g1, _ = full_game(room, session, now, free=0)
    g2, _ = full_game(room, session, now, free=0, name="2", variant="PL Omaha")
    session.commit()
    return g1, g2


def form(*games, first="Ann", phone=PHONE, last=""):
    return {"game_id": [str(g.id) for g in games], "first_name": first, "last_name": last,
            "phone": phone}


def joined(client, *games, **kw):
    resp = client.post("/board/main/join", data=form(*games, **kw))
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/board/main/me"), resp.text
    return resp


def entries(session):
    session.expire_all()
    return list(session.scalars(select(ListEntry).where(ListEntry.source == "remote")
                                .order_by(ListEntry.id)))


def test_r12_join_page_says_the_desk_takes_names_when_remote_entries_are_off(client, room, session):
    session.commit()
    resp = client.get("/board/main/join")
    assert resp.status_code == 200 and "at the desk only." in resp.text and "(R" not in resp.text
    assert "Join a list</a>" not in client.get("/board/main").text


def test_r12_join_two_games_then_the_personal_page(client, games, session):
    g1, g2 = games
    board = client.get("/board/main").text
    assert 'href="/board/main/join">Join a list</a>' in board
    page = client.get("/board/main/join")
    assert page.headers["Cache-Control"] == "no-store" and page.headers["X-Robots-Tag"] == "noindex"
    assert "NL Hold&#39;em" in page.text and "PL Omaha" in page.text
    resp = joined(client, g1, g2)
    assert "HttpOnly" in resp.headers["Set-Cookie"] and "SameSite=Lax" in resp.headers["Set-Cookie"]
    me = client.get("/board/main/me")
    assert me.status_code == 200 and me.headers["Cache-Control"] == "no-store"
    text = html.unescape(me.text)
    assert text.count("Leave this list") == 2
    assert "Place <strong>1</strong> on the list: you are next</p>" in text
    assert "Check in at the desk within" in text
    assert "You joined the waiting list from your phone." in text and "(R" not in text
    assert "/p/" in text  # the personal link
    assert PHONE not in client.get("/board/main").text and "+447700900123" not in board


def test_r61_the_personal_link_opens_the_entries_on_another_phone(app, client, games, session):
    g1, _ = games
    joined(client, g1)
    link = client.get("/board/main/me").text.split('class="link" href="')[1].split('"')[0]
    other = app.test_client()
    assert "on no list here" in other.get("/board/main/me").text
    resp = other.get(link.replace("http://localhost:5000", ""))
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/board/main/me")
    assert "Leave this list" in other.get("/board/main/me").text
    assert other.get("/p/not-a-token").status_code == 404


def test_r61_tokens_are_never_in_the_security_log(app, security_log):
    with app.test_request_context("/p/s3cr3t-token-value"):
        security_event("request.refused", status=404, reason="test")
    assert "s3cr3t" not in security_log.text and "/p/<token>" in security_log.text


def test_r12_refusal_says_what_and_the_rule_and_keeps_what_was_typed(client, games):
    g1, _ = games
    resp = client.post("/board/main/join", data=form(g1, first="Ann", phone="12"))
    assert resp.status_code == 422
    text = html.unescape(resp.text)
    assert "is not a phone number we can read" in text and 'data-rule="R12"' in text and "(R" not in text
    assert 'value="Ann"' in text and 'value="12"' in text and "checked" in text
    resp = client.post("/board/main/join", data=form(first="Ann"))
    assert resp.status_code == 422 and "Please pick at least one game." in resp.text
    assert 'data-rule="R12"' in resp.text and "game_ids" not in resp.text  # the model's words: the log's


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Please type your first name again: it has invisible characters."),
    ("de", "Bitte geben Sie Ihren Vornamen neu ein: es enthält unsichtbare Zeichen.")])
def test_issue40_a_name_with_invisible_characters_is_refused_in_the_players_words(
        client, games, session, lang, said):
    g1, _ = games
    resp = client.post(f"/board/main/join?lang={lang}", data=form(g1, first="Ann\u200b"))
    assert resp.status_code == 422
    assert said in html.unescape(resp.text)
    assert entries(session) == []


def test_r12_one_entry_per_number_and_game_and_the_cap(client, games, room, session, now):
    g1, g2 = games
    joined(client, g1)
    again = client.post("/board/main/join", data=form(g1))
    assert again.status_code == 409 and "already on the NL Hold&#39;em list" in again.text
    act(session, room.sup, now, update_policy, remote_entry_cap=1)
    session.commit()
    capped = client.post("/board/main/join", data=form(g2))
    assert capped.status_code == 409 and "at most 1 list entries" in capped.text


def test_r12_a_blocked_number_is_refused_with_a_clear_message(client, sup_client, games, session):
    g1, _ = games
    resp = sup_client.post("/desk/phones", data={"phone": "+44 7700 900123", "reason": "abuse"})
    assert resp.status_code == 303
    page = sup_client.get("/desk/phones").text
    assert "+447700900123" in page and "abuse" in page
    sup_client.get("/logout")
    refused = client.post("/board/main/join", data=form(g1))
    assert refused.status_code == 409 and "may not join lists from the phone" in refused.text
    login(sup_client, "main-supervisor")
    block_id = remote.blocks(session, games[0].room_id)[0].id
    assert sup_client.post(f"/desk/phones/{block_id}/lift").status_code == 303
    assert "No number is blocked" in sup_client.get("/desk/phones").text


def test_r16_the_player_leaves_a_list_from_the_phone(client, games, session):
    g1, g2 = games
    joined(client, g1, g2)
    first, _second = entries(session)
    resp = client.post(f"/board/main/me/entries/{first.id}/leave")
    assert resp.status_code == 303
    assert [e.status for e in entries(session)] == ["removed", "active"]
    row = session.scalar(select(AuditEvent).where(AuditEvent.action == "entry.left"))
    assert row.actor.startswith("player link #") and row.entity_id == first.id
    text = html.unescape(client.get("/board/main/me").text)
    assert "You left this list." in text and text.count("Leave this list") == 1
    again = client.post(f"/board/main/me/entries/{first.id}/leave")
    assert again.status_code == 409 and "no longer on the list" in again.text


def test_r61_another_phone_cannot_leave_my_entry(app, client, games, session):
    g1, _ = games
    joined(client, g1)
    [mine] = entries(session)
    stranger = app.test_client()
    assert stranger.post(f"/board/main/me/entries/{mine.id}/leave").status_code == 404
    joined(stranger, g1, phone="07700 900999", first="Cy")
    resp = stranger.post(f"/board/main/me/entries/{mine.id}/leave")
    assert resp.status_code == 404 and 'data-rule="R61"' in resp.text
    assert entries(session)[0].status == "active"


def test_r12_the_desk_marks_remote_entries_with_their_countdown(client, sup_client, games, session):
    g1, _ = games
    sup_client.get("/logout")
    joined(client, g1)
    login(sup_client, "main-supervisor")
    desk = sup_client.get("/desk").text
    assert 'title="joined from their phone (R12)">remote</span>' in desk
    assert 'class="countdown" data-deadline=' in desk
    policy = html.unescape(sup_client.get("/desk/policy").text)
    assert "players may join waiting lists themselves from the phone page" in policy


@pytest.fixture()
def limited(db_url, engine, sessions, clock, games) -> Flask:
    app = create_app(Settings(database_url=db_url, scheduler="off", secret_key="test",
                              testing=True, join_limit_per_address="2 per hour"),
                     clock=clock, engine=engine, WTF_CSRF_ENABLED=False)
    app.extensions["roomops"].sessions = app.extensions["roomops"].read_sessions = sessions
    return app


def test_r12_joins_are_throttled_per_address(limited, games, security_log):
    g1, _ = games
    client = limited.test_client()
    for _ in range(2):
        client.post("/board/main/join", data=form(g1, phone="12"),
                    environ_base={"REMOTE_ADDR": "10.0.0.7"})
    resp = client.post("/board/main/join", data=form(g1, first="Eve"),
                       environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert resp.status_code == 429
    text = html.unescape(resp.text)
    assert "Too many tries to join a list from this address" in text and 'data-rule="R12"' in text
    assert 'value="Eve"' in text
    assert security_log.named("throttled")
    other = client.post("/board/main/join", data=form(g1), environ_base={"REMOTE_ADDR": "10.0.0.8"})
    assert other.status_code == 303


def test_issue21_the_join_limit_answers_in_the_pages_language(limited, games):
    g1, _ = games
    client = limited.test_client()
    where = {"REMOTE_ADDR": "10.0.0.6"}
    for _ in range(2):
        client.post("/board/main/join", data=form(g1, phone="12"), environ_base=where)
    german = client.post("/board/main/join?lang=de", data=form(g1, first="Eva"), environ_base=where)
    text = html.unescape(german.text)
    assert german.status_code == 429 and '<html lang="de">' in text
    assert ("Zu viele Versuche, sich von dieser Adresse auf eine Liste zu setzen: bitte versuchen "
            "Sie es in 60 Minuten noch einmal.") in text
    assert 'data-rule="R12"' in text and 'value="Eva"' in text
    other_phone = limited.test_client()  # the same address, no language remembered
    italian = other_phone.post("/board/main/join", data=form(g1), environ_base=where,
                               headers={"Accept-Language": "it"})
    assert "riprova tra 60 minuti" in html.unescape(italian.text)
    nowhere = client.post("/board/nowhere/join", data=form(g1), environ_base=where)
    assert nowhere.status_code == 429 and "Too many tries" in nowhere.text  # no room: plain


# ---- the JSON API (R12, R16, R61) ----------------------------------------------------------


def test_r12_r16_the_api_joins_reads_and_leaves_with_the_link_token(client, games, session):
    g1, g2 = games
    resp = client.post("/api/v1/remote-entries", json={
        "room": "main", "game_ids": [g1.id, g2.id], "first_name": "Ann", "phone": PHONE})
    assert resp.status_code == 201, resp.json
    token = resp.json["link_token"]
    assert [(e["place"], e["ahead"], e["status"]) for e in resp.json["entries"]] == [
        (1, 0, "active"), (1, 0, "active")]
    assert resp.json["entries"][0]["history"][0]["text"] == (
        "You joined the waiting list from your phone.")
    mine = client.get("/api/v1/remote-entries", headers={"X-Player-Link": token})
    assert mine.status_code == 200 and mine.json["link_token"] is None
    assert len(mine.json["entries"]) == 2 and "7700" not in str(mine.json)  # no number (R61)
    first = mine.json["entries"][0]["id"]
    left = client.post(f"/api/v1/remote-entries/{first}/leave", headers={"X-Player-Link": token})
    assert left.status_code == 200
    assert [e["status"] for e in left.json["entries"]] == ["active", "removed"]
    again = client.post("/api/v1/remote-entries", headers={"X-Player-Link": token}, json={
        "room": "main", "game_ids": [g1.id], "first_name": "Ann", "phone": PHONE})
    assert again.status_code == 201 and again.json["link_token"] is None  # the same link


def test_r61_the_api_refuses_without_the_link_and_names_the_rule(client, games):
    g1, _ = games
    assert client.get("/api/v1/remote-entries").json["rule"] == "R61"
    wrong = client.get("/api/v1/remote-entries", headers={"X-Player-Link": "x" * 32})
    assert wrong.status_code == 404
    refused = client.post("/api/v1/remote-entries", json={
        "room": "main", "game_ids": [g1.id], "first_name": "Ann", "phone": "12"})
    assert refused.status_code == 422 and refused.json["rule"] == "R12"
    nowhere = client.post("/api/v1/remote-entries", json={
        "room": "nowhere", "game_ids": [g1.id], "first_name": "Ann", "phone": PHONE})
    assert nowhere.status_code == 404 and nowhere.json["rule"] == "R12"


def test_r12_the_api_joins_count_against_the_same_limit(limited, games):
    g1, _ = games
    client = limited.test_client()
    body = {"room": "main", "game_ids": [g1.id], "first_name": "Ann", "phone": "12"}
    address = {"REMOTE_ADDR": "10.0.0.9"}
    client.post("/board/main/join", data=form(g1, phone="12"), environ_base=address)
    client.post("/api/v1/remote-entries", json=body, environ_base=address)
    throttled = client.post("/api/v1/remote-entries", json=body, environ_base=address)
    assert throttled.status_code == 429 and throttled.json["rule"] == "R12"


def test_r20_a_seat_offered_shows_on_the_personal_page_with_its_claim_countdown(
        client, games, room, session, now):
    g1, _ = games
    joined(client, g1)
    [entry] = entries(session)
    act(session, room.sup, now + M, lists.check_in, entry.id)
    hold = session.scalars(select(SeatHold).join(Table, Table.id == SeatHold.table_id).where(
        Table.game_id == g1.id, SeatHold.kind == "seated", SeatHold.ended_at.is_(None))
        .order_by(SeatHold.seat_no)).first()
    act(session, room.sup, now + 2 * M, seats.leave, hold.id, 10000)
    session.commit()
    text = html.unescape(client.get("/board/main/me").text)
    assert f"Seat offered: table 1 seat {hold.seat_no}, claim within" in text
    assert "Checked in" in text and "You were called to table 1 seat" in text


def test_every_kind_of_page_names_the_rooms_icon_and_it_is_served(client, games, session):
    """Browsers show it in the tab (and ask for no /favicon.ico, which would be a 404)."""
    icon = '<link rel="icon" type="image/svg+xml" href="/static/favicon.svg">'
    joined(client, *games)
    for path in ("/login", "/board", "/board/main", "/board/main/join", "/board/main/me"):
        assert icon in client.get(path).text, path
    served = client.get("/static/favicon.svg")
    assert served.status_code == 200 and served.mimetype == "image/svg+xml"


# ---- issue 40: the phone proves its number; the link ends (R12, R2, R61) -------------------


def test_issue40_without_a_provider_a_join_is_unverified_and_says_so_on_the_desk(
        app, sup_client, games, room, session, now):
    """Three joins with a known player's number filled its cap and took her name: unproved,
    they are the name typed, marked on the desk, and the player still joins from her phone."""
    g1, g2 = games
    bea = room.player(now, "Bea")
    bea.phone = "+447700900123"
    session.commit()
    for caller in range(3):
        joined(app.test_client(), g1 if caller % 2 else g2, first="Mallory")
    joined(app.test_client(), g1, g2, first="Bea")  # her own phone: counted on its own link
    session.expire_all()
    mine = entries(session)
    assert bea.id not in {e.player_id for e in mine} and not any(e.phone_verified for e in mine)
    desk = sup_client.get("/desk").text
    assert desk.count('class="tag unverified"') == 5 and ">unverified</span>" in desk


def test_r2_an_ended_link_says_so_in_the_players_language_with_the_board(
        client, games, session, clock):
    g1, _ = games
    joined(client, g1)
    link = client.get("/board/main/me").text.split('class="link" href="')[1].split('"')[0]
    token = link.rsplit("/", 1)[1]
    ends = session.scalar(select(PlayerLink.expires_at))
    clock.set(ends - timedelta(seconds=1))
    assert client.get("/board/main/me").status_code == 200
    clock.set(ends)
    page = client.get("/board/main/me?lang=de")
    assert page.status_code == 410 and page.headers["Cache-Control"] == "no-store"
    assert "Dieser Link ist abgelaufen" in page.text and 'href="/board/main"' in page.text
    opened = client.application.test_client().get(f"/p/{token}?lang=it")
    assert opened.status_code == 410 and "Questo link è scaduto" in opened.text
    api = client.get("/api/v1/remote-entries", headers={"X-Player-Link": token})
    assert api.status_code == 410 and api.json["rule"] == "R61"
