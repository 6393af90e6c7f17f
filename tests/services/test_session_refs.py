"""A session holds what it loaded for its request or job run (roomops.db.make_sessionmaker): a row
read, dropped and looked up again is not read again."""

from __future__ import annotations

import gc

from roomops.rooms.models import Room
from tests.services.helpers import statements_sent


def test_a_row_dropped_and_looked_up_again_is_not_read_again(room, sessions, session, connection):
    session.commit()
    room_id = room.room.id
    with sessions() as fresh:
        assert statements_sent(connection, lambda: fresh.get(Room, room_id)) != []
        gc.collect()  # nothing else refers to the room: only the session can keep it
        assert statements_sent(connection, lambda: fresh.get(Room, room_id)) == []
