"""Issue 43 §3: refused means unchanged.  A BG Stats play that cannot be imported adds nothing, not even its
players (whether the review already knows why, as for a future date, or only the writing finds out); an empty
If-Match header is a 400, never "no header"."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from scoring import rules
from scoring.models import Match, Player
from scoring.transfer import bgstats_import
from tests.scoring.helpers import record

pytestmark = pytest.mark.django_db


def _backup(plays: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "players": [
            {"id": 1, "uuid": "p-a", "name": "Aladár"},
            {"id": 2, "uuid": "p-b", "name": "Boglárka"},
            {"id": 3, "uuid": "p-c", "name": "Cecília"},
            {"id": 4, "uuid": "p-d", "name": "Dezső"},
            {"id": 5, "uuid": "p-e", "name": "Etelka"},
        ],
        "games": [
            {"id": 10, "name": "Meinz", "bggId": 0},
            {"id": 11, "name": "Abluxxen", "bggId": 0},
        ],
        "plays": plays,
    }


def _play(uuid: str, game: int, day: dt.date, scores: list[tuple[int, str]]) -> dict[str, Any]:
    return {
        "uuid": uuid,
        "gameRefId": game,
        "playDate": f"{day.isoformat()} 20:00:00",
        "playerScores": [{"playerRefId": ref, "score": value} for ref, value in scores],
    }


def test_a_future_dated_play_adds_no_player(table):
    """The issue's case: "plays 1, imported 0, new players A, B, C" and the group grew from 11 to 14 players."""
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    doc = _backup([_play("p-future", 10, tomorrow, [(1, "41"), (2, "28"), (3, "35")])])
    before = Player.objects.filter(group=table.group).count()

    plan = bgstats_import.bgstats_plan(group=table.group, data=doc, user=table.owner)
    summary = bgstats_import.bgstats_import(group=table.group, data=doc, user=table.owner)

    assert plan.players == []  # the review proposes nobody for a play that will not be imported
    assert (summary["plays"], summary["imported"], summary["new_players"]) == (1, 0, [])
    [skipped] = summary["skipped"]
    assert skipped["reason"] == "The date played cannot be in the future."
    assert Player.objects.filter(group=table.group).count() == before
    assert not Match.objects.filter(group=table.group).exists()


def test_a_play_refused_while_writing_leaves_its_players_out_and_the_others_in(table):
    """Abluxxen's default mode needs 3 players: a 2-player play is refused only when its match is written.  Its
    new players are not added; a good play's new players are."""
    day = timezone.localdate() - dt.timedelta(days=3)
    doc = _backup(
        [
            _play("p-good", 10, day, [(1, "41"), (2, "28"), (3, "35")]),
            _play("p-duel", 11, day, [(4, "12"), (5, "9")]),
        ]
    )

    summary = bgstats_import.bgstats_import(group=table.group, data=doc, user=table.owner)

    assert summary["imported"] == 1
    assert sorted(summary["new_players"]) == ["Aladár", "Boglárka", "Cecília"]
    assert [s["play"].split(",")[0] for s in summary["skipped"]] == [rules.get("abluxxen").name]
    names = set(Player.objects.filter(group=table.group).values_list("name", flat=True))
    assert {"Aladár", "Boglárka", "Cecília"} <= names
    assert not names & {"Dezső", "Etelka"}


def test_a_score_beyond_the_limit_is_skipped_in_the_review(table):
    day = timezone.localdate() - dt.timedelta(days=3)
    doc = _backup([_play("p-huge", 10, day, [(1, "999999"), (2, "28"), (3, "35")])])

    plan = bgstats_import.bgstats_plan(group=table.group, data=doc, user=table.owner)

    assert plan.players == []
    assert plan.skipped == [(plan.skipped[0][0], "Aladár's score is beyond 100000 points")]


def test_the_api_says_the_same_and_adds_no_player(table, client_for):
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    doc = _backup([_play("p-future", 10, tomorrow, [(1, "41"), (2, "28"), (3, "35")])])
    before = Player.objects.filter(group=table.group).count()

    response = client_for(table.owner).post(
        f"/api/v1/groups/{table.group.pk}/import/bgstats", {"document": doc}, format="json"
    )

    assert response.status_code == 200, response.json()
    assert (response.json()["imported"], response.json()["new_players"]) == (0, [])
    assert Player.objects.filter(group=table.group).count() == before


# --- If-Match ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("header", ["", "   "])
def test_an_empty_if_match_on_a_rescore_is_refused_and_nothing_is_rescored(table, client_for, njet_match, header):
    """The issue's case: an empty If-Match on a rescore was taken as no header and the rescore applied."""
    record(njet_match, table.member, n=2)
    Match.objects.filter(pk=njet_match.pk).update(version=7)
    from scoring.models import Round

    Round.objects.filter(match=njet_match).update(ruleset_version="0")  # a rescore would change every round

    response = client_for(table.owner).post(f"/api/v1/matches/{njet_match.pk}/rescore", HTTP_IF_MATCH=header)

    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["version"]
    assert Match.objects.get(pk=njet_match.pk).version == 7
    assert set(Round.objects.filter(match=njet_match).values_list("ruleset_version", flat=True)) == {"0"}


@pytest.mark.parametrize("header", ["*", '"3", "4"', "three", 'W/""'])
def test_a_malformed_if_match_is_refused(table, client_for, njet_match, header):
    record(njet_match, table.member, n=1)
    response = client_for(table.owner).post(f"/api/v1/matches/{njet_match.pk}/finish", HTTP_IF_MATCH=header)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["version"]
    assert Match.objects.get(pk=njet_match.pk).state == Match.State.OPEN


def test_without_if_match_a_rescore_still_runs(table, client_for, njet_match):
    """No header at all stays allowed on a rescore (its If-Match is optional): only an empty one is refused."""
    record(njet_match, table.member, n=1)
    from scoring.models import Round

    Round.objects.filter(match=njet_match).update(ruleset_version="0")
    response = client_for(table.owner).post(f"/api/v1/matches/{njet_match.pk}/rescore")
    assert response.status_code == 200, response.json()
    assert set(Round.objects.filter(match=njet_match).values_list("ruleset_version", flat=True)) != {"0"}
