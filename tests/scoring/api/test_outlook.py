"""What do I need and the stakes before play through the API: the scoreboard's ``outlook`` and
``POST /matches/{id}/stakes``, with figures worked out by hand, in both languages."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import services
from scoring.models import Match
from tests.scoring.helpers import njet_facts

pytestmark = pytest.mark.django_db


def match_of(table: Any, ruleset: str, count: int, options: dict[str, Any] | None = None) -> Match:
    return services.match_create(
        group=table.group,
        ruleset=ruleset,
        options=options or {},
        player_ids=[p.pk for p in table.players[:count]],
        user=table.owner,
    )


def test_scoreboard_outlook_meinz_two_rounds_left(table, client_for):
    match = match_of(table, "meinz", 4)
    for _ in range(5):
        services.round_record(match=match, facts={"sums": [51, 38, 37, 31]}, user=table.owner)
    services.round_record(match=match, facts={"sums": [40, 40, 39, 34]}, user=table.owner)
    api = client_for(table.member)

    outlook = api.get(f"/api/v1/matches/{match.pk}/scoreboard").json()["outlook"]

    # totals 15 / 5 / 0 / 12; two rounds left and a round moves one player at most 3 on another
    assert (outlook["rounds_left"], outlook["reach"], outlook["round"]) == (2, 6, {"most": 3, "least": 0, "gain": 3})
    anna, bence, csilla, dani = outlook["players"]
    assert (anna["lead"], anna["text"]) == (3, "Anna leads by 3.")
    assert (dani["behind"], dani["can_win"]) == (3, True)
    assert dani["text"] == "Dani needs 3 more than Anna in the last 2 rounds."
    assert (bence["can_win"], bence["out_of_reach"]) == (False, [0, 3])
    assert bence["text"] == "Bence can no longer win: 10 behind Anna, and the last 2 rounds can make up at most 6."
    assert csilla["can_win"] is False
    assert outlook["note"] == "Only Anna and Dani can still win."

    hungarian = api.get(f"/api/v1/matches/{match.pk}/scoreboard", HTTP_ACCEPT_LANGUAGE="hu").json()["outlook"]
    assert hungarian["players"][1]["text"] == (
        "Bence már nem nyerhet: 10 ponttal Anna mögött áll, és a hátralévő 2 kör legfeljebb 6 pontot hozhat be."
    )
    assert hungarian["players"][3]["text"] == ("Dani: az utolsó 2 körben 3 ponttal többet kell szereznie, mint Anna.")


def test_scoreboard_outlook_is_null_before_the_first_round_after_the_end_and_in_was_sticht(table, client_for):
    api = client_for(table.member)
    fresh = match_of(table, "njet", 5)
    assert api.get(f"/api/v1/matches/{fresh.pk}/scoreboard").json()["outlook"] is None
    meinz = match_of(table, "meinz", 4)
    for _ in range(8):
        services.round_record(match=meinz, facts={"sums": [51, 38, 37, 31]}, user=table.owner)
    assert api.get(f"/api/v1/matches/{meinz.pk}/scoreboard").json()["outlook"] is None


def test_scoreboard_outlook_njet_with_the_last_round_hungarian(table, client_for):
    match = match_of(table, "njet", 5)
    # the rulebook's round (3-team 20 each, 2-team 18 each) nine times: 180 against 162, one round left
    for _ in range(9):
        services.round_record(match=match, facts=njet_facts(), user=table.owner)
    outlook = (
        client_for(table.member)
        .get(f"/api/v1/matches/{match.pk}/scoreboard", HTTP_ACCEPT_LANGUAGE="hu")
        .json()["outlook"]
    )
    assert outlook["rounds_left"] == 1 and outlook["reach"] == 192  # (12 tricks + 12 zeros) × 2 × 4
    assert outlook["players"][0]["text"] == "Anna holtversenyben vezet."
    assert outlook["players"][3]["text"] == (
        "Dani: az utolsó körben 18 ponttal többet kell szereznie, mint Anna, Bence és Csilla."
    )


def test_scoreboard_outlook_mue_to_its_target(table, client_for):
    match = match_of(table, "mue", 5)
    played = {
        "outcome": "played",
        "chief": 3,
        "bid": 4,
        "vice": 2,
        "vice_trump": {"kind": "number", "value": 9},
        "chief_trump": {"kind": "colour", "value": "green"},
        "partner": 0,
        "triangles": [15, 10, 10, 20, 5],
    }
    services.round_record(match=match, facts=played, user=table.owner)
    outlook = client_for(table.member).get(f"/api/v1/matches/{match.pk}/scoreboard").json()["outlook"]
    assert (outlook["target"], outlook["rounds_left"], outlook["earliest_end"]) == (200, None, 1)
    assert outlook["players"][3]["text"] == "Dani leads by 5 and needs 140 more to reach 200."
    assert outlook["players"][1]["text"] == "Bence is 50 behind Dani and needs 190 more to reach 200."
    assert outlook["note"] == "The match can end after the next round."


def stakes_of(api: Any, match: Match, facts: Any, lang: str = "en") -> Any:
    return api.post(f"/api/v1/matches/{match.pk}/stakes", {"facts": facts}, format="json", HTTP_ACCEPT_LANGUAGE=lang)


def test_stakes_mue_after_the_auction(table, client_for):
    match = match_of(table, "mue", 5)
    api = client_for(table.member)
    facts = {"outcome": "played", "chief": 3, "bid": 4, "vice": 2, "partner": 0, "chief_trump": {"kind": "none"}}

    body = stakes_of(api, match, facts).json()

    assert (body["available"], body["ready"], body["missing"]) == (True, True, [])
    assert body["stakes"]["target"] == 33
    assert body["stakes"]["made"] == [["no_trump", {"chief": 70, "partner": 70, "vice": 0, "other": 0}]]
    assert body["lines"][0] == "Dani (chief) bid 4: Dani and Anna need 33 triangles together."
    rows = {row["role"]: (row["label"], row["cells"]) for row in body["table"]["rows"]}
    assert body["table"]["head"] == ["33 or more", "30 to 32", "under 24"]
    assert rows == {
        "chief": ("Dani (chief)", ["+70", "−10", "−40"]),
        "partner": ("Anna (partner)", ["+70", "0", "0"]),
        "vice": ("Csilla (vice)", ["0", "+5", "+20"]),
        "other": ("Bence and Eszter", ["0", "+5", "+20"]),
    }
    hungarian = stakes_of(api, match, facts, "hu").json()
    assert hungarian["lines"][0] == "Dani (főnök) licitje 4: Dani és Anna együtt 33 háromszöget kell szerezniük."
    assert hungarian["table"]["head"] == ["legalább 33", "30–32", "24 alatt"]


def test_stakes_mue_not_ready_yet(table, client_for):
    match = match_of(table, "mue", 4)
    api = client_for(table.member)
    assert stakes_of(api, match, {"outcome": "played", "chief": 1}).json()["missing"] == ["bid"]
    eklat = stakes_of(api, match, {"outcome": "eklat", "tied": [0, 1]}).json()
    assert (eklat["ready"], eklat["stakes"], eklat["lines"]) == (False, None, [])
    impossible = stakes_of(api, match, {"chief": 1, "bid": 99}).json()
    assert impossible["ready"] is False and "bid" in impossible["missing"]


def test_stakes_njet_once_the_board_is_set(table, client_for):
    match = match_of(table, "njet", 5)
    api = client_for(table.member)
    board = {"start_player": 0, "teams": [0, 0, 0, 1, 1], "monster": 4, "points_per_trick": 2}

    body = stakes_of(api, match, board).json()

    assert body["ready"] and body["table"] is None
    assert body["stakes"]["trick"][4] == [0, 0, 0, 4, 4]  # the monster card counts double
    assert body["lines"] == [
        "Each trick or captured 0 of Anna, Bence or Csilla: +2 each for Anna, Bence and Csilla.",
        "Each trick or captured 0 of Dani: +2 each for Dani and Eszter.",
        "Each trick or captured 0 of Eszter (monster card): +4 each for Dani and Eszter.",
    ]
    hungarian = stakes_of(api, match, board, "hu").json()
    assert hungarian["lines"][2] == "Eszter (szörnykártya) minden ütése vagy zsákmánya: fejenként +4 (Dani és Eszter)."


def test_stakes_njet_difference_recording_and_two_players(table, client_for):
    api = client_for(table.member)
    match = match_of(table, "njet", 4, {"recording": "difference"})
    board = {"start_player": 1, "teams": [1, 0, 0, 1], "monster": None, "points_per_trick": -2}
    assert stakes_of(api, match, board).json()["lines"] == [
        "Each trick or captured 0 of Anna or Dani moves the difference 2 towards Bence and Csilla.",
        "Each trick or captured 0 of Bence or Csilla moves the difference 2 towards Anna and Dani.",
        "Only the difference between the teams is recorded: the higher team scores it.",
    ]
    duel = match_of(table, "njet", 2)
    lines = stakes_of(api, duel, {"start_player": 1, "points_per_trick": 3}).json()["lines"]
    assert lines == [
        "Each trick or captured 0 of Anna: +3 for Anna.",
        "Each trick or captured 0 of Bence: +3 for Bence.",
    ]


def test_stakes_njet_board_not_set_yet(table, client_for):
    api = client_for(table.member)
    match = match_of(table, "njet", 5)
    assert stakes_of(api, match, {"start_player": 0}).json()["missing"] == ["points_per_trick", "teams"]
    # the start player alone against four: no such teams
    lone = stakes_of(api, match, {"start_player": 0, "teams": [0, 1, 1, 1, 1], "points_per_trick": 1}).json()
    assert lone["ready"] is False and "teams" in lone["missing"]
    unsure = stakes_of(api, match, {"start_player": 0, "teams": [0, 0, 0, 1, "x"], "points_per_trick": 1}).json()
    assert unsure["ready"] is False
    # the monster holder not chosen yet: the stakes say that holder counts double
    open_monster = stakes_of(api, match, {"start_player": 0, "teams": [0, 0, 0, 1, 1], "points_per_trick": 1}).json()
    assert open_monster["lines"][-1] == "The tricks and captured 0s of the monster card's holder count double."


def test_stakes_other_games_and_bad_requests(table, client_for):
    api = client_for(table.member)
    meinz = match_of(table, "meinz", 4)
    assert stakes_of(api, meinz, {"sums": [51, 38, 37, 31]}).json() == {
        "ruleset": "meinz",
        "available": False,
        "ready": False,
        "missing": [],
        "stakes": None,
        "lines": [],
        "table": None,
    }
    mue = match_of(table, "mue", 4)
    refused = stakes_of(api, mue, [1, 2])
    assert refused.status_code == 400 and "facts" in refused.json()["errors"]
    assert api.post(f"/api/v1/matches/{mue.pk}/stakes", {}, format="json").status_code == 400
    assert stakes_of(client_for(table.outsider), mue, {"chief": 0, "bid": 1}).status_code == 404
    assert stakes_of(client_for(None), mue, {"chief": 0, "bid": 1}).status_code == 401


def test_the_schema_documents_the_stakes_and_the_outlook(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/v1/matches/{match_id}/stakes"]["post"]
    assert operation["summary"] == "The stakes of the next round before play (MÜ, NJET)"
    board = schema["components"]["schemas"]["Scoreboard"]["properties"]
    assert "outlook" in board
    outlook = schema["components"]["schemas"]["Outlook"]["properties"]
    assert {"rounds_left", "target", "earliest_end", "round", "reach", "players", "note"} <= set(outlook)
