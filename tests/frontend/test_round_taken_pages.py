"""The pages' side of "one round, many phones": a form posted for a round saved meanwhile stores nothing and
says who saved it (no-JS and fetch paths), the board carries the warning a half-filled form shows, and a
double-tapped "Undo the last change" undoes one change."""

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


def test_a_form_for_a_round_saved_meanwhile_stores_nothing_and_keeps_what_was_typed(client_in, make_match, user):
    match = make_match("njet", 4)
    assert client_in.post(f"/matches/{match.pk}/rounds", _form(0, 1)).status_code == 302

    response = client_in.post(f"/matches/{match.pk}/rounds", _form(1, 1))

    assert response.status_code == 409
    html = response.content.decode()
    assert re.search(r'role="alert"[^>]*id="entry-errors"><p><strong>Round 1 was just saved by Anna.', html)
    assert f'href="/matches/{match.pk}/rounds/1/edit"' in html and "Edit round 1" in html
    assert '<input type="hidden" name="number" value="2">' in html
    assert "Save round 2" in html
    assert re.search(r'name="start_player" value="1"[^>]*checked', html)  # what this phone typed
    assert list(Round.objects.filter(match=match).values_list("number", "facts__start_player")) == [(1, 0)]


def test_the_fetch_path_answers_409_with_the_entry_block(client_in, make_match):
    match = make_match("njet", 4)
    client_in.post(f"/matches/{match.pk}/rounds", _form(0, 1), HTTP_X_REQUESTED_WITH="fetch")

    response = client_in.post(
        f"/matches/{match.pk}/rounds", _form(1, 1), HTTP_X_REQUESTED_WITH="fetch", HTTP_IDEMPOTENCY_KEY="other"
    )

    assert response.status_code == 409
    html = response.content.decode()
    assert "<html" not in html and "Round 1 was just saved by Anna." in html and "Round 1: points and why" in html
    assert "X-Round" not in response
    assert Round.objects.filter(match=match).count() == 1


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


def test_the_board_carries_the_warning_for_a_half_filled_form(client_in, make_match):
    match = make_match("njet", 4)
    client_in.post(f"/matches/{match.pk}/rounds", _form(0, 1))
    board = client_in.get(f"/matches/{match.pk}/board").content.decode()
    assert 'data-next="2"' in board
    assert '<span class="muted small">· Anna</span>' in board  # the rounds table names the player, not the account
    assert (
        '<p data-n="1">Round 1 was saved on another phone by Anna. This form is now for round 2 — check it before '
        "saving.</p>" in board
    )


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
