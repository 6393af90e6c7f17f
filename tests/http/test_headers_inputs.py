"""Headers and inputs (issue 19; docs/security.md "Headers and inputs"), on every configured database:
the security headers on every answer, HSTS over HTTPS, ``Allow`` on a 405, ids outside the id
columns' range a 404 on every route (never a 500), booleans and strings refused as amounts, names
without control or direction-override characters, the board's phone address from the configured
public URL, and CSV text cells a spreadsheet will not run."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pydantic import BaseModel, ValidationError

from roomops.api.views import OPERATIONS
from roomops.config import DEV_PUBLIC_URL, Settings
from roomops.db import INT_MAX
from roomops.factory import create_app
from roomops.schemas import MAX_AMOUNT, MAX_TOTAL
from roomops.web import access
from roomops.web.headers import CSP, HEADERS, HSTS
from tests.conftest import login
from tests.http.test_api import GAME, Api, refused, token_for
from tests.units import act

DAY = "2026-11-21"
RULE_ARG = re.compile(r"<(?:([a-z]+)(?:\([^)]*\))?:)?(\w+)>")
TOO_LARGE = [str(INT_MAX + 1), str(2**63), "9" * 20, "9" * 5000]
OTHER_ARGS = {"string": DAY, "slug": "main", "step": "dispatch", "filename": "roomops.css"}


def _expect_headers(resp: Any, hsts: bool = False) -> None:
    for name, value in HEADERS.items():
        assert resp.headers.get(name) == value, (resp.request.path, name)
    assert ("Strict-Transport-Security" in resp.headers) is hsts
    if hsts:
        assert resp.headers["Strict-Transport-Security"] == HSTS


@pytest.fixture()
def app_at(db_url, engine, sessions, clock) -> Iterator[Any]:
    """An app like the suite's, at a given public URL."""
    def make(public_url: str) -> Flask:
        settings = Settings(database_url=db_url, scheduler="off", secret_key="test", testing=True,
                            public_url=public_url)
        application = create_app(settings, clock=clock, engine=engine, WTF_CSRF_ENABLED=False)
        ext = application.extensions["roomops"]
        ext.sessions = ext.read_sessions = sessions
        return application

    yield make


# ---- headers ------------------------------------------------------------------------------------


def test_the_policy_allows_only_the_apps_own_files():
    assert CSP.split("; ") == ["default-src 'self'", "script-src 'self'", "style-src 'self'",
                               "img-src 'self' data:", "object-src 'none'", "frame-ancestors 'none'",
                               "base-uri 'none'", "form-action 'self'"]


@pytest.mark.parametrize("path", ["/login", "/board", "/board/main/live", "/api/openapi.json",
                                  "/static/roomops.css", "/nowhere", "/api/v1/room", "/desk"])
def test_every_answer_carries_the_security_headers(client, room, session, path):
    session.commit()
    _expect_headers(client.get(path))


def test_pages_refusals_and_posts_carry_them_logged_in(sup_client):
    for resp in (sup_client.get("/desk"), sup_client.get("/desk/entries/2147483647"),
                 sup_client.post("/desk/players", data={"first_name": ""}),
                 sup_client.get("/desk/seats/1/leave")):
        _expect_headers(resp)


def test_hsts_only_over_https_or_for_an_https_deployment(client, room, session, app_at):
    session.commit()
    _expect_headers(client.get("/login"))
    _expect_headers(client.get("/login", base_url="https://localhost"), hsts=True)
    behind_tls = app_at("https://poker.example.com").test_client()  # TLS ended at the proxy
    _expect_headers(behind_tls.get("/login"), hsts=True)
    _expect_headers(behind_tls.get("/api/v1/room"), hsts=True)


# ---- 405 answers carry Allow --------------------------------------------------------------------


def test_a_405_says_which_methods_are_allowed(sup, sup_client):
    api = sup.get("/seats/1/leave")
    assert api.status_code == 405 and api.is_json and api.json["rule"] is None
    assert "POST" in api.headers["Allow"].split(", ")
    assert api.headers["Content-Type"] == "application/json"
    patch_only = sup.post("/games/1", json={})
    assert patch_only.status_code == 405 and "PATCH" in patch_only.headers["Allow"]
    page = sup_client.get("/desk/seats/1/leave")
    assert page.status_code == 405 and "POST" in page.headers["Allow"]
    board = sup_client.post("/board")
    assert board.status_code == 405 and "GET" in board.headers["Allow"]


