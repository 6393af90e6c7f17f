"""Button and blinds for each hand (R33, R34, R35): forward-moving big blind, dead button.

The big blind goes to the next present player clockwise from the last one; the small blind is
the seat that had the big blind and the button the seat that had the small blind, even when that
seat is empty (R34). Absent players passed by a blind get missed-blind buttons (R35).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from roomops.blinds.missed import owed, settled
from roomops.blinds.state import (
    HandPlan,
    Post,
    PostKind,
    SeatState,
    TableState,
    Waiting,
    between,
    clockwise,
    seat_map,
)
from roomops.errors import Conflict

REDRAW = "draw for the button again to start afresh"


def first_hand(table: TableState, seats: Sequence[SeatState], high_card_seat: int) -> HandPlan:
    """R33: the button starts on the high card; every present player is dealt in and nobody owes
    anything (buttons and debts of present players are cleared: the game starts afresh)."""
    by_no = {n: settled(s) if s.present else s for n, s in seat_map(table, seats).items()}
    if not by_no[high_card_seat].present:
        raise Conflict(f"seat {high_card_seat} has no present player to take the button", "R33")
    players = [s for s in clockwise(high_card_seat, table.seats_per_table) if by_no[s].present]
    heads_up = len(players) == 2
    if len(players) < 2:
        raise Conflict("a hand needs two present players", "R33")
    on_button = heads_up or table.dealers_choice
    sb = high_card_seat if on_button else players[0]
    bb = players[0] if on_button else players[1]
    return _plan(table, by_no, (high_card_seat, sb, bb), sb_posted=True, dealt=players,
                 missed=((), ()), waiting=(), heads_up=heads_up)


def next_hand(table: TableState, seats: Sequence[SeatState],
              posting: Collection[int] = frozenset()) -> HandPlan:
    """R33-R35: the next hand's button, blinds, who is dealt in and who posts what.

    ``posting``: seats whose players post what they owe (``missed.owed``) to play at once rather
    than wait for the big blind. Raises ``Conflict`` (R35) for a post between the big blind and
    the button, and (R33) when fewer than two players can be dealt in. Where the room allows it
    (``table.post_behind_button``) a player between the button and the small blind may post
    there: what they owe, and at least a live big blind."""
    by_no = seat_map(table, seats)
    prev_bb, n = table.big_blind_seat, table.seats_per_table
    if prev_bb is None or table.small_blind_seat is None or table.button is None:
        raise Conflict(f"no hand has been dealt at this table: {REDRAW}", "R33")
    _check_posting(by_no, posting)
    bb = next(s for s in clockwise(prev_bb, n) if by_no[s].present or s == prev_bb)
    button = prev_bb if table.dealers_choice else table.small_blind_seat
    sb = prev_bb
    sb_posted = by_no[sb].status == "active" and by_no[sb].present and sb != bb
    behind = _behind_button(table, by_no, button, sb)
    by_no.update({no: replace(by_no[no], owes_bb=True) for no in behind & set(posting)
                  if not owed(by_no[no])})  # a post behind the button is at least a big blind
    dealt, waiting = _entitled(by_no, (button, sb if sb_posted else None, bb), posting, n, behind)
    heads_up = len(dealt) == 2
    if heads_up:
        button, bb = _heads_up(table, by_no, dealt)
        sb, sb_posted = button, True
    if len(dealt) < 2:
        raise Conflict(f"fewer than two players can be dealt in: {REDRAW}", "R33")
    missed_bb = tuple(s for s in by_no if by_no[s].absent and between(prev_bb, bb, s, n))
    missed_sb = (prev_bb,) if by_no[prev_bb].absent else ()
    return _plan(table, by_no, (button, sb, bb), sb_posted=sb_posted, dealt=dealt,
                 missed=(missed_sb, missed_bb), waiting=tuple(waiting), heads_up=heads_up)


def _check_posting(by_no: dict[int, SeatState], posting: Collection[int]) -> None:
    for no in posting:
        if no not in by_no or not by_no[no].present:
            raise Conflict(f"seat {no} has no present player to post", "R35")


def _behind_button(table: TableState, by_no: dict[int, SeatState], button: int, sb: int) -> set[int]:
    """R35, the room's exception (``post_behind_button``): the present players strictly between
    the button and the small blind's seat, who may post there. None where the room does not
    allow it, nor in Dealer's Choice (the button is the small blind: no seat between)."""
    if not table.post_behind_button or button == sb:
        return set()
    return {no for no, s in by_no.items()
            if s.present and between(button, sb, no, table.seats_per_table)}


