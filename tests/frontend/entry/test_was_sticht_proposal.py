"""Was sticht? (issue 30 §6): the task the start player returns is the app's proposal, preselected; until he picks
another the preview says it is the proposal, never "as chosen"."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after():
    """A Hungarian request activates Hungarian in this thread: put the language back for the next test."""
    with translation.override("en"):
        yield


TASKS = [
    ["betli", "most", "exactly-2", "no-red"],
    ["exactly-2", "last-trick", "fewest", "no-blue"],
    ["betli", "exactly-3", "most", "no-green"],
    ["last-trick", "fewest", "exactly-1", "no-yellow"],
]
# Bence wants exactly 2 tricks and takes 1; Anna, the start player, takes exactly 2: she gives back one of her tasks
ROUND = {
    "start_player": "0",
    "trump_colour": "red",
    "trump_number": "2",
    "chosen.1": "exactly-2",
    "chosen.2": "betli",
    "chosen.3": "last-trick",
    "tricks.0": "2",
    "tricks.1": "1",
    "tricks.2": "0",
    "tricks.3": "6",
    "last_trick": "3",
}


@pytest.mark.parametrize(
    ("lang", "proposal", "chosen", "as_chosen"),
    [
        ("en", "This is the app's proposal; Anna may choose another task below.", "(as chosen", "(as chosen"),
        ("hu", "Ez az alkalmazás javaslata; Anna lent másik feladatot is választhat.", "(ahogy választotta", "ahogy"),
    ],
)
def test_preview_calls_the_preselected_task_a_proposal(client_in, make_match, lang, proposal, chosen, as_chosen):
    match = make_match("was-sticht", 4, options={"tasks": TASKS})
    url = reverse("round_preview", args=[match.pk])
    # the form as it comes: her first task, betli, preselected
    kept = unescape(client_in.post(url, {**ROUND, "start_return": "betli"}, HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    assert proposal in kept
    assert as_chosen not in kept
    # she picks another task: now it is her choice
    picked = unescape(
        client_in.post(url, {**ROUND, "start_return": "no-red"}, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    )
    assert chosen in picked
    assert proposal not in picked
