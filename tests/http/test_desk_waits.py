"""Issue 21: the desk's game header shows the typical wait of a player joining now, as the board."""

from __future__ import annotations

import re
from datetime import timedelta

from tests.conftest import login
from tests.http.test_board_waits import turnover

LINE = re.compile(r'class="typical-wait"[^>]*>(Typical wait ~\d+ min \((?:\d+-|up to )\d+\))<')


def test_issue21_desk_game_header_shows_the_typical_wait(client, room, session, clock):
    _game, _table, at = turnover(room, session, clock.now(), 30)
    clock.set(at + timedelta(minutes=1))
    login(client, "main-supervisor")
    desk = LINE.search(client.get("/desk").text)
    board = LINE.search(client.get("/board/main").text)
    assert desk and board and desk.group(1) == board.group(1)
    assert LINE.search(client.get("/desk/fragment").text)  # and in the desk's live part