def _entitled(by_no: dict[int, SeatState], places: tuple[int, int | None, int],
              posting: Collection[int], n: int,
              behind: Collection[int] = ()) -> tuple[list[int], list[Waiting]]:
    """R35/R36: who is dealt in, given the button, the small blind poster and the big blind;
    ``behind``: players who may post behind the button (the room's exception to R35)."""
    button, sb, bb = places
    dealt: list[int] = []
    waiting: list[Waiting] = []
    for no, seat in by_no.items():
        if not seat.present:
            continue
        if no in (sb, bb) or (no in behind and no in posting):
            dealt.append(no)
        elif no in behind:
            posts = owed(seat) or ("live_big_blind",)
            waiting.append(Waiting(no, f"behind the button: posts {_words(posts)} to play now, or "
                                   "waits until the button passes", "R35", posts))
        elif between(button, bb, no, n):
            if no in posting:
                raise Conflict(f"seat {no} is between the big blind and the button: blinds cannot "
                               "be made up there; wait until the button passes", "R35")
            waiting.append(Waiting(no, "between the big blind and the button: waits until the "
                                   "button passes", "R35"))
        elif owed(seat) and no not in posting:
            waiting.append(Waiting(no, f"owes {_words(owed(seat))}: posts it or waits for the big "
                                   "blind", "R36" if seat.owes_bb and not seat.missed_bb else "R35",
                                   owed(seat)))
        else:
            dealt.append(no)
    return dealt, waiting


def _heads_up(table: TableState, by_no: dict[int, SeatState], dealt: list[int]) -> tuple[int, int]:
    """R33: heads-up the button posts the small blind. It goes to the player who had the big blind
    (no big blind twice in a row), else to the first of the two after the old button; never to
    a player who owes a blind (they must take the big blind) nor backwards."""
    old, n = table.button, table.seats_per_table
    assert old is not None
    for button in sorted(dealt, key=lambda s: (s != table.big_blind_seat, (s - old) % n or n)):
        bb = next(s for s in dealt if s != button)
        if not owed(by_no[button]) and _forward(table, button, bb):
            return button, bb
    raise Conflict(f"heads-up, the button cannot move on without a player skipping a blind: {REDRAW}", "R33")


def _forward(table: TableState, button: int, bb: int) -> bool:
    """R33: measured along the big blind's path (R34), the button does not go back."""
    assert table.button is not None and table.big_blind_seat is not None
    n, prev_bb = table.seats_per_table, table.big_blind_seat
    return (bb - prev_bb) % n - (bb - button) % n >= -((prev_bb - table.button) % n)


def _plan(table: TableState, by_no: dict[int, SeatState], places: tuple[int, int, int], *,
          sb_posted: bool, dealt: list[int], missed: tuple[tuple[int, ...], tuple[int, ...]],
          waiting: tuple[Waiting, ...], heads_up: bool) -> HandPlan:
    button, sb, bb = places
    n = table.seats_per_table
    order = tuple(sorted(dealt, key=lambda s: (s - button - 1) % n))
    posts = [Post(sb, "small_blind", table.small_blind)] if sb_posted else []
    posts.append(Post(bb, "big_blind", table.big_blind))
    posts += [Post(s, kind, _amount(table, kind)) for s in order if s not in (sb, bb)
              for kind in owed(by_no[s])]
    seats = dict(by_no)
    for s in order:
        seats[s] = settled(by_no[s])
    missed_sb, missed_bb = missed
    for s in missed_sb:
        seats[s] = replace(seats[s], missed_sb=True)
    for s in missed_bb:
        seats[s] = replace(seats[s], missed_bb=True)
    after = replace(table, hand_no=table.hand_no + 1, button=button, small_blind_seat=sb,
                    big_blind_seat=bb)
    return HandPlan(after, tuple(seats[s] for s in sorted(seats)), order, tuple(posts), missed_sb,
                    missed_bb, waiting, heads_up)


def _amount(table: TableState, kind: PostKind) -> int:
    return table.small_blind if kind in ("small_blind", "dead_small_blind") else table.big_blind


def _words(kinds: tuple[PostKind, ...]) -> str:
    return " and ".join(k.replace("_", " ") for k in kinds)
