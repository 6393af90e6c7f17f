"""Issue 21 over HTTP: the board and the phone pages in English, German and Italian, chosen by
?lang= (then a cookie), the browser's Accept-Language, or the room's default; refusals in the
page's language; the games fragment cached and tagged per language; staff screens English; the
room's default set by the policy page, the API and the console; the join limit's and the CSRF
check's refusals on the phone pages, and the room chooser, in the player's language."""

from __future__ import annotations

import html
import re

import pytest
from sqlalchemy import select

from roomops.board.views import CACHE
from roomops.config import Settings
from roomops.factory import create_app
from roomops.lists.models import ListEntry
from roomops.rooms.models import Room
from roomops.rooms.services import update_policy
from tests.factories import Room_
from tests.services.helpers import full_game
from tests.units import act

PHONE = "07700 900123"


@pytest.fixture()
def game(room, session, now):
    act(session, room.sup, now, update_policy, remote_entries=True)
    found, _ = full_game(room, session, now, free=1, straddle_allowed=True, max_straddles=1)
    session.commit()
    return found


def text(resp) -> str:
    return html.unescape(resp.text)


def test_issue21_the_board_follows_accept_language_english_by_default(client, game):
    english = text(client.get("/board/main"))
    assert '<html lang="en">' in english and "Waiting list" in english and "Open: seat 9" in english
    german = client.get("/board/main", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    page = text(german)
    assert '<html lang="de">' in page and "Warteliste" in page and "Frei: Platz 9" in page
    assert "Straddle: nur UTG" in page and "Tisch 1" in page and "Spiele und Listen" in page
    assert "£100.00 bis £400.00" in page  # the room's money, in the room's locale
    assert "Accept-Language" in german.headers["Vary"]
    italian = text(client.get("/board/main", headers={"Accept-Language": "it"}))
    assert "Lista d'attesa" in italian and "Tavolo 1" in italian and "Libero: posto 9" in italian


def test_issue21_r53_the_fees_are_worded_in_the_boards_language(client, room, session, now):
    """R53: the time fee and no-flop-no-drop read in the player's language, the jargon word of
    the card room in brackets; the rake's and the drop's names are the same in all three."""
    room.game(now, fee_kind="rake", rake_bp=500, rake_cap=600, rake_no_flop_no_drop=True)
    room.game(now, fee_kind="hourly", time_fee=1200)
    room.game(now, fee_kind="halfhour", time_fee=500)
    session.commit()
    german = text(client.get("/board?lang=de"))
    assert "kein Flop, kein Rake" in german and "no flop no drop" not in german
    assert "Zeitgebühr (Time): £12.00 pro Stunde, im Voraus zu zahlen" in german
    assert "Zeitgebühr (Time): £5.00 pro halbe Stunde" in german
    italian = text(client.get("/board?lang=it"))
    assert "niente flop, niente rake" in italian and "no flop no drop" not in italian
    assert "Tariffa al tavolo (time): £12.00 all'ora, da pagare in anticipo" in italian
    assert "Tariffa al tavolo (time): £5.00 ogni mezz'ora" in italian
    assert "no flop no drop" in text(client.get("/board?lang=en"))


def test_issue21_an_explicit_choice_wins_and_is_remembered_in_a_cookie(client, game):
    resp = client.get("/board/main?lang=it", headers={"Accept-Language": "de"})
    assert "Lista d'attesa" in text(resp)
    assert "roomops-lang=it" in resp.headers["Set-Cookie"]
    assert "Iscriviti a una lista" in text(client.get("/board/main/join",
                                                      headers={"Accept-Language": "de"}))
    assert "Auf die Warteliste" in text(client.get("/board/main/join?lang=de"))
    assert "Warteliste" in text(client.get("/board/main"))  # now remembered as German


def test_issue21_the_rooms_default_when_neither_player_nor_browser_names_one(
        client, game, room, session, now):
    act(session, room.sup, now, update_policy, language="de")
    session.commit()
    assert "Warteliste" in text(client.get("/board/main"))
    assert "Warteliste" in text(client.get("/board/main", headers={"Accept-Language": "fr"}))
    assert "Waiting list" in text(client.get("/board/main", headers={"Accept-Language": "en-GB"}))


def test_issue21_a_language_not_supported_in_lang_is_a_422(client, game):
    resp = client.get("/board/main?lang=fr")
    assert resp.status_code == 422 and "lang= is one of en, de, it" in text(resp)
    assert client.get("/board/main/live?lang=xx").status_code == 422


def test_issue21_the_fragments_address_carries_the_pages_language(client, game):
    page = text(client.get("/board/main", headers={"Accept-Language": "de"}))
    assert 'data-live-url="/board/main/live?lang=de"' in page
    assert 'data-t-expired="abgelaufen"' in page and 'data-t-page="Seite {page} von {pages}"' in page
    english = text(client.get("/board/main"))
    assert 'data-live-url="/board/main/live"' in english and 'data-t-expired="expired"' in english


def test_issue21_fragment_cache_and_etag_per_language(client, app, game):
    english = client.get("/board/main/live")
    german = client.get("/board/main/live?lang=de")
    assert "Waiting list" in text(english) and "Warteliste" in text(german)
    assert english.headers["ETag"] != german.headers["ETag"]
    # a German phone's tag is no English TV's: each is 304 for its own language only
    assert client.get("/board/main/live?lang=de",
                      headers={"If-None-Match": german.headers["ETag"]}).status_code == 304
    again = client.get("/board/main/live", headers={"If-None-Match": german.headers["ETag"]})
    assert again.status_code == 200 and "Waiting list" in text(again)
    assert len(app.extensions[CACHE]) == 2  # the one game, drawn once in each language
    # drawn from the cache afterwards, each in its own language
    assert "Warteliste" in text(client.get("/board/main/live?lang=de"))
    assert "Warteliste" not in text(client.get("/board/main/live"))


def test_issue21_the_join_form_and_its_refusals_in_german(client, game):
    page = text(client.get("/board/main/join", headers={"Accept-Language": "de"}))
    assert "Vorname" in page and "Telefonnummer" in page and "Eintragen" in page
    assert "Melden Sie sich innerhalb von 30 Minuten am Desk" in page
    bad = client.post("/board/main/join?lang=de", data={
        "game_id": [str(game.id)], "first_name": "Ann", "phone": "12"})
    said = text(bad)
    assert bad.status_code == 422 and "Telefon: '12' ist keine lesbare Telefonnummer" in said
    assert 'data-rule="R12"' in said and "(R" not in said and 'value="Ann"' in said  # the rule kept aside
    none = client.post("/board/main/join", data={"first_name": "Ann", "phone": PHONE},
                       headers={"Accept-Language": "de"})
    assert none.status_code == 422 and "Bitte wählen Sie mindestens ein Spiel." in text(none)
    empty = text(client.post("/board/main/join?lang=it", data={
        "game_id": [str(game.id)], "first_name": "", "phone": ""}))
    # each field in the player's words, pydantic's English only in the log
    assert "Inserisci il tuo nome. Inserisci il tuo numero di telefono." in empty
    assert "String should" not in empty and 'data-rule="R12"' in empty
    long_name = text(client.post("/board/main/join?lang=de", data={
        "game_id": [str(game.id)], "first_name": "A" * 61, "phone": PHONE}))
    assert "Bitte kürzen Sie Ihren Vornamen." in long_name
    client.post("/board/main/join", data={"game_id": [str(game.id)], "first_name": "Ann",
                                          "phone": PHONE})
    again = client.post("/board/main/join", data={"game_id": [str(game.id)], "first_name": "Ann",
                                                   "phone": PHONE}, headers={"Accept-Language": "de"})
    assert again.status_code == 409
    assert "diese Nummer steht schon auf der Liste für NL Hold'em" in text(again)


def test_issue21_the_personal_page_in_italian_with_its_history(client, game):
    joined = client.post("/board/main/join", data={"game_id": [str(game.id)], "first_name": "Ann",
                                                    "phone": PHONE})
    assert joined.status_code == 303
    page = text(client.get("/board/main/me", headers={"Accept-Language": "it-IT,it;q=0.9"}))
    assert "Le tue liste" in page and "Posizione <strong>1</strong> in lista: sei il prossimo" in page
    assert "Presentati al desk entro" in page and "Esci da questa lista" in page
    assert "Ti sei iscritto alla lista d'attesa dal telefono." in page
    assert 'data-t-up="tempo scaduto"' in page
    english = text(client.get("/board/main/me"))
    assert "You joined the waiting list from your phone." in english


def test_issue21_a_refusal_on_the_personal_page_in_german(client, game):
    resp = client.post("/board/main/me/entries/1/leave?lang=de")
    assert resp.status_code == 404
    assert "dieses Telefon hat hier keine Einträge" in text(resp) and 'data-rule="R61"' in resp.text


def test_issue21_staff_screens_stay_english(sup_client, game):
    desk = text(sup_client.get("/desk", headers={"Accept-Language": "de"}))
    assert '<html lang="en">' in desk or 'lang="de"' not in desk
    assert "Warteliste" not in desk and "Tisch 1" not in desk


def test_issue21_the_rooms_language_on_the_policy_page_and_api(sup_client, room, session):
    page = text(sup_client.get("/desk/policy"))
    assert '<option value="it" >Italiano</option>' in page or 'value="it"' in page
    assert sup_client.post("/desk/policy", data={"language": "it", "auto_offer": "on"}
                           ).status_code == 303
    session.expire_all()
    assert session.get(Room, room.room.id).language == "it"
    assert sup_client.post("/desk/policy", data={"language": "fr"}).status_code == 422


def test_issue21_the_rooms_language_through_the_api(sup, room, session):
    assert sup.get("/policy").json["language"] == "en"
    resp = sup.patch("/policy", json={"language": "de"})
    assert resp.status_code == 200 and resp.json["language"] == "de"
    assert sup.patch("/policy", json={"language": "fr"}).status_code == 422


def test_issue21_create_room_with_its_language(app, session):
    runner = app.test_cli_runner()
    out = runner.invoke(args=["create-room", "roma", "Roma", "--language", "it"])
    assert out.exit_code == 0, out.output
    assert session.scalar(select(Room.language).where(Room.slug == "roma")) == "it"
    assert runner.invoke(args=["create-room", "paris", "Paris", "--language", "fr"]).exit_code == 2


@pytest.fixture()
def guarded(db_url, engine, sessions, clock):
    """The app as deployed: CSRF checked on every form (the other tests turn it off)."""
    application = create_app(Settings(database_url=db_url, scheduler="off", secret_key="test",
                                      testing=True), clock=clock, engine=engine)
    application.extensions["roomops"].sessions = sessions
    application.extensions["roomops"].read_sessions = sessions
    return application.test_client()


def _token(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def test_issue21_a_join_form_without_its_csrf_token_comes_back_in_german(guarded, game, session,
                                                                         security_log):
    """The token ran out (a page left open) or never came: nothing is done, the form comes back
    in the page's language with what was typed and a fresh token, which then goes through."""
    typed = {"game_id": [str(game.id)], "first_name": "Ann", "phone": PHONE}
    resp = guarded.post("/board/main/join", data=typed, headers={"Accept-Language": "de"})
    page = text(resp)
    assert resp.status_code == 400 and '<html lang="de">' in page
    assert ("Diese Seite war zu lange offen, deshalb ist nichts geschehen: bitte versuchen Sie es "
            "noch einmal.") in page
    assert 'value="Ann"' in page and resp.headers["Cache-Control"] == "no-store"
    assert session.scalar(select(ListEntry.id)) is None
    assert security_log.named("csrf.failed")
    again = guarded.post("/board/main/join", data={**typed, "csrf_token": _token(page)})
    assert again.status_code == 303


def test_issue21_leaving_without_the_csrf_token_says_so_in_italian(guarded, game):
    resp = guarded.post("/board/main/me/entries/1/leave", headers={"Accept-Language": "it"})
    assert resp.status_code == 400
    assert "Questa pagina è rimasta aperta troppo a lungo" in text(resp)


def test_issue40_the_code_form_without_its_csrf_token_says_so_in_german(guarded, game):
    resp = guarded.post("/board/main/join/code", data={"code": "123456"},
                        headers={"Accept-Language": "de"})
    assert resp.status_code == 400 and "Code eingeben" in text(resp)
    assert "Diese Seite war zu lange offen" in text(resp)


def test_staff_forms_and_unknown_rooms_keep_the_plain_csrf_refusal(guarded, game):
    resp = guarded.post("/login", data={"username": "x", "password": "y"},
                        headers={"Accept-Language": "de"})
    assert resp.status_code == 400 and "The CSRF token is missing." in resp.text
    for path in ("/board/nowhere/join", "/board/nowhere/me/entries/1/leave"):
        nowhere = guarded.post(path, data={"first_name": "Ann"})
        assert nowhere.status_code == 400 and "The CSRF token is missing." in nowhere.text


def test_issue21_the_room_chooser_follows_the_browser(client, room, session, now):
    Room_(session, now, slug="roma")
    session.commit()
    english = text(client.get("/board"))
    assert '<html lang="en">' in english and "<h1>Card rooms</h1>" in english
    german = client.get("/board", headers={"Accept-Language": "de-CH, en;q=0.5"})
    assert "<h1>Cardrooms</h1>" in text(german) and 'href="/board/roma"' in text(german)
    assert "Accept-Language" in german.headers["Vary"]
    italian = text(client.get("/board?lang=it"))
    assert '<html lang="it">' in italian and "Poker room · giochi e liste" in italian
    assert "<h1>Poker room</h1>" in text(client.get("/board"))  # the choice is remembered