# ---- ids outside the column's range ----------------------------------------------------------------


def _int_routes(app: Flask) -> list[tuple[str, str, list[str]]]:
    """(method, rule, names of its int arguments) of every rule with an id in its path."""
    found = []
    for rule in app.url_map.iter_rules():
        ints = [name for conv, name in RULE_ARG.findall(rule.rule) if conv == "int"]
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            if ints:
                found.append((method, rule.rule, ints))
    return found


def _url(rule: str, value: str) -> str:
    def arg(m: re.Match[str]) -> str:
        conv, name = m[1], m[2]
        return value if conv == "int" else OTHER_ARGS.get(name, OTHER_ARGS.get(conv or "", "x"))
    return RULE_ARG.sub(arg, rule)


@pytest.fixture()
def everyone(client: FlaskClient, room, session) -> FlaskClient:
    """A supervisor logged in for the pages, with the API token as well."""
    token = token_for(room, session, "supervisor")
    login(client, "main-supervisor")
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client


def test_the_suite_sees_every_id_route(app):
    routes = _int_routes(app)
    assert len({r for _, r, _ in routes if r.startswith("/api/")}) > 40
    assert len({r for _, r, _ in routes if not r.startswith("/api/")}) > 30


@pytest.mark.parametrize("value", TOO_LARGE, ids=["2^31", "2^63", "20 digits", "5000 digits"])
def test_an_id_no_column_can_hold_is_404_on_every_route(app, everyone, value):
    for method, rule, _ in _int_routes(app):
        resp = everyone.open(_url(rule, value), method=method)
        assert resp.status_code == 404, (method, rule, resp.status_code)
        assert resp.is_json == rule.startswith("/api/")


def test_the_largest_id_reaches_the_database_and_is_never_a_500(app, everyone):
    """INT_MAX names no row: each route answers 4xx (no such row, or the body refused first)."""
    for method, rule, _ in _int_routes(app):
        kw = {"json": {}} if rule.startswith("/api/") and method != "GET" else {}
        resp = everyone.open(_url(rule, str(INT_MAX)), method=method, **kw)
        assert 400 <= resp.status_code < 500, (method, rule, resp.status_code, resp.text[:300])
    assert everyone.get(f"/desk/entries/{INT_MAX}").status_code == 404


@pytest.mark.parametrize("query", [f"game_id={INT_MAX + 1}", "game_id=%C2%B2", "game_id=0"])
def test_an_id_in_a_query_outside_the_range_is_refused(everyone, room, query):
    player = room.players(room.room.created_at, 1)[0]
    room.session.commit()
    resp = everyone.get(f"/desk/players/{player.id}/return?{query}")
    assert resp.status_code == 422, resp.text
    assert everyone.get(f"/api/v1/players/{player.id}/return-requirement?{query}").status_code == 422


@pytest.mark.parametrize("query", [f"before_id={2**63}", "before_id=%C2%B2", f"entity=list_entry:{2**63}"])
def test_the_audit_filters_refuse_ids_outside_the_range(everyone, query):
    assert everyone.get(f"/audit?{query}").status_code == 422


def test_form_ids_outside_the_range_are_refused(everyone, room, session):
    session.commit()
    for form in ({"player_id": str(2**63), "game_id": "1"}, {"player_id": "²", "game_id": "1"},
                 {"player_id": "1", "game_id": str(2**63)}):
        refused = everyone.post("/desk/join", data=form, headers={"Accept": "application/json"})
        assert refused.status_code == 422 and refused.json["rule"] == "R10", refused.json
    day = f"/desk/cage/days/{DAY}"
    assert everyone.post(f"{day}/counts", data={f"count-{2**63}": "1"}).status_code == 422
    assert everyone.post(f"{day}/close", data={"second_staff_id": str(2**63)}).status_code == 422
    assert everyone.get(f"{day}/report?shift=%C2%B2").status_code == 422


# ---- amounts: integers, never booleans, strings or floats ------------------------------------------


def _models(model: type[BaseModel]) -> Iterator[type[BaseModel]]:
    yield model
    for field in model.model_fields.values():
        yield from (m for arg in _flat(field.annotation) for m in _models(arg))


def _flat(annotation: Any) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for arg in getattr(annotation, "__args__", ()):
        yield from _flat(arg)


