"""R15, R17-R19 over HTTP: the JSON API's move routes and the desk's forms, each refusal a 4xx
naming its rule with nothing changed, never a 500."""

from __future__ import annotations

from sqlalchemy import select

from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.rooms.services import bar_pair
from tests.http.test_api import counts, refused
from tests.services.helpers import fill_table, live_offer, live_seat
from tests.units import act


def _game(room, session, now, *free):
    game = room.game(now)
    tables = [room.table(now, game, str(i)) for i in range(1, len(free) + 1)]
    holds = [fill_table(room, session, now, game, t, f, prefix=f"T{t.name}-")
             for t, f in zip(tables, free, strict=True)]
    session.commit()
    return game, tables, holds


# ---- JSON API ---------------------------------------------------------------------------------


def test_api_move_player_and_its_refusals(api, room, session, now):
    _, (_t1, t2), (h1, h2) = _game(room, session, now, 4, 4)
    other = room.game(now, variant="PL Omaha")
    t9 = room.table(now, other, "9")
    act(session, room.sup, now, bar_pair, h1[1].player_id, h2[0].player_id, "dispute")
    session.commit()
    before = counts(session)
    path = f"/seats/{h1[0].id}/move"
    refused(api.post(path, {"table_id": t9.id, "seat_no": 1, "stack": 100}), 409, "R18")
    refused(api.post(path, {"table_id": t2.id, "seat_no": 1, "stack": 100}), 409, "R20")
    refused(api.post(path, {"table_id": t2.id, "seat_no": 9, "stack": 100, "added": -5}), 422, "R28")
    refused(api.post(path, {"table_id": t2.id, "seat_no": 9, "stack": 39000, "added": 5000}), 422,
            "R30")
    refused(api.post(f"/seats/{h1[1].id}/move", {"table_id": t2.id, "seat_no": 9, "stack": 100}),
            409, "R15")
    assert counts(session) == before
    resp = api.post(path, {"table_id": t2.id, "seat_no": 9, "stack": 100, "added": 900,
                           "reason": "balancing"})
    assert resp.status_code == 201, resp.text
    assert resp.json["buy_in"] == 1000
    assert resp.json["no_blind_owed"] is True and resp.json["from_hold_id"] == h1[0].id


def test_api_table_change_claim_carries_the_stack(api, room, session, now):
    _, (_t1, t2), (h1, _h2) = _game(room, session, now, 1, 5)  # 8 and 4 seated
    act(session, room.sup, now, lists.join, player_id=h1[0].player_id, table_id=t2.id)
    offer = live_offer(session, h1[0].player_id)
    session.commit()
    refused(api.post(f"/offers/{offer.id}/claim", {"buy_in": 10000}), 409, "R18")
    resp = api.post(f"/offers/{offer.id}/claim-move", {"stack": 55555})
    assert resp.status_code == 200, resp.text
    assert (resp.json["table_id"], resp.json["buy_in"], resp.json["no_blind_owed"]) == (
        t2.id, 55555, False)


def test_api_must_move_balance_and_break(api, room, session, now):
    game, (t1, t2, t3), holds = _game(room, session, now, 1, 5, 7)  # 8, 4 and 2 seated
    refused(api.post(f"/tables/{t2.id}/must-move", {"feeds_table_id": t2.id}), 422, "R17")
    suggestion = api.get(f"/games/{game.id}/balance").json["suggestion"]
    assert suggestion["from_table"] == t1.id and suggestion["to_table"] == t3.id
    assert suggestion["hold_id"] == holds[0][-1].id and suggestion["why"] == "last to join"
    resp = api.post(f"/tables/{t3.id}/must-move", {"feeds_table_id": t1.id})
    assert resp.status_code == 200 and resp.json["feeds_table_id"] == t1.id
    room_view = api.get("/room").json
    assert [t["feeds_table_id"] for t in room_view["games"][0]["tables"]] == [None, None, t1.id]
    board = api.client.get("/board/main").text  # R17 on the public board
    assert board.count("Must-move: players move to Table 1 in the order they sat down") == 1
    refused(api.post(f"/tables/{t2.id}/break", {"stacks": {"999999": 100}}), 422, "R19")
    stacks = {str(holds[1][0].id): 7777}
    broken = api.post(f"/tables/{t2.id}/break", {"stacks": stacks})
    assert broken.status_code == 200, broken.text
    assert broken.json["table"]["status"] == "closed"
    moved = {h["from_hold_id"]: h for h in broken.json["moved"]}
    assert moved[holds[1][0].id]["buy_in"] == 7777 and len(moved) + len(broken.json["listed"]) == 4
    refused(api.post(f"/tables/{t2.id}/break", {}), 409, "R19")


# ---- desk forms -------------------------------------------------------------------------------


def test_desk_move_break_and_must_move(sup_client, room, session, now):
    _, (t1, t2, t3), holds = _game(room, session, now, 1, 5, 8)  # 8, 4 and 1 seated
    page = sup_client.get("/desk").text
    assert "balance" in page and "last to join" in page  # R19 suggestion
    resp = sup_client.post(f"/desk/seats/{holds[0][0].id}/move",
                           data={"table_id": str(t2.id), "seat_no": "9", "stack": "150.50"})
    assert resp.status_code == 303
    assert live_seat(session, holds[0][0].player_id).buy_in == 15050
    refused_page = sup_client.post(f"/desk/seats/{holds[0][1].id}/move",
                                   data={"table_id": str(t2.id), "seat_no": "9", "stack": "100"})
    assert refused_page.status_code == 409 and "R20" in refused_page.text
    assert "Nothing was changed" in refused_page.text
    resp = sup_client.post(f"/desk/tables/{t3.id}/must-move", data={"feeds_table_id": str(t1.id)})
    assert resp.status_code == 303
    assert "must-move → T1" in sup_client.get("/desk").text
    resp = sup_client.post(f"/desk/tables/{t2.id}/break", follow_redirects=True)
    assert "Broke table 2" in resp.text
    assert not session.scalars(select(SeatHold).where(
        SeatHold.table_id == t2.id, SeatHold.ended_at.is_(None))).all()
    again = sup_client.post(f"/desk/tables/{t2.id}/break")
    assert again.status_code == 409 and "R19" in again.text
