"""A provider the tests control, and a game with one seat about to be offered (R20), to a player
the desk put on its list or one who joined from the phone (R12)."""

from __future__ import annotations

import re
import threading
import time
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.actors import phone_page
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.messages.models import OutboxMessage
from roomops.messages.providers import Accepted, SendFailed
from roomops.remote import services as remote
from roomops.rooms.services import add_player, update_policy
from roomops.seating import seats
from tests.factories import Room_
from tests.services.helpers import full_game
from tests.units import act, committed, courier_of

PHONE = "+447700900123"


class FakeSms:
    """Records what it sends; ``failures`` are raised first, one per send, in order."""

    configured = True

    def __init__(self, *failures: SendFailed, pause: float = 0.0) -> None:
        self.failures = list(failures)
        self.pause = pause
        self.sent: list[tuple[str, str, int]] = []
        self.lock = threading.Lock()

    def send(self, number: str, body: str, message_id: int) -> Accepted:
        time.sleep(self.pause)
        with self.lock:
            if self.failures:
                raise self.failures.pop(0)
            self.sent.append((number, body, message_id))
        return Accepted(f"SM{message_id:032d}")

    def taken_before(self, number: str, body: str, since: datetime) -> Accepted | None:
        """What it sent with these words to this number (it keeps no times)."""
        with self.lock:
            ids = [m for n, b, m in self.sent if (n, b) == (number, body)]
        return Accepted(f"SM{ids[0]:032d}") if ids else None


def texted_player(room: Room_, session: Session, now: datetime, phone: str | None = PHONE,
                  name: str = "Ann"):
    """A player with ``phone`` on the list of a game with one open seat: offered it (R20)."""
    game, _table = full_game(room, session, now, free=1)
    player = act(session, room.sup, now, add_player, first_name=name, last_name="Texted", phone=phone,
                 create_anyway=True)
    return game, player


def join(room: Room_, session: Session, now: datetime, game, player) -> None:
    act(session, room.sup, now, lists.join, player_id=player.id, game_id=game.id)


def messages(session: Session) -> list[OutboxMessage]:
    session.expire_all()
    return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def texted_code(session: Session) -> str:
    """The code a join texted after its commit (R12): the six digits read from the text the
    session's provider took last."""
    found = re.search(r"\b(\d{6})\b", courier_of(session).provider.sent[-1][1])
    assert found is not None
    return found.group(1)


def proved(session: Session, now: datetime, joined: remote.Joined | remote.CodeSent,
           token: str | None = None) -> remote.Joined:
    """A join completed with the code texted to its number, where it waited for one (R12)."""
    if isinstance(joined, remote.Joined):
        return joined
    done = act(session, phone_page(joined.code.room_id), now,
               remote.confirm_code,
               secret=joined.secret, code=texted_code(session), token=token)
    assert isinstance(done, remote.Joined)
    return done


def offered_from_the_phone(room: Room_, session: Session, now: datetime,
                           language: str | None) -> int:
    """A player joins from the phone page in ``language`` (R12), checks in and is offered the
    seat that opens (R20); returns their player id."""
    act(session, room.sup, now, update_policy, remote_entries=True)
    _game, table = full_game(room, session, now, free=0)
    joined = proved(session, now, committed(
        session, phone_page(room.room.id), now, remote.join_from_phone, game_ids=[_game.id], first_name="Ann",
        last_name="", phone=PHONE, language=language,
        codes=courier_of(session).provider.configured))
    act(session, room.sup, now, lists.check_in, joined.entries[0].id)
    seat = session.scalars(select(SeatHold).where(SeatHold.table_id == table.id,
                                                  SeatHold.ended_at.is_(None))).first()
    act(session, room.sup, now, seats.leave, seat.id, 10000)
    return joined.link.player_id
