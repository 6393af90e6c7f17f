"""R67-R70, R61 over HTTP: a scheme started from the desk and posted on the board and the dealer's
tablet, the drop recorded with the rake from the tablet (one change: a refused drop leaves no
rake), a claim made at the table and verified and paid at the desk with a second staff member's
password, the prize record, the pool ledger's page, and the refusals in words."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from roomops.hands.services import record_hand
from roomops.jackpots import pool as pools
from roomops.jackpots.drops import record_drop
from roomops.jackpots.models import JackpotClaim, JackpotScheme
from roomops.ledger.models import LedgerEntry
from tests.conftest import login
from tests.factories import PASSWORD
from tests.http.test_api import Api, refused, token_for
from tests.services.jackpot_helpers import night
from tests.services.ledger_helpers import seated_holds
from tests.units import act

MIN = timedelta(minutes=1)


@pytest.fixture()
def table(room, session, now):
    """A raked table of eight, hand 1 dealt, no scheme yet."""
    _game, table, _holds = seated_holds(room, session, now, fee_kind="rake", rake_bp=500)
    act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=1)
    session.commit()
    return table


def _start(client, game_id, **more):
    return client.post("/desk/jackpots/schemes", data={
        "name": "Bad beat", "kind": "bad_beat", "game_id": str(game_id), "drop": "1.00",
        "threshold": "20.00", "min_dealt": "4", "flop_required": "on", "qualifying": "aces_full_of_tens",
        "both_cards_play": "on", "losing": "50", "winning": "25", "table": "25", "prize": "100",
        "backup": "0", "fee": "0", "camera_threshold": "500.00", **more})


def test_r67_a_scheme_started_at_the_desk_is_posted_on_the_board_and_the_tablet(client, room, session, table):
    sup = login(client, "main-supervisor")
    done = _start(sup, table.game_id)
    assert done.status_code == 303, done.text[-3000:]
    page = sup.get("/desk/jackpots").text
    assert "Bad beat" in page and "Drop £1.00 from each pot of £20.00 or more" in page
    board = client.get("/board/main").text
    assert 'class="jackpot-amount">Bad beat: £0.00' in board
    assert "Qualifies: aces full of tens or better beaten, both hole cards playing" in board
    again = _start(sup, table.game_id, name="High hand", kind="high_hand")
    assert again.status_code == 409 and "already takes part in Bad beat" in again.text
    client.post("/logout")
    tablet = login(client, "main-dealer").get(f"/dealer/tables/{table.id}").text
    assert "Bad beat: £0.00" in tablet and "jackpot drop of £1.00 taken, after the rake" in tablet


def test_r68_the_drop_with_the_rake_from_the_tablet_all_or_nothing(client, room, session, table):
    _start(login(client, "main-supervisor"), table.game_id, threshold="50.00")
    scheme = session.scalars(select(JackpotScheme)).one()
    client.post("/logout")
    dealer = login(client, "main-dealer")
    rake = {"hand_no": "1", "pot": "30.00", "flop": "on", "rake": "1.00", "jackpot_scheme": str(scheme.id),
            "jackpot_drop": "on"}
    refused = dealer.post(f"/dealer/tables/{table.id}/rake", data=rake)
    assert refused.status_code == 409 and "no jackpot drop from a pot under £50.00" in refused.text
    assert session.scalar(select(func.count()).select_from(LedgerEntry)) == 0  # the rake neither
    done = dealer.post(f"/dealer/tables/{table.id}/rake", data={**rake, "pot": "60.00", "rake": "3.00"},
                       follow_redirects=True)
    assert "Rake of hand 1 recorded, and the jackpot drop of £1.00." in done.text
    assert "Hand 1 is raked</h2>" in done.text and "Its jackpot drop is taken: £1.00." in done.text
    assert 'id="rake-form"' not in done.text  # nothing invites recording it twice
    session.expire_all()
    assert pools.amounts(session, [scheme.id])[scheme.id].main == 100
    assert "Bad beat: £1.00" in client.get("/board/main").text


def test_r70_claimed_at_the_table_verified_and_paid_at_the_desk(client, room, session, now):
    n = night(room, session, now)
    act(session, room.sup, now, pools.seed, n.scheme.id, 40_000, reason="opening seed")
    n.hand(now)
    session.commit()
    dealer = login(client, "main-dealer")
    claimed = dealer.post(f"/dealer/tables/{n.table.id}/jackpot-claims", data={
        "hand_no": "1", "losing_seat": "5", "losing_cards": "Ah Ad Ac Kh Kd", "winning_seat": "3",
        "winning_cards": "Qh Qs Qc Qd"}, follow_redirects=True)
    assert "a supervisor comes to verify it" in claimed.text
    client.post("/logout")
    claim = session.scalars(select(JackpotClaim)).one()
    sup = login(client, "main-supervisor")
    assert "table 1, hand 1" in sup.get("/desk/jackpots").text
    wrong = sup.post(f"/desk/jackpots/claims/{claim.id}/pay", data={
        "second": "main-cashier", "second_password": "wrong", "paid_in": "cash"})
    assert wrong.status_code == 403
    paid = sup.post(f"/desk/jackpots/claims/{claim.id}/pay", data={
        "second": "main-cashier", "second_password": PASSWORD, "paid_in": "cash"}, follow_redirects=True)
    assert paid.status_code == 200
    assert "Prize of £400.00 paid, verified with" in paid.text
    assert 'data-prize>£400.00' in paid.text and "losing hand" in paid.text
    assert paid.text.count('<tr data-seat=') == 8
    ledger = sup.get(f"/desk/jackpots/schemes/{n.scheme.id}").text
    assert 'data-pool>£0.00' in ledger and "prize paid" in ledger


def test_r61_a_dealer_may_not_open_the_jackpots_page_nor_a_cashier_start_one(client, room, session, table):
    session.commit()
    assert login(client, "main-dealer").get("/desk/jackpots").status_code == 403
    client.post("/logout")
    assert _start(login(client, "main-cashier"), table.game_id).status_code == 403


def test_r67_a_scheme_refused_in_words_in_the_form(client, room, session, table):
    sup = login(client, "main-supervisor")
    bad = _start(sup, table.game_id, drop="", threshold="x")
    assert bad.status_code in (400, 422)
    split = _start(sup, table.game_id, losing="60")
    assert split.status_code == 422 and "add up to 100 %" in split.text


def _dropped_and_at_the_cage(client, room, session, now):
    """A hand of the night that dropped 1.00 into the pool; the cashier logged in, and the day."""
    n = night(room, session, now)
    n.hand(now)
    act(session, room.actor("dealer"), now, record_drop, n.table.id, 1, pot=3000, flop=True, drop=100)
    session.commit()
    return login(client, "main-cashier"), now.date().isoformat()


def test_r54_r68_the_days_report_and_csv_show_the_drop_apart_and_the_box_counted(client, room, session, now):
    cage, day = _dropped_and_at_the_cage(client, room, session, now)
    page = cage.get(f"/desk/cage/days/{day}/report").text
    assert 'data-jackpot-dropped>£1.00' in page
    counted = cage.post(f"/desk/cage/days/{day}/jackpot-box", data={
        "counted": "1.00", "confirmer": "main-supervisor", "confirmer_password": PASSWORD},
        follow_redirects=True)
    assert "Jackpot drop box counted: £1.00, expected £1.00" in counted.text
    csv_text = cage.get(f"/desk/cage/days/{day}/report.csv").text
    assert "jackpot drops (players' money held in trust, not in the ledger)" in csv_text
    assert "dropped,1.00" in csv_text and "\r\n1,1.00,1.00,0.00," in csv_text


def test_r54_r68_a_shift_that_took_drops_closes_only_once_its_box_is_counted(client, room, session, now):
    """The desk's close and the API's: refused first, naming the drops; once the box is counted the
    close goes on to its own checks (here: the tables' counts are missing)."""
    cage, day = _dropped_and_at_the_cage(client, room, session, now)
    close = {"second_staff_id": str(room.staff["supervisor"].id), "confirmed_total": "0"}
    first = cage.post(f"/desk/cage/days/{day}/close", data=close)
    assert first.status_code == 409 and "count the jackpot drop box first: £1.00 was dropped" in first.text
    api = Api(client, token_for(room, session, "cashier"))
    refused(api.post(f"/ledger/days/{day}/close", {"second_staff_id": room.staff["supervisor"].id}),
            409, "R54")
    cage = login(client, "main-cashier")
    cage.post(f"/desk/cage/days/{day}/jackpot-box", data={
        "counted": "1.00", "confirmer": "main-supervisor", "confirmer_password": PASSWORD})
    then = cage.post(f"/desk/cage/days/{day}/close", data=close)
    assert then.status_code in (409, 422) and "jackpot drop box" not in then.text
