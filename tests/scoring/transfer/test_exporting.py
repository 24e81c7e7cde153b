"""CSV and JSON export; JSON import; the lossless round trip."""

from __future__ import annotations

import copy
import json

import pytest

from scoring import services
from scoring.models import Group, Match, Membership, Player, Round, Score
from scoring.transfer import exporting
from tests.scoring.helpers import WS_ROUND_1, WS_ROUND_2, njet_facts, record, streamed, ws_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(table, njet_match):
    """A group with a finished NJET match, an open Was sticht? match, a deleted round and a merged player."""
    record(njet_match, table.member, n=10)
    ws = ws_match(table.group, table.players, table.owner)
    services.round_record(match=ws, facts=WS_ROUND_1, user=table.owner)
    second = services.round_record(match=ws, facts=WS_ROUND_2, user=table.member)
    services.round_delete(round=second, expected_version=1, user=table.member)
    twin = services.player_create(group=table.group, name="Eszter B", user=table.owner)
    services.player_merge(source=twin, target=table.players[4], user=table.owner)
    services.player_link(player=table.players[1], linked_user=table.member, user=table.owner)
    return table


def _without_group_name(doc):
    doc = copy.deepcopy(doc)
    doc["group"].pop("name")
    return doc


def test_the_json_export_has_every_player_match_and_round(played):
    doc = exporting.group_export(group=played.group)

    assert (doc["format"], doc["version"], doc["group"]) == ("scorekeeper-group", 1, {"name": "Thursday table"})
    assert [(p["name"], p["user"]) for p in doc["players"]] == [
        ("Anna", "olga"),
        ("Bence", "mate"),
        ("Csilla", None),
        ("Dani", None),
        ("Eszter", None),
    ]
    njet, ws = doc["matches"]
    assert (njet["ruleset"], njet["state"], njet["finish_reason"], len(njet["rounds"])) == (
        "njet",
        "finished",
        "rules",
        10,
    )
    assert njet["players"] == ["Anna", "Bence", "Csilla", "Dani", "Eszter"]
    assert njet["rounds"][0]["points"] == [20, 20, 20, 18, 18]
    assert njet["rounds"][0]["explanation"][0]["text"]
    assert [r["deleted_at"] is not None for r in ws["rounds"]] == [False, True]


def test_export_then_import_into_a_group_with_the_same_members_is_lossless(played):
    doc = exporting.group_export(group=played.group)
    copy_group = services.group_create(name="Restored", user=played.owner)
    services.membership_add(group=copy_group, user=played.member, by=played.owner)

    exporting.group_import(group=copy_group, data=doc, user=played.owner)

    again = exporting.group_export(group=copy_group)
    assert _without_group_name(again) == _without_group_name(doc)
    assert (
        Score.objects.filter(match__group=copy_group).count() == Score.objects.filter(match__group=played.group).count()
    )
    restored = Match.objects.filter(group=copy_group, ruleset="was-sticht").get()
    assert restored.next_number == 2  # its round 2 is deleted: the next round entered is round 2 again

    # the winners each match records for the statistics are worked out again from the imported rounds
    def recorded(group: Group) -> list[tuple[str, list[int] | None]]:
        matches = Match.objects.filter(group=group).order_by("created_at", "ruleset")
        return list(matches.values_list("ruleset", "winners"))

    assert recorded(copy_group) == recorded(played.group)
    assert all(winners is not None for _ruleset, winners in recorded(copy_group))
    # the copy is a working match: the deleted round can be restored and play goes on
    services.round_undo(round=Round.objects.get(match=restored, number=2), user=played.owner)


def test_import_as_a_new_group_restores_only_the_importers_own_link(played, client_for):
    doc = exporting.group_export(group=played.group)
    response = client_for(played.member).post("/api/v1/groups/import", doc, format="json")
    assert response.status_code == 201, response.json()
    group = Group.objects.get(pk=response.json()["id"])
    assert group.name == "Thursday table"
    assert Membership.objects.get(group=group).user == played.member
    links = dict(Player.objects.filter(group=group).values_list("name", "user__username"))
    assert links == {"Anna": None, "Bence": "mate", "Csilla": None, "Dani": None, "Eszter": None}


