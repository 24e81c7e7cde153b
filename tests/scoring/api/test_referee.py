"""The API side of issue 31: NJET matches default to the edition of the request's language, the trick
referee reads a Meinz trick with the monster's card as three players and names the NJET edition, and the
calculator holds Coloretto to its undrawn-card bounds."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import Match
from scoring.rules import coloretto as co

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "options", "edition"),
    [
        ("hu", None, "hungarian"),
        ("hu-HU,hu;q=0.9", {}, "hungarian"),
        ("en", None, "english"),
        ("hu", {"tie_rule": "english"}, "english"),  # an explicit choice wins
    ],
)
def test_njet_match_defaults_to_the_edition_of_the_request_language(
    table: Any, client_for: Any, language: str, options: dict[str, Any] | None, edition: str
) -> None:
    body: dict[str, Any] = {"ruleset": "njet", "players": [p.pk for p in table.players[:4]]}
    if options is not None:
        body["options"] = options
    response = client_for(table.owner).post(
        f"/api/v1/groups/{table.group.pk}/matches", body, format="json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 201, response.json()
    assert response.json()["options"]["tie_rule"] == edition
    assert Match.objects.get(pk=response.json()["id"]).options["tie_rule"] == edition


def test_other_games_ignore_the_request_language(table: Any, client_for: Any) -> None:
    body = {"ruleset": "meinz", "players": [p.pk for p in table.players[:4]]}
    response = client_for(table.owner).post(
        f"/api/v1/groups/{table.group.pk}/matches", body, format="json", HTTP_ACCEPT_LANGUAGE="hu"
    )
    assert response.status_code == 201
    assert response.json()["options"] == {"monster": "counts"}


def _trick(client: Any, key: str, body: dict[str, Any], language: str = "en") -> Any:
    return client.post(f"/api/v1/rulesets/{key}/trick", body, format="json", HTTP_ACCEPT_LANGUAGE=language)


def test_meinz_trick_with_the_monster_card_is_three_players(client_for: Any) -> None:
    client = client_for(None)
    plays = [
        {"card": {"colour": "red", "value": 5}},
        {"card": {"colour": "blue", "value": 2}, "monster": True},
        {"card": {"colour": "red", "value": 8}},
        {"card": {"colour": "green", "value": 6}},
    ]
    response = _trick(client, "meinz", {"setup": {}, "plays": plays})
    assert response.status_code == 200, response.json()
    result = response.json()
    assert (result["players"], result["winner"], result["reason"]) == (3, 1, "tricks.meinz_lowest")
    assert result["notes"][1]["msg"] == "tricks.role_monster"


def test_njet_trick_names_the_edition_in_the_request_language(client_for: Any) -> None:
    client = client_for(None)
    plays = [{"card": {"colour": c, "value": v}} for c, v in (("yellow", 7), ("yellow", 7), ("red", 7), ("red", 1))]
    body = {"setup": {"trump": "black"}, "plays": plays, "options": {"tie_rule": "hungarian"}}
    result = _trick(client, "njet", body, "hu").json()
    assert result["winner"] == 0
    assert result["edition"]["msg"] == "tricks.njet_edition_hungarian"
    assert result["edition"]["text"].startswith("A magyar kiadás szabálya döntött")
    english = _trick(client, "njet", {**body, "options": {}}).json()
    assert english["winner"] == 1
    assert english["edition"]["text"].startswith("Decided by the English edition's rules")


def test_calculator_refuses_coloretto_with_fifteen_cards_undrawn(client_for: Any) -> None:
    client = client_for(None)
    url = "/api/v1/rulesets/coloretto/score"
    facts = {**co.EXAMPLE["facts"], "plus_twos": [0, 0, 1, 2]}  # 61 of 76 taken: 15 undrawn
    response = client.post(url, {"players": list("ABCD"), "facts": facts}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert any("at least 62 of the 76 cards" in m for messages in response.json()["errors"].values() for m in messages)
    facts["plus_twos"] = [0, 1, 1, 2]  # 14 undrawn
    assert client.post(url, {"players": list("ABCD"), "facts": facts}, format="json").status_code == 200


YELLOW_TIE = [{"card": {"colour": c, "value": v}} for c, v in (("yellow", 7), ("yellow", 7), ("red", 7), ("red", 1))]


@pytest.mark.parametrize(("language", "winner", "edition"), [("hu", 0, "hungarian"), ("en", 1, "english")])
def test_njet_trick_without_an_edition_follows_the_request_language(
    client_for: Any, language: str, winner: int, edition: str
) -> None:
    """As the standalone referee page does: a Hungarian caller gets the Hungarian edition unless it names one."""
    result = _trick(client_for(None), "njet", {"setup": {"trump": "black"}, "plays": YELLOW_TIE}, language).json()
    assert (result["winner"], result["edition"]["msg"]) == (winner, f"tricks.njet_edition_{edition}")


def test_hungarian_sentences_name_the_colours_in_hungarian(client_for: Any) -> None:
    body = {"setup": {"trump": "black"}, "plays": YELLOW_TIE, "options": {"tie_rule": "hungarian"}}
    result = _trick(client_for(None), "njet", body, "hu").json()
    assert "a sárga 7 került ki elsőként" in result["text"], result["text"]
    assert result["params"]["colour"] == "yellow"  # the params keep the ids
    assert [n["text"] for n in result["notes"]][2] == "piros 7: nem a hívott szín és nem adu, így nem vihet."
    sentences = [result["text"], *(n["text"] for n in result["notes"])]
    assert not [t for t in sentences if "yellow" in t or "red" in t]


def test_hungarian_errors_are_hungarian_and_name_no_english_or(client_for: Any) -> None:
    plays = [{"card": {"colour": "red", "value": 5}}, {"card": {"colour": "blue", "value": 5}}]
    response = _trick(client_for(None), "was-sticht", {"setup": {}, "plays": plays}, "hu")
    assert response.status_code == 400
    assert response.json()["errors"]["plays"] == ["Egy Was sticht? ütésben 3 vagy 4 lap van, nem 2."]
    english = _trick(client_for(None), "was-sticht", {"setup": {}, "plays": plays}, "en")
    assert english.json()["errors"]["plays"] == ["A Was sticht? trick has 3 or 4 cards, not 2."]


def test_meinz_needs_no_setup_and_judges_claim_and_capped_player_in_hungarian(client_for: Any) -> None:
    plays = [
        {"card": {"colour": "red", "value": 1}, "tricks_taken": 2},
        {"card": {"colour": "red", "value": 3}},
        {"card": {"colour": "green", "value": 5}},
        {"card": {"colour": "blue", "value": 2}, "monster": True},
    ]
    result = _trick(client_for(None), "meinz", {"plays": plays}, "hu").json()
    assert (result["players"], result["winner"], result["reason"]) == (3, 3, "tricks.meinz_capped")
    assert "1 lap, amely ütné, olyan játékosé, akinek már két ütése van" in result["text"], result["text"]
    claimed = [plays[0], {**plays[1], "claim": True}, plays[2], plays[3]]
    result = _trick(client_for(None), "meinz", {"plays": claimed}, "en").json()
    assert (result["winner"], result["reason"]) == (1, "tricks.meinz_claim")
    assert "when 2 cards lay on the table" in result["text"]