def _amount_fields(model: type[BaseModel]) -> list[str]:
    """Fields whose schema is an integer up to MAX_AMOUNT or MAX_TOTAL: the amounts."""
    props = model.model_json_schema()["properties"]
    return [name for name, prop in props.items()
            if any(p.get("type") == "integer" and p.get("maximum") in (MAX_AMOUNT, MAX_TOTAL)
                   for p in prop.get("anyOf", [prop]))]


def _amounts() -> list[tuple[str, type[BaseModel], str]]:
    """(model name, model, field) of every amount of every API body, nested models included (the
    routes are all in OPERATIONS once an app was made: the ``app`` fixture)."""
    bodies = {m for op in OPERATIONS if op.body is not None for m in _models(op.body)}
    return sorted(((m.__name__, m, f) for m in bodies for f in _amount_fields(m)),
                  key=lambda x: (x[0], x[2]))


def test_every_body_with_money_is_checked(app):
    names = {(m, f) for m, _, f in _amounts()}
    assert {("SeatPlayer", "buy_in"), ("GameConditions", "small_blind"), ("RakeStep", "pot"),
            ("Policy", "cash_out_approval_over"), ("CountIn", "counted"), ("Rake", "pot")} <= names
    assert len(names) > 40


@pytest.mark.parametrize("bad", [True, False, "100", 100.0], ids=["true", "false", "string", "float"])
def test_no_amount_of_any_body_takes_a_boolean_a_string_or_a_float(app, bad):
    for name, model, field in _amounts():
        with pytest.raises(ValidationError) as err:
            model.model_validate({field: bad})
        assert any(e["loc"][:1] == (field,) and e["type"] == "int_type" for e in err.value.errors()), \
            (name, field)


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/seats", {"table_id": 1, "seat_no": 1, "player_id": 1, "buy_in": True}, "buy_in"),
    ("/games", {**GAME, "small_blind": True}, "small_blind"),
    ("/games", {**GAME, "fee_kind": "rake", "rake_schedule": [{"pot": True, "rake": 100}]},
     "rake_schedule.0.pot"),
    ("/ledger/buy-ins", {"hold_id": 1, "amount": True}, "amount"),
])
def test_true_as_an_amount_is_422_naming_the_field(sup, path, body, field):
    resp = sup.post(path, body)
    assert resp.status_code == 422, resp.text
    assert f"{field}: Input should be a valid integer" in resp.json["error"]


def test_true_as_an_amount_in_a_policy_patch_is_422(sup):
    resp = sup.patch("/policy", {"cash_out_approval_over": True})
    assert resp.status_code == 422 and "cash_out_approval_over" in resp.json["error"]
    assert sup.patch("/policy", {"cash_out_approval_over": 100}).status_code == 200


# ---- names: no control characters, no direction overrides -------------------------------------


RLO = "\u202e"


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/players", {"first_name": f"Ann{RLO}eeL"}, "first_name"),
    ("/players", {"first_name": "Ann", "last_name": "Lee\u2066"}, "last_name"),
    ("/players", {"first_name": "Ann\nLee"}, "first_name"),
    ("/players", {"first_name": "Ann", "phone": "07\x1b[2J"}, "phone"),
    ("/games", {**GAME, "variant": f"NL{RLO}"}, "variant"),
    ("/tables", {"game_id": 1, "name": f"1{RLO}"}, "name"),
    ("/entries/1/remove", {"reason": f"left{RLO}"}, "reason"),
])
def test_names_and_reasons_with_controls_or_overrides_are_422_naming_the_field(sup, path, body, field):
    resp = sup.post(path, body)
    assert resp.status_code == 422, resp.text
    assert resp.json["error"].startswith(f"{field}: Value error, may not contain U+")


def test_the_desk_form_refuses_them_too_and_takes_any_script(sup_client, session):
    resp = sup_client.post("/desk/players", data={"first_name": f"Ann{RLO}"})
    assert resp.status_code == 422 and "U+202E" in resp.text
    added = sup_client.post("/desk/players", data={"first_name": "Zoë", "last_name": "محمد"})
    assert added.status_code == 303


@pytest.mark.parametrize("char", ["\u200b", "\u200d", "\u2060", "\ufeff", "\u200e", "\u200f",
                                  "\u061c", "\u00ad"])
