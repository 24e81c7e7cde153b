"""Two phones on one round (issue 30 §2), for every game: two saves naming the same expected round number store
exactly one round, and the second is answered 409 naming who saved it — through the service and the API."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import rules, services
from scoring.models import Match, Round
from scoring.selectors import ruleset_list
from scoring.services.errors import RoundTaken

pytestmark = pytest.mark.django_db

GAMES = ["njet", "mue", "meinz", "was-sticht", "sticheln", "abluxxen", "muzicando", "coloretto"]
# a Sticheln variant besides the example's classic one, with the example's facts
VARIANTS = [(key, None) for key in GAMES] + [("sticheln", {"variant": "reverse"})]


def test_every_game_is_covered() -> None:  # a new game joins the list above
    assert {r.key for r in ruleset_list()} == set(GAMES)


def _match(table: Any, key: str, options: dict[str, Any] | None) -> tuple[Match, dict[str, Any]]:
    example = rules.get(key).example
    match = services.match_create(
        group=table.group,
        ruleset=key,
        options={**(example.get("options") or {}), **(options or {})},
        player_ids=[p.pk for p in table.players[: example["players"]]],
        user=table.owner,
    )
    return match, example["facts"]


@pytest.mark.parametrize(("key", "options"), VARIANTS)
def test_service_second_save_of_round_1_stores_nothing_and_names_the_saver(table, key, options):
    match, facts = _match(table, key, options)
    services.round_record(match=match, facts=facts, user=table.owner, expected_number=1)

    with pytest.raises(RoundTaken) as caught:
        services.round_record(match=match, facts=facts, user=table.member, expected_number=1)

    assert (caught.value.expected, caught.value.by) == (1, "Anna")
    assert caught.value.message() == "Round 1 was just saved by Anna."
    assert list(Round.objects.filter(match=match).values_list("number", flat=True)) == [1]


@pytest.mark.parametrize(("key", "options"), VARIANTS)
def test_api_second_save_of_round_1_is_a_409_naming_the_saver(table, client_for, key, options):
    match, facts = _match(table, key, options)
    url = f"/api/v1/matches/{match.pk}/rounds"
    first = client_for(table.owner).post(url, {"facts": facts, "number": 1}, format="json")
    assert first.status_code == 201, first.json()

    late = client_for(table.member).post(url, {"facts": facts, "number": 1}, format="json")

    assert late.status_code == 409, late.json()
    body = late.json()
    assert (body["detail"], body["number"], body["saved_by"]) == ("Round 1 was just saved by Anna.", 1, "Anna")
    assert body["current"]["number"] == 1 and body["current"]["facts"] == first.json()["facts"]
    assert Round.objects.filter(match=match).count() == 1
