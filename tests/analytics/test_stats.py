"""The pure helpers: filters, snapshot keys, ranks and the H-index reference."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analytics.stats import StatsFilter, h_index, ranks_of, snapshot_key


@pytest.mark.parametrize(
    ("key", "year", "players"),
    [("all", None, None), ("period=2025", 2025, None), ("players=4", None, 4), ("period=2024,players=3", 2024, 3)],
)
def test_filter_keys_round_trip(key: str, year: int | None, players: int | None) -> None:
    flt = StatsFilter.parse(key)
    assert (flt.year, flt.players) == (year, players)
    assert flt.key == key


@pytest.mark.parametrize("bad", ["period=1", "players=1", "players=9", "colour=red", "period=2025,period=2024", "x"])
def test_filter_refuses_anything_else(bad: str) -> None:
    with pytest.raises(ValueError, match="bad"):
        StatsFilter.parse(bad)


def test_filter_from_query_and_bounds() -> None:
    flt = StatsFilter.from_query("2025", "all")
    assert flt.key == "period=2025"
    start, end = flt.bounds()  # type: ignore[misc]
    assert (start.year, end.year, start.tzinfo is not None) == (2025, 2026, True)
    assert StatsFilter.from_query(None, None).bounds() is None


def test_snapshot_keys() -> None:
    assert snapshot_key("group", group_id=3, flt="all") == "group:3|all"
    assert snapshot_key("player", group_id=3, player_id=9, flt="players=4") == "player:9|players=4"
    assert snapshot_key("game", group_id=3, ruleset="mue", flt="all") == "game:3:mue|all"


def test_ranks_share_ties_and_winners_come_first() -> None:
    assert ranks_of([10, 30, 30, 5], winners=[1, 2]) == [3, 1, 1, 4]
    # Abluxxen-style: the rules crown seat 2 although seat 0 has as many points
    assert ranks_of([8, 3, 8], winners=[2]) == [2, 3, 1]


@given(st.lists(st.integers(min_value=0, max_value=30), max_size=12))
def test_h_index_definition(counts: list[int]) -> None:
    h = h_index(counts)
    assert sum(1 for c in counts if c >= h) >= h
    assert sum(1 for c in counts if c >= h + 1) < h + 1
