"""R12-R16, R61: a player's own remote entries on the services, on every configured database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from roomops.actors import phone_page, player_link
from roomops.desk.views import describe
from roomops.errors import Conflict, Forbidden, Invalid, NotFound
from roomops.lists import services as lists
from roomops.lists.models import ListEntry
from roomops.remote import reads
from roomops.remote import services as remote
from roomops.remote.models import PlayerLink
from roomops.remote.rules import token_hash
from roomops.rooms import services as rooms
from roomops.rooms.models import Player
from roomops.seating import seats
from tests.services.helpers import audits, full_game, live_offer, refused
from tests.units import act, sweep

M = timedelta(minutes=1)
PHONE = "07700 900123"
E164 = "+447700900123"


@pytest.fixture()
def remote_room(room, session, now):
    act(session, room.sup, now, rooms.update_policy, remote_entries=True)
    return room


def join(room, session, now, games, phone=PHONE, first="Ann", token=None, language=None):
    return act(session, phone_page(room.room.id), now,
               remote.join_from_phone,
               game_ids=[g.id for g in games], first_name=first,
               last_name="", phone=phone, token=token, language=language)


def test_r12_remote_entries_are_off_by_default(room, session, now):
    game, _ = full_game(room, session, now, free=0)
    refused(lambda: join(room, session, now, [game]), "R12", "desk", error=Conflict)


def test_r12_join_two_games_makes_one_player_one_link_and_remote_entries(remote_room, session, now):
    g1, _ = full_game(remote_room, session, now, free=0)
    g2, _ = full_game(remote_room, session, now, free=0, name="2", variant="PL Omaha")
    joined = join(remote_room, session, now, [g1, g2])
    assert joined.token and len(joined.token) >= 32
    link = session.get_one(PlayerLink, joined.link.id)
    assert link.token_hash == token_hash(joined.token) != joined.token  # stored hashed (R61)
    assert [(e.source, e.remote_phone, e.link_id) for e in joined.entries] == [
        ("remote", E164, link.id)] * 2
    assert all(e.checkin_deadline == now + 30 * M for e in joined.entries)  # R12's window
    assert not any(e.phone_verified for e in joined.entries)  # no provider: not proved
    player = session.get_one(Player, link.player_id)
    assert (player.first_name, player.phone) == ("Ann", None)  # no number of record unproved
    joins = audits(session, "entry.joined")
    assert {a.actor for a in joins} == {f"player link #{link.id}"}  # the token is never written
    assert all(joined.token not in str(a.detail) for a in audits(session))


def test_r12_without_a_provider_a_join_never_takes_the_known_player_of_the_number(
        remote_room, session, now):
    """Issue 40: anyone who knew a number joined as its player. Unproved, the entry is the name
    typed, a new player with no number of record; the known player is untouched."""
    game, _ = full_game(remote_room, session, now, free=0)
    known = act(session, remote_room.sup, now, rooms.add_player, first_name="Bea", phone="+44 7700 900123")
    joined = join(remote_room, session, now, [game], first="Mallory")
    player = session.get_one(Player, joined.link.player_id)
    assert player.id != known.id and (player.first_name, player.phone) == ("Mallory", None)
    assert joined.link.phone is None and not joined.entries[0].phone_verified


def test_r12_a_phone_keeps_its_link_and_gets_a_new_one_without_it(remote_room, session, now):
    g1, _ = full_game(remote_room, session, now, free=0)
    g2, _ = full_game(remote_room, session, now, free=0, name="2", variant="PL Omaha")
    first = join(remote_room, session, now, [g1])
    again = join(remote_room, session, now, [g2], token=first.token)
    assert (again.link.id, again.token) == (first.link.id, None)
    g3, _ = full_game(remote_room, session, now, free=0, name="3", variant="Stud")
    other = join(remote_room, session, now, [g3])  # another phone typing the number: its own link
    assert other.link.id != first.link.id and other.token


def test_r12_unverified_joins_of_one_number_do_not_keep_each_other_off_a_list(
        remote_room, session, now):
    """Issue 40: an unproved join cannot hold a number's place on a game: another phone typing
    the number joins too, as its own player; the same phone cannot join the game twice (R10)."""
    game, _ = full_game(remote_room, session, now, free=0)
    first = join(remote_room, session, now, [game])
    other = join(remote_room, session, now, [game], phone="+447700900123")
    assert other.link.player_id != first.link.player_id
    refused(lambda: join(remote_room, session, now, [game], token=first.token), "R12",
            "already on", error=Conflict)


def test_r12_the_database_holds_one_active_remote_entry_per_number_and_game(remote_room, session, now):
    game, _ = full_game(remote_room, session, now, free=0)
    joined = join(remote_room, session, now, [game])
    other = remote_room.player(now, "Zed")
    joined.entries[0].phone_verified = True
    session.add(ListEntry(room_id=remote_room.room.id, player_id=other.id, kind="waiting",
                          game_id=game.id, source="remote", joined_at=now, queue_at=now,
                          status="active", link_id=joined.link.id, remote_phone=E164,
                          phone_verified=True))
    with pytest.raises(IntegrityError):
        session.flush()


def test_r12_the_database_marks_only_remote_entries_verified(remote_room, session, now):
    game, _ = full_game(remote_room, session, now, free=0)
    entry = act(session, remote_room.sup, now, lists.join, player_id=remote_room.player(now, "Zed").id,
                game_id=game.id)
    entry.phone_verified = True
    with pytest.raises(IntegrityError):
        session.flush()


def test_issue21_the_link_keeps_the_language_of_the_phones_latest_join(remote_room, session, now):
    """The player's texts follow the phone page's language (docs/messages.md): a phone joining
    several games keeps one link, whose language is the page's at its latest join; a join that
    names none (the API's) leaves it as it was."""
    g1, _ = full_game(remote_room, session, now, free=0)
    g2, _ = full_game(remote_room, session, now, free=0, name="2", variant="PL Omaha")
    g3, _ = full_game(remote_room, session, now, free=0, name="3", variant="Stud")
    first = join(remote_room, session, now, [g1], language="de")
    assert first.link.language == "de"
    again = join(remote_room, session, now, [g2], token=first.token, language="it")
    assert again.link.id == first.link.id and again.link.language == "it"
    join(remote_room, session, now, [g3], token=first.token)
    session.expire_all()
    assert session.get_one(PlayerLink, first.link.id).language == "it"


def test_issue21_the_database_takes_only_a_supported_language(remote_room, session, now):
    game, _ = full_game(remote_room, session, now, free=0)
    link = join(remote_room, session, now, [game]).link
    assert link.language is None  # named by no one: the room's default
    link.language = "fr"
    with pytest.raises(IntegrityError):
        session.flush()


@pytest.mark.parametrize("source, link, phone", [("remote", False, True), ("remote", True, False),
                                                 ("phone", True, True)])
def test_r12_the_database_ties_a_remote_entry_to_its_link_and_number(
        remote_room, session, now, source, link, phone):
    game, _ = full_game(remote_room, session, now, free=0)
    joined = join(remote_room, session, now, [game])
    other = remote_room.player(now, "Zed")
    session.add(ListEntry(room_id=remote_room.room.id, player_id=other.id, kind="waiting",
                          game_id=game.id, source=source, joined_at=now, queue_at=now,
                          status="active", link_id=joined.link.id if link else None,
                          remote_phone="+447700900999" if phone else None))
    with pytest.raises(IntegrityError):
        session.flush()


def test_r12_an_unverified_phone_holds_at_most_the_rooms_cap(remote_room, session, now):
    """Unproved, the cap counts the phone's link, not the number (issue 40): another phone with
    the same number is counted on its own."""
    act(session, remote_room.sup, now, rooms.update_policy, remote_entry_cap=2)
    games = [full_game(remote_room, session, now, free=0, name=str(i), variant=f"V{i}")[0]
             for i in range(3)]
    first = join(remote_room, session, now, games[:2])
    refused(lambda: join(remote_room, session, now, games[2:], token=first.token), "R12",
            "at most 2", error=Conflict)
    assert len(join(remote_room, session, now, games[2:]).entries) == 1


def test_r12_unreadable_number_refused(remote_room, session, now):
    game, _ = full_game(remote_room, session, now, free=0)
    refused(lambda: join(remote_room, session, now, [game], phone="12"), "R12", "phone",
            error=Invalid)


def test_r12_blocked_number_refused_its_entries_leave_and_a_lift_lets_it_join(remote_room, session, now):
    game, _ = full_game(remote_room, session, now, free=0)
    joined = join(remote_room, session, now, [game])
    row = act(session, remote_room.sup, now, remote.block, phone="+44 7700 900123", reason="spam joins")
    assert row.phone == E164
    session.refresh(joined.entries[0])
    assert joined.entries[0].status == "removed"
    refused(lambda: join(remote_room, session, now + M, [game]), "R12", "see the desk",
            error=Conflict)
    refused(lambda: act(session, remote_room.sup, now, remote.block, phone=PHONE, reason="again"),
            "R12", "already", error=Conflict)
    act(session, remote_room.sup, now + M, remote.lift, row.id)
    assert row.lifted_at == now + M and row.lifted_by_id == remote_room.sup.staff_id
    assert join(remote_room, session, now + 2 * M, [game]).entries
    assert [a.action for a in audits(session, entity=("blocked_phone", row.id))] == [
        "phone.blocked", "phone.unblocked"]


def test_r61_only_floor_blocks_and_only_the_link_leaves(remote_room, session, now):
    game, _ = full_game(remote_room, session, now, free=0)
    refused(lambda: act(session, phone_page(remote_room.room.id), now, remote.block, phone=PHONE,
                        reason="x"), "R61", error=Forbidden)
    refused(lambda: act(
        session, remote_room.sup, now, remote.join_from_phone, game_ids=[game.id], first_name="A",
        last_name="", phone=PHONE), "R61", error=Forbidden)


def test_r16_the_player_leaves_through_their_link_only(remote_room, session, now):
    g1, _ = full_game(remote_room, session, now, free=0)
    mine = join(remote_room, session, now, [g1])
    theirs = join(remote_room, session, now, [g1], phone="07700 900999", first="Cy")
    me = player_link(remote_room.room.id, mine.link.id)
    refused(lambda: act(session, me, now, remote.leave, theirs.entries[0].id), "R61", error=NotFound)
    entry = act(session, me, now + M, remote.leave, mine.entries[0].id)
    assert (entry.status, entry.end_reason) == ("removed", "left from the phone")
    [row] = audits(session, "entry.left")
    assert (row.actor, row.reason) == (f"player link #{mine.link.id}", "left from the phone")
    refused(lambda: act(session, me, now + M, remote.leave, entry.id), "R16", error=Conflict)


def test_r12_remote_entry_checks_in_at_the_desk_or_is_a_no_show(remote_room, session, now):
    g1, _ = full_game(remote_room, session, now, free=0)
    g2, _ = full_game(remote_room, session, now, free=0, name="2", variant="PL Omaha")
    e1, e2 = join(remote_room, session, now, [g1, g2]).entries
    act(session, remote_room.sup, now + M, lists.check_in, e1.id)
    result = sweep(session, now + 31 * M)
    assert result.no_shows == [e2.id]
    session.refresh(e1)
    assert e1.status == "active"


def test_r12_the_desk_cannot_make_a_remote_entry(remote_room, session, now):
    game, _ = full_game(remote_room, session, now, free=0)
    p = remote_room.player(now, "Dee")
    refused(lambda: act(session, remote_room.sup, now, lists.join, player_id=p.id, game_id=game.id,
                        source="remote"), "R12", "phone page", error=Invalid)


def test_r13_r20_personal_page_place_ahead_countdowns_and_call(remote_room, session, now):
    game, table = full_game(remote_room, session, now, free=0)
    ahead = remote_room.players(now, 2, "A")
    for p in ahead:
        act(session, remote_room.sup, now, lists.join, player_id=p.id, game_id=game.id)
    joined = join(remote_room, session, now + M, [game])
    [view] = reads.entries_of(session, joined.link, now + M)
    assert (view.place, view.ahead, view.checkin_deadline, view.call) == (
        3, 2, now + 31 * M, None)
    # the two ahead leave the list, the player checks in, a seat opens: it is called (R20)
    act(session, remote_room.sup, now + 2 * M, lists.remove, lists.list_entries(session, game.id, None)[0].id,
        "went home")
    act(session, remote_room.sup, now + 2 * M, lists.remove, lists.list_entries(session, game.id, None)[0].id,
        "went home")
    act(session, remote_room.sup, now + 3 * M, lists.check_in, joined.entries[0].id)
    seat = session.scalars(select(seats.SeatHold).where(seats.SeatHold.table_id == table.id,
                                                        seats.SeatHold.ended_at.is_(None))).first()
    act(session, remote_room.sup, now + 4 * M, seats.leave, seat.id, 10000)
    offer = live_offer(session, joined.link.player_id)
    assert offer is not None
    [view] = reads.entries_of(session, joined.link, now + 4 * M)
    assert (view.place, view.checkin_deadline) == (1, None)
    assert view.call is not None and (view.call.table, view.call.seat_no) == (table.name, offer.seat_no)
    assert view.call.deadline == offer.deadline
    lines = [line for _, line in view.history]
    assert lines[:2] == ["You joined the waiting list from your phone.",
                         "You checked in at the desk."]
    assert lines[-1] == f"You were called to table {table.name} seat {offer.seat_no}."


def test_r61_a_link_sees_only_its_own_entries(remote_room, session, now):
    game, _ = full_game(remote_room, session, now, free=0)
    mine = join(remote_room, session, now, [game])
    join(remote_room, session, now, [game], phone="07700 900999", first="Cy")
    assert [v.id for v in reads.entries_of(session, mine.link, now)] == [mine.entries[0].id]


def test_r15_skipped_because_barred_is_in_the_players_history(remote_room, session, now):
    game, table = full_game(remote_room, session, now, free=0)
    holds = session.scalars(select(seats.SeatHold).where(seats.SeatHold.table_id == table.id,
                                                         seats.SeatHold.ended_at.is_(None))
                            .order_by(seats.SeatHold.seat_no)).all()
    joined = join(remote_room, session, now, [game])
    act(session, remote_room.sup, now + M, lists.check_in, joined.entries[0].id)
    act(session, remote_room.sup, now + M, rooms.bar_pair, joined.link.player_id, holds[1].player_id,
        "a dispute")
    later = remote_room.player(now, "Later")
    act(session, remote_room.sup, now + 2 * M, lists.join, player_id=later.id, game_id=game.id)
    act(session, remote_room.sup, now + 3 * M, seats.leave, holds[0].id, 10000)
    offer = live_offer(session, later.id)
    assert offer is not None and live_offer(session, joined.link.player_id) is None
    [row] = audits(session, "entry.passed_over")
    assert (row.entity_id, row.detail["because"]) == (joined.entries[0].id, "barred")
    assert describe(row.action, row.detail, {table.id: table.name}) == (
        f"Passed over for seat {offer.seat_no} at table {table.name}: barred from a player there "
        "(R15)")
    [view] = reads.entries_of(session, joined.link, now + 3 * M)
    assert view.history[-1][1] == (
        f"A seat opened at table {table.name} seat {offer.seat_no}: it went to a player after "
        "you: you may not play with someone seated there.")
