"""Waits as counts in minute buckets (R80): a period's median and 90th percentile are read off the
sum of its hours' counts, so no player's row is read again once their hour is rolled up. Pure.

The buckets are a minute wide up to five minutes (a short wait is told to the minute), then widen
as the waits do: a quantile read off them is within half a bucket of the true one."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping

# the lower edge of each bucket, minutes; the last takes every longer wait
EDGES: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 7, 10, 12, 15, 20, 25, 30, 40, 50, 60, 75, 90, 105, 120,
                          150, 180, 240, 300, 360, 480, 720)


def bucket_of(minutes: float) -> int:
    """The bucket a wait of ``minutes`` (>= 0) falls in."""
    return bisect_right(EDGES, max(0.0, minutes)) - 1


def _upper(bucket: int) -> float:
    """A bucket's upper edge; the open last one is taken as wide as the one before it."""
    return float(EDGES[bucket + 1]) if bucket + 1 < len(EDGES) else 2.0 * EDGES[-1] - EDGES[-2]


def quantile(counts: Mapping[int, int], q: float) -> float | None:
    """The ``q`` quantile (0..1) of the waits counted by bucket, interpolated within its bucket as
    if its waits were spread evenly; None with nothing counted."""
    total = sum(counts.values())
    if total <= 0:
        return None
    rank, below = q * total, 0
    for bucket in sorted(counts):
        n = counts[bucket]
        if n and below + n >= rank:
            low = float(EDGES[bucket])
            return low + (_upper(bucket) - low) * max(0.0, rank - below) / n
        below += n
    return float(EDGES[max(counts)])
