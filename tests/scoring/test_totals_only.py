"""Totals-only matches: recorded from their final scores alone, finished at once, refused rounds, exported and
imported back, counted by the standings and ratings but not by the per-round statistics."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.utils import timezone

from analytics import services as analytics_services
from analytics.models import MatchStanding, RatingHistory
from scoring import services
from scoring.models import Match, Round, Score
from scoring.transfer import exporting
from tests.scoring.helpers import record

pytestmark = pytest.mark.django_db

LAST_WEEK = timezone.localdate() - dt.timedelta(days=7)


def _meinz(table, points=(41, 28, 35), *, players=None, played_at=LAST_WEEK):
    seated = players or table.players[:3]
    return services.match_record_totals(
        group=table.group,
        ruleset="meinz",
        options={},
        player_ids=[p.pk for p in seated],
        points=list(points),
        played_at=played_at,
        user=table.member,
    )


def test_a_totals_only_match_is_finished_on_the_day_played_with_the_best_total_winning(table):
    match = _meinz(table)

    match.refresh_from_db()
    assert (match.totals_only, match.totals, match.state) == (True, [41, 28, 35], Match.State.FINISHED)
    assert match.winners == [0]
    assert timezone.localtime(match.finished_at).date() == LAST_WEEK
    assert timezone.localtime(match.created_at).date() == LAST_WEEK
    assert not Round.objects.filter(match=match).exists()
    assert not Score.objects.filter(match=match).exists()


def test_rounds_are_refused_with_409_and_it_cannot_be_reopened(table, client_for):
    match = _meinz(table)
    client = client_for(table.member)

    answer = client.post(f"/api/v1/matches/{match.pk}/rounds", {"facts": {}}, format="json")

    assert answer.status_code == 409
    assert "final scores only" in answer.json()["detail"]
    assert not Round.objects.filter(match=match).exists()
    with pytest.raises(services.Conflict, match="final scores only"):
        services.match_reopen(match=match, expected_version=match.version, user=table.owner)
    with pytest.raises(services.Conflict, match="final scores only"):
        services.match_options_change(match=match, options={}, expected_version=match.version, user=table.owner)


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"points": [41, "x", 35]}, "points.1", "Bence"),
        ({"points": [41, 28, 10**6]}, "points.2", "Csilla"),
        ({"points": [41, 28]}, "points", "each player"),
        ({"played_at": timezone.localdate() + dt.timedelta(days=1)}, "played_at", "future"),
        ({"ruleset": "nonsense"}, "ruleset", ""),
        ({"options": {"no_such_option": 1}}, "options.no_such_option", ""),
    ],
)
def test_bad_input_is_refused_naming_the_player_and_field(table, changes, field, words):
    args = {
        "group": table.group,
        "ruleset": "meinz",
        "options": {},
        "player_ids": [p.pk for p in table.players[:3]],
        "points": [41, 28, 35],
        "played_at": LAST_WEEK,
        "user": table.member,
    }
    args.update(changes)

    with pytest.raises(services.ValidationFailed) as caught:
        services.match_record_totals(**args)

    assert field in caught.value.problems
    assert words in " ".join(caught.value.problems[field])
    assert not Match.objects.filter(totals_only=True).exists()


def test_players_outside_the_group_too_many_players_and_outsiders_are_refused(table):
    other = services.group_create(name="Other", user=table.outsider, player_name="Xavi")
    stranger = other.players.get()
    with pytest.raises(services.ValidationFailed) as caught:
        _meinz(table, players=[*table.players[:2], stranger])
    assert str(stranger.pk) in caught.value.problems["players"][0]
    with pytest.raises(services.ValidationFailed) as caught:  # Coloretto: 3 to 5 players
        services.match_record_totals(
            group=table.group,
            ruleset="coloretto",
            options={},
            player_ids=[table.players[0].pk],
            points=[3],
            played_at=LAST_WEEK,
            user=table.member,
        )
    assert "players" in caught.value.problems
    with pytest.raises(services.NotAllowed):
        services.match_record_totals(
            group=table.group,
            ruleset="meinz",
            options={},
            player_ids=[p.pk for p in table.players[:3]],
            points=[1, 2, 3],
            played_at=LAST_WEEK,
            user=table.outsider,
        )


def test_partners_must_share_their_final_score(table):
    with pytest.raises(services.ValidationFailed) as caught:
        services.match_record_totals(
            group=table.group,
            ruleset="muzicando",
            options={"mode": "team"},  # north-south (Anna, Csilla) against east-west
            player_ids=[p.pk for p in table.players[:4]],
            points=[40, 30, 41, 30],
            played_at=LAST_WEEK,
            user=table.member,
        )
    assert "Csilla" in caught.value.problems["points.2"][0] and "Anna" in caught.value.problems["points.2"][0]


def test_the_api_records_it_and_marks_it_in_the_match_list_and_scoreboard(table, client_for):
    client = client_for(table.member)
    body = {
        "ruleset": "meinz",
        "players": [p.pk for p in table.players[:3]],
        "points": [20, 33, 33],
        "played_at": LAST_WEEK.isoformat(),
    }

    answer = client.post(f"/api/v1/groups/{table.group.pk}/matches/totals", body, format="json")

    assert answer.status_code == 201, answer.json()
    made = answer.json()
    assert (made["totals_only"], made["totals"], made["state"], made["rounds_played"]) == (
        True,
        [20, 33, 33],
        "finished",
        0,
    )
    listed = client.get(f"/api/v1/groups/{table.group.pk}/matches").json()["results"]
    assert [(m["id"], m["totals_only"]) for m in listed] == [(made["id"], True)]
    board = client.get(f"/api/v1/matches/{made['id']}/scoreboard").json()
    assert board["totals_only"] is True and board["rounds"] == []
    assert board["totals"] == [20, 33, 33]
    assert [w["name"] for w in board["winners"]] == ["Bence", "Csilla"]  # a tie on the best total: both win

    refused = client.post(f"/api/v1/groups/{table.group.pk}/matches/totals", {**body, "points": [1, 2]}, format="json")
    assert refused.status_code == 400
    assert "points" in refused.json()["errors"]


def test_standings_and_ratings_count_it_and_per_round_figures_do_not(table, njet_match):
    record(njet_match, table.member, n=10)  # a real match with rounds: finished by the rules
    njet_match.refresh_from_db()
    assert njet_match.state == Match.State.FINISHED
    paper = _meinz(table, points=(12, 50, 31))

    analytics_services.stats_group_refresh(group_id=table.group.pk)

    rows = {
        r.player.name: (r.total, r.rank, r.won, r.rounds)
        for r in MatchStanding.objects.filter(match=paper).select_related("player")
    }
    assert rows == {"Anna": (12, 3, False, 0), "Bence": (50, 1, True, 0), "Csilla": (31, 2, False, 0)}
    rated = RatingHistory.objects.filter(match=paper)
    assert {r.player.name for r in rated} == {"Anna", "Bence", "Csilla"}
    bence = rated.get(player__name="Bence")
    anna = rated.get(player__name="Anna")
    assert bence.mu > 25 > anna.mu  # the winner went up, the last went down

    # the player's statistics: both matches count, the rounds are only the NJET match's
    from analytics.sql import queries
    from analytics.stats import StatsFilter, player_line

    found = {(r["player_id"], r["ruleset"]): r for r in queries.player_games(table.group.pk, StatsFilter())}
    line = player_line(found[(table.players[1].pk, "meinz")])
    assert (line["matches"], line["wins"], line["rounds"], line["points_per_round"]) == (1, 1, 0, None)


def test_export_then_import_gives_the_same_totals_only_match(table):
    _meinz(table, points=(41, 28, 35))
    doc = exporting.group_export(group=table.group)
    [exported] = doc["matches"]
    assert (exported["totals_only"], exported["totals"], exported["rounds"]) == (True, [41, 28, 35], [])

    copy_group = services.group_create(name="Restored", user=table.owner)
    exporting.group_import(group=copy_group, data=doc, user=table.owner)

    restored = Match.objects.get(group=copy_group)
    assert (restored.totals_only, restored.totals, restored.winners, restored.state) == (
        True,
        [41, 28, 35],
        [0],
        Match.State.FINISHED,
    )
    assert [s.player.name for s in restored.seats.order_by("number")] == ["Anna", "Bence", "Csilla"]
    again = exporting.group_export(group=copy_group)
    assert again["matches"] == doc["matches"]


def test_an_import_with_rounds_in_a_totals_only_match_is_refused(table):
    _meinz(table)
    doc = exporting.group_export(group=table.group)
    doc["matches"][0]["totals"] = [41, "lots", 35]
    copy_group = services.group_create(name="Restored", user=table.owner)

    with pytest.raises(services.ValidationFailed) as caught:
        exporting.group_import(group=copy_group, data=doc, user=table.owner)

    assert "matches[0].totals[1]" in caught.value.problems
    assert not Match.objects.filter(group=copy_group).exists()


def test_the_csv_marks_it(table):
    match = _meinz(table)
    text = exporting.group_export_csv(group=table.group, table="matches")
    [row] = list(csv.DictReader(io.StringIO(text)))
    assert (row["match_id"], row["rounds"], row["totals_only"], row["totals"]) == (
        str(match.pk),
        "0",
        "1",
        "41 | 28 | 35",
    )
