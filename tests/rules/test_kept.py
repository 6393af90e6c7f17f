"""The app's one keeper of derived data (``roomops.kept``, issue 41): a value is given again only
under the stamp it was made from; a bounded keeper drops the least recently used first."""

from __future__ import annotations

import threading

from roomops.kept import Kept


def test_a_value_is_given_again_only_under_the_stamp_it_was_kept_with():
    kept: Kept[str, int, str] = Kept()
    kept.put("game", 1, "drawn at mark 1")
    assert kept.get("game", 1) == "drawn at mark 1"
    assert kept.get("game", 2) is None  # the mark moved: made again
    assert (kept.hits, kept.misses) == (1, 1)


def test_keep_makes_a_value_only_when_none_is_kept_under_the_stamp():
    kept: Kept[str, int, str] = Kept()
    made: list[int] = []

    def make(stamp: int) -> str:
        made.append(stamp)
        return f"v{stamp}"

    assert [kept.keep("g", s, lambda s=s: make(s)) for s in (1, 1, 2, 2, 1)] == ["v1", "v1", "v2", "v2", "v1"]
    assert made == [1, 2, 1] and len(kept) == 1  # one value a key: the latest


def test_a_bounded_keeper_keeps_the_most_recently_used_up_to_its_size():
    kept: Kept[str, None, str] = Kept(bounded=True, least=2)
    kept.put("a", None, "A")
    kept.put("b", None, "B")
    assert kept.get("a", None) == "A"  # a is now the most recent
    kept.put("c", None, "C")
    assert (kept.get("b", None), kept.get("a", None), kept.get("c", None)) == (None, "A", "C")
    assert len(kept) == 2 and (kept.hits, kept.misses) == (3, 1)


def test_an_unbounded_keeper_keeps_everything_until_told_what_is_gone():
    kept: Kept[tuple[int, int], int, str] = Kept(least=2)
    for game in range(5):
        kept.put((1, game), 0, str(game))
    kept.put((2, 0), 0, "other room")
    assert len(kept) == 6
    kept.forget(lambda key: key[0] == 1 and key[1] not in {0, 3})
    assert len(kept) == 3 and kept.get((2, 0), 0) == "other room" and kept.get((1, 3), 0) == "3"


def test_a_bounded_keeper_shared_by_threads_stays_bounded():
    kept: Kept[tuple[int, int], int, str] = Kept(bounded=True, least=50)

    def work(n: int) -> None:
        for i in range(2000):
            kept.keep((n, i % 80), 0, lambda: "drawn")

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(kept) == 50 and kept.hits + kept.misses == 8000
