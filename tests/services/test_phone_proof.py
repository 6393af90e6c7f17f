"""Issue 40 (R12, R2, R61): a join from the phone proves the number with a code texted to it
where the room has a provider; the personal link ends with the gaming day after its last join.
On every configured database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from roomops.actors import phone_page
from roomops.errors import Conflict, NotFound, TooMany
from roomops.lists.models import ListEntry
from roomops.messages.courier import Courier
from roomops.remote import rules
from roomops.remote import services as remote
from roomops.remote.models import PhoneCode
from roomops.rooms import services as rooms
from tests.services.helpers import audits, full_game, refused
from tests.services.outbox_helpers import FakeSms, proved, texted_code
from tests.units import act, committed, uow

PHONE, E164 = "07700 900123", "+447700900123"
M = timedelta(minutes=1)


@pytest.fixture()
def sms() -> FakeSms:
    return FakeSms()


@pytest.fixture()
def courier(sms):
    """A text provider set up (overrides the conftest's)."""
    return Courier(sms)


@pytest.fixture()
def games(room, session, now):
    act(session, room.sup, now, rooms.update_policy, remote_entries=True)
    return [full_game(room, session, now, free=0, name=str(i), variant=f"V{i}")[0]
            for i in range(4)]


def ask(room, session, now, games, first="Ann", phone=PHONE, token=None):
    """A join from the phone page, committed: the code is texted (R12)."""
    return committed(session, phone_page(room.room.id), now,
               remote.join_from_phone,
               game_ids=[g.id for g in games], first_name=first,
               last_name="", phone=phone, token=token, language="de", codes=True)


def confirm(room, session, now, sent, code, token=None):
    return act(session, phone_page(room.room.id), now, remote.confirm_code, secret=sent.secret,
               code=code, token=token)


def remote_entries(session):
    return list(session.scalars(select(ListEntry).where(ListEntry.source == "remote")))


def test_r12_with_a_provider_a_join_waits_for_the_code_texted_to_the_number(
        room, session, now, games, sms):
    unit = uow(session, phone_page(room.room.id), now)
    sent = unit.run(remote.join_from_phone, game_ids=[games[0].id], first_name="Ann",
                    last_name="", phone=PHONE, language="de", codes=True)
    assert isinstance(sent, remote.CodeSent) and remote_entries(session) == []
    row = session.get_one(PhoneCode, sent.code.id)
    assert (row.phone, row.deadline, row.attempts) == (E164, now + rules.CODE_LIFE, 0)
    assert sms.sent == []  # texted after the commit only
    unit.commit()
    code = texted_code(session)
    ((number, body, _),) = sms.sent
    assert number == E164 and "Code" in body  # in the page's language (German)
    assert code not in row.code_hash and sent.secret not in row.secret_hash  # hashed at rest
    assert all(code not in str(a.detail) for a in audits(session))


def test_r12_the_right_code_joins_as_the_numbers_known_player(room, session, now, games):
    known = act(session, room.sup, now, rooms.add_player, first_name="Bea", phone="+44 7700 900123")
    sent = ask(room, session, now, games[:2], first="B")
    joined = confirm(room, session, now, sent, texted_code(session))
    assert isinstance(joined, remote.Joined) and joined.token
    assert joined.link.player_id == known.id and joined.link.phone == E164
    assert [(e.player_id, e.phone_verified) for e in joined.entries] == [(known.id, True)] * 2
    refused(lambda: confirm(room, session, now, sent, "000000"), "R12", "used", error=Conflict)
    # the link proved the number: the phone joins again at once
    again = ask(room, session, now, games[2:3], token=joined.token)
    assert isinstance(again, remote.Joined) and again.link.id == joined.link.id


def test_r12_a_wrong_code_is_counted_and_a_few_spend_it(room, session, now, games):
    sent = ask(room, session, now, games[:1])
    code = texted_code(session)
    wrong = "111111" if code != "111111" else "222222"
    for left in range(rules.CODE_TRIES - 1, -1, -1):
        assert confirm(room, session, now, sent, wrong) == remote.WrongCode(left)
    assert session.get_one(PhoneCode, sent.code.id).attempts == rules.CODE_TRIES
    refused(lambda: confirm(room, session, now, sent, code), "R12", "too often", error=Conflict)
    assert remote_entries(session) == []


def test_r12_a_code_runs_out_at_its_deadline(room, session, now, games):
    sent = ask(room, session, now, games[:1])
    code = texted_code(session)
    refused(lambda: confirm(room, session, now + rules.CODE_LIFE, sent, code), "R12", "ran out",
            error=Conflict)
    refused(lambda: act(session, phone_page(room.room.id), now, remote.confirm_code, secret="nope",
                        code=code), "R12", error=NotFound)


def test_r12_a_number_is_texted_few_codes_whoever_asks(room, session, now, games):
    for _ in range(rules.CODES_PER_NUMBER):
        ask(room, session, now, games[:1])
    refused(lambda: ask(room, session, now, games[:1]), "R12", "too many codes", error=TooMany)
    assert isinstance(ask(room, session, now + rules.CODE_WINDOW, games[:1]), remote.CodeSent)


def test_issue40_joins_without_the_code_never_fill_the_real_players_cap(room, session, now, games):
    """The audit's attack: three joins with a player's number filled its cap and the player was
    refused (409). Without the code they join nothing; the player, with it, joins."""
    act(session, room.sup, now, rooms.update_policy, remote_entry_cap=3)
    for game in games[:3]:
        assert isinstance(ask(room, session, now, [game], first="Mallory", phone=E164),
                          remote.CodeSent)
    session.expire_all()
    sent = ask(room, session, now + rules.CODE_WINDOW, games[:3])
    joined = proved(session, now + rules.CODE_WINDOW, sent)
    assert len(joined.entries) == 3 and all(e.phone_verified for e in joined.entries)


def test_r2_a_link_ends_with_the_gaming_day_after_its_last_join(room, session, now, games):
    joined = proved(session, now, ask(room, session, now, games[:1]))
    tz, start = room.room.timezone, room.room.gaming_day_start
    assert joined.link.expires_at == rules.link_deadline(now, tz, start)
    later = now + timedelta(days=1)
    again = proved(session, later, ask(room, session, later, games[1:2], token=joined.token),
                   token=joined.token)
    assert again.link.id == joined.link.id  # a later join moves its end on
    assert again.link.expires_at == rules.link_deadline(later, tz, start)
    end = again.link.expires_at
    assert remote.link_for(session, room.room.id, joined.token, end - timedelta(seconds=1))
    assert remote.link_for(session, room.room.id, joined.token, end) is None


def test_r2_an_ended_link_is_not_reused_by_a_join(room, session, now, games):
    joined = proved(session, now, ask(room, session, now, games[:1]))
    after = joined.link.expires_at
    again = proved(session, after, ask(room, session, after, games[1:2], token=joined.token),
                   token=joined.token)
    assert again.link.id != joined.link.id and again.token
