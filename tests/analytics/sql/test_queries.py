"""The SQL aggregates against a plain-Python reference over the same matches."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from random import Random

from analytics import services
from analytics.models import MatchStanding
from analytics.sql import grouprows
from analytics.stats import StatsFilter, h_index
from scoring.models import Match
from tests.analytics.helpers import Table, abluxxen


def _history(table: Table, matches: int, seed: int) -> list[tuple[list[int], list[int]]]:
    """Random one-game Abluxxen matches; returns (player ids, points) per match in play order."""
    rng = Random(seed)
    played = []
    for _ in range(matches):
        seats = rng.sample(table.players, rng.randint(3, 5))
        fronts = [rng.randint(5, 12) for _ in seats]
        hands = [rng.randint(1, 5) for _ in seats]
        hands[rng.randrange(len(seats))] = 0
        abluxxen(table, seats, fronts, hands)
        played.append(([p.pk for p in seats], [f - h for f, h in zip(fronts, hands, strict=True)]))
    return played


def _winners(table: Table) -> dict[int, set[int]]:
    """Per match (in order) the winning players, as stored by the rules engine's standings."""
    services.stats_rebuild_group(group_id=table.group.pk)
    out: dict[int, set[int]] = defaultdict(set)
    for match_id, player_id in MatchStanding.objects.filter(won=True).values_list("match_id", "player_id"):
        out[match_id].add(player_id)
    return out


def test_streaks_h_index_and_head_to_head_match_a_python_reference(table: Table) -> None:
    played = _history(table, 25, seed=3)
    winners = _winners(table)
    order = list(Match.objects.filter(group=table.group).order_by("finished_at", "id").values_list("id", flat=True))
    results: dict[int, list[bool]] = defaultdict(list)
    h2h: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    ranks = {(m, p): r for m, p, r in MatchStanding.objects.values_list("match_id", "player_id", "rank")}
    for match_id, (ids, _points) in zip(order, played, strict=True):
        for pid in ids:
            results[pid].append(pid in winners[match_id])
            for other in ids:
                if other != pid:
                    cell = h2h[(pid, other)]
                    cell[0] += 1
                    cell[1] += ranks[(match_id, pid)] < ranks[(match_id, other)]
                    cell[2] += ranks[(match_id, pid)] > ranks[(match_id, other)]

    rows = grouprows.group_rows(table.group.pk, StatsFilter())
    streaks = {r["player_id"]: r for r in rows.streaks_all}
    for pid, seq in results.items():
        runs = _runs(seq)
        assert streaks[pid]["longest_win"] == max([n for won, n in runs if won], default=0)
        assert streaks[pid]["longest_loss"] == max([n for won, n in runs if not won], default=0)
        last_won, last_len = runs[-1]
        assert streaks[pid]["current"] == (last_len if last_won else -last_len)
    got = {(r["player_id"], r["opponent_id"]): [r["played"], r["wins"], r["losses"]] for r in rows.h2h}
    assert got == dict(h2h)

    from analytics.drawing.payloads import build

    players = build(rows)["players"]
    for pid in results:
        opponents = [c[0] for (a, _b), c in h2h.items() if a == pid]
        assert players[pid]["overall"]["h_index_opponents"] == h_index(opponents)
        assert players[pid]["overall"]["h_index_games"] == 1  # one game played
        assert players[pid]["overall"]["matches"] == len(results[pid])
        assert players[pid]["overall"]["wins"] == sum(results[pid])


def _runs(seq: list[bool]) -> list[tuple[bool, int]]:
    runs: list[tuple[bool, int]] = []
    for won in seq:
        if runs and runs[-1][0] == won:
            runs[-1] = (won, runs[-1][1] + 1)
        else:
            runs.append((won, 1))
    return runs


