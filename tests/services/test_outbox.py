"""R20-R22: the outbox on the services, on every configured database: a text queued with the
offer and sent after the commit (never on a rollback), claimed by one sender, retried with
back-off, a lease that ran out taken again, a stale offer's text cancelled, delivery reports."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from roomops.db import make_sessionmaker
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Table
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.messages import sending
from roomops.messages.courier import Courier
from roomops.messages.models import OutboxMessage
from roomops.messages.providers import LogOnly, SendFailed
from roomops.messages.rules import LEASE, MAX_ATTEMPTS, NO_NUMBER, NO_PROVIDER
from roomops.rooms.services import add_player, update_policy
from roomops.seating import offers, seats
from roomops.seating.snapshot import load
from tests.factories import Room_
from tests.services.helpers import full_game, live_offer
from tests.services.outbox_helpers import (
    PHONE,
    FakeSms,
    join,
    messages,
    offered_from_the_phone,
    texted_player,
)
from tests.units import act, uow

S = timedelta(seconds=1)


def at_(when):
    """A clock stopped at ``when``."""
    return lambda: when
TRANSIENT = SendFailed("Twilio did not answer (ReadTimeout)", permanent=False)


@pytest.fixture()
def sms() -> FakeSms:
    return FakeSms()


@pytest.fixture()
def links() -> list[tuple[str, bool]]:
    """Each address the texts asked the courier for: (room, the player's own page)."""
    return []


@pytest.fixture()
def courier(sms, links):
    """A provider set up (overrides the conftest's)."""
    def board_link(slug: str, own_page: bool) -> str:
        links.append((slug, own_page))
        return f"https://poker.example/board/{slug}"
    return Courier(sms, board_link)


def test_r20_an_offer_queues_its_text_in_the_same_transaction(room, session, now, sms):
    game, ann = texted_player(room, session, now, phone="07700 900123")
    join(room, session, now, game, ann)
    (msg,) = messages(session)
    offer = live_offer(session, ann.id)
    assert (msg.hold_id, msg.player_id, msg.channel, msg.state) == (offer.id, ann.id, "sms", "queued")
    assert msg.number == PHONE  # read in the room's country (en_GB), sent as E.164
    assert msg.body == ("Room main: your seat is ready. NL Hold'em 1/2, table 1, seat 9. Claim it "
                        "at the desk by 20:10, or it goes to the next player. "
                        "https://poker.example/board/main")
    assert msg.next_attempt_at == now and msg.attempts == 0
    assert sms.sent == []  # a service's commit is not the unit of work's: nothing sent yet


def test_r20_the_texts_of_one_change_are_worded_with_one_address(room, session, now, links):
    """A table opened for a waiting list offers its seats together (R14, R20): one text each, the
    room's address made once for all of them (making one pushes an app context: a sweep of 1,000
    offers spent ~5% of its time on them)."""
    game, _table = full_game(room, session, now, free=0)
    for name in ("Ann", "Bob", "Cy"):
        join(room, session, now, game, act(session, room.sup, now, add_player, first_name=name,
                                           last_name="Texted", phone=PHONE, create_anyway=True))
    links.clear()
    room.table(now, game, "2")
    texts = messages(session)
    assert len(texts) == 3
    assert all(m.body.endswith(" https://poker.example/board/main") for m in texts)
    assert links == [("main", False)]


def test_r20_sent_once_the_unit_of_work_commits(room, session, now, sms):
    game, ann = texted_player(room, session, now)
    session.commit()
    unit = uow(session, room.sup, now)
    unit.run(_join, game.id, ann.id)
    assert sms.sent == []  # not before the commit
    unit.commit()
    (msg,) = messages(session)
    assert sms.sent == [(PHONE, msg.body, msg.id)]
    assert (msg.state, msg.attempts, msg.provider_id) == ("sent", 1, f"SM{msg.id:032d}")
    assert msg.sent_at == now and msg.lease_until is None


def _join(unit: UnitOfWork, game_id, player_id):
    return lists.join(unit, player_id=player_id, game_id=game_id)


def test_r20_a_rollback_sends_nothing(room, session, now, sms):
    game, ann = texted_player(room, session, now)
    session.commit()
    unit = uow(session, room.sup, now)
    unit.run(_join, game.id, ann.id)
    unit.rollback()
    unit.commit()  # nothing left to run after a rollback
    assert messages(session) == [] and sms.sent == []


def test_no_number_and_no_provider_are_not_sent(room, session, now, connection):
    game, bob = texted_player(room, session, now, phone=None, name="Bob")
    join(room, session, now, game, bob)
    (msg,) = messages(session)
    assert (msg.state, msg.last_error, msg.number, msg.next_attempt_at) == (
        "not_sent", NO_NUMBER, None, None)
    plain = make_sessionmaker(connection, join_transaction_mode="create_savepoint")
    session.commit()
    with plain() as other:  # no courier: LogOnly
        room2 = Room_(other, now, slug="two")
        game2, cy = texted_player(room2, other, now, name="Cy")
        join(room2, other, now, game2, cy)
        texts = [m for m in messages(other) if m.room_id == room2.room.id]
        assert [(m.state, m.last_error) for m in texts] == [("not_sent", NO_PROVIDER)]


def test_a_text_queued_before_the_provider_was_taken_away_fails(room, session, now):
    game, ann = texted_player(room, session, now)
    join(room, session, now, game, ann)
    assert sending.send_due(session, LogOnly(), at_(now)) == 0
    (msg,) = messages(session)
    assert (msg.state, msg.last_error) == ("failed", NO_PROVIDER)


def test_one_text_per_offer_and_channel_is_a_database_fact(room, session, now):
    game, ann = texted_player(room, session, now)
    join(room, session, now, game, ann)
    (msg,) = messages(session)
    row = {c: getattr(msg, c) for c in ("room_id", "hold_id", "player_id", "channel", "number",
                                        "body", "state", "attempts", "next_attempt_at",
                                        "created_at", "updated_at")}
    with pytest.raises(IntegrityError), session.begin_nested():
        session.execute(insert(OutboxMessage), [row])


def test_a_claim_has_one_winner(room, session, now):
    game, ann = texted_player(room, session, now)
    join(room, session, now, game, ann)
    (msg,) = messages(session)
    assert sending.claim_one(session, now, msg.id) == (PHONE, msg.body, 1, msg.created_at)
    assert sending.claim_one(session, now, msg.id) is None  # sending, its lease running
    assert messages(session)[0].lease_until == now + LEASE


def test_a_lease_that_runs_out_is_sent_again(room, session, now, sms):
    game, ann = texted_player(room, session, now)
    join(room, session, now, game, ann)
    (msg,) = messages(session)
    sending.claim_one(session, now, msg.id)  # a sender that stopped before it sent
    assert sending.send_due(session, sms, lambda: now + LEASE - S) == 0
    assert sending.send_due(session, sms, lambda: now + LEASE) == 1
    (msg,) = messages(session)
    assert (msg.state, msg.attempts) == ("sent", 2) and len(sms.sent) == 1


def test_r20_a_lease_run_out_after_the_provider_took_the_text_is_not_sent_again(
        room, session, now, sms, monkeypatch):
    """A sender killed between the provider's answer and its record (issue 40): the attempt was
    committed before the call, so the next sender asks the provider and records what it took."""
    game, ann = texted_player(room, session, now)
    join(room, session, now, game, ann)
    (msg,) = messages(session)
    claim = sending.claim_one(session, now, msg.id)
    session.commit()
    assert messages(session)[0].state == "sending"  # the attempt is on record before the call
    sms.send(claim.number, claim.body, msg.id)  # the provider takes it; the sender dies
    assert sending.send_due(session, sms, lambda: now + LEASE) == 1
    (msg,) = messages(session)
    assert (msg.state, msg.attempts, msg.provider_id) == ("sent", 2, f"SM{msg.id:032d}")
    assert len(sms.sent) == 1


def test_a_passing_failure_is_retried_with_back_off_then_fails(room, session, now):
    sms = FakeSms(*[TRANSIENT] * MAX_ATTEMPTS)
    game, ann = texted_player(room, session, now)
    join(room, session, now, game, ann)
    at = now
    for attempt in range(1, MAX_ATTEMPTS):
        assert sending.send_due(session, sms, at_(at)) == 0
        (msg,) = messages(session)
        assert (msg.state, msg.attempts, msg.last_error) == ("queued", attempt, TRANSIENT.reason)
        assert msg.next_attempt_at == at + timedelta(seconds=min(15 * 2 ** (attempt - 1), 120))
        assert sending.send_due(session, sms, at_(msg.next_attempt_at - S)) == 0  # not yet due
        assert messages(session)[0].attempts == attempt
        at = msg.next_attempt_at
    sending.send_due(session, sms, lambda: at)
    (msg,) = messages(session)
    assert (msg.state, msg.attempts, msg.next_attempt_at) == ("failed", MAX_ATTEMPTS, None)
    assert sms.sent == []


def test_a_refused_number_fails_at_once(room, session, now):
    sms = FakeSms(SendFailed("not a valid phone number (Twilio 21211)", permanent=True))
    game, ann = texted_player(room, session, now)
    join(room, session, now, game, ann)
    sending.send_due(session, sms, lambda: now)
    (msg,) = messages(session)
    assert (msg.state, msg.attempts, msg.last_error) == (
        "failed", 1, "not a valid phone number (Twilio 21211)")


def test_a_sender_stops_at_the_first_passing_failure(room, session, now):
    sms = FakeSms(TRANSIENT)
    game, ann = texted_player(room, session, now)
    bob = act(session, room.sup, now, add_player, first_name="Bob", phone="+447700900124",
              create_anyway=True)
    join(room, session, now, game, ann)
    room.table(now, game, "2")  # an empty table: Bob is offered a seat of his own
    join(room, session, now, game, bob)
    assert len(messages(session)) == 2
    assert sending.send_due(session, sms, lambda: now) == 0  # the provider is down: Bob's waits
    assert [m.attempts for m in messages(session)] == [1, 0]


def test_r21_a_claimed_offer_cancels_its_text(room, session, now, sms):
    game, ann = texted_player(room, session, now)
    join(room, session, now, game, ann)
    act(session, room.sup, now + S, seats.claim, live_offer(session, ann.id).id, game.min_buyin)
    (msg,) = messages(session)
    assert msg.state == "cancelled"
    assert sending.send_due(session, sms, lambda: now + S) == 0 and sms.sent == []


def test_r22_a_declined_offer_cancels_its_text(room, session, now, sms):
    game, ann = texted_player(room, session, now)
    join(room, session, now, game, ann)
    act(session, room.sup, now + S, offers.decline, live_offer(session, ann.id).id)
    assert messages(session)[0].state == "cancelled"


def test_r22_an_offer_run_out_before_the_sweep_is_not_texted(room, session, now, sms):
    game, ann = texted_player(room, session, now)
    join(room, session, now, game, ann)
    deadline = live_offer(session, ann.id).deadline
    assert sending.send_due(session, sms, lambda: deadline) == 0  # expired, not yet swept
    assert messages(session)[0].state == "cancelled" and sms.sent == []


def test_r21_an_offer_ended_by_the_change_that_made_it_is_not_texted(room, session, now, sms):
    """A change's texts are queued once its seats are all offered (``OffersMade`` is gathered):
    an offer the same change ended by then, its player gone from the list, is not texted."""
    game, ann = texted_player(room, session, now)
    table = session.scalars(select(Table).where(Table.game_id == game.id)).one()

    def offer_then_leave(unit: UnitOfWork) -> int:
        entry = lists.join(unit, player_id=ann.id, game_id=game.id)
        offer = offers.offer_by_hand(unit, table_id=table.id, seat_no=9,
                                     entry_id=entry.id)
        lists.remove(unit, entry.id, "went home")
        return offer.id

    offer_id = act(session, room.sup, now, offer_then_leave)
    assert session.get_one(SeatHold, offer_id).outcome == "cancelled"
    assert messages(session) == []


def test_delivery_reports_move_the_text_forward_only(room, session, now, sms):
    game, ann = texted_player(room, session, now)
    join(room, session, now, game, ann)
    sending.send_due(session, sms, lambda: now)
    (msg,) = messages(session)
    sid = msg.provider_id
    assert sending.record_report(session, now, msg.id, sid, "delivered", None)
    assert not sending.record_report(session, now, msg.id, sid, "sent", None)  # late, stale
    assert not sending.record_report(session, now, msg.id, "SMother", "failed", "x")  # not its SID
    assert not sending.record_report(session, now, msg.id, sid, "accepted", None)
    assert messages(session)[0].state == "delivered"


def test_a_report_before_the_send_is_recorded_keeps_its_word(room, session, now):
    game, ann = texted_player(room, session, now)
    join(room, session, now, game, ann)
    (msg,) = messages(session)
    attempt = sending.claim_one(session, now, msg.id).attempt
    assert sending.record_report(session, now, msg.id, "SM1", "failed",
                                 "phone unreachable (Twilio 30003)")
    sending.record_sent(session, now, msg.id, attempt, "SM1")  # the send's answer, late
    (msg,) = messages(session)
    assert (msg.state, msg.last_error, msg.provider_id) == (
        "failed", "phone unreachable (Twilio 30003)", "SM1")


def test_r20_the_desk_snapshot_shows_the_text_beside_the_offer(room, session, now, sms):
    game, ann = texted_player(room, session, now)
    join(room, session, now, game, ann)
    sending.send_due(session, sms, lambda: now)
    snap = load(session, room.room.id, now)
    (seat,) = [s for s in snap.games[0].tables[0].seats if s.state == "offered"]
    assert (seat.hold.text_state, seat.hold.text_error) == ("sent", None)
    (entry,) = snap.games[0].waiting
    assert entry.offer.text_state == "sent"


# ---- the player's language (issue 21) ---------------------------------------------------------

GERMAN = ("Room main: Ihr Platz ist frei. NL Hold'em 1/2, Tisch 1, Platz {seat}. Melden Sie sich "
          "bis 20:10 Uhr am Desk, sonst geht er an den nächsten Spieler. "
          "https://poker.example/board/main")


def test_issue21_a_phone_joiner_is_texted_in_the_language_of_their_join(room, session, now):
    """R12/R20: the phone page was German when Ann joined: her text is German, and a retry
    sends the very words the first try did (the body is written once, with the offer)."""
    sms = FakeSms(TRANSIENT)
    ann = offered_from_the_phone(room, session, now, "de")
    (msg,) = messages(session)
    assert msg.body == GERMAN.format(seat=live_offer(session, ann).seat_no)
    assert sending.send_due(session, sms, at_(now)) == 0  # Twilio down: tried again later
    assert sending.send_due(session, sms, at_(messages(session)[0].next_attempt_at)) == 1
    assert sms.sent == [(PHONE, msg.body, msg.id)]


def test_issue21_a_phone_joiner_the_api_let_in_gets_the_rooms_language(room, session, now):
    """The API names no language: the room's default (English here)."""
    offered_from_the_phone(room, session, now, None)
    (msg,) = messages(session)
    assert msg.body.startswith("Room main: your seat is ready. NL Hold'em 1/2, table 1, seat ")


def test_issue21_a_desk_entry_is_texted_in_the_rooms_language(room, session, now):
    """A player the desk put on the list has told us no language: the room's default."""
    act(session, room.sup, now, update_policy, language="it")
    game, ann = texted_player(room, session, now)
    join(room, session, now, game, ann)
    (msg,) = messages(session)
    assert msg.body == ("Room main: il tuo posto è pronto. NL Hold'em 1/2, tavolo 1, posto 9. "
                        "Prendilo al desk entro le 20:10, altrimenti passa al giocatore "
                        "successivo. https://poker.example/board/main")
