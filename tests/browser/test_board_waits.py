"""Issue 21: the board on a 1080p TV shows each game's typical wait, and a longer list shows a
longer one without a reload (the server's clock frozen and advanced, no real time slept)."""

from __future__ import annotations

import re
from datetime import timedelta

from playwright.sync_api import expect

from roomops.floor.unit import UnitOfWork
from roomops.lists import services as lists
from roomops.rooms.services import add_player
from tests.browser.test_board import TV, change
from tests.http.test_board_waits import turnover

WAIT = re.compile(r"Typical wait ~(\d+) min \((?:\d+-|up to )\d+\+?\)")  # docs/waits.md, "What a player sees"


def test_issue21_tv_shows_a_typical_wait_that_follows_the_list(live, page):
    def history(room, session, now):
        game, _table, at = turnover(room, session, now, 30)
        return game.id, at
    game_id, at = live.build(history)
    live.clock.set(at + timedelta(minutes=1))
    page.set_viewport_size(TV)
    page.goto(f"{live.url}/board/main")
    line = page.locator(f".game[data-key='g{game_id}'] .typical-wait")
    expect(line).to_have_text(WAIT)
    first = line.inner_text()
    before = int(WAIT.search(first).group(1))

    def six_join(unit: UnitOfWork):  # R13: six more ahead of the next newcomer
        for i in range(6):
            p = add_player(unit, first_name=f"Late{i}", last_name="Joiner", create_anyway=True)
            lists.join(unit.at(unit.now + timedelta(seconds=i)), player_id=p.id, game_id=game_id)
    change(live, six_join)
    expect(line).not_to_have_text(first, timeout=5000)  # the next poll, no reload
    assert int(WAIT.search(line.inner_text()).group(1)) > before
