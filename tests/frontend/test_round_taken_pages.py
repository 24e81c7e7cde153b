"""The pages' side of "one round, many phones": a form posted for a round saved meanwhile stores nothing, stays
for its round and shows who saved it with the two choices (no-JS and fetch paths, and the panel a half-filled
form fetches when the live board shows its round saved), and a double-tapped "Undo the last change" undoes one
change."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scoring import services
from scoring.models import Round, RoundEvent

pytestmark = pytest.mark.django_db


def _form(start: int, number: int | None) -> dict[str, Any]:
    """A four-player NJET round as the entry form posts it."""
    data: dict[str, Any] = {"start_player": start, "discard": "none", "points_per_trick": 1, "partner": (start + 2) % 4}
    data.update({f"tricks.{seat}": n for seat, n in enumerate((4, 3, 5, 3))})
    data.update({f"booty.{seat}": 0 for seat in range(4)})
    if number is not None:
        data["number"] = number
    return data


def _messages(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_a_form_for_a_round_saved_meanwhile_stores_nothing_and_stays_for_its_round(client_in, make_match, user):
    match = make_match("njet", 4)
    assert client_in.post(f"/matches/{match.pk}/rounds", _form(0, 1)).status_code == 302

    response = client_in.post(f"/matches/{match.pk}/rounds", _form(1, 1))

    assert response.status_code == 409
    html = response.content.decode()
    # a form is for its round: still round 1, with what this phone typed
    assert '<input type="hidden" name="number" value="1">' in html
    assert re.search(r'<h2 id="entry-heading"[^>]*>Round 1</h2>', html)
    assert re.search(r'name="start_player" value="1"[^>]*checked', html)
    # where the Save button was (it is hidden and cannot submit): who saved it and the two choices
    save = r'<button type="submit" class="primary" data-label="[^"]*" hidden disabled>Save round 1</button>'
    assert re.search(save, html)
    panel = html[html.index('id="conflict"') :]
    said = r'role="alert"[^>]*>\s*<p class="conflict-msg" id="conflict-msg"><strong>Round 1 was just saved by Anna.'
    assert re.search(said, html)
    assert f'<a class="button" href="/matches/{match.pk}/#entry" data-conflict-discard>Discard mine</a>' in panel
    assert '<button type="submit" class="primary" name="as_number" value="2">Enter mine as round 2</button>' in panel
    saved = Round.objects.get(match=match, number=1).points
    row = re.search(r'<th scope="row">Anna</th><td class="n">([^<]*)</td><td class="n">([^<]*)</td>', panel)
    assert row is not None and row.group(1) == _signed(saved[0])
    assert re.fullmatch(r"[+−]?\d+", row.group(2))  # what this phone typed, scored as round 1
    assert "saved by Anna" in panel and "typed here" in panel
    assert list(Round.objects.filter(match=match).values_list("number", "facts__start_player")) == [(1, 0)]

    # the same form sent again (Enter in a field, a retry) is refused again: nothing is stored as round 2
    assert client_in.post(f"/matches/{match.pk}/rounds", _form(1, 1)).status_code == 409
    assert Round.objects.filter(match=match).count() == 1
    # only the explicit choice enters it as the next round
    chosen = client_in.post(f"/matches/{match.pk}/rounds", {**_form(1, 1), "as_number": 2})
    assert chosen.status_code == 302
    assert list(Round.objects.filter(match=match).order_by("number").values_list("number", "facts__start_player")) == [
        (1, 0),
        (2, 1),
    ]


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else ("−" + str(-points) if points < 0 else "0")


def test_the_fetch_path_answers_409_with_the_entry_block(client_in, make_match):
    match = make_match("njet", 4)
    client_in.post(f"/matches/{match.pk}/rounds", _form(0, 1), HTTP_X_REQUESTED_WITH="fetch")

    response = client_in.post(
        f"/matches/{match.pk}/rounds", _form(1, 1), HTTP_X_REQUESTED_WITH="fetch", HTTP_IDEMPOTENCY_KEY="other"
    )

    assert response.status_code == 409
    html = response.content.decode()
    assert "<html" not in html and "Round 1 was just saved by Anna." in html and "Round 1: points" in html
    assert 'data-dirty="1"' in html  # a later board change does not throw away what was typed
    assert "X-Round" not in response
    assert Round.objects.filter(match=match).count() == 1


def test_the_conflict_panel_for_a_half_filled_form_stores_nothing(client_in, make_match):
    match = make_match("njet", 4)
    client_in.post(f"/matches/{match.pk}/rounds", _form(0, 1))

    panel = client_in.post(f"/matches/{match.pk}/rounds/conflict", _form(1, 1))

    assert panel.status_code == 200
    html = panel.content.decode()
    assert "Round 1 was just saved by Anna." in html and "Enter mine as round 2" in html
    assert 'data-conflict="1" data-next="2"' in html
    assert Round.objects.filter(match=match).count() == 1
    # a form for the round still to be entered has no conflict
    assert client_in.post(f"/matches/{match.pk}/rounds/conflict", _form(1, 2)).status_code == 204
    # after the last round was deleted the form for round 3 is told the rounds changed
    client_in.post(f"/matches/{match.pk}/rounds", _form(1, 2))
    client_in.post(f"/matches/{match.pk}/rounds/2/delete", {"version": 1})
    changed = client_in.post(f"/matches/{match.pk}/rounds/conflict", _form(1, 3)).content.decode()
    assert "The rounds changed meanwhile: this would now be round 2, not 3." in changed
    assert "Enter mine as round 2" in changed and "conflict-points" not in changed


def test_the_save_button_number_is_the_number_stored_after_a_delete(client_in, make_match):
    match = make_match("njet", 4)
    for n in (1, 2):
        client_in.post(f"/matches/{match.pk}/rounds", _form(n - 1, n))
    client_in.post(f"/matches/{match.pk}/rounds/2/delete", {"version": 1})

    page = client_in.get(f"/matches/{match.pk}/").content.decode()
    assert "Save round 2" in page and '<input type="hidden" name="number" value="2">' in page

    assert client_in.post(f"/matches/{match.pk}/rounds", _form(1, 2)).status_code == 302
    live = Round.objects.filter(match=match, deleted_at__isnull=True).order_by("number")
    assert list(live.values_list("number", "facts__start_player")) == [(1, 0), (2, 1)]


def test_the_board_names_who_saved_each_round(client_in, make_match):
    match = make_match("njet", 4)
    client_in.post(f"/matches/{match.pk}/rounds", _form(0, 1))
    board = client_in.get(f"/matches/{match.pk}/board").content.decode()
    assert 'data-next="2"' in board
    assert '<span class="muted small">· Anna</span>' in board  # the rounds table names the player, not the account


def test_a_double_tapped_undo_undoes_one_change(client_in, make_match, user):
    match = make_match("njet", 4)
    for n in (1, 2):
        client_in.post(f"/matches/{match.pk}/rounds", _form(n - 1, n))
    match.refresh_from_db()
    page = client_in.get(f"/matches/{match.pk}/").content.decode()
    assert re.search(rf'/matches/{match.pk}/undo".*?name="version" value="{match.version}"', page)

    first = client_in.post(f"/matches/{match.pk}/undo", {"version": match.version}, follow=True)
    second = client_in.post(f"/matches/{match.pk}/undo", {"version": match.version}, follow=True)

    assert "The last change was undone." in _messages(first)
    assert any(m.startswith("Nothing was undone: that change was already undone") for m in _messages(second))
    assert RoundEvent.objects.filter(match=match, action="undo").count() == 1
    assert list(Round.objects.filter(match=match, deleted_at__isnull=True).values_list("number", flat=True)) == [1]
    services.match_undo_last(match=match, user=user)  # without a version (an older page), it still works
    assert not Round.objects.filter(match=match, deleted_at__isnull=True).exists()
