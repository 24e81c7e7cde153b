"""A seeded game night for the night page tests (statistics and browser): matches played through the services with
fixed facts, their start and finish times set, then the group's statistics rebuilt synchronously.

The evening before (day 1, 19:00–21:00): four Abluxxen matches of the first three players, always in the order
first > second > third.  The night (day 2, 19:00–22:30):

- 19:00 Abluxxen, the first player wins again;
- 19:45 Abluxxen, the THIRD player wins (the upset);
- 20:30 NJET with four players, five rounds, finished by hand (teammates: see ``NJET_ROUNDS``);
- 21:45 MÜ with five players, the rulebook's example round (the fourth player, chief, scores 60), finished by hand.

The next day (day 3, 19:00): one more Abluxxen match, a night of its own.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from analytics import services as analytics_services
from scoring import rules, services
from scoring.models import Group, Match, Player

DAY1 = dt.datetime(2026, 3, 5, 19, 0, tzinfo=dt.UTC)
DAY2 = DAY1 + dt.timedelta(days=1)
DAY3 = DAY2 + dt.timedelta(days=1)


def _njet(start: int, teams: list[int], tricks: list[int], booty: list[int]) -> dict[str, Any]:
    return {
        "start_player": start,
        "teams": teams,
        "monster": None,
        "discard": "none",
        "points_per_trick": 2,
        "tricks": tricks,
        "booty": booty,
    }


# Seats 0..3 = players 0..3.  Team totals per round: 20:12, 18:12, 20:12, 12:18, 18:12 (the first figure is team 0's).
NJET_ROUNDS = [
    _njet(0, [0, 1, 0, 1], [5, 3, 4, 3], [1, 0, 0, 0]),  # 0+2 win
    _njet(1, [1, 0, 0, 1], [3, 5, 4, 3], [0, 0, 0, 0]),  # 1+2 win
    _njet(0, [0, 1, 0, 1], [5, 3, 4, 3], [1, 0, 0, 0]),  # 0+2 win
    _njet(0, [0, 1, 0, 1], [3, 5, 3, 4], [0, 0, 0, 0]),  # 1+3 win (0+2 lose)
    _njet(1, [1, 0, 0, 1], [3, 5, 4, 3], [0, 0, 0, 0]),  # 1+2 win
]


@dataclass
class Evening:
    before: list[Match]
    night: list[Match]
    after: Match


def _timed(match: Match, start: dt.datetime, minutes: int) -> Match:
    Match.objects.filter(pk=match.pk).update(created_at=start, finished_at=start + dt.timedelta(minutes=minutes))
    match.refresh_from_db()
    return match


def _abluxxen(group: Group, user: Any, seats: Sequence[Player], fronts: list[int], hands: list[int]) -> Match:
    match = services.match_create(
        group=group, ruleset="abluxxen", options={"games": 1}, player_ids=[p.pk for p in seats], user=user
    )
    end = "out" if 0 in hands else "exhausted"
    services.round_record(match=match, facts={"front": fronts, "hand": hands, "end": end}, user=user)
    match.refresh_from_db()
    assert match.state == Match.State.FINISHED
    return match


def _by_hand(group: Group, user: Any, ruleset: str, seats: Sequence[Player], rounds: list[dict[str, Any]]) -> Match:
    options = rules.get(ruleset).example["options"] if ruleset == "mue" else {}
    match = services.match_create(
        group=group, ruleset=ruleset, options=options, player_ids=[p.pk for p in seats], user=user
    )
    for facts in rounds:
        services.round_record(match=match, facts=facts, user=user)
    match.refresh_from_db()
    return services.match_finish(match=match, expected_version=match.version, user=user)


def seed_evening(group: Group, players: Sequence[Player], user: Any) -> Evening:
    a, b, c, d, e = players[:5]
    before = [
        _timed(_abluxxen(group, user, [a, b, c], [10, 6, 2], [0, 1, 1]), DAY1 + dt.timedelta(minutes=30 * i), 20)
        for i in range(4)
    ]
    night = [
        _timed(_abluxxen(group, user, [a, b, c], [10, 6, 2], [0, 1, 1]), DAY2, 30),
        _timed(_abluxxen(group, user, [a, b, c], [2, 6, 12], [1, 1, 0]), DAY2 + dt.timedelta(minutes=45), 30),
        _timed(_by_hand(group, user, "njet", [a, b, c, d], NJET_ROUNDS), DAY2 + dt.timedelta(minutes=90), 60),
        _timed(
            _by_hand(group, user, "mue", [a, b, c, d, e], [rules.get("mue").example["facts"]]),
            DAY2 + dt.timedelta(minutes=165),
            45,
        ),
    ]
    after = _timed(_abluxxen(group, user, [a, b, c], [10, 6, 2], [0, 1, 1]), DAY3, 30)
    analytics_services.stats_rebuild_group(group_id=group.pk)
    return Evening(before=before, night=night, after=after)


def abluxxen_ratings_after(matches: int) -> list[Any]:
    """The first three players' Abluxxen ratings after ``matches`` matches all ending first > second > third,
    computed with openskill directly (what the tests compare the night's figures with)."""
    model = PlackettLuce()
    ratings = [model.rating(), model.rating(), model.rating()]
    for _ in range(matches):
        ratings = [team[0] for team in model.rate([[r] for r in ratings], ranks=[1.0, 2.0, 3.0])]
    return ratings


def upset_percent() -> int:
    """The third player's chance, in whole per cent, before the night's second Abluxxen match (after five lost)."""
    return round(PlackettLuce().predict_win([[r] for r in abluxxen_ratings_after(5)])[2] * 100)