def test_scores_and_filters(table: Table) -> None:
    a, b, c, d = table.players[:4]
    m1 = abluxxen(table, [a, b, c], [10, 6, 4], [0, 2, 3])  # 10, 4, 1
    m2 = abluxxen(table, [a, b, c, d], [5, 9, 7, 3], [2, 0, 1, 1])  # 3, 9, 6, 2
    Match.objects.filter(pk=m1.pk).update(finished_at=datetime(2024, 5, 1, tzinfo=UTC))
    Match.objects.filter(pk=m2.pk).update(finished_at=datetime(2025, 5, 1, tzinfo=UTC))
    services.stats_rebuild_group(group_id=table.group.pk)

    every = {r["player_id"]: r for r in grouprows.group_rows(table.group.pk, StatsFilter()).player_games}
    assert (every[a.pk]["matches"], every[a.pk]["wins"], every[a.pk]["best_total"], every[a.pk]["worst_total"]) == (
        2,
        1,
        10,
        3,
    )
    assert every[b.pk]["points"] == 13 and every[b.pk]["rounds"] == 2
    in_2025 = {r["player_id"]: r for r in grouprows.group_rows(table.group.pk, StatsFilter(year=2025)).player_games}
    assert in_2025[a.pk]["matches"] == 1 and in_2025[a.pk]["wins"] == 0 and in_2025[b.pk]["wins"] == 1
    three = grouprows.group_rows(table.group.pk, StatsFilter(players=3))
    assert {r["player_id"] for r in three.player_games} == {a.pk, b.pk, c.pk}
    assert {r["year"] for r in three.filters} == {"2024", "2025"}


def test_abluxxen_tie_is_broken_by_the_rules_not_by_points(table: Table) -> None:
    a, b, c = table.players[:3]
    # a: 9 − 1 = 8, b: 8 − 0 = 8 (went out: fewer cards in hand wins the tie), c: 2
    abluxxen(table, [a, b, c], [9, 8, 5], [1, 0, 3])
    services.stats_rebuild_group(group_id=table.group.pk)
    won = dict(MatchStanding.objects.values_list("player_id", "won"))
    assert won == {a.pk: False, b.pk: True, c.pk: False}
    ranks = dict(MatchStanding.objects.values_list("player_id", "rank"))
    assert ranks == {b.pk: 1, a.pk: 2, c.pk: 3}


def test_coloretto_colour_profile_matches_a_python_reference(table: Table) -> None:
    """Per player: how many colours they ended rounds with at each card count (6 = 6 or more)."""
    from analytics.sql import game_queries
    from scoring.models import Score
    from tests.analytics.helpers import play

    rng = Random(8)
    for seats in (table.players[:3], table.players[1:5], table.players[:5]):
        play(table, "coloretto", seats, rng)
    services.stats_rebuild_group(group_id=table.group.pk)
    expected: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    live = Score.objects.filter(round__deleted_at__isnull=True, match__ruleset="coloretto", match__state="finished")
    for player_id, seat, facts in live.values_list("player_id", "seat", "round__facts"):
        for colour, counts in facts.items():
            if colour not in {"jokers", "plus_twos", "removed_colour", "entry"} and counts[seat] > 0:
                expected[player_id][str(min(counts[seat], 6))] += 1
    found = game_queries.specific(table.group.pk, StatsFilter(), ["coloretto"])["coloretto"]
    assert expected and {p: line["profile"] for p, line in found["players"].items()} == expected


def test_build_makes_only_the_scopes_asked_for_and_each_as_the_full_build_does(table: Table) -> None:
    _history(table, 12, seed=5)
    services.stats_rebuild_group(group_id=table.group.pk)
    from analytics.drawing.payloads import build

    rows = grouprows.group_rows(table.group.pk, StatsFilter())
    full = build(rows)
    a, b = sorted(full["players"])[:2]
    stranger = max(full["players"]) + 1000  # asked for (a stale snapshot), no data in this filter
    some = build(rows, players=[b, a, stranger], games=["abluxxen", "njet"])

    assert set(some["players"]) == {a, b, stranger}
    assert some["players"][a] == full["players"][a] and some["players"][b] == full["players"][b]
    assert some["players"][a]["ratings"]["abluxxen"]["history"]  # the rating histories are formatted too
    assert some["players"][stranger]["overall"]["matches"] == 0 and some["players"][stranger]["games"] == []
    assert set(some["games"]) == {"abluxxen", "njet"}
    assert some["games"]["abluxxen"] == full["games"]["abluxxen"]
    assert some["games"]["njet"]["players"] == [] and some["games"]["njet"]["summary"]["matches"] == 0
    assert some["group"] == full["group"]
    assert set(full["games"]) == {"abluxxen"} and len(full["players"]) > 3
    assert build(rows, players=[], games=[]) == {"group": full["group"], "games": {}, "players": {}}
