"""Rotation follows the table (issue 42): the next dealer is the last live round's left neighbour, whatever
earlier round was deleted or restored; the board, the entry form and the API agree."""

from __future__ import annotations

import re
from random import Random

import pytest
from django.urls import reverse

from analytics import synthetic
from scoring import selectors, services
from scoring.models import Match


def _njet_at_three(table) -> tuple[Match, list]:
    """NJET at 3 (Dóra, Éva, Bence in seat order, as in the issue) with four rounds the rules accept."""
    names = ("Dóra", "Éva", "Bence")
    for player, name in zip(table.players[:3], names, strict=True):
        player.name = name
        player.save(update_fields=["name"])
    played = synthetic.play_match(Random("rotation"), "njet", [1.0] * 3, rounds=4)
    match = services.match_create(
        group=table.group,
        ruleset="njet",
        options=played.options,
        player_ids=[p.pk for p in table.players[:3]],
        user=table.owner,
    )
    rounds = [services.round_record(match=match, facts=facts, user=table.owner) for facts, _ in played.rounds]
    return match, rounds


def _dealer(match: Match) -> str | None:
    board = selectors.match_scoreboard(match=match)
    return board["next_dealer"]["name"] if board["next_dealer"] else None


@pytest.mark.django_db
def test_deleting_round_one_of_four_keeps_the_deal_passing_from_round_fours_dealer(table, client_for):
    match, rounds = _njet_at_three(table)
    assert _dealer(match) == "Éva"  # deals 1-4: Dóra, Éva, Bence, Dóra; the fifth is Éva's

    services.round_delete(round=rounds[0], expected_version=1, user=table.owner)

    board = selectors.match_scoreboard(match=match)
    assert [r["number"] for r in board["rounds"]] == [2, 3, 4] and board["next_number"] == 5
    assert _dealer(match) == "Éva"  # round 4's left neighbour, not Dóra again (who dealt round 4)
    api = client_for(table.owner).get(f"/api/v1/matches/{match.pk}/scoreboard")
    assert api.status_code == 200 and api.json()["next_dealer"]["name"] == "Éva"


@pytest.mark.django_db
def test_the_entry_form_names_the_same_dealer_after_the_delete(table, client):
    match, rounds = _njet_at_three(table)
    services.round_delete(round=rounds[1], expected_version=1, user=table.owner)
    client.force_login(table.owner)
    html = client.get(reverse("match", args=[match.pk])).content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))  # what a person reads
    assert "Dealer: Éva (places the first NJET marker)" in text  # the form
    assert "Next dealer: Éva" in text  # the board


@pytest.mark.django_db
def test_a_round_entered_after_the_delete_is_dealt_by_the_left_neighbour_and_restoring_changes_nothing(table):
    match, rounds = _njet_at_three(table)
    services.round_delete(round=rounds[0], expected_version=1, user=table.owner)
    played = synthetic.play_match(Random("rotation-5"), "njet", [1.0] * 3, rounds=1)
    fifth = services.round_record(match=match, facts=played.rounds[0][0], user=table.owner, expected_number=5)
    assert fifth.number == 5
    assert _dealer(match) == "Bence"  # deal 6
    services.round_undo(round=selectors.round_get(match=match, number=1), user=table.owner)  # round 1 restored
    assert _dealer(match) == "Bence"
