"""R67-R70, R54, R61 through the JSON API: a scheme started, a hand's drop recorded and refused in
JSON naming the rule, the pool's ledger and gaming day, a claim paid with a second staff member's
username and password, a refusal, the drop box counted, and who may do what."""

from __future__ import annotations

from sqlalchemy import select

from roomops.jackpots.models import JackpotScheme
from tests.factories import PASSWORD
from tests.http.test_api import refused
from tests.services.jackpot_helpers import night

SECOND = {"username": "main-cashier", "password": PASSWORD}


def test_r67_r68_r69_r70_a_night_of_a_jackpot_through_the_api(sup, dealer, cashier, room, session, now):
    n = night(room, session, now)
    n.hand(now)
    session.commit()
    other = room.game(now, variant="PLO")
    session.commit()
    started = sup.post("/jackpots/schemes", json={"name": "High hand", "kind": "high_hand", "drop": 50,
                                                  "threshold": 1000, "qualifying": "four_of_a_kind",
                                                  "games": [other.id]})
    assert started.status_code == 201, started.text
    names = [s["name"] for s in started.json["schemes"]]
    assert names == ["Bad beat", "High hand"]
    bad = started.json["schemes"][0]
    assert bad["pool"] == 0 and bad["rules"][0].startswith("Drop £1.00 from each pot of £20.00")
    again = sup.post("/jackpots/schemes", json={"name": "Other", "kind": "bad_beat", "drop": 50,
                                                "threshold": 1000, "qualifying": "four_of_a_kind",
                                                "games": [n.game.id]})
    assert "already takes part in Bad beat" in refused(again, 409, "R67")["error"]

    small = dealer.post(f"/tables/{n.table.id}/hands/1/jackpot-drop", json={"pot": 1500, "flop": True,
                                                                             "drop": 100})
    assert refused(small, 409, "R68")["error"] == "no jackpot drop from a pot under £20.00"
    drop = dealer.post(f"/tables/{n.table.id}/hands/1/jackpot-drop", json={"pot": 3000, "flop": True,
                                                                            "drop": 100})
    assert drop.status_code == 201 and drop.json["amount"] == 100
    seeded = sup.post(f"/jackpots/schemes/{n.scheme.id}/seed", json={"amount": 39_900, "reason": "seed"})
    assert seeded.status_code == 201

    claim = dealer.post(f"/tables/{n.table.id}/hands/1/jackpot-claims", json={
        "winning_seat": 3, "winning_cards": "Qh Qs Qc Qd", "losing_seat": 5,
        "losing_cards": "Ah Ad Ac Kh Kd"})
    assert claim.status_code == 201 and claim.json["decision"] is None and len(claim.json["dealt"]) == 8
    waiting = sup.get("/jackpots/claims").json["waiting"]
    assert [c["id"] for c in waiting] == [claim.json["id"]]
    wrong = sup.post(f"/jackpots/claims/{claim.json['id']}/payout",
                     json={"confirmation": {"username": "main-cashier", "password": "nope"}})
    assert wrong.status_code == 403
    paid = sup.post(f"/jackpots/claims/{claim.json['id']}/payout", json={"confirmation": SECOND})
    assert paid.status_code == 201, paid.text
    assert paid.json["prize"] == 40_000
    assert sum(-p["amount"] for p in paid.json["claims"][0]["payouts"]) == 40_000

    pool = sup.get(f"/jackpots/schemes/{n.scheme.id}/pool").json
    assert pool["pool"] == 0 and pool["day"]["dropped"] == 100
    assert pool["day"]["opening"] + sum(pool["day"]["by_kind"].values()) == pool["day"]["closing"] == 0
    assert [r["kind"] for r in pool["rows"]][-2:] == ["seed", "drop"]

    box = cashier.post(f"/jackpots/box/days/{now.date().isoformat()}",
                       json={"counted": 100,
                             "confirmation": {"username": "main-supervisor", "password": PASSWORD}})
    assert box.status_code == 201 and box.json["variance"] == 0


def test_r61_r69_who_may_do_what_and_a_wrong_body(sup, dealer, cashier, room, session, now):
    n = night(room, session, now)
    session.commit()
    scheme = session.scalars(select(JackpotScheme)).one()
    refused(dealer.post(f"/jackpots/schemes/{scheme.id}/seed", json={"amount": 100}), 403, "R61")
    refused(cashier.get("/jackpots"), 403, "R61")
    refused(sup.post(f"/jackpots/schemes/{scheme.id}/seed", json={"amount": 1.5}), 422, "R69")
    refused(sup.post("/jackpots/schemes", json={"name": "x", "kind": "bad_beat", "drop": 100, "threshold": 0,
                                                "qualifying": "two_pair", "games": [n.game.id]}), 422, "R67")
    refused(sup.post(f"/jackpots/schemes/{scheme.id}/adjustments", json={
        "amount": -1, "reason": "x", "confirmation": SECOND}), 409, "R69")
    refused(sup.get("/jackpots/schemes/999999/pool"), 404, "R69")
    refused(sup.post("/jackpots/claims/999999/payout", json={"confirmation": SECOND}), 404, "R70")
