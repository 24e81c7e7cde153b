"""BG Stats import and export: a realistic backup (two of our games, one other, an ignored play, a blank score)
becomes totals-only matches with the players reviewed; importing it again adds nothing; our export imported
into a fresh group gives the same matches; the API answers with the summary, and 404 outside the group."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from scoring import services
from scoring.models import BgStatsPlay, Group, Match, Membership, Player, Score
from scoring.transfer import bgstats_export, bgstats_import
from tests.factories import GroupFactory, MembershipFactory, PlayerFactory
from tests.scoring.helpers import record
from tests.scoring.transfer.bgstats_sample import sample_backup, when

pytestmark = pytest.mark.django_db


@pytest.fixture
def flora(table: Any) -> Player:
    return PlayerFactory(group=table.group, name="Flóra")


def _matches(group: Group) -> list[tuple[Any, ...]]:
    out = []
    for m in Match.objects.filter(group=group).order_by("created_at", "pk"):
        names = [s.player.name for s in m.seats.select_related("player").order_by("number")]
        out.append((m.ruleset, timezone.localtime(m.created_at).strftime("%Y-%m-%d %H:%M"), names, m.totals, m.winners))
    return out


def test_the_review_proposes_group_players_by_name_and_counts_what_is_left_out(table: Any, flora: Player) -> None:
    plan = bgstats_import.bgstats_plan(group=table.group, data=sample_backup(), user=table.owner)

    anna, bence = table.players[0], table.players[1]
    assert [(p.name, p.proposed, p.plays) for p in plan.players] == [
        ("Anna", anna, 2),
        ("bence", bence, 2),
        ("FLORA", flora, 1),
        ("Zsófi", None, 1),
    ]
    assert (plan.ours, plan.other_games, plan.already, len(plan.plays)) == (6, 1, 0, 2)
    reasons = dict(plan.skipped)
    assert reasons[f"Meinz, {when(9, '19:00')}"] == "marked as ignored in BG Stats"
    assert reasons[f"Coloretto, {when(10, '19:30')}"] == "Anna has no score"
    assert reasons[f"Coloretto, {when(11, '19:30')}"] == "Anna's score is not a whole number: 12.5"
    assert reasons[f"Meinz, {when(12, '19:30')}"] == "Meinz is played by 3 to 4 players, not 2"
    assert not Match.objects.filter(group=table.group).exists()  # nothing written by the review


def test_import_with_the_reviewed_mapping_writes_totals_only_matches_and_again_nothing(
    table: Any, flora: Player
) -> None:
    anna, bence = table.players[0], table.players[1]
    summary = bgstats_import.bgstats_import(
        group=table.group, data=sample_backup(), players={2: bence.pk, 4: "new"}, user=table.owner
    )

    assert summary["imported"] == 2
    assert summary["new_players"] == ["Zsófi"]
    assert (summary["plays"], summary["other_games"], summary["already_imported"]) == (6, 1, 0)
    assert len(summary["skipped"]) == 4
    zsofi = Player.objects.get(group=table.group, name="Zsófi")
    assert _matches(table.group) == [
        ("meinz", when(0, "20:15"), ["Bence", "Anna", "Flóra"], [28, 41, 35], [1]),
        ("coloretto", when(7, "21:00"), ["Anna", "Zsófi", "Bence"], [31, 35, 20], [1]),
    ]
    assert all(m.totals_only for m in Match.objects.filter(group=table.group))
    assert zsofi.pk and anna.pk

    again = bgstats_import.bgstats_import(group=table.group, data=sample_backup(), user=table.owner)

    assert (again["imported"], again["already_imported"], again["new_players"]) == (0, 2, [])
    assert Match.objects.filter(group=table.group).count() == 2
    assert Player.objects.filter(group=table.group, name="Zsófi").count() == 1


def test_a_skipped_player_leaves_out_their_plays_and_is_not_added(table: Any, flora: Player) -> None:
    summary = bgstats_import.bgstats_import(
        group=table.group, data=sample_backup(), players={4: "skip"}, user=table.owner
    )

    assert summary["imported"] == 1
    assert {"play": f"Coloretto, {when(7, '21:00')}", "reason": "Zsófi's plays are skipped"} in summary["skipped"]
    assert not Player.objects.filter(group=table.group, name="Zsófi").exists()


def test_only_an_owner_imports(table: Any) -> None:
    with pytest.raises(services.NotAllowed):
        bgstats_import.bgstats_import(group=table.group, data=sample_backup(), user=table.member)
    assert not BgStatsPlay.objects.exists()


def test_our_export_imports_into_a_fresh_group_as_the_same_matches_and_back_home_as_nothing(
    table: Any, flora: Player
) -> None:
    bgstats_import.bgstats_import(group=table.group, data=sample_backup(), players={4: "new"}, user=table.owner)
    played = services.match_create(
        group=table.group, ruleset="njet", options={}, player_ids=[p.pk for p in table.players], user=table.owner
    )
    record(played, table.owner, n=2)
    played.refresh_from_db()
    services.match_finish(match=played, expected_version=played.version, user=table.owner)
    services.match_create(  # an open match is not a play yet
        group=table.group, ruleset="meinz", options={}, player_ids=[p.pk for p in table.players[:3]], user=table.owner
    )
    document = bgstats_export.bgstats_export(group=table.group)

    assert [g["name"] for g in document["games"]] == ["NJET", "Meinz", "Coloretto"]
    assert next(g for g in document["games"] if g["name"] == "Coloretto")["bggId"] == 5782
    assert len(document["plays"]) == 3
    assert {p["uuid"] for p in document["plays"]} >= {"play-meinz-1", "play-col-1"}
    fresh = GroupFactory(name="Fresh")
    MembershipFactory(group=fresh, user=table.owner, role=Membership.Role.OWNER)

    summary = bgstats_import.bgstats_import(group=fresh, data=document, user=table.owner)

    assert (summary["imported"], summary["skipped"], len(summary["new_players"])) == (3, [], 7)
    played.refresh_from_db()
    njet_totals = [
        sum(Score.objects.filter(match=played, seat=n, round__deleted_at__isnull=True).values_list("points", flat=True))
        for n in range(5)
    ]
    assert njet_totals == [40, 40, 40, 36, 36] and played.winners == []  # finished by hand: the best totals win
    finished = timezone.localtime(played.finished_at).strftime("%Y-%m-%d %H:%M")
    assert _matches(fresh) == [
        ("meinz", when(0, "20:15"), ["Bence", "Anna", "Flóra"], [28, 41, 35], [1]),
        ("coloretto", when(7, "21:00"), ["Anna", "Zsófi", "Bence"], [31, 35, 20], [1]),
        ("njet", finished, [p.name for p in table.players], njet_totals, [0, 1, 2]),
    ]

    back = bgstats_import.bgstats_import(group=table.group, data=document, user=table.owner)

    assert (back["imported"], back["already_imported"]) == (0, 3)


def test_the_api_imports_with_a_mapping_and_exports(table: Any, flora: Player, client_for: Any) -> None:
    owner = client_for(table.owner)
    url = f"/api/v1/groups/{table.group.pk}/import/bgstats"

    answer = owner.post(url, {"document": sample_backup(), "players": {"4": "new", "3": "skip"}}, format="json")

    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert (body["imported"], body["new_players"], body["other_games"]) == (1, ["Zsófi"], 1)
    assert {"play": f"Meinz, {when(0, '20:15')}", "reason": "FLORA's plays are skipped"} in body["skipped"]
    exported = owner.get(f"/api/v1/groups/{table.group.pk}/export/bgstats")
    assert exported.status_code == 200
    assert [p["uuid"] for p in exported.json()["plays"]] == ["play-col-1"]

    wrong = owner.post(url, {"document": sample_backup(), "players": {"4": "maybe"}}, format="json")
    assert wrong.status_code == 400
    assert list(wrong.json()["errors"]) == ["players.4"]
    not_a_backup = owner.post(url, {"document": {"plays": 3}}, format="json")
    assert not_a_backup.status_code == 400
    assert list(not_a_backup.json()["errors"]) == ["document"]


def test_outsiders_get_404_and_members_cannot_import(table: Any, client_for: Any) -> None:
    outsider, member = client_for(table.outsider), client_for(table.member)
    url = f"/api/v1/groups/{table.group.pk}/import/bgstats"

    assert outsider.post(url, {"document": sample_backup()}, format="json").status_code == 404
    assert outsider.get(f"/api/v1/groups/{table.group.pk}/export/bgstats").status_code == 404
    assert member.post(url, {"document": sample_backup()}, format="json").status_code == 403
    assert member.get(f"/api/v1/groups/{table.group.pk}/export/bgstats").status_code == 200
    assert not Match.objects.filter(group=table.group).exists()


def test_the_winners_are_those_bg_stats_marked_else_the_best_totals(table: Any) -> None:
    """A play's winner flags travel with it (a tie broken at the table, say); a play that marks nobody is won on
    the best totals."""
    anna, bence, third = table.players[0], table.players[1], table.players[2]
    backup = {
        "players": [{"id": 1, "name": anna.name}, {"id": 2, "name": bence.name}, {"id": 3, "name": third.name}],
        "games": [{"id": 11, "name": "Coloretto", "bggId": 5782}],
        "plays": [
            {
                "uuid": "tie-broken",
                "gameRefId": 11,
                "playDate": when(1, "20:00:00"),
                "playerScores": [
                    {"playerRefId": 1, "score": "30", "winner": False},
                    {"playerRefId": 2, "score": "30", "winner": True},
                    {"playerRefId": 3, "score": "12", "winner": False},
                ],
            },
            {
                "uuid": "nobody-marked",
                "gameRefId": 11,
                "playDate": when(2, "20:00:00"),
                "playerScores": [
                    {"playerRefId": 1, "score": "25", "winner": False},
                    {"playerRefId": 2, "score": "19", "winner": False},
                    {"playerRefId": 3, "score": "7", "winner": False},
                ],
            },
        ],
    }
    summary = bgstats_import.bgstats_import(group=table.group, data=backup, user=table.owner)

    assert summary["imported"] == 2
    tie, plain = Match.objects.filter(group=table.group).order_by("finished_at")
    assert (tie.totals, tie.winners) == ([30, 30, 12], [1])
    assert (plain.totals, plain.winners) == ([25, 19, 7], [0])


def test_recorded_winners_must_sit_at_the_table(table: Any) -> None:
    with pytest.raises(services.ValidationFailed) as refused:
        services.match_record_totals(
            group=table.group,
            ruleset="coloretto",
            options={},
            player_ids=[p.pk for p in table.players[:3]],
            points=[3, 4, 5],
            played_at=timezone.localdate(),
            user=table.owner,
            winners=[5],
        )
    assert "winners" in refused.value.problems
