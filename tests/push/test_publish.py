"""The board's changes are published after the commit and never for a rollback, each changed game
drawn once and alone (issue 21), on SQLite and PostgreSQL. R61: what is published is the public
board's fragment (public names, no phone numbers)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from roomops.board import render
from roomops.games import services as games
from roomops.lists import services as lists
from roomops.push.embedded import KEY
from roomops.push.inflight import InFlight
from roomops.push.messages import Update
from roomops.rooms.services import add_player
from roomops.runtime import ext
from roomops.seating import closing
from roomops.waits.services import BUCKET
from tests.units import act

PHONE = "+44 7700 900123"


@dataclass
class Pushed:
    """What the publisher sent, and how often a commit nudged it."""

    sent: list[Update] = field(default_factory=list)
    nudges: int = 0

    def send(self, update: Update, slug: str) -> None:
        self.sent.append(update)

    def want(self, lang: str) -> None:
        pass

    def shown(self) -> set[str]:
        return set()  # screens in English alone

    def take(self) -> list[Update]:
        sent, self.sent = self.sent, []
        return sent


@pytest.fixture()
def pushed(app, room, session):
    push = app.extensions[KEY]
    seen = Pushed()
    push.publisher.broker = seen

    def nudged() -> None:
        seen.nudges += 1

    push.committed = nudged
    session.commit()
    with app.app_context():
        yield seen


@pytest.fixture()
def two_games(room, session, now):
    low, high = room.game(now), room.game(now, small_blind=200, big_blind=500, min_buyin=20000,
                                         max_buyin=100000)
    room.table(now, low, "1")
    high.first_table = room.table(now, high, "2")
    session.commit()
    return low, high


def test_the_first_pass_sends_the_room_whole_and_an_unchanged_room_nothing(app, pushed, two_games):
    low, high = two_games
    publisher = app.extensions[KEY].publisher
    assert publisher.publish_changes() == 1
    (whole,) = pushed.take()
    assert whole.full and whole.order == (f"g{low.id}", f"g{high.id}")  # lowest stakes first (R4)
    assert set(whole.games) == set(whole.order) and all(whole.games.values())
    assert publisher.publish_changes() == 0 and pushed.take() == []


def test_a_commit_nudges_the_publisher_which_sends_only_the_game_that_changed(
        app, pushed, two_games, room, session, now):
    low, high = two_games
    publisher = app.extensions[KEY].publisher
    publisher.publish_changes()
    pushed.take()
    ann = act(session, room.sup, now, add_player, first_name="Ann", last_name="Smith", phone=PHONE,
              create_anyway=True)
    session.commit()
    nudges = pushed.nudges
    with ext(app).unit_of_work(session, room.sup, now) as uow:
        uow.run(lists.join, player_id=ann.id, game_id=high.id)
        assert pushed.nudges == nudges  # nothing before the commit
        uow.commit()
    assert pushed.nudges == nudges + 1
    assert publisher.publish_changes() == 1
    (change,) = pushed.take()
    assert not change.full and change.order == (f"g{low.id}", f"g{high.id}")
    assert list(change.games) == [f"g{high.id}"]  # the other game is neither drawn nor sent
    html = change.games[f"g{high.id}"] or ""
    assert "Ann S." in html  # the room's public name (R61)
    assert "Smith" not in html and "7700" not in html


def test_a_rollback_nudges_nothing_and_publishes_nothing(app, pushed, two_games, room, session, now):
    _low, high = two_games
    publisher = app.extensions[KEY].publisher
    publisher.publish_changes()
    pushed.take()
    bob = room.player(now, "Bob")
    session.commit()
    nudges = pushed.nudges
    with ext(app).unit_of_work(session, room.sup, now) as uow:
        uow.run(lists.join, player_id=bob.id, game_id=high.id)
        uow.rollback()
    assert pushed.nudges == nudges
    assert publisher.publish_changes() == 0 and pushed.take() == []


def test_a_game_closed_leaves_the_order_and_is_sent_as_gone(app, pushed, two_games, room, session, now):
    low, high = two_games
    publisher = app.extensions[KEY].publisher
    publisher.publish_changes()
    pushed.take()
    with ext(app).unit_of_work(session, room.sup, now) as uow:
        uow.run(closing.close_table, high.first_table.id)
        uow.run(closing.close_game, high.id)
        uow.commit()
    assert publisher.publish_changes() == 1
    (change,) = pushed.take()
    assert change.order == (f"g{low.id}",) and change.games == {f"g{high.id}": None}


class AlwaysAnswering(InFlight):
    """A desk that never pauses: each wait the publisher makes for it is written in ``log``."""

    def __init__(self, log: list[str]) -> None:
        super().__init__()
        self.log = log

    def busy(self) -> bool:
        return True

    def wait_for_none(self, timeout: float) -> bool:
        self.log.append("wait")
        return False


def test_the_publisher_lets_the_requests_go_first_before_each_game_it_works_out_or_draws(
        app, pushed, two_games, room, session, now):
    """Issue 21: the desk does not pay for the screens (roomops.push.inflight)."""
    low, _high = two_games
    publisher = app.extensions[KEY].publisher
    publisher.publish_changes()
    log: list[str] = []
    publisher.inflight = AlwaysAnswering(log)
    publisher.broker = type("Logged", (Pushed,), {"send": lambda self, update, slug: log.append("send")})()
    with ext(app).unit_of_work(session, room.sup, now) as uow:
        uow.run(games.open_table, game_id=low.id, name="3")
        uow.commit()
    assert publisher.publish_changes() == 1
    # the staff screens' notices, the room, each of its two games' keys and the one game drawn,
    # each after a wait; then the update sent
    assert log == ["wait"] * (len(publisher.before) + 1 + 2 + 1) + ["send"]


def test_the_pass_drawn_for_a_page_about_to_be_served_waits_for_no_request(app, pushed, two_games):
    """Embedded, the first page starts the publisher with a pass on its own request's thread
    (``start(first_pass_here=True)``): that request is one in flight, so the pass waits for none."""
    timeouts: list[float] = []

    class Recording(AlwaysAnswering):
        def wait_for_none(self, timeout: float) -> bool:
            timeouts.append(timeout)
            return False

    publisher = app.extensions[KEY].publisher
    publisher.inflight = Recording([])
    assert publisher.publish_changes(waiting=0.0) == 1
    assert timeouts and set(timeouts) == {0.0}


def test_issue41_a_pass_works_out_again_only_the_waits_of_the_games_that_changed(
        app, pushed, two_games, room, session, now, clock, monkeypatch):
    """A game's wait is worked out again when its rows change or the estimate's stretch of time
    ends, never for the rest of the room's games: a pass costs what changed."""
    low, high = two_games
    publisher = app.extensions[KEY].publisher
    worked_out: list[int] = []
    real = render.game_wait

    def counted(rows, history, at):  # type: ignore[no-untyped-def]
        worked_out.append(rows[0][0])
        return real(rows, history, at)

    monkeypatch.setattr(render, "game_wait", counted)
    publisher.publish_changes()
    assert sorted(worked_out) == sorted([low.id, high.id])  # the first pass: every game
    worked_out.clear()
    publisher.publish_changes()
    assert worked_out == []  # nothing changed
    act(session, room.sup, now, lists.join, player_id=room.player(now, "Cy").id, game_id=high.id)
    session.commit()
    publisher.publish_changes()
    assert worked_out == [high.id]
    worked_out.clear()
    clock.advance(seconds=BUCKET.total_seconds())  # another stretch: every estimate is due
    publisher.publish_changes()
    assert sorted(worked_out) == sorted([low.id, high.id])
