"""R20 over HTTP: a desk action that offers a seat texts the player through Twilio after its
commit; Twilio's delivery report, signed, moves the text on, and the desk and the API show it
beside the offer; an unsigned or wrongly signed report is refused (403)."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from sqlalchemy import select
from twilio.request_validator import RequestValidator

from roomops.config import Settings
from roomops.factory import create_app
from roomops.holds.models import SeatHold
from roomops.lists.models import ListEntry
from roomops.messages.models import OutboxMessage
from roomops.rooms.services import update_policy
from tests.conftest import login
from tests.fake_twilio import TOKEN, fake_twilio, twilio_settings
from tests.http.test_api import Api, token_for
from tests.services.helpers import full_game
from tests.services.outbox_helpers import PHONE, messages
from tests.units import act

PUBLIC = "https://poker.example"
HOOK = f"{PUBLIC}/hooks/twilio/status"


@pytest.fixture()
def twilio():
    with fake_twilio() as fake:
        yield fake


@pytest.fixture()
def app(db_url, engine, sessions, clock, twilio):
    settings = Settings(database_url=db_url, scheduler="off", secret_key="test", testing=True,
                        public_url=PUBLIC, twilio=twilio_settings(twilio.url))
    application = create_app(settings, clock=clock, engine=engine, WTF_CSRF_ENABLED=False)
    ext = application.extensions["roomops"]
    ext.sessions = ext.read_sessions = sessions  # the texts go by the app's courier: Twilio's
    return application


@pytest.fixture()
def offered(client, room, session, now):
    """Ann, with a phone, joins a game with a seat open at the desk: offered it and texted."""
    game, _table = full_game(room, session, now, free=1)
    ann = room.player(now, "Ann")
    ann.phone = PHONE
    session.commit()
    login(client, "main-supervisor")
    resp = client.post("/desk/join", data={"player_id": str(ann.id), "game_id": str(game.id)})
    assert resp.status_code == 303, resp.text
    (msg,) = messages(session)
    return msg


def _report(client, message_id, status, sid, signed_with=TOKEN, **extra):
    form = {"MessageSid": sid, "MessageStatus": status, "AccountSid": "AC1", **extra}
    url = f"{HOOK}?{urlencode({'message': message_id})}"
    signature = RequestValidator(signed_with).compute_signature(url, form)
    return client.post(f"/hooks/twilio/status?message={message_id}", data=form,
                       headers={"X-Twilio-Signature": signature})


def test_r20_the_desk_action_texts_the_player_after_its_commit(offered, twilio, client):
    assert (offered.state, offered.number, offered.attempts) == ("sent", PHONE, 1)
    (seen,) = twilio.requests
    assert seen.form["To"] == PHONE and seen.form["Body"] == offered.body
    assert offered.body.endswith(f"{PUBLIC}/board/main")
    assert seen.form["StatusCallback"] == f"{HOOK}?message={offered.id}"
    assert "text sent" in client.get("/desk/fragment").text


def test_r20_a_signed_delivery_report_moves_the_text_on(offered, client, session, room, clock):
    polled = client.get("/desk/fragment")
    assert "text sent" in polled.text
    clock.advance(seconds=4)
    resp = _report(client, offered.id, "delivered", offered.provider_id)
    assert resp.status_code == 204, resp.text
    assert messages(session)[0].state == "delivered"
    # not audited, yet the desk's poll sees it: its ETag keys on the texts' last change too
    again = client.get("/desk/fragment", headers={"If-None-Match": polled.headers["ETag"]})
    assert again.status_code == 200 and "text delivered" in again.text
    seats = Api(client, token_for(room, session, "supervisor")).get("/room").json["games"][0][
        "tables"][0]["seats"]
    assert [s["text"] for s in seats if s["state"] == "offered"] == [
        {"state": "delivered", "error": None}]


def test_r20_an_undelivered_text_shows_why_on_the_desk(offered, client, session):
    resp = _report(client, offered.id, "undelivered", offered.provider_id, ErrorCode="30003")
    assert resp.status_code == 204
    (msg,) = messages(session)
    assert (msg.state, msg.last_error) == ("failed", "phone unreachable (Twilio 30003)")
    assert "text failed: phone unreachable (Twilio 30003)" in client.get("/desk/fragment").text


@pytest.mark.parametrize("signed_with", ["another-token", None])
def test_a_report_not_signed_by_the_account_is_refused(offered, client, session, signed_with):
    if signed_with is None:
        resp = client.post(f"/hooks/twilio/status?message={offered.id}",
                           data={"MessageSid": offered.provider_id, "MessageStatus": "delivered"})
    else:
        resp = _report(client, offered.id, "delivered", offered.provider_id, signed_with)
    assert resp.status_code == 403 and "not signed" in resp.json["error"]
    assert messages(session)[0].state == "sent"


def test_a_report_signed_for_another_message_is_refused(offered, client, session):
    form = {"MessageSid": offered.provider_id, "MessageStatus": "failed"}
    signature = RequestValidator(TOKEN).compute_signature(f"{HOOK}?message=999", form)
    resp = client.post(f"/hooks/twilio/status?message={offered.id}", data=form,
                       headers={"X-Twilio-Signature": signature})
    assert resp.status_code == 403
    assert session.scalar(select(OutboxMessage.state)) == "sent"


def joined_with_code(client, twilio, data, headers=None):
    """R12: a join from the phone page, completed with the code Twilio was given for it."""
    asked = client.post("/board/main/join", data=data, headers=headers or {})
    assert asked.status_code == 303 and asked.headers["Location"].endswith("/join/code"), asked.text
    code = re.search(r"\b(\d{6})\b", twilio.requests[-1].form["Body"]).group(1)
    done = client.post("/board/main/join/code", data={"code": code}, headers=headers or {})
    assert done.status_code == 303 and done.headers["Location"].endswith("/board/main/me"), done.text
    return done


def test_r12_r20_a_player_who_joined_from_the_phone_is_texted_their_own_page(
        client, room, session, now, twilio):
    """The text of an offer to a remote entry links the player's own page (their phone's
    cookie opens it), not the board."""
    act(session, room.sup, now, update_policy, remote_entries=True)
    game, _table = full_game(room, session, now, free=0)
    session.commit()
    joined_with_code(client, twilio, {"game_id": [str(game.id)], "first_name": "Ann",
                                      "last_name": "", "phone": PHONE})
    login(client, "main-supervisor")
    entry = session.scalar(select(ListEntry).where(ListEntry.source == "remote"))
    assert client.post(f"/desk/entries/{entry.id}/checkin").status_code == 303  # R12: here now
    hold = session.scalars(select(SeatHold).where(SeatHold.kind == "seated")).first()
    assert client.post(f"/desk/seats/{hold.id}/leave", data={"leave_amount": "100"}).status_code == 303
    (msg,) = messages(session)
    assert msg.body.endswith(f"{PUBLIC}/board/main/me")


def test_issue21_a_german_phone_joiner_is_texted_in_german(client, room, session, now, twilio):
    """The join page was German (the phone's Accept-Language): Twilio is given the German
    text; the desk's own screens stay English."""
    act(session, room.sup, now, update_policy, remote_entries=True)
    game, _table = full_game(room, session, now, free=0)
    session.commit()
    joined_with_code(client, twilio, {"game_id": [str(game.id)], "first_name": "Ann",
                                      "last_name": "", "phone": PHONE},
                     {"Accept-Language": "de-DE,de;q=0.9"})
    login(client, "main-supervisor")
    entry = session.scalar(select(ListEntry).where(ListEntry.source == "remote"))
    assert client.post(f"/desk/entries/{entry.id}/checkin").status_code == 303
    hold = session.scalars(select(SeatHold).where(SeatHold.kind == "seated")).first()
    assert client.post(f"/desk/seats/{hold.id}/leave", data={"leave_amount": "100"}).status_code == 303
    (msg,) = messages(session)
    _code, seen = twilio.requests
    assert seen.form["Body"] == msg.body
    assert msg.body == ("Room main: Ihr Platz ist frei. NL Hold'em 1/2, Tisch 1, Platz 1. Melden "
                        "Sie sich bis 20:10 Uhr am Desk, sonst geht er an den nächsten Spieler. "
                        f"{PUBLIC}/board/main/me")
    assert "text sent" in client.get("/desk/fragment").text


# ---- issue 40: a join from the phone proves the number with a texted code (R12) -------------


@pytest.fixture()
def remote_game(room, session, now):
    act(session, room.sup, now, update_policy, remote_entries=True)
    game, _table = full_game(room, session, now, free=0)
    bea = room.player(now, "Bea")
    bea.phone = PHONE
    session.commit()
    return game, bea


def test_issue40_a_caller_without_the_phone_joins_nothing_and_the_player_does(
        app, remote_game, session, twilio):
    """The audit's attack: a caller typing Bea's number got an entry in her name and a link to
    it. Now the code goes to Bea's phone: the caller's join waits for it and a guess is
    counted; Bea, typing the code she got, joins as herself."""
    game, bea = remote_game
    form = {"game_id": [str(game.id)], "first_name": "Mallory", "last_name": "", "phone": PHONE}
    caller = app.test_client()
    asked = caller.post("/board/main/join", data=form)
    assert asked.status_code == 303 and "roomops-code-" in asked.headers["Set-Cookie"]
    assert twilio.requests[-1].form["To"] == PHONE
    page = caller.get("/board/main/join/code")
    assert page.headers["Cache-Control"] == "no-store" and "ending 123" in page.text
    assert "7700" not in page.text  # the number's last digits only
    guess = caller.post("/board/main/join/code", data={"code": "000000"})
    assert guess.status_code == 422 and "That code is not right: 4 tries left." in guess.text
    assert "(R" not in guess.text
    assert session.scalar(select(ListEntry).where(ListEntry.source == "remote")) is None
    joined_with_code(app.test_client(), twilio, {**form, "first_name": "Bea"})
    session.expire_all()
    entry = session.scalar(select(ListEntry).where(ListEntry.source == "remote"))
    assert (entry.player_id, entry.phone_verified) == (bea.id, True)


def test_issue40_the_code_is_texted_in_the_pages_language(app, remote_game, twilio):
    game, _bea = remote_game
    phone = app.test_client()
    phone.post("/board/main/join?lang=de", data={"game_id": [str(game.id)], "first_name": "Bea",
                                                 "last_name": "", "phone": PHONE})
    assert "Ihr Code" in twilio.requests[-1].form["Body"]
    assert "Code eingeben" in phone.get("/board/main/join/code").text


def test_issue40_the_api_joins_with_the_code(client, remote_game, twilio):
    game, _bea = remote_game
    asked = client.post("/api/v1/remote-entries", json={
        "room": "main", "game_ids": [game.id], "first_name": "Bea", "phone": PHONE})
    assert asked.status_code == 202 and asked.json["entries"] == [], asked.json
    pending = asked.json["code_token"]
    code = re.search(r"\b(\d{6})\b", twilio.requests[-1].form["Body"]).group(1)
    wrong = client.post("/api/v1/remote-entries/confirm", json={
        "room": "main", "code_token": pending, "code": "000000" if code != "000000" else "1"})
    assert wrong.status_code == 422 and wrong.json["rule"] == "R12"
    done = client.post("/api/v1/remote-entries/confirm", json={
        "room": "main", "code_token": pending, "code": code})
    assert done.status_code == 201 and done.json["link_token"] and len(done.json["entries"]) == 1
    again = client.post("/api/v1/remote-entries/confirm", json={
        "room": "main", "code_token": pending, "code": code})
    assert again.status_code == 409


def test_issue40_an_offer_to_a_player_without_a_number_says_so_once(client, room, session, now):
    """The desk showed "no text: no phone number" on the seat's tile and the list entry of
    every such offer; now once, on the entry the seat was offered to."""
    game, _table = full_game(room, session, now, free=1)
    ann = room.player(now, "Ann")
    session.commit()
    login(client, "main-supervisor")
    resp = client.post("/desk/join", data={"player_id": str(ann.id), "game_id": str(game.id)})
    assert resp.status_code == 303, resp.text
    assert client.get("/desk/fragment").text.count("no text: no phone number") == 2  # tag, title


def test_issue40_a_code_past_its_deadline_says_so_on_the_code_page(app, remote_game, clock):
    game, _bea = remote_game
    phone = app.test_client()
    phone.post("/board/main/join", data={"game_id": [str(game.id)], "first_name": "Bea",
                                         "last_name": "", "phone": PHONE})
    clock.advance(minutes=10)
    page = phone.get("/board/main/join/code")
    assert "the code ran out: join again for a new one" in page.text
    assert 'name="code"' not in page.text  # no form for a code that cannot be used
    late = phone.post("/board/main/join/code", data={"code": "123456"})
    assert late.status_code == 409 and "ran out" in late.text