def test_issue40_a_name_with_invisible_characters_is_a_422_saying_so(sup, char):
    resp = sup.post("/players", {"first_name": f"Ann{char}Lee", "create_anyway": True})
    assert resp.status_code == 422, resp.text
    assert resp.json["error"].startswith(
        f"first_name: The name has invisible characters (U+{ord(char):04X})")
    stacked = sup.post("/players", {"first_name": "Ann", "last_name": "Le\u0331\u0332\u0333e"})
    assert stacked.status_code == 422 and stacked.json["error"].startswith("last_name: The name")


def test_issue40_a_name_is_stored_in_nfc(sup):
    resp = sup.post("/players", {"first_name": "Zoe\u0308", "create_anyway": True})
    assert resp.status_code == 201, resp.text
    assert resp.json["first_name"] == "Zoë"


def test_issue40_the_desk_form_says_the_name_has_invisible_characters(sup_client):
    resp = sup_client.post("/desk/players", data={"first_name": "Ann\u200bLee"})
    assert resp.status_code == 422 and "The name has invisible characters" in resp.text


# ---- the public address -----------------------------------------------------------------------


def test_the_boards_phone_address_is_the_configured_one_never_the_host_header(client, room, session):
    session.commit()
    page = client.get("/board/main", headers={"Host": "evil.example"})
    assert page.status_code == 200
    shown = page.text.replace("<wbr>", "")  # where the TV's side column may wrap it
    assert f"<strong>{DEV_PUBLIC_URL}/board/main</strong>" in shown
    assert "evil.example" not in page.text


def test_a_public_url_with_a_path_prefix(room, session, app_at):
    session.commit()
    page = app_at("https://poker.example.com/club/").test_client().get("/board")
    shown = page.text.replace("<wbr>", "")  # where the TV's side column may wrap it
    assert "<strong>https://poker.example.com/club/board/main</strong>" in shown


@pytest.mark.parametrize("bad", ["poker.example.com", "ftp://x", "https://", "http://x/?a=1"])
def test_a_public_url_that_is_no_web_address_stops_the_start(bad):
    with pytest.raises(ValueError, match="ROOMOPS_PUBLIC_URL"):
        Settings(database_url="sqlite://", secret_key="x", public_url=bad)


# ---- CSV cells --------------------------------------------------------------------------------


def test_the_report_csv_writes_formulas_as_text_and_amounts_as_numbers(client, room, session, now):
    from roomops.seating import seats

    game = room.game(now)
    table = room.table(now, game, "=1+2")
    player = room.players(now, 1)[0]
    act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=1, player_id=player.id,
        buy_in=10000)
    session.commit()
    cashier = Api(client, token_for(room, session, "cashier"))
    counts = {"counts": [{"table_id": table.id, "counted": 9500, "explanation": "-5 @bar"}]}
    assert cashier.post(f"/ledger/days/{DAY}/counts", counts).status_code == 201
    text = client.get(f"/desk/cage/days/{DAY}/report.csv", headers=cashier.headers).text
    rows = list(csv.reader(io.StringIO(text)))
    assert ["table", str(table.id), "'=1+2", "1", "100.00"] in rows
    assert [str(table.id), "'=1+2", "main-cashier", "95.00", "100.00", "-5.00", "'-5 @bar", "1"] in rows
    refused(cashier.get(f"/tables/{2**31}/rake-downs"), 404, None)


def test_v8_2_1_pages_with_names_or_money_are_not_kept_by_the_browser(client, room, session):
    """A shared desk PC's browser keeps no cage figures, names or staff lists after log-out: an
    answer that does not say how it is cached is ``no-store``, as is every staff page (the desk
    too: tests/http/test_staff_caching.py); the board and the static files keep their own."""
    session.commit()
    sup = login(client, "main-supervisor")
    for path in ("/desk/cage", "/desk/fees", "/desk/cage/report", "/audit", "/account",
                 "/api/v1/room", "/login", "/desk"):
        assert sup.get(path).headers["Cache-Control"] == "no-store", path
    for path in ("/board", "/static/roomops.css"):
        assert sup.get(path).headers["Cache-Control"] != "no-store", path


def test_v5_3_3_a_name_with_markup_is_shown_as_text(client, room, session, now):
    """ASVS V5.3.3: Jinja escapes every name it shows; markup typed as a name never runs."""
    room.player(now, "<script>alert(1)</script>", "<b>Bold</b>")
    session.commit()
    page = login(client, "main-supervisor").get("/desk").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert(1)" not in page


