"""The match and round endpoints: recording, versions, undo, the scoreboard and the history."""

from __future__ import annotations

from random import Random

import pytest

from analytics import synthetic
from scoring import rules, services
from scoring.models import Round
from tests.scoring.helpers import WS_ROUND_1, WS_ROUND_2, example, njet_facts, ws_match

pytestmark = pytest.mark.django_db


def _rounds_url(match) -> str:
    return f"/api/v1/matches/{match.pk}/rounds"


def test_start_a_match_and_record_a_round(table, client_for):
    api = client_for(table.member)
    ids = [p.pk for p in table.players]

    created = api.post(f"/api/v1/groups/{table.group.pk}/matches", {"ruleset": "njet", "players": ids}, format="json")
    assert created.status_code == 201, created.json()
    match = created.json()
    assert match["options"] == {"recording": "full", "tie_rule": "english"}
    assert [s["name"] for s in match["seats"]] == ["Anna", "Bence", "Csilla", "Dani", "Eszter"]
    assert (match["state"], match["version"], match["rounds_played"]) == ("open", 1, 0)

    response = api.post(f"/api/v1/matches/{match['id']}/rounds", {"facts": njet_facts()}, format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["number"], body["version"], body["points"]) == (1, 1, [20, 20, 20, 18, 18])
    assert body["entered_by"] == "mate"
    assert body["match_state"] == {"id": match["id"], "version": 2, "state": "open"}
    assert response["ETag"] == '"1"'
    njet = rules.get("njet")
    expected = njet.score(njet_facts(), players=5)
    assert [line["msg"] for line in body["explanation"]] == [line.msg for line in expected.lines]
    first_named = next(line for line in body["explanation"] if line["player"] is not None)
    assert first_named["player_name"] == match["seats"][first_named["player"]]["name"]
    assert all(line["text"] for line in body["explanation"])


