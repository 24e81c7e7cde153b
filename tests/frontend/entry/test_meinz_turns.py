"""Meinz: the match page names who dealt and who led every played round, and both for the next round; with
three players the monster leads rounds 3 and 7 ("mindenki – a szörny is! – kétszer lesz kezdőjátékos")."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.utils import translation

from scoring import services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after():
    """A Hungarian request activates Hungarian in this thread: put the language back for the next test."""
    with translation.override("en"):
        yield


FACTS = {"sums": [51, 38, 37], "monster_sum": 31}


class _Tables(HTMLParser):
    """Every table's rows as lists of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:  # type: ignore[type-arg]
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self.tables and self.tables[-1]:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _rounds_table(html: str, dealer: str, starter: str) -> dict[str, tuple[str, str]]:
    """Round number → (dealer, start player), read from the table whose header has those two columns."""
    parser = _Tables()
    parser.feed(html)
    for table in parser.tables:
        head = table[0]
        if dealer in head and starter in head:
            d, s = head.index(dealer), head.index(starter)
            return {row[0]: (row[d], row[s]) for row in table[1:]}
    raise AssertionError(f"no rounds table with the columns {dealer!r} and {starter!r}")


def _text(html: str) -> str:
    return " ".join(html.replace("<strong>", "").replace("</strong>", "").split())


@pytest.mark.parametrize(
    ("lang", "dealer", "starter", "monster", "next_dealer", "next_starter"),
    [
        ("en", "Dealer", "Start player", "the monster", "Next dealer: Anna", "Start player: Anna"),
        ("hu", "Osztó", "Kezdőjátékos", "a szörny", "Következő osztó: Anna", "Kezdőjátékos: Anna"),
    ],
)
def test_three_players_every_round_names_dealer_and_start_player(
    client, user, make_match, lang, dealer, starter, monster, next_dealer, next_starter
):
    match = make_match("meinz", 3)
    for _ in range(3):
        services.round_record(match=match, facts=FACTS, user=user)
    client.force_login(user)
    html = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()

    turns = _rounds_table(html, dealer, starter)
    # the dealer's left neighbour leads; after the last seat comes the monster
    assert turns == {"3": ("Cili", monster), "2": ("Bence", "Cili"), "1": ("Anna", "Bence")}
    # round 4: Anna deals again and leads (the monster sat between Cili and Anna)
    assert next_dealer in _text(html)
    assert next_starter in _text(html)


def test_four_players_next_round_names_both(client, user, make_match):
    match = make_match("meinz", 4)
    services.round_record(match=match, facts={"sums": [51, 38, 37, 31]}, user=user)
    client.force_login(user)
    html = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert _rounds_table(html, "Dealer", "Start player") == {"1": ("Anna", "Bence")}
    assert "Next dealer: Bence" in _text(html) and "Start player: Cili" in _text(html)


def test_before_any_round_the_board_names_the_first_start_player(client, user, make_match):
    match = make_match("meinz", 4)
    client.force_login(user)
    html = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Start player: Bence" in _text(html)  # round 1: the dealer's left neighbour