def test_v7_4_1_an_unexpected_error_is_a_generic_500_with_the_headers(own_app, monkeypatch):
    """ASVS V7.4.1: no stack trace or detail reaches the client; JSON on the API."""
    app, client = own_app, own_app.test_client()
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as in production: testing raises instead

    def boom() -> str:
        raise RuntimeError("secret detail")

    app.add_url_rule("/boom", "boom", boom)
    app.add_url_rule("/api/v1/boom", "api_boom", boom)
    monkeypatch.setattr(access, "PUBLIC", access.PUBLIC | {"boom", "api_boom"})
    page, api = client.get("/boom"), client.get("/api/v1/boom")
    for resp in (page, api):
        assert resp.status_code == 500 and resp.headers["X-Frame-Options"] == "DENY"
        assert "secret detail" not in resp.text and "Traceback" not in resp.text
    assert api.is_json and api.json["error"]


# ---- booleans are booleans, numbers are numbers ---------------------------------------------------


def _typed(json_type: str) -> list[tuple[str, type[BaseModel], str]]:
    """(model name, model, field) of every field of that JSON type of every API body, nested
    models included."""
    bodies = {m for op in OPERATIONS if op.body is not None for m in _models(op.body)}
    return sorted(((m.__name__, m, name) for m in bodies
                   for name, prop in m.model_json_schema()["properties"].items()
                   if any(p.get("type") == json_type for p in prop.get("anyOf", [prop]))),
                  key=lambda x: (x[0], x[2]))


@pytest.mark.parametrize("bad", [True, False], ids=["true", "false"])
def test_no_number_of_any_body_takes_a_boolean(app, bad):
    """Not only amounts: a percent, a count or a limit took true as 1 (found by the schemathesis
    negative checks: rake_bp on POST /games and PATCH /games, max_missed_bb on PATCH /policy)."""
    numbers = _typed("integer")
    assert {("GameChange", "rake_bp"), ("Policy", "max_missed_bb"), ("RecordHand", "hand_no"),
            ("ReorderEntry", "position")} <= {(m, f) for m, _, f in numbers}
    for name, model, field in numbers:
        with pytest.raises(ValidationError) as err:
            model.model_validate({field: bad})
        assert any(e["loc"][:1] == (field,) and e["type"] in ("int_type", "literal_error")
                   for e in err.value.errors()), (name, field)


@pytest.mark.parametrize("bad", [0, 1, "true", "yes"], ids=["0", "1", "true-string", "yes"])
def test_no_boolean_of_any_body_takes_a_number_or_a_string(app, bad):
    """The document says boolean: 0 and "true" were taken as false and true (found by the
    schemathesis negative checks on PATCH /games, PATCH /policy, POST /games, POST /ledger/rebuys)."""
    flags = _typed("boolean")
    assert {("GameChange", "straddle_sanction"), ("Rebuy", "after_all_in"), ("Rake", "flop"),
            ("Policy", "reversal_two_person"), ("RecordHand", "sanctioned")} <= {
        (m, f) for m, _, f in flags}
    for name, model, field in flags:
        with pytest.raises(ValidationError) as err:
            model.model_validate({field: bad})
        assert any(e["loc"][:1] == (field,) and e["type"] == "bool_type" for e in err.value.errors()), \
            (name, field)


def test_a_number_as_a_yes_or_no_and_a_yes_or_no_as_a_number_are_422_naming_the_field(sup):
    """R6/R3: a game's or the room's yes-or-no takes true or false only, its numbers numbers."""
    game = sup.post("/games", GAME).json["id"]
    resp = sup.patch(f"/games/{game}", {"straddle_sanction": 0})
    assert resp.status_code == 422
    assert "straddle_sanction: Input should be a valid boolean" in resp.json["error"]
    resp = sup.patch(f"/games/{game}", {"rake_bp": False})
    assert resp.status_code == 422 and "rake_bp: Input should be a valid integer" in resp.json["error"]
    assert sup.patch("/policy", {"reversal_two_person": 1}).status_code == 422
    assert sup.patch("/policy", {"max_missed_bb": True}).status_code == 422
    assert sup.patch(f"/games/{game}", {"straddle_sanction": False, "rake_bp": 0}).status_code == 200
