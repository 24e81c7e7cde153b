"""The cached rows of a group: what a refresh reruns after each kind of change, and that it answers the same."""

from __future__ import annotations

import pickle
import zlib
from collections.abc import Callable, Iterator
from random import Random
from typing import Any

import pytest

from analytics import services, synthetic
from analytics.drawing import payloads
from analytics.models import Snapshot, StandingsVersion
from analytics.services import refresh
from analytics.sql import grouprows
from analytics.stats import StatsFilter
from scoring import services as scoring
from scoring.models import Match
from tests.analytics.helpers import Table, abluxxen, differences, play


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[str]]]:
    """Records which parts of the rows each refresh computes (group-wide queries, per-game queries)."""
    seen: dict[str, list[str]] = {"common": [], "game": []}
    common, game = grouprows._common, grouprows._game

    def spy_common(group_id: int, flt: StatsFilter) -> Any:
        seen["common"].append(flt.key)
        return common(group_id, flt)

    def spy_game(group_id: int, flt: StatsFilter, ruleset: str, *, played: bool) -> Any:
        seen["game"].append(ruleset)
        return game(group_id, flt, ruleset, played=played)

    monkeypatch.setattr(grouprows, "_common", spy_common)
    monkeypatch.setattr(grouprows, "_game", spy_game)
    yield seen


def _clear(seen: dict[str, list[str]]) -> None:
    seen["common"].clear()
    seen["game"].clear()


def _next_round(match: Match, rng: Random) -> dict[str, Any]:
    """The facts of one more round for an open match (the first round of a fresh synthetic match)."""
    played = synthetic.play_match(rng, match.ruleset, [1.0] * match.seats.count(), rounds=1)
    return played.rounds[0][0]


def _payload_from_scratch(table: Table) -> dict[str, Any]:
    return payloads.build(grouprows.group_rows(table.group.pk, StatsFilter()), players=[], games=[])["group"]


def _stored_differs_from_scratch(table: Table) -> list[str]:
    stored = Snapshot.objects.get(key=f"group:{table.group.pk}|all")
    assert not stored.stale
    return differences(stored.payload, _payload_from_scratch(table))


def test_a_round_in_an_open_match_reruns_only_the_live_queries(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any], ran: dict[str, list[str]]
) -> None:
    rng = Random(5)
    a, b, c, d = table.players[:4]
    with django_capture_on_commit_callbacks(execute=True):
        abluxxen(table, [a, b, c], [10, 6, 4], [0, 2, 3])
        open_match = play(table, "njet", [a, b, c, d], rng, rounds=1)
    token = StandingsVersion.objects.get(group_id=table.group.pk).token
    before = Snapshot.objects.get(key=f"group:{table.group.pk}|all").payload
    _clear(ran)
    with django_capture_on_commit_callbacks(execute=True):
        scoring.round_record(match=open_match, facts=_next_round(open_match, rng), user=table.owner)
    assert ran == {"common": [], "game": []}
    after = Snapshot.objects.get(key=f"group:{table.group.pk}|all")
    assert not after.stale
    assert after.payload["summary"]["rounds_entered"] == before["summary"]["rounds_entered"] + 1
    assert StandingsVersion.objects.get(group_id=table.group.pk).token == token
    assert differences(after.payload, _payload_from_scratch(table)) == []


def test_a_finished_match_reruns_the_group_wide_queries_and_its_own_games_only(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any], ran: dict[str, list[str]]
) -> None:
    rng = Random(6)
    p = table.players
    with django_capture_on_commit_callbacks(execute=True):
        play(table, "njet", p[:4], rng)
        play(table, "mue", p[:5], rng)
        abluxxen(table, p[:3], [10, 6, 4], [0, 2, 3])
    version = StandingsVersion.objects.get(group_id=table.group.pk)
    _clear(ran)
    with django_capture_on_commit_callbacks(execute=True):
        abluxxen(table, p[1:4], [3, 9, 7], [2, 0, 1])
    assert ran == {"common": ["all"], "game": ["abluxxen"]}
    renewed = StandingsVersion.objects.get(group_id=table.group.pk)
    assert renewed.token != version.token
    assert renewed.game_token("abluxxen") != version.game_token("abluxxen")
    assert renewed.game_token("njet") == version.game_token("njet")
    group = Snapshot.objects.get(key=f"group:{table.group.pk}|all").payload
    assert group["summary"]["matches"] == 4
    assert differences(group, _payload_from_scratch(table)) == []


