"""R70: a jackpot prize shared out by its scheme (roomops.jackpots.shares), no database: to the cent,
by the scheme's split, the table's share only to those who may take one, a cent left over on a tie
clockwise from the button; claims at once share it equally first."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roomops.errors import Invalid
from roomops.jackpots.shares import WHOLE_BP, Dealt, Hand, Split, claims_split, prize_shares


def _table(n: int, away: frozenset[int] = frozenset()) -> tuple[Dealt, ...]:
    return tuple(Dealt(100 + seat, seat, seat not in away) for seat in range(1, n + 1))


def test_r70_the_default_bad_beat_split_is_half_a_quarter_and_a_quarter_shared():
    hand = Hand(losing=103, winning=107, dealt=_table(9), button=1)
    shares = prize_shares(1_000_000, Split(), hand)
    assert (shares[103], shares[107]) == (500_000, 250_000)
    assert {p: s for p, s in shares.items() if p not in (103, 107)} == {
        p: 35_714 + (1 if p in (102, 104) else 0) for p in (101, 102, 104, 105, 106, 108, 109)}
    assert sum(shares.values()) == 1_000_000  # 250,000 / 7 leaves 2 cents: seats 2 and 4, after the button


def test_r70_a_player_away_or_owing_a_blind_takes_no_table_share():
    hand = Hand(losing=101, winning=102, dealt=_table(6, away=frozenset({4, 5})), button=6)
    shares = prize_shares(10_000, Split(), hand)
    assert shares[104] == shares[105] == 0
    assert shares[103] == shares[106] == 1_250  # the table's 2,500 by the two who may take it


def test_r70_with_nobody_for_the_table_its_share_follows_the_hands():
    hand = Hand(losing=101, winning=102, dealt=_table(2), button=2)
    assert prize_shares(9_000, Split(), hand) == {101: 6_000, 102: 3_000}
    only_table = Split(losing_bp=0, winning_bp=0, table_bp=WHOLE_BP)
    assert prize_shares(9_001, only_table, hand) == {101: 4_501, 102: 4_500}  # seat 1 is first after 2


@pytest.mark.parametrize(("split", "hand"), [
    (lambda: Split(6_000, 2_500, 2_500), lambda: Hand(101, 102, _table(4), 1)),
    (lambda: Split(-1, 5_001, 5_000), lambda: Hand(101, 102, _table(4), 1)),
    (lambda: Split(), lambda: Hand(101, 101, _table(4), 1)),
    (lambda: Split(), lambda: Hand(101, 199, _table(4), 1)),
    (lambda: Split(), lambda: Hand(101, 102, (*_table(4), Dealt(105, 4)), 1)),
])
def test_r70_a_split_or_hand_that_does_not_add_up_is_refused(split, hand):
    with pytest.raises(Invalid) as err:
        prize_shares(1_000, split(), hand())
    assert err.value.rule == "R70"


splits = st.tuples(st.integers(0, WHOLE_BP), st.integers(0, WHOLE_BP)).filter(
    lambda ab: sum(ab) <= WHOLE_BP).map(lambda ab: Split(ab[0], ab[1], WHOLE_BP - sum(ab)))


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    n = draw(st.integers(2, 10))
    seats = draw(st.lists(st.integers(1, 10), min_size=n, max_size=n, unique=True))
    dealt = tuple(Dealt(500 + s, s, draw(st.booleans())) for s in seats)
    losing, winning = draw(st.lists(st.sampled_from([d.player_id for d in dealt]), min_size=2, max_size=2,
                                    unique=True))
    return Hand(losing, winning, dealt, draw(st.integers(1, 10)))


@given(st.integers(0, 10**9), splits, hands())
def test_r70_shares_add_up_to_the_prize_to_the_cent(prize, split, hand):
    shares = prize_shares(prize, split, hand)
    assert sum(shares.values()) == prize and min(shares.values()) >= 0
    assert set(shares) == {d.player_id for d in hand.dealt}
    others = [d for d in hand.dealt if d.player_id not in (hand.losing, hand.winning)]
    takers = [d for d in others if d.table_share]
    for d in others:
        if not d.table_share:
            assert shares[d.player_id] == 0
    if takers:  # each within a cent of their exact share
        exact = {hand.losing: prize * split.losing_bp / WHOLE_BP,
                 hand.winning: prize * split.winning_bp / WHOLE_BP,
                 **{d.player_id: prize * split.table_bp / WHOLE_BP / len(takers) for d in takers}}
        assert all(abs(shares[p] - value) < 1 for p, value in exact.items())
        assert max(shares[d.player_id] for d in takers) - min(shares[d.player_id] for d in takers) <= 1


@given(st.integers(0, 10**9), st.integers(1, 5))
def test_r70_claims_at_once_share_the_prize_equally_the_earliest_first(prize, claims):
    parts = claims_split(prize, claims)
    assert sum(parts) == prize and parts == sorted(parts, reverse=True) and parts[0] - parts[-1] <= 1