def test_the_json_export_endpoint_round_trips_through_the_import_endpoint(played, client_for):
    api = client_for(played.owner)
    exported = api.get(f"/api/v1/groups/{played.group.pk}/export")
    assert exported.status_code == 200
    assert "attachment" in exported["Content-Disposition"]
    target = api.post("/api/v1/groups", {"name": "Copy"}, format="json").json()
    api.post(f"/api/v1/groups/{target['id']}/members", {"username": "mate"}, format="json")  # an invitation
    mate = client_for(played.member)
    mate.post(f"/api/v1/invitations/{mate.get('/api/v1/invitations').json()['results'][0]['id']}/accept")

    document = json.loads(streamed(exported))
    imported = api.post(f"/api/v1/groups/{target['id']}/import", document, format="json")

    assert imported.status_code == 200, imported.json()
    again = json.loads(streamed(api.get(f"/api/v1/groups/{target['id']}/export")))
    assert _without_group_name(again) == _without_group_name(document)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(format="other"), "format"),
        (
            lambda d: d["players"].append({"name": "anna", "user": None, "created_at": d["players"][0]["created_at"]}),
            "players[5].name",
        ),
        (lambda d: d["matches"][0].update(ruleset="poker"), "matches[0].ruleset"),
        (lambda d: d["matches"][0]["players"].__setitem__(0, "Nobody"), "matches[0].players[0]"),
        (lambda d: d["matches"][0]["rounds"][0].update(points=[2**31, 0, 0, 0, 0]), "matches[0].rounds[0].points[0]"),
        (
            lambda d: d["matches"][0]["rounds"][0]["facts"].update(tricks=[0, 0, 0, 0, 0]),
            "matches[0].rounds[0].facts.tricks",
        ),
        (lambda d: d["matches"][0]["options"].update(recording="sideways"), "matches[0].options.recording"),
        (lambda d: d["matches"][0]["rounds"][1].update(number=1), "matches[0].rounds[1].number"),
        (lambda d: d["matches"][1].update(created_at="yesterday"), "matches[1].created_at"),
    ],
)
def test_a_broken_import_is_refused_with_the_field_and_changes_nothing(played, change, field):
    doc = exporting.group_export(group=played.group)
    change(doc)
    target = services.group_create(name="Target", user=played.owner)

    with pytest.raises(services.ValidationFailed) as caught:
        exporting.group_import(group=target, data=doc, user=played.owner)

    assert any(key.startswith(field) for key in caught.value.problems), caught.value.problems
    assert not Player.objects.filter(group=target).exists()
    assert not Match.objects.filter(group=target).exists()


@pytest.mark.parametrize("body", [[], "text", {"format": "scorekeeper-group"}, {"group": 5}, {"\u0000": 1}])
def test_import_of_any_shape_is_a_400(played, client_for, body):
    response = client_for(played.owner).post("/api/v1/groups/import", body, format="json")
    assert response.status_code == 400, response.content


def test_csv_tables(played, client_for):
    api = client_for(played.member)
    base = f"/api/v1/groups/{played.group.pk}/export"

    players = list(exporting.rows(streamed(api.get(f"{base}/players.csv")).decode()))
    matches = list(exporting.rows(streamed(api.get(f"{base}/matches.csv")).decode()))
    rounds_response = api.get(f"{base}/rounds.csv")
    rounds = list(exporting.rows(streamed(rounds_response).decode()))

    assert rounds_response["Content-Type"].startswith("text/csv")
    assert players[0] == ["player_id", "name", "user", "guest", "created_at"]
    assert [row[1] for row in players[1:]] == ["Anna", "Bence", "Csilla", "Dani", "Eszter"]
    assert [row[1:3] for row in matches[1:]] == [["njet", "finished"], ["was-sticht", "open"]]
    assert rounds[0][:6] == ["match_id", "ruleset", "round", "seat", "player", "points"]
    assert len(rounds) == 1 + 10 * 5 + 2 * 4
    assert rounds[1][2:6] == ["1", "0", "Anna", "20"]
    assert api.get(f"{base}/nothing.csv").status_code == 404


def test_csv_cells_that_look_like_formulas_are_defused(table, client_for):
    services.player_create(group=table.group, name="=HYPERLINK(1)", user=table.owner)
    text = streamed(client_for(table.owner).get(f"/api/v1/groups/{table.group.pk}/export/players.csv")).decode()
    assert "'=HYPERLINK(1)" in text


def test_export_matches_the_stored_data_of_a_fresh_round(table, njet_match):
    services.round_record(match=njet_match, facts=njet_facts(), user=table.owner)
    doc = exporting.group_export(group=table.group)
    assert doc["matches"][0]["rounds"][0]["facts"] == Round.objects.get().facts
