"""Sticheln: the counting behind the card accounting (which cards can make a count, a sum, or several demands).

Pure helpers shared by ``sticheln_deck`` (the full and count ways) and ``sticheln_tally`` (the quick entry).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations


def sum_reachable(values: Iterable[int], count: int, total: int) -> bool:
    """Can ``count`` of these cards (each at most once) add up to exactly ``total``?"""
    pool = list(values)
    if count > len(pool):
        return False
    reach: set[tuple[int, int]] = {(0, 0)}
    for value in pool:
        reach |= {(k + 1, s + value) for k, s in reach if k < count and s + value <= total}
    return (count, total) in reach


def values_available(values: Iterable[int], pool: Iterable[int]) -> bool:
    """Are all these values (with repeats) among the pool's values?"""
    return not Counter(values) - Counter(pool)


def first_shortfall(
    free: Mapping[str, int], demands: Sequence[tuple[frozenset[str], int]]
) -> tuple[tuple[str, ...], int, int] | None:
    """The smallest set of colours whose free cards cannot cover the counts that must come from it.

    Each demand is (colours it may come from, number of cards). Cards can be handed out to meet every
    demand exactly when no colour set is asked for more than it holds (Hall's condition): a demand must
    be met from the set when all its colours lie inside it.
    """
    colours = tuple(free)
    for size in range(1, len(colours) + 1):
        for subset in combinations(colours, size):
            inside = frozenset(subset)
            need = sum(n for allowed, n in demands if allowed <= inside)
            have = sum(free[colour] for colour in subset)
            if need > have:
                return subset, need, have
    return None


def sums_by_count(values: Iterable[int]) -> list[int]:
    """For each count k, the sums k of these cards (each at most once) can make, as a bitmask (bit s set: s)."""
    pool = list(values)
    reach = [1] + [0] * len(pool)  # no card: only the sum 0
    for value in pool:
        for k in range(len(pool) - 1, -1, -1):
            reach[k + 1] |= reach[k] << value
    return reach


def sum_reachable_stepping(values: Iterable[int], low: int, step: int, total: int) -> bool:
    """Can ``low``, ``low + step``, ``low + 2·step``… of these cards (each at most once) add up to ``total`` (≥ 0)?"""
    reach = sums_by_count(values)
    return any(reach[k] >> total & 1 for k in range(low, len(reach), step))