def test_editing_and_deleting_reuse_nothing_they_move(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any], ran: dict[str, list[str]]
) -> None:
    """An edit of a finished NJET round, a deleted MÜ match and a player merge, each against a fresh run."""
    rng = Random(7)
    p = table.players
    with django_capture_on_commit_callbacks(execute=True):
        njet = play(table, "njet", p[:4], rng)
        mue = play(table, "mue", p[:5], rng)
        play(table, "coloretto", p[2:6], rng)
    first = njet.rounds.order_by("number").first()
    assert first is not None
    _clear(ran)
    with django_capture_on_commit_callbacks(execute=True):
        scoring.round_delete(round=first, expected_version=first.version, user=table.owner)
    assert ran["game"] == ["njet"]
    assert _stored_differs_from_scratch(table) == []

    _clear(ran)
    gone, group_id = mue.pk, table.group.pk
    mue.delete()
    services.stats_schedule(match_id=gone, group_id=group_id)
    assert ran["game"] == []  # MÜ has no match or rating left; the other games are reused
    assert _stored_differs_from_scratch(table) == []

    _clear(ran)
    services.stats_schedule_group(group_id=group_id)  # what a player merge does
    assert sorted(ran["game"]) == ["coloretto", "njet"]
    assert _stored_differs_from_scratch(table) == []