def test_an_impossible_round_gets_400_with_the_rules_field_messages(table, client_for, njet_match):
    response = client_for(table.member).post(
        _rounds_url(njet_match), {"facts": njet_facts(tricks=[0, 0, 0, 0, 0])}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert any(field.startswith("facts.tricks") for field in body["errors"]), body
    assert body["problems"][0]["rule"].startswith("njet")
    assert not Round.objects.exists()


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"facts": None},
        {"facts": []},
        {"facts": "round"},
        {"facts": {"tricks": "many"}},
        {"facts": {**njet_facts(), "tricks": [1e308, -1, None, "x", {}]}},
        {"facts": {**njet_facts(), "start_player": 10**30}},
        {"facts": {**njet_facts(), "discard": "\u0000"}},
        [1, 2, 3],
    ],
)
def test_bad_input_of_any_shape_is_a_400_never_a_500(table, client_for, njet_match, payload):
    response = client_for(table.member).post(_rounds_url(njet_match), payload, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"]


def test_malformed_json_is_a_400(table, client_for, njet_match):
    response = client_for(table.member).post(_rounds_url(njet_match), "{facts: ", content_type="application/json")
    assert response.status_code == 400


def test_edit_with_the_current_version_then_a_stale_one_gets_409_with_the_current_round(table, client_for, njet_match):
    api = client_for(table.member)
    api.post(_rounds_url(njet_match), {"facts": njet_facts()}, format="json")
    url = f"{_rounds_url(njet_match)}/1"

    edited = api.patch(url, {"facts": njet_facts(points_per_trick=3), "version": 1}, format="json")
    assert edited.status_code == 200, edited.json()
    assert (edited.json()["version"], edited.json()["points"]) == (2, [30, 30, 30, 27, 27])

    stale = client_for(table.owner).patch(
        url, {"facts": njet_facts(points_per_trick=4)}, format="json", HTTP_IF_MATCH='"1"'
    )
    assert stale.status_code == 409
    current = stale.json()["current"]
    assert (current["version"], current["points"], current["facts"]["points_per_trick"]) == (2, [30, 30, 30, 27, 27], 3)
    assert Round.objects.get().facts["points_per_trick"] == 3


def test_an_edit_without_a_version_is_a_400(table, client_for, njet_match):
    api = client_for(table.member)
    api.post(_rounds_url(njet_match), {"facts": njet_facts()}, format="json")
    response = api.patch(f"{_rounds_url(njet_match)}/1", {"facts": njet_facts(points_per_trick=3)}, format="json")
    assert response.status_code == 400
    assert "version" in response.json()["errors"]


def test_delete_then_undo_a_round(table, client_for, njet_match):
    api = client_for(table.member)
    for _ in range(2):
        api.post(_rounds_url(njet_match), {"facts": njet_facts()}, format="json")

    deleted = api.delete(f"{_rounds_url(njet_match)}/1?version=1")
    assert deleted.status_code == 200
    assert deleted.json()["deleted"] is True
    listed = api.get(_rounds_url(njet_match)).json()
    assert [r["number"] for r in listed["results"]] == [2]
    with_deleted = api.get(f"{_rounds_url(njet_match)}?include_deleted=1").json()
    assert [r["number"] for r in with_deleted["results"]] == [1, 2]
    assert api.get(f"/api/v1/matches/{njet_match.pk}/scoreboard").json()["totals"] == [20, 20, 20, 18, 18]

    restored = api.post(f"{_rounds_url(njet_match)}/1/undo", {"version": 2}, format="json")
    assert restored.status_code == 200, restored.json()
    assert (restored.json()["deleted"], restored.json()["version"]) == (False, 3)
    assert api.get(f"/api/v1/matches/{njet_match.pk}/scoreboard").json()["totals"] == [40, 40, 40, 36, 36]

    # the match's undo button reverts the newest change not yet undone: entering round 2
    version = api.get(f"/api/v1/matches/{njet_match.pk}").json()["version"]
    oops = api.post(f"/api/v1/matches/{njet_match.pk}/undo", {}, format="json", HTTP_IF_MATCH=f'"{version}"')
    assert oops.status_code == 200
    assert (oops.json()["number"], oops.json()["deleted"]) == (2, True)


def test_an_undo_without_a_version_is_a_400_and_undoes_nothing(table, client_for, njet_match):
    """A double tap of an undo that names no version would undo two changes: the API asks for the version."""
    api = client_for(table.member)
    for _ in range(2):
        api.post(_rounds_url(njet_match), {"facts": njet_facts()}, format="json")
    version = api.get(f"/api/v1/matches/{njet_match.pk}").json()["version"]

    for url in (f"/api/v1/matches/{njet_match.pk}/undo", f"{_rounds_url(njet_match)}/2/undo"):
        for _ in range(2):
            response = api.post(url, {}, format="json")
            assert response.status_code == 400, response.json()
            assert "version" in response.json()["errors"]

    listed = api.get(_rounds_url(njet_match)).json()
    assert [r["number"] for r in listed["results"]] == [1, 2]
    assert api.get(f"/api/v1/matches/{njet_match.pk}").json()["version"] == version


def test_the_scoreboard_has_rounds_running_totals_next_dealer_rounds_left_and_winners(table, client_for, njet_match):
    api = client_for(table.member)
    for _ in range(3):
        api.post(_rounds_url(njet_match), {"facts": njet_facts()}, format="json")

    board = api.get(f"/api/v1/matches/{njet_match.pk}/scoreboard").json()

    njet = rules.get("njet")
    state = njet.state([njet_facts()] * 3, players=5)
    assert [r["totals"] for r in board["rounds"]] == [[20, 20, 20, 18, 18], [40, 40, 40, 36, 36], [60, 60, 60, 54, 54]]
    assert board["totals"] == [60, 60, 60, 54, 54] == list(state.totals)
    assert board["rounds_left"] == state.rounds_left == 7
    assert board["next_dealer"] == {
        "seat": state.next_dealer,
        "id": table.players[state.next_dealer].pk,
        "name": table.players[state.next_dealer].name,
    }
    assert (board["finished"], board["winners"], board["needs_rescore"]) == (False, [], False)
    assert board["rounds"][0]["explanation"][0]["text"]

    for _ in range(7):
        api.post(_rounds_url(njet_match), {"facts": njet_facts()}, format="json")
    board = api.get(f"/api/v1/matches/{njet_match.pk}/scoreboard").json()
    assert (board["state"], board["finished"], board["rounds_left"]) == ("finished", True, 0)
    assert [w["name"] for w in board["winners"]] == ["Anna", "Bence", "Csilla"]
    assert board["next_dealer"] is None
    refused = api.post(_rounds_url(njet_match), {"facts": njet_facts()}, format="json")
    assert refused.status_code == 409


def test_scoreboard_after_a_rules_fix_shows_needs_rescore_until_rescored(table, client_for, njet_match):
    api = client_for(table.member)
    api.post(_rounds_url(njet_match), {"facts": njet_facts()}, format="json")
    Round.objects.update(ruleset_version="0", points=[0, 0, 0, 0, 0])

    assert api.get(f"/api/v1/matches/{njet_match.pk}/scoreboard").json()["needs_rescore"] is True
    assert api.post(f"/api/v1/matches/{njet_match.pk}/rescore").status_code == 200
    board = api.get(f"/api/v1/matches/{njet_match.pk}/scoreboard").json()
    assert (board["needs_rescore"], board["totals"]) == (False, [20, 20, 20, 18, 18])


def test_the_history_lists_every_change_with_who_before_and_after(table, client_for):
    match = ws_match(table.group, table.players, table.owner)
    api = client_for(table.member)
    api.post(_rounds_url(match), {"facts": WS_ROUND_1}, format="json")
    api.post(_rounds_url(match), {"facts": WS_ROUND_2}, format="json")
    api.patch(f"{_rounds_url(match)}/1", {"facts": {**WS_ROUND_1, "tricks": [2, 3, 0, 4]}, "version": 1}, format="json")
    api.delete(f"{_rounds_url(match)}/2", HTTP_IF_MATCH='"2"')

    events = api.get(f"/api/v1/matches/{match.pk}/events").json()["results"]

    assert [(e["action"], e["round_number"]) for e in events] == [
        ("create", 1),
        ("create", 2),
        ("rescore", 2),
        ("edit", 1),
        ("delete", 2),
    ]
    assert all(e["actor"] == "mate" for e in events)
    assert events[3]["before"]["facts"]["tricks"] == [2, 2, 0, 5]
    assert events[3]["after"]["facts"]["tricks"] == [2, 3, 0, 4]


def test_match_options_finish_and_reopen(table, client_for, njet_match):
    api = client_for(table.member)
    url = f"/api/v1/matches/{njet_match.pk}"
    changed = api.patch(url, {"options": {"recording": "difference"}, "version": 1}, format="json")
    assert changed.status_code == 200
    assert (changed.json()["options"]["recording"], changed.json()["version"]) == ("difference", 2)
    bad = api.patch(url, {"options": {"recording": "sideways"}, "version": 2}, format="json")
    assert bad.status_code == 400 and "options.recording" in bad.json()["errors"]
    assert api.post(f"{url}/finish", {"version": 1}, format="json").status_code == 409  # stale
    finished = api.post(f"{url}/finish", {"version": 2}, format="json")
    assert finished.json()["state"] == "finished"
    assert api.post(f"{url}/reopen", {}, format="json", HTTP_IF_MATCH='"3"').json()["state"] == "open"
    assert api.get(url)["ETag"] == '"4"'


def test_match_list_filters(table, client_for, njet_match):
    api = client_for(table.member)
    ex = example("meinz")
    api.post(
        f"/api/v1/groups/{table.group.pk}/matches",
        {"ruleset": "meinz", "players": [p.pk for p in table.players[:4]], "options": ex["options"]},
        format="json",
    )
    url = f"/api/v1/groups/{table.group.pk}/matches"
    assert [m["ruleset"] for m in api.get(url).json()["results"]] == ["meinz", "njet"]
    assert [m["ruleset"] for m in api.get(f"{url}?ruleset=njet").json()["results"]] == ["njet"]
    assert api.get(f"{url}?state=finished").json()["count"] == 0
    assert api.get(f"{url}?state=bogus").status_code == 400


@pytest.mark.parametrize("depth", [50, 100_000])
def test_json_nested_absurdly_deep_is_a_400(table, client_for, njet_match, depth):
    body = '{"facts": ' + "[" * depth + "]" * depth + "}"
    response = client_for(table.member).post(_rounds_url(njet_match), body, content_type="application/json")
    assert response.status_code == 400
    calculator = client_for(None).post(
        "/api/v1/rulesets/njet/score",
        '{"players": ["A"], "facts": ' + "[" * depth + "]" * depth + "}",
        content_type="application/json",
    )
    assert calculator.status_code == 400


# A limit above 500 is cut to 500 (the schema sets no maximum); an offset beyond the documented maximum or a
# malformed one is a 400 naming it (issue 32: "offset=null" used to be read as 0).
@pytest.mark.parametrize(
    ("query", "status"),
    [("limit=100000000000000000000", 200), ("offset=100000000000000000000", 400), ("limit=-1&offset=x", 400)],
)
def test_absurd_paging_is_never_a_500(table, client_for, query, status):
    response = client_for(table.member).get(f"/api/v1/groups/{table.group.pk}/players?{query}")
    assert response.status_code == status
    if status == 200:
        assert response.json()["count"] == 5
    else:
        assert set(response.json()["errors"]) <= {"limit", "offset"}


def test_the_scoreboard_state_comes_from_the_stored_points_without_scoring_any_round(table, client_for, monkeypatch):
    played = synthetic.play_match(Random("board"), "abluxxen", [1.0] * 4, options={"games": 30}, rounds=30)
    match = services.match_create(
        group=table.group,
        ruleset="abluxxen",
        options=played.options,
        player_ids=[p.pk for p in table.players[:4]],
        user=table.owner,
    )
    for facts, _result in played.rounds:
        services.round_record(match=match, facts=facts, user=table.member)
    abluxxen = rules.get("abluxxen")
    replayed = abluxxen.state([f for f, _r in played.rounds], players=4, options=played.options)
    monkeypatch.setattr(abluxxen.module, "score_round", lambda *a, **kw: pytest.fail("a stored round was scored"))

    board = client_for(table.member).get(f"/api/v1/matches/{match.pk}/scoreboard").json()

    assert (board["finished"], board["needs_rescore"]) == (replayed.finished, False)
    assert [w["seat"] for w in board["winners"]] == list(replayed.winners)
    assert board["extra"] == rules.to_jsonable(replayed.extra)  # ranking and every game's winners


def test_a_scoreboard_with_rounds_from_an_older_ruleset_version_replays_them(table, client_for):
    match = services.match_create(
        group=table.group,
        ruleset="abluxxen",
        options={"games": 5},
        player_ids=[p.pk for p in table.players[:3]],
        user=table.owner,
    )
    facts = {"front": [8, 5, 4], "hand": [0, 1, 2], "end": "out"}
    for _ in range(2):
        services.round_record(match=match, facts=facts, user=table.member)
    # as if round 1 had been scored (wrongly) by an earlier version: the state must not trust its points
    Round.objects.filter(match=match, number=1).update(ruleset_version="0", points=[0, 0, 90])

    board = client_for(table.member).get(f"/api/v1/matches/{match.pk}/scoreboard").json()

    second = Round.objects.get(match=match, number=2).points
    abluxxen = rules.get("abluxxen")
    replayed = abluxxen.state([facts, facts], players=3, options={"games": 5})
    trusted = abluxxen.state([facts, facts], players=3, options={"games": 5}, stored=[[0, 0, 90], second])
    assert replayed.extra["ranking"] != trusted.extra["ranking"]
    assert board["needs_rescore"] is True
    assert board["totals"] == [0 + second[0], 0 + second[1], 90 + second[2]]  # the points as stored
    assert board["extra"]["ranking"] == list(replayed.extra["ranking"])  # the state as the rules now score
