"""Filling message templates: players by name, ids as labels, plurals, one minus sign, the Hungarian article."""

from __future__ import annotations

import pytest

from scoring import rules
from scoring.rules.types import NP_, PLAYER, Plural
from scoring.rules.wording import Word, article, fill, seat_name, with_article


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        (1, "az"),
        ("1.", "az"),
        (2, "a"),
        ("2.", "a"),
        (5, "az"),
        (10, "a"),
        (11, "a"),
        (19, "a"),
        (50, "az"),
        (55, "az"),
        (100, "a"),
        (150, "a"),
        (500, "az"),
        (1000, "az"),
        ("1 000", "az"),
        (1999, "az"),
        (10000, "a"),
        (100000, "a"),
        (1000000, "az"),
        (0, "a"),
        ("007", "a"),
        (-1, "a"),
        ("−5", "a"),
        ("Anna", "az"),
        ("Éva", "az"),
        ("ötös", "az"),
        ("Bence", "a"),
        ("„Ödön”", "az"),
        ("", "a"),
        ("  ", "a"),
    ],
)
def test_article_follows_the_sound_of_the_next_word(word, expected) -> None:
    assert article(word) == expected


def test_with_article_and_the_format_spec() -> None:
    assert with_article("1.") == "az 1."
    assert with_article(3, capital=True) == "A 3"
    assert f"{Word(1):a}. helyen" == "az 1. helyen"
    assert f"{Word('Éva'):A}" == "Az Éva"
    assert f"{Word('kék'):aq}" == "a „kék”"
    assert f"{Word('óra'):Aq}" == "Az „óra”"
    assert f"{Word(7):>3}" == "  7"
    assert str(Word(-4)) == "−4"
    assert f"{Word(-4):a}" == "a −4"
    assert str(Word(True)) == "True"


def test_seat_names_and_the_neutral_fallback() -> None:
    assert seat_name(1, ["Anna", "Bence"]) == "Bence"
    assert seat_name(0) == "player 1"
    assert seat_name(5, ["Anna"]) == "player 6"
    assert seat_name(True, ["Anna", "Bence"]) == "player True"
    assert seat_name("x", ["Anna"], translate=lambda t: t.replace("player", "játékos")) == "játékos x"


def _mark(text: str) -> str:
    return "»" + text


def test_fill_names_players_and_labels_ids() -> None:
    labels = {"g.task.a-1": "First task", "g.task.b": "Second task"}
    kinds = {"seat": PLAYER, "task": "g.task"}
    template = "{seat} took {task} ({n})"
    assert fill(template, {"seat": 1, "task": "a-1", "n": -2}, kinds=kinds, labels=labels, names=["A", "B"]) == (
        "B took First task (−2)"
    )
    assert fill(template, {"seat": 0, "task": "a-1, b", "n": 0}, kinds=kinds, labels=labels) == (
        "player 1 took First task, Second task (0)"
    )
    marked = fill(template, {"seat": 0, "task": "a-1, b", "n": 0}, kinds=kinds, labels=labels, translate=_mark)
    assert marked == "»»player 1 took »First task, »Second task (0)"
    assert fill(template, {"seat": 0, "task": "zzz", "n": 1}, kinds=kinds, labels=labels) == "player 1 took zzz (1)"
    assert fill("{task}", {"task": "a-1"}, kinds=kinds) == "a-1"
    both = {"task": "g.task", "n": "g.task"}
    assert fill("{task} {n}", {"task": 7, "n": True}, kinds=both, labels=labels) == "7 True"
    cards = fill("{c}", {"c": "red 2 + red 5"}, kinds={"c": "g.colour"}, labels={"g.colour.red": "piros"})
    assert cards == "piros 2 + piros 5"
    assert fill("{x}", {"x": 3}) == "3"


def test_fill_picks_the_plural_form() -> None:
    template = NP_("{count} card", "{count} cards")
    assert isinstance(template, Plural) and template.plural == "{count} cards" and template.count_param == "count"
    assert fill(template, {"count": 1}) == "1 card"
    assert fill(template, {"count": 0}) == "0 cards"
    assert fill(template, {"count": "many"}) == "many cards"
    assert fill(template, {"count": 2}, translate=_mark) == "»2 cards"
    seen = []

    def ngettext(singular: str, plural: str, n: int) -> str:
        seen.append((singular, plural, n))
        return "{count} lap"

    assert fill(template, {"count": 3}, translate=_mark, ntranslate=ngettext) == "3 lap"
    assert seen == [("{count} card", "{count} cards", 3)]


def test_ruleset_render_names_the_players() -> None:
    muzicando = rules.get("muzicando")
    params = {"seat": 2, "place": 1}
    assert muzicando.render("muzicando.placement", params) == "player 3 finished in place 1."
    assert muzicando.render("muzicando.placement", params, names=["A", "B", "Cili"]) == "Cili finished in place 1."
    was = rules.get("was-sticht")
    text = was.render("was-sticht.start_both", {"owner": 1, "task": "exactly-2"}, names=["A", "Bence"])
    assert text == "Bence fulfilled “Exactly 2 tricks” too, so only Bence returns it."


def test_complaints_name_players_without_seat_numbers() -> None:
    coloretto = rules.get("coloretto")
    facts = {colour: [0, 0, 0] for colour in ("yellow", "orange", "red", "green", "blue", "brown", "grey")}
    facts.update(jokers=[0, 0, 0], plus_twos=[0, 0, 0], removed_colour="grey")
    facts["green"] = [20, 0, 0]
    with pytest.raises(rules.InvalidRound) as caught:
        coloretto.score(facts, players=3)
    texts = [p.text for p in caught.value.problems]
    assert "Give a whole number of cards from 0 to 9." in texts
    assert all("Seat" not in text for text in texts)


@pytest.mark.parametrize("language", ["en", "hu"])
def test_templates_of_bare_fields_fill_as_the_word_wrapper_would(language, monkeypatch) -> None:
    """Bare ``{name}`` templates skip the Word wrapper: every message of every game, in English and in Hungarian,
    with negative and positive numbers, text and players, reads the same either way."""
    from django.utils import translation

    from scoring.rules import wording

    def filled(ruleset: rules.Ruleset, msg: str, params: dict[str, object]) -> str:
        return ruleset.render(
            msg, params, translation.gettext, names=["Éva", "Ödön", "Bori", "Dani"], ntranslate=translation.ngettext
        )

    checked = 0
    with translation.override(language):
        for ruleset in rules.all_rulesets():
            for msg, template in ruleset.messages.items():
                fields = {name for _lit, name, _spec, _conv in wording.Formatter().parse(str(template)) if name}
                for sample in (-5, 7, 0, "red", 1):
                    params: dict[str, object] = dict.fromkeys(fields, sample)
                    try:
                        fast = filled(ruleset, msg, params)
                    except (KeyError, IndexError, ValueError, TypeError) as exc:
                        fast = repr(exc)
                    with monkeypatch.context() as patched:
                        patched.setattr(wording, "_plain_fields", lambda text: False)
                        try:
                            slow = filled(ruleset, msg, params)
                        except (KeyError, IndexError, ValueError, TypeError) as exc:
                            slow = repr(exc)
                    assert fast == slow, (ruleset.key, msg, sample)
                    checked += 1
    assert checked > 500
    assert fill("{a} and {b}", {"a": -3, "b": Word(2)}) == "−3 and 2"


def test_a_broken_template_is_refused_as_before() -> None:
    with pytest.raises(ValueError):
        fill("{unclosed", {"unclosed": 1})
