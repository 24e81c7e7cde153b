"""What do I need on the board and the stakes on the MÜ and NJET entry forms (the pages, in English and Hungarian)."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from scoring import services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after():
    with translation.override("en"):
        yield


def text(html: str) -> str:
    return unescape(html)


def meinz_with_two_rounds_left(make_match: Any, user: Any) -> Any:
    match = make_match("meinz", 4)
    for _ in range(5):
        services.round_record(match=match, facts={"sums": [51, 38, 37, 31]}, user=user)
    services.round_record(match=match, facts={"sums": [40, 40, 39, 34]}, user=user)  # 15, 5, 0, 12
    return match


@pytest.mark.parametrize(
    ("lang", "heading", "sentences"),
    [
        (
            "en",
            "What each player needs",
            [
                "Anna leads by 3.",
                "Bence can no longer win: 10 behind Anna, and the last 2 rounds can make up at most 6.",
                "Cili can no longer win: 15 behind Anna, and the last 2 rounds can make up at most 6.",
                "Dani needs 3 more than Anna in the last 2 rounds.",
                "Only Anna and Dani can still win.",
            ],
        ),
        (
            "hu",
            "Mi kell még a győzelemhez?",
            [
                "Anna vezet 3 ponttal.",
                "Bence már nem nyerhet: 10 ponttal Anna mögött áll, és a hátralévő 2 kör legfeljebb 6 pontot hozhat "
                "be.",
                "Dani: az utolsó 2 körben 3 ponttal többet kell szereznie, mint Anna.",
                "Már csak Anna és Dani nyerhet.",
            ],
        ),
    ],
)
def test_the_board_says_what_each_player_needs(client_in, make_match, user, lang, heading, sentences):
    match = meinz_with_two_rounds_left(make_match, user)
    for url in (reverse("match", args=[match.pk]), reverse("match_board", args=[match.pk])):
        page = text(client_in.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode())
        assert heading in page
        for sentence in sentences:
            assert sentence in page


def test_no_outlook_before_the_first_round(client_in, make_match):
    match = make_match("meinz", 4)
    page = client_in.get(reverse("match", args=[match.pk])).content.decode()
    assert 'id="outlook"' not in page


def stakes_page(client: Any, match: Any, data: dict[str, Any], lang: str = "en") -> str:
    response = client.post(reverse("round_stakes", args=[match.pk]), data, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return text(response.content.decode())


def test_the_mue_form_shows_the_stakes_once_chief_and_bid_are_set(client_in, make_match):
    match = make_match("mue", 5)
    assert stakes_page(client_in, match, {"outcome": "played", "chief": "3"}).strip() == ""
    page = stakes_page(client_in, match, {"outcome": "played", "chief": "3", "bid": "4", "vice": "2"})
    assert "At stake this round" in page
    assert "Dani (chief) bid 4: with a partner, Dani needs 33 triangles." in page
    assert "Bonus by the chief's trump: colour 40, 1 or 7 50, other number 60, no trump 70." in page
    row = page[page.index('data-role="chief"') :]
    assert row.index("+40 to +70") < row.index("−10") < row.index("−40") < row.index("</tr>")
    hungarian = stakes_page(
        client_in, match, {"outcome": "played", "chief": "3", "bid": "4", "vice": "2", "partner": "0"}, "hu"
    )
    assert "Mi a tét ebben a körben" in hungarian
    assert "Dani (főnök) licitje 4: Dani és Anna együtt 33 háromszöget kell szerezniük." in hungarian
    assert "Cili (helyettes)" in hungarian


def test_the_njet_form_shows_what_a_trick_is_worth(client_in, make_match):
    match = make_match("njet", 3)
    data = {"start_player": "1", "points_per_trick": "3", "discard": "none", "partner": "2", "monster": "0"}
    page = stakes_page(client_in, match, data)
    assert "Each trick or captured 0 of Bence or Cili: +3 each for Bence and Cili." in page
    assert "Each trick or captured 0 of Anna (monster card): +6 for Anna." in page
    hungarian = stakes_page(client_in, match, data, "hu")
    assert "Anna (szörnykártya) minden ütése vagy zsákmánya: +6 (Anna)." in hungarian


def test_the_entry_forms_carry_the_stakes_block_for_mue_and_njet_only(client_in, make_match):
    for ruleset, count, expected in (("mue", 4, True), ("njet", 4, True), ("meinz", 4, False)):
        match = make_match(ruleset, count)
        page = client_in.get(reverse("match", args=[match.pk])).content.decode()
        assert ('id="stakes"' in page) is expected
        if expected:
            assert reverse("round_stakes", args=[match.pk]) in page


def test_the_stakes_of_another_game_are_empty(client_in, make_match):
    match = make_match("coloretto", 3)
    assert stakes_page(client_in, match, {}).strip() == ""