def test_an_unreachable_rows_cache_costs_a_full_run_not_a_failed_refresh(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    def down(*_args: Any, **_kwargs: Any) -> Any:
        raise ConnectionError("cache down")

    monkeypatch.setattr(grouprows.cache, "get", down)
    monkeypatch.setattr(grouprows.cache, "set", down)
    a, b, c = table.players[:3]
    with django_capture_on_commit_callbacks(execute=True):
        abluxxen(table, [a, b, c], [10, 6, 4], [0, 2, 3])
        abluxxen(table, [a, b, c], [3, 9, 7], [2, 0, 1])
    group = Snapshot.objects.get(key=f"group:{table.group.pk}|all")
    assert not group.stale and group.payload["summary"]["matches"] == 2


def test_rows_cached_for_another_database_never_match(table: Table) -> None:
    """Tokens are random: a group id reused after a reset finds the old entry under a different token."""
    grouprows.group_rows_cached(table.group.pk, StatsFilter())
    StandingsVersion.objects.filter(group_id=table.group.pk).delete()  # as in a fresh database
    version = grouprows._version(table.group.pk)
    cached = grouprows._cache_get(grouprows._cache_key(table.group.pk, StatsFilter()))
    assert cached is not None and cached.token != version.token
    assert all(cached.game_tokens[r] != version.game_token(r) for r in cached.game_tokens)


def test_unreadable_cache_entries_are_recomputed(table: Table) -> None:
    key = grouprows._cache_key(table.group.pk, StatsFilter())
    old_shape = grouprows.Cached.__new__(grouprows.Cached)
    old_shape.__dict__.update(token="t", game_tokens={}, rows=None)  # as unpickled from an earlier version
    packed_old = zlib.compress(pickle.dumps(old_shape))
    for junk in (b"not zlib", "a string", {"token": "x"}, packed_old):
        grouprows.cache.set(key, junk)
        rows = grouprows.group_rows_cached(table.group.pk, StatsFilter())
        assert rows == grouprows.group_rows(table.group.pk, StatsFilter())
        assert grouprows._cache_get(key) is not None  # replaced by a readable entry


@pytest.mark.django_db(transaction=True)
def test_a_refresh_on_two_connections_answers_as_on_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside a transaction a refresh runs the group-wide queries and each game's side by side on two
    connections (the other tests run inside a transaction, where only one connection sees their data)."""
    import threading

    from tests.analytics.helpers import make_table

    rng = Random(5)
    table = make_table("two connections")
    p = table.players
    for ruleset, seats in (("njet", p[:4]), ("mue", p[:5]), ("coloretto", p[1:5]), ("abluxxen", p[:3])):
        play(table, ruleset, seats, rng, rounds=4)
    services.stats_rebuild_group(group_id=table.group.pk)
    assert services.refresh_threads() == 2

    ran_in: dict[str, str] = {}
    common, game = grouprows._common, grouprows._game

    def spy_common(group_id: int, flt: StatsFilter) -> Any:
        ran_in[""] = threading.current_thread().name
        return common(group_id, flt)

    def spy_game(group_id: int, flt: StatsFilter, ruleset: str, *, played: bool) -> Any:
        ran_in[ruleset] = threading.current_thread().name
        return game(group_id, flt, ruleset, played=played)

    monkeypatch.setattr(grouprows, "_common", spy_common)
    monkeypatch.setattr(grouprows, "_game", spy_game)
    for flt in (StatsFilter(), StatsFilter(players=4)):
        one = grouprows.group_rows(table.group.pk, flt)
        assert set(ran_in.values()) == {"MainThread"}
        ran_in.clear()
        two = grouprows.group_rows(table.group.pk, flt, threads=2)
        assert two == one
        assert set(ran_in) == {"", "abluxxen", "coloretto", "mue", "njet"}
        assert "MainThread" in ran_in.values() and any(n.startswith("stats-rows") for n in ran_in.values())
        ran_in.clear()
    assert one.specific and set(one.specific) < {"abluxxen", "coloretto", "mue", "njet"}  # 4 players: not MÜ's

    # the refresh itself takes the two-connection path, and its snapshots equal a one-connection refresh's
    monkeypatch.setattr(refresh.settings, "STATS_REFRESH_THREADS", 1)
    grouprows.cache.clear()  # no cached rows: the refresh runs every query
    Snapshot.objects.update(stale=True)
    services.stats_group_refresh(group_id=table.group.pk)
    alone = {s.key: s.payload for s in Snapshot.objects.all()}
    assert set(ran_in.values()) == {"MainThread"}
    monkeypatch.setattr(refresh.settings, "STATS_REFRESH_THREADS", 2)
    grouprows.cache.clear()
    Snapshot.objects.update(stale=True)
    services.stats_group_refresh(group_id=table.group.pk)
    assert any(n.startswith("stats-rows") for n in ran_in.values())
    assert differences({s.key: s.payload for s in Snapshot.objects.all()}, alone) == []

    def broken(group_id: int, flt: StatsFilter, ruleset: str, *, played: bool) -> Any:
        if threading.current_thread().name != "MainThread":
            raise RuntimeError(f"{ruleset} failed on the other connection")
        return game(group_id, flt, ruleset, played=played)

    monkeypatch.setattr(grouprows, "_game", broken)
    with pytest.raises(RuntimeError, match="failed on the other connection"):
        grouprows.group_rows(table.group.pk, StatsFilter(), threads=2)


def test_a_rebuild_reads_distinct_values_not_one_row_per_match_or_seat(table: Table) -> None:
    """A model's default ordering joins the columns of a ``.distinct()`` (Match's created_at and id, Seat's match
    and number), which made the "which games, which players" queries of every rebuild one row per match or seat."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    p = table.players
    for fronts in ([10, 6, 4], [3, 9, 7], [5, 5, 8]):
        abluxxen(table, p[:3], fronts, [0, 2, 3])
    with CaptureQueriesContext(connection) as seen:
        services.stats_rebuild_group(group_id=table.group.pk)
    # the ORM's (its columns are quoted; the hand-written aggregates order their DISTINCT rows on purpose)
    distinct = [q["sql"] for q in seen.captured_queries if q["sql"].startswith('SELECT DISTINCT "')]
    assert len(distinct) >= 3  # the games of the group (twice) and its players
    assert [sql for sql in distinct if "ORDER BY" in sql.upper()] == []
    assert grouprows.rulesets_of(table.group.pk) == ["abluxxen"]
