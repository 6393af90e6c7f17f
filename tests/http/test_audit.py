"""The audit viewer (R60): newest first, filters, paging, supervisors and admins only (R61),
and no route that edits or deletes an audit row."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from roomops.audit.models import AuditEvent
from roomops.lists import services as lists
from tests.conftest import login
from tests.units import act


@pytest.fixture()
def trail(room, session, now):
    game = room.game(now)
    a, b = room.player(now, "Ann"), room.player(now, "Bob")
    ea = act(session, room.sup, now, lists.join, player_id=a.id, game_id=game.id)
    act(session, room.sup, now + timedelta(seconds=1), lists.join, player_id=b.id, game_id=game.id)
    act(session, room.actor("admin"), now, lists.remove, ea.id, "went home")
    session.commit()
    return ea


def test_r60_newest_first(sup_client, trail, session):
    html = sup_client.get("/audit").text
    ids = session.scalars(select(AuditEvent.id).order_by(AuditEvent.id.desc())).all()
    positions = [html.index(f'<td class="num">{i}</td>') for i in ids]
    assert positions == sorted(positions)
    assert "entry.removed" in html and "went home" in html


def test_r60_filter_by_action_prefix_actor_and_entity(sup_client, trail):
    html = sup_client.get("/audit?action=entry.").text
    assert "entry.removed" in html and "entry.joined" in html and "game.opened" not in html
    html = sup_client.get("/audit?actor=main-admin").text
    assert "entry.removed" in html and "entry.joined" not in html
    html = sup_client.get(f"/audit?entity=list_entry:{trail.id}").text
    assert html.count("<code>entry.") == 2  # joined and removed, not Bob's entry
    for query in ("entity=nonsense", "before_id=x"):
        refused = sup_client.get(f"/audit?{query}")
        assert refused.status_code == 422 and 'title="Room rule">R60<' in refused.text


def test_r60_paging_with_before_id(sup_client, room, session, now):
    for i in range(105):
        room.player(now, f"P{i}")
    session.commit()
    first = sup_client.get("/audit?action=player.").text
    assert first.count("<code>player.added</code>") == 100 and 'rel="next"' in first
    newest_ids = session.scalars(select(AuditEvent.id).where(AuditEvent.action == "player.added")
                                 .order_by(AuditEvent.id.desc())).all()
    older = sup_client.get(f"/audit?action=player.&before_id={newest_ids[99]}").text
    assert older.count("<code>player.added</code>") == 5 and 'rel="next"' not in older
    assert f'<td class="num">{newest_ids[100]}</td>' in older


def test_r61_admin_may_view(client, trail, session):
    login(client, "main-admin")
    assert client.get("/audit").status_code == 200


def test_r61_cashier_may_not_view(client, trail, session):
    login(client, "main-cashier")
    resp = client.get("/audit")
    assert resp.status_code == 403 and "R61" in resp.text


def test_not_logged_in_goes_to_login(client, trail):
    resp = client.get("/audit")
    assert resp.status_code == 302 and "/login" in resp.headers["Location"]


def test_r60_no_route_edits_or_deletes_audit_rows(app, sup_client, trail, session):
    rules = [r for r in app.url_map.iter_rules() if r.rule.startswith("/audit")]
    assert rules and all(r.methods <= {"GET", "HEAD", "OPTIONS"} for r in rules)
    count = session.scalar(select(func.count()).select_from(AuditEvent))
    for method in ("post", "put", "patch", "delete"):
        assert getattr(sup_client, method)("/audit").status_code == 405
        assert getattr(sup_client, method)(f"/audit/{trail.id}").status_code == 404
    assert session.scalar(select(func.count()).select_from(AuditEvent)) == count
