"""The group export and import carry Was sticht?'s quick-entry rounds (the task cards returned) beside full-entry
ones: the copy stores the same facts and points, and its tasks held are the original's."""

from __future__ import annotations

import copy

import pytest

from scoring import selectors, services
from scoring.models import Match, Round
from scoring.transfer import exporting
from tests.scoring.helpers import WS_ROUND_1, ws_match

pytestmark = pytest.mark.django_db

# Round 2 through the quick entry: Csilla returns "exactly 3", Dani "exactly 1"
WS_QUICK_2 = {"entry": "quick", "start_player": 1, "returned": [None, None, "exactly-3", "exactly-1"]}
# Round 3 through the full entry: Anna takes the most tricks, Bence the last one
WS_FULL_3 = {
    "entry": "full",
    "start_player": 2,
    "chosen": ["most", "last-trick", None, "fewest"],
    "tricks": [5, 2, 1, 1],
    "last_trick": 1,
}


def test_quick_rounds_travel_with_the_group(table):
    match = ws_match(table.group, table.players, table.owner)
    for facts in (WS_ROUND_1, WS_QUICK_2, WS_FULL_3):
        services.round_record(match=match, facts=facts, user=table.owner)
    doc = exporting.group_export(group=table.group)
    (exported,) = doc["matches"]
    quick = exported["rounds"][1]
    assert quick["facts"] == WS_QUICK_2
    assert quick["points"] == [0, 0, 1, 1]

    target = services.group_create(name="Copy", user=table.owner)
    exporting.group_import(group=target, data=doc, user=table.owner)
    restored = Match.objects.get(group=target, ruleset="was-sticht")
    rounds = list(Round.objects.filter(match=restored).order_by("number"))
    assert [r.facts.get("entry") for r in rounds] == [None, "quick", "full"]
    assert [r.points for r in rounds] == [list(r.points) for r in Round.objects.filter(match=match).order_by("number")]
    held = selectors.match_scoreboard(match=restored)["extra"]["held"]
    assert held == selectors.match_scoreboard(match=match)["extra"]["held"]
    assert held[2] == ["most", "no-green"]  # Csilla's "exactly 3" went back in the quick round

    again = copy.deepcopy(exporting.group_export(group=target))
    assert again["matches"][0]["rounds"] == exported["rounds"]


def test_an_imported_quick_round_is_checked_like_an_entered_one(table):
    match = ws_match(table.group, table.players, table.owner)
    services.round_record(match=match, facts=WS_ROUND_1, user=table.owner)
    services.round_record(match=match, facts=WS_QUICK_2, user=table.owner)
    doc = exporting.group_export(group=table.group)
    # Bence returned "exactly 2" in round 1: a file that has him return it again is refused
    doc["matches"][0]["rounds"][1]["facts"]["returned"] = [None, "exactly-2", "exactly-3", "exactly-1"]
    target = services.group_create(name="Copy", user=table.owner)
    with pytest.raises(services.ValidationFailed) as info:
        exporting.group_import(group=target, data=doc, user=table.owner)
    assert list(info.value.problems) == ["matches[0].rounds[1].facts.returned.1"]
    (text,) = info.value.problems["matches[0].rounds[1].facts.returned.1"]
    assert "does not hold the task “Exactly 2 tricks”" in text
    assert not Match.objects.filter(group=target).exists()
