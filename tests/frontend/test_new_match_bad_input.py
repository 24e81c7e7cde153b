"""Security issue 32, row "HTML new match": ``players=abc``, an empty value, ``²`` or ``١`` on the new-match form
is a 400 page that keeps the form (the game, the options, the players that were ticked), never a 500 and never
a player picked by a digit that is not an ASCII digit."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scoring.models import Match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("bad", ["abc", "", "²", "١", "1²", " ", "1_0"])
def test_a_malformed_player_id_is_a_400_page_keeping_the_form(client_in: Any, group: Any, players: Any, bad: str):
    anna = players[0]
    data = {"game": "njet", "players": [str(anna.pk), bad], "order": f"{bad},{anna.pk}", "opt_tie_rule": "english"}
    response = client_in.post(f"/groups/{group.pk}/matches/new", data, HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 400
    assert "The match cannot start:" in html
    # the form is still there, as it was sent: the game, Anna ticked (seat 1) and nobody else, the option kept
    assert 'name="game" value="njet"' in html
    assert re.search(rf'name="players" value="{anna.pk}" checked', html)
    assert len(re.findall(r'name="players" value="\d+" checked', html)) == 1
    assert re.search(r'name="opt_tie_rule" value="english" checked', html)
    assert not Match.objects.filter(group=group).exists()


def test_only_ascii_digits_name_a_player(client_in: Any, group: Any, players: Any):
    """``١`` is not player 1 (``int("١") == 1`` in Python): three real ids and an Arabic-Indic one seat three."""
    ids = [str(p.pk) for p in players[:3]]
    arabic = "".join("٠١٢٣٤٥٦٧٨٩"[int(d)] for d in str(players[3].pk))
    response = client_in.post(f"/groups/{group.pk}/matches/new", {"game": "njet", "players": [*ids, arabic]})
    assert response.status_code == 302
    match = Match.objects.get(group=group)
    assert [s.player_id for s in match.seats.order_by("number")] == [p.pk for p in players[:3]]


def test_a_field_path_with_a_non_ascii_digit_names_no_seat() -> None:
    """Row "HTML new match" (every isdigit()/int() on request input): "green.²" passed isdigit() and broke int()."""
    from frontend.entry.fields import field_phrase

    names = ["Anna", "Bence", "Cili"]
    assert field_phrase("tricks.1", names) == field_phrase("tricks.1", names)
    assert "Bence" in field_phrase("tricks.1", names)
    assert "Bence" not in field_phrase("tricks.١", names)
    field_phrase("green.²", names)
    field_phrase("rounds.².tricks.1", names)
