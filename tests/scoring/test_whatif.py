"""What-if rescoring (issue 34, part 3): the preview of a change of options or of a rescore with the current
rules equals what applying stores, and writes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from analytics.models import StatsDirty
from scoring import selectors, services
from scoring.models import Match, Round, RoundEvent, Score
from tests.scoring.helpers import example, njet_facts

pytestmark = pytest.mark.django_db

# Five NJET rounds with different teams, tricks and booty: the start player's team is not always ahead.
NJET_ROUNDS = [
    njet_facts(),
    njet_facts(start_player=1, teams=[1, 0, 0, 0, 1], monster=0, tricks=[2, 3, 3, 2, 2], booty=[0, 2, 0, 1, 1]),
    njet_facts(start_player=2, teams=[0, 1, 0, 1, 0], monster=1, tricks=[1, 4, 2, 4, 1], booty=[0, 3, 0, 1, 0]),
    njet_facts(start_player=3, teams=[1, 1, 0, 0, 0], monster=0, points_per_trick=3, booty=[0, 0, 2, 1, 1]),
    njet_facts(start_player=4, teams=[0, 1, 1, 1, 0], monster=4, points_per_trick=1, booty=[2, 0, 0, 0, 2]),
]


def _play(match: Match, user: Any, rounds: list[dict[str, Any]]) -> Match:
    for facts in rounds:
        services.round_record(match=match, facts=facts, user=user)
    return Match.objects.get(pk=match.pk)


def _stored(match: Match) -> dict[str, Any]:
    """Everything a preview must leave alone."""
    fresh = Match.objects.get(pk=match.pk)
    return {
        "match": (fresh.version, fresh.options, fresh.state, fresh.finish_reason, fresh.winners, fresh.next_number),
        "rounds": list(
            Round.objects.filter(match=match)
            .order_by("number")
            .values_list("number", "version", "points", "explanation", "ruleset_version")
        ),
        "scores": sorted(Score.objects.filter(match=match).values_list("round_id", "player_id", "points")),
        "events": RoundEvent.objects.filter(match=match).count(),
        "dirty": list(StatsDirty.objects.values_list("pk", flat=True)),
    }


def _winner_names(match: Match) -> list[str]:
    return [w["name"] for w in selectors.match_scoreboard(match=Match.objects.get(pk=match.pk))["winners"]]


def test_the_preview_of_difference_recording_is_what_applying_stores(
    table, njet_match, django_capture_on_commit_callbacks
):
    match = _play(njet_match, table.member, NJET_ROUNDS)
    before = _stored(match)
    StatsDirty.objects.all().delete()  # the rounds' own marks: the preview must not add one

    with django_capture_on_commit_callbacks() as callbacks:
        preview = services.match_options_preview(match=match, options={"recording": "difference"}, user=table.member)
    assert callbacks == []  # no stats refresh, no live push for a preview
    assert StatsDirty.objects.count() == 0
    assert {**_stored(match), "dirty": before["dirty"]} == before

    assert preview.version == match.version
    assert preview.players == ["Anna", "Bence", "Csilla", "Dani", "Eszter"]
    assert preview.options_before == {"recording": "full", "tie_rule": "english"}
    assert preview.options_after == {"recording": "difference", "tie_rule": "english"}
    assert [r.number for r in preview.rounds] == [1, 2, 3, 4, 5]
    assert [r.points_before for r in preview.rounds] == [rnd.points for rnd in Round.objects.order_by("number")]
    # the first round by hand: team 0 (Anna, Bence, Csilla) 20 points, team 1 18, so 2 for team 0 and 0 for team 1
    assert preview.rounds[0].points_after == [2, 2, 2, 0, 0]
    assert all(r.changed for r in preview.rounds)
    assert preview.changed_rounds == 5
    assert preview.totals_before == [sum(col) for col in zip(*(r.points_before for r in preview.rounds), strict=True)]
    assert preview.state_before == preview.state_after == "open"  # 5 of 10 rounds played
    assert preview.winners_before == preview.winners_after == []

    applied = services.match_options_change(
        match=match, options={"recording": "difference"}, expected_version=preview.version, user=table.member
    )
    assert [list(p) for p in Round.objects.order_by("number").values_list("points", flat=True)] == [
        r.points_after for r in preview.rounds
    ]
    assert selectors.match_scoreboard(match=applied)["totals"] == preview.totals_after
    assert applied.state == preview.state_after
    assert RoundEvent.objects.filter(match=match, action="options", actor=table.member).count() == 1
    assert StatsDirty.objects.filter(match_id=match.pk).exists()  # the statistics follow the applied change


def test_a_finished_match_previews_its_new_winners_exactly(table, njet_match):
    rounds = NJET_ROUNDS * 2  # ten rounds: the match is over and has winners
    match = _play(njet_match, table.member, rounds)
    assert match.state == "finished"
    winners_full = _winner_names(match)
    preview = services.match_options_preview(match=match, options={"recording": "difference"}, user=table.member)
    assert preview.winners_before == winners_full
    assert preview.finished_before and preview.finished_after

    services.match_options_change(
        match=match, options={"recording": "difference"}, expected_version=preview.version, user=table.member
    )
    assert _winner_names(match) == preview.winners_after
    stored = Round.objects.filter(match=match).order_by("number")
    assert [list(r.points) for r in stored] == [r.points_after for r in preview.rounds]
    # and back: the preview of full recording gives the points the match started with
    back = services.match_options_preview(match=match, options={"recording": "full"}, user=table.member)
    assert [r.points_after for r in back.rounds] == [r.points_before for r in preview.rounds]
    assert back.winners_after == winners_full


def test_options_that_break_a_round_are_refused_naming_it_and_nothing_is_written(table):
    ids = [p.pk for p in table.players[:3]]
    match = services.match_create(
        group=table.group, ruleset="abluxxen", options={"games": 2}, player_ids=ids, user=table.member
    )
    match = _play(match, table.member, [example("abluxxen")["facts"]] * 2)
    before = _stored(match)
    with pytest.raises(services.ValidationFailed) as caught:
        services.match_options_preview(match=match, options={"games": 1}, user=table.member)
    assert list(caught.value.problems) == ["rounds.2"]
    assert "1 game" in caught.value.problems["rounds.2"][0]
    assert _stored(match) == before


def test_a_rescore_preview_after_a_rules_fix_equals_the_rescore(table, njet_match, django_capture_on_commit_callbacks):
    match = _play(njet_match, table.member, NJET_ROUNDS[:3])
    right = [list(p) for p in Round.objects.order_by("number").values_list("points", flat=True)]
    # round 2 as an older version of the rules scored it
    Round.objects.filter(match=match, number=2).update(ruleset_version="0", points=[9, 9, 9, 9, 9])
    before = _stored(match)
    with django_capture_on_commit_callbacks() as callbacks:
        preview = services.match_rescore_preview(match=match, user=table.member)
    assert callbacks == []
    assert _stored(match) == before
    assert preview.needs_rescore
    assert [r.changed for r in preview.rounds] == [False, True, False]
    assert preview.rounds[1].points_before == [9, 9, 9, 9, 9]
    assert [r.points_after for r in preview.rounds] == right

    with pytest.raises(services.StaleVersion):
        services.match_rescore(match=match, user=table.member, expected_version=preview.version - 1)
    services.match_rescore(match=match, user=table.member, expected_version=preview.version)
    assert [list(p) for p in Round.objects.order_by("number").values_list("points", flat=True)] == right
    assert selectors.match_scoreboard(match=Match.objects.get(pk=match.pk))["totals"] == preview.totals_after


def test_only_members_may_preview(table, njet_match):
    with pytest.raises(services.NotAllowed):
        services.match_options_preview(match=njet_match, options={}, user=table.outsider)
    with pytest.raises(services.NotAllowed):
        services.match_rescore_preview(match=njet_match, user=table.outsider)


# --- the API ------------------------------------------------------------------------------------------------


def test_api_options_preview_then_apply(table, njet_match, client_for):
    match = _play(njet_match, table.member, NJET_ROUNDS[:2])
    client = client_for(table.member)
    url = f"/api/v1/matches/{match.pk}/options/preview"
    answer = client.post(url, {"options": {"recording": "difference", "tie_rule": "english"}}, format="json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["match"] == match.pk and body["version"] == match.version
    assert body["rounds"][0] == {
        "number": 1,
        "points_before": [20, 20, 20, 18, 18],
        "points_after": [2, 2, 2, 0, 0],
        "changed": True,
    }
    assert Match.objects.get(pk=match.pk).options["recording"] == "full"

    applied = client.patch(
        f"/api/v1/matches/{match.pk}",
        {"options": {"recording": "difference", "tie_rule": "english"}},
        format="json",
        HTTP_IF_MATCH=f'"{body["version"]}"',
    )
    assert applied.status_code == 200, applied.content
    assert [list(p) for p in Round.objects.order_by("number").values_list("points", flat=True)] == [
        r["points_after"] for r in body["rounds"]
    ]
    board = client.get(f"/api/v1/matches/{match.pk}/scoreboard").json()
    assert board["totals"] == body["totals_after"]


def test_api_preview_errors_and_access(table, njet_match, client_for):
    record_one = _play(njet_match, table.member, NJET_ROUNDS[:1])
    url = f"/api/v1/matches/{record_one.pk}/options/preview"
    wrong = client_for(table.member).post(url, {"options": {"recording": "sideways"}}, format="json")
    assert wrong.status_code == 400
    assert "options.recording" in wrong.json()["errors"]
    missing = client_for(table.member).post(url, {}, format="json")
    assert missing.status_code == 400 and "options" in missing.json()["errors"]
    for path in (url, f"/api/v1/matches/{record_one.pk}/rescore/preview"):
        outsider = client_for(table.outsider).post(path, {"options": {}}, format="json")
        assert outsider.status_code == 404
        assert outsider.json()["detail"]
        assert client_for(None).post(path, {"options": {}}, format="json").status_code == 401
    rescore = client_for(table.member).post(f"/api/v1/matches/{record_one.pk}/rescore/preview", format="json")
    assert rescore.status_code == 200
    assert rescore.json()["changed"] is False
    stale = client_for(table.member).post(
        f"/api/v1/matches/{record_one.pk}/rescore", format="json", HTTP_IF_MATCH='"1"'
    )
    assert stale.status_code == 409 and stale.json()["current"]["version"] == record_one.version
