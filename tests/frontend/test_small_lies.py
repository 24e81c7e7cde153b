"""Small lies the match page told (issue 42): Meinz's impossible sums in one sentence, and Coloretto's board naming
a start player, not a dealer (the book passes the start; nobody deals)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def test_meinz_sums_of_sixty_each_are_refused_in_one_sentence(client_in: Any, make_match: Any) -> None:
    match = make_match("meinz", 4)
    form = {"number": 1, **{f"sums.{seat}": 60 for seat in range(4)}}
    refused = client_in.post(f"/matches/{match.pk}/rounds", form)
    assert refused.status_code == 400
    box = refused.content.decode()
    box = box[box.index('id="entry-errors"') : box.index("</div>", box.index('id="entry-errors"'))]
    assert box.count("<li>") == 1
    assert (
        "The four sums add up to 240, but the four hands hold 32 of the 36 cards (four are laid aside), worth 144 to "
        "176 together." in _text(box)
    )
    assert "Any 3 hands" not in _text(box)


def test_coloretto_board_names_the_start_player_and_no_dealer(client_in: Any, make_match: Any) -> None:
    match = make_match("coloretto", 4, options={"games": 3})
    board = _text(client_in.get(f"/matches/{match.pk}/board").content.decode())
    assert "Starts: Anna" in board
    assert "dealer" not in board.lower()
