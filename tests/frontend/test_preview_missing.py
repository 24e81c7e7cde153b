"""The live preview names every required input still blank (issue 30 §4), not only the rules engine's first
problem: Muzicando with only the contract tapped still needs the finishing order, the chooser (declarer) and,
with bidding, the level."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after():
    """A Hungarian request activates Hungarian in this thread: put the language back for the next test."""
    with translation.override("en"):
        yield


def _preview(client, match, data, lang="en") -> str:  # type: ignore[no-untyped-def]
    return client.post(reverse("round_preview", args=[match.pk]), data, HTTP_ACCEPT_LANGUAGE=lang).content.decode()


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("en", "Still missing: finishing order; chooser"), ("hu", "Még hiányzik: kiszállási sorrend; választó")],
)
def test_individual_play_with_only_the_contract_lists_order_and_chooser(client_in, make_match, lang, expected):
    match = make_match("muzicando", 3, {"mode": "individual"})
    html = _preview(client_in, match, {"contract_type": "glissando", "breach": ""}, lang)
    assert expected in html


def test_team_play_with_only_the_contract_lists_order_declarer_and_level(client_in, make_match):
    match = make_match("muzicando", 4)
    html = _preview(client_in, match, {"contract_type": "glissando", "breach": ""})
    assert "Still missing: finishing order; declarer; level" in html


def test_nothing_tapped_lists_the_order_and_the_contract(client_in, make_match):
    match = make_match("muzicando", 4)
    html = _preview(client_in, match, {"breach": ""})
    assert "Still missing: finishing order; contract" in html


def test_a_complete_contract_leaves_only_the_order(client_in, make_match):
    match = make_match("muzicando", 3, {"mode": "individual"})
    data = {"contract_type": "glissando", "declarer": "1", "breach": "", "order.0": "1"}
    html = _preview(client_in, match, data)
    assert "Still missing: finishing order</li>" in html
