"""The new-match page without script: seat order from the order field, move buttons, the seating summary
with the first dealer and start player from the game's own rules, and errors that keep the order."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import Match, Seat

pytestmark = pytest.mark.django_db


def _seat_names(match: Match) -> list[str]:
    return [s.player.name for s in Seat.objects.filter(match=match).select_related("player").order_by("number")]


def _url(group: Any) -> str:
    return f"/groups/{group.pk}/matches/new"


def test_the_order_field_is_the_seat_order(client_in, group, players):
    anna, bence, cili = players[:3]
    data = {"game": "meinz", "players": [anna.pk, bence.pk, cili.pk], "order": f"{cili.pk},{anna.pk},{bence.pk}"}
    response = client_in.post(_url(group), data)
    match = Match.objects.get(group=group)
    assert response.status_code == 302
    assert _seat_names(match) == ["Cili", "Anna", "Bence"]


def test_without_an_order_ticked_players_sit_in_list_order_and_the_seat_selects_are_gone(client_in, group, players):
    page = client_in.get(_url(group) + "?game=njet").content.decode()
    assert 'name="seat_' not in page
    client_in.post(_url(group), {"game": "njet", "players": [p.pk for p in players[:3]]})
    assert _seat_names(Match.objects.get(group=group)) == ["Anna", "Bence", "Cili"]


def test_an_order_naming_unticked_players_seats_only_the_ticked_ones(client_in, group, players):
    anna, bence, cili, dani = players[:4]
    data = {"game": "njet", "players": [anna.pk, cili.pk, dani.pk], "order": f"{bence.pk},{dani.pk},x,{anna.pk}"}
    client_in.post(_url(group), data)
    assert _seat_names(Match.objects.get(group=group)) == ["Dani", "Anna", "Cili"]


def test_a_move_button_redraws_the_seating_without_starting(client_in, group, players):
    anna, bence, cili = players[:3]
    data = {"game": "meinz", "players": [anna.pk, bence.pk, cili.pk], "order": f"{cili.pk},{anna.pk},{bence.pk}"}
    response = client_in.post(_url(group), {**data, "move": f"up:{bence.pk}"})
    assert response.status_code == 200
    assert not Match.objects.filter(group=group).exists()
    seating = response.context["seating"]
    assert [row["name"] for row in seating["rows"]] == ["Cili", "Bence", "Anna"]
    assert seating["order"] == f"{cili.pk},{bence.pk},{anna.pk}"
    # Meinz: the first dealer is seat 1, the player to the dealer's left leads the first trick
    html = response.content.decode()
    assert "Cili deals first." in html
    assert "Bence starts the first round." in html
    assert f'name="order" value="{cili.pk},{bence.pk},{anna.pk}"' in html


def test_moving_the_first_seat_up_changes_nothing(client_in, group, players):
    anna, bence, cili = players[:3]
    data = {"game": "meinz", "players": [anna.pk, bence.pk, cili.pk], "move": f"up:{anna.pk}"}
    response = client_in.post(_url(group), data)
    assert [row["name"] for row in response.context["seating"]["rows"]] == ["Anna", "Bence", "Cili"]
    response = client_in.post(_url(group), {**data, "move": f"down:{cili.pk}"})
    assert [row["name"] for row in response.context["seating"]["rows"]] == ["Anna", "Bence", "Cili"]


def test_too_few_players_keeps_the_chosen_order(client_in, group, players):
    anna, bence = players[:2]
    response = client_in.post(
        _url(group), {"game": "meinz", "players": [anna.pk, bence.pk], "order": f"{bence.pk},{anna.pk}"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert f'name="order" value="{bence.pk},{anna.pk}"' in html
    assert [row["seat"] for row in response.context["player_rows"][:2]] == [2, 1]
    assert "Choose 3–4 players." in html


def test_the_summary_endpoint_names_dealer_and_starter(client_in, group, players):
    anna, bence, cili, dani = players[:4]
    url = f"/groups/{group.pk}/matches/seating"
    data = {"game": "coloretto", "players": [anna.pk, bence.pk, cili.pk, dani.pk], "order": f"{dani.pk},{anna.pk}"}
    html = client_in.post(url, data).content.decode()
    # Coloretto: nobody deals; the start player's role passes to the left each game
    assert "Dani starts the first round." in html and "deals first" not in html
    njet = client_in.post(url, {**data, "game": "njet"}).content.decode()
    assert "Dani deals first." in njet
    assert "Who starts the first round is not fixed by the seats" in njet
    hu = client_in.post(url, {**data, "game": "njet"}, HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert "Dani oszt először." in hu
    assert client_in.get(url).status_code == 405


def test_muzicando_team_mode_with_five_players_names_no_dealer(client_in, group, players):
    data = {"game": "muzicando", "players": [p.pk for p in players[:5]], "opt_mode": "team"}
    html = client_in.post(f"/groups/{group.pk}/matches/seating", data).content.decode()
    assert "deals first." not in html
    assert "These options do not fit this many players" in html
    html = client_in.post(f"/groups/{group.pk}/matches/seating", {**data, "opt_mode": "individual"}).content.decode()
    assert "Anna deals first." in html


def test_was_sticht_tasks_follow_the_seats_and_the_summary_shows_before_they_are_drafted(client_in, group, players):
    anna, bence, cili = players[:3]
    data: dict[str, Any] = {"game": "was-sticht", "players": [anna.pk, bence.pk, cili.pk]}
    data["order"] = f"{bence.pk},{cili.pk},{anna.pk}"
    html = client_in.post(f"/groups/{group.pk}/matches/seating", data).content.decode()
    assert "Bence starts the first round." in html
    assert "deals first" not in html  # no dealer in Was sticht?: the start player shuffles and deals
    drafts = {
        anna: ["betli", "no-red", "exactly-1", "most"],
        bence: ["no-blue", "no-green", "exactly-2", "fewest"],
        cili: ["no-yellow", "last-trick", "exactly-3", "exactly-4"],
    }
    for player, tasks in drafts.items():
        for i, task in enumerate(tasks):
            data[f"task_{player.pk}_{i}"] = task
    response = client_in.post(_url(group), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    match = Match.objects.get(group=group)
    assert _seat_names(match) == ["Bence", "Cili", "Anna"]
    assert match.options["tasks"] == [drafts[bence], drafts[cili], drafts[anna]]
