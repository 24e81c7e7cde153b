"""The trick referee's sentences: every message renders in English and through a translation, colour ids
become colour names, plural forms come from the count (no "card(s)"), and a wrong trick size is one whole
sentence per shape ("3 or 4", "2 to 5") that a translation can word itself."""

from __future__ import annotations

import re
import string

import pytest

from scoring.rules import InvalidRound, tricks
from scoring.rules.tricks_messages import KINDS, MESSAGES
from scoring.rules.types import Plural


def _params(template: str) -> dict[str, object]:
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    return {name: ("blue" if name in KINDS else 2) for name in names}


@pytest.mark.parametrize("msg", sorted(MESSAGES))
def test_every_message_renders_in_english_and_through_a_translation(msg: str) -> None:
    params = _params(MESSAGES[msg])
    english = tricks.render(msg, params)
    assert "{" not in english and "(s)" not in english
    through = tricks.render(msg, params, translate=lambda t: t, ntranslate=lambda s, p, n: s if n == 1 else p)
    assert through == english


def test_colour_params_become_names_in_the_translation() -> None:
    names = {"blue": "kék", "yellow": "sárga"}
    text = tricks.render(
        "tricks.role_trump_number", {"colour": "yellow", "value": 5}, translate=lambda t: names.get(t, t)
    )
    assert text == "sárga 5: trump number (a trump, not a sárga card)."
    text = tricks.render("tricks.led_colour", {"colour": "blue", "value": 9, "led": "blue"}, translate=lambda t: t)
    assert text == "No trump in the trick: blue 9 is the highest card of the led colour, blue."


@pytest.mark.parametrize(
    ("msg", "count", "one", "many"),
    [
        ("tricks.illegal_colour", "held", "1 card of it.", "2 cards of it."),
        ("tricks.illegal_trump", "held", "1 trump.", "2 trumps."),
        ("tricks.illegal_meinz", "held", "1 card of the led colour.", "2 cards of the led colour."),
        ("tricks.meinz_claim", "after", "when 1 card lay", "when 2 cards lay"),
        ("tricks.meinz_capped", "skipped", "1 card that would beat it belongs", "2 cards that would beat it belong"),
    ],
)
def test_counts_pick_the_plural_form(msg: str, count: str, one: str, many: str) -> None:
    assert isinstance(MESSAGES[msg], Plural) and MESSAGES[msg].count_param == count
    params = {**_params(MESSAGES[msg]), "colour": "red", "led": "red"}
    assert one in tricks.render(msg, {**params, count: 1})
    assert many in tricks.render(msg, {**params, count: 2})
    forms: list[tuple[str, int]] = []
    tricks.render(msg, {**params, count: 1}, ntranslate=lambda s, p, n: forms.append((p, n)) or s)
    assert forms == [(MESSAGES[msg].plural, 1)]  # the language's own plural rule decides (Hungarian: singular)


def test_no_english_template_writes_an_optional_plural() -> None:
    assert [m for m, t in MESSAGES.items() if re.search(r"\(s\)", str(t))] == []


def _size_problem(key: str, cards: int, options: dict[str, object] | None = None) -> tuple[str, dict[str, object]]:
    plays = [{"card": {"colour": c, "value": v}} for c, v in (("red", 5), ("blue", 6), ("red", 6), ("blue", 5))]
    plays += [{"card": {"colour": "yellow", "value": v}} for v in (1, 2, 3)]
    with pytest.raises(InvalidRound) as exc:
        tricks.referee(key, {}, plays[:cards], options=options)
    problem = exc.value.problems[0]
    return problem.msg, dict(problem.params)


def test_a_wrong_trick_size_is_one_sentence_per_shape() -> None:
    assert _size_problem("was-sticht", 2) == (
        "tricks.card_count_either",
        {"game": "Was sticht?", "low": 3, "high": 4, "count": 2},
    )
    assert _size_problem("njet", 6) == ("tricks.card_count_range", {"game": "NJET", "low": 2, "high": 5, "count": 6})
    assert _size_problem("njet", 3, {"players": 4}) == (
        "tricks.card_count",
        {"game": "NJET", "expected": 4, "count": 3},
    )
    with pytest.raises(InvalidRound, match=r"A NJET trick has 2 to 5 cards, not 6\."):
        tricks.referee("njet", {}, [{"card": {"colour": "red", "value": v}} for v in range(6)])
