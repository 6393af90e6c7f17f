"""Issue 40 (R10, R12): one reader of phone numbers for every way in. The desk stored "12ab";
now a number is kept in E.164, read in the room's country, or refused. On every configured
database."""

from __future__ import annotations

import pytest

from roomops.errors import Invalid
from roomops.rooms import services as rooms
from roomops.rooms.phones import read_optional_phone, read_phone
from tests.services.helpers import refused
from tests.units import act


@pytest.mark.parametrize("typed, stored", [
    ("07700 900123", "+447700900123"), ("+44 7700 900123", "+447700900123"),
    ("+1 415 555 2671", "+14155552671"), ("", None), ("   ", None), (None, None)])
def test_r12_a_number_is_read_in_the_rooms_country_and_kept_in_e164(typed, stored):
    assert read_optional_phone(typed, "en_GB") == stored


@pytest.mark.parametrize("typed", ["12ab", "12", "abc", "+", "0"])
def test_r12_what_is_no_number_is_refused_with_what_was_typed(typed):
    err = refused(lambda: read_phone(typed, "en_GB"), "R12", "not a phone number we can read",
                  error=Invalid)
    assert repr(typed.strip()) in err.text()


def test_r12_a_room_with_no_country_reads_only_numbers_with_their_code():
    assert read_phone("+41 44 668 18 00", "de") == "+41446681800"
    refused(lambda: read_phone("044 668 18 00", "de"), "R12", error=Invalid)


def test_r12_the_desk_stores_a_new_players_number_in_e164_or_refuses_it(room, session, now):
    ann = act(session, room.sup, now, rooms.add_player, first_name="Ann", phone="07700 900123")
    assert ann.phone == "+447700900123"
    refused(lambda: act(session, room.sup, now, rooms.add_player, first_name="Bob", phone="12ab"),
            "R12", "not a phone number", error=Invalid)
    assert act(session, room.sup, now, rooms.add_player, first_name="Cy", phone=" ").phone is None
