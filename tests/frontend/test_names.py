"""People, not seats: explanations, refusals and history name the players, in English and Hungarian; ids show as
labels; counts take ngettext's plural; one minus sign; the Hungarian article follows the word after it."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from frontend.entry.fields import field_phrase, missing_phrase
from frontend.history import facts_diff
from scoring import rules
from scoring.models import Round
from scoring.services.calculator import ruleset_score

NAMES = ["Anna", "Bence", "Cili", "Dani", "Emil"]
SEAT_PATTERN = re.compile(r"\b(seat|Seat|hely|player|játékos)\s*\d|\d+\.\s*játékos\b|A\(z\)|a\(z\)")
RAW_IDS = ("last-trick", "exactly-", "no-red", "no-blue", "no-green", "no-yellow")

# Extra sample rounds beyond each module's example: the individual Muzicando deal and a breach, with seats in
# the explanations.
SAMPLES: list[tuple[str, int, dict, dict]] = [
    (key, rules.get(key).example["players"], rules.get(key).example["options"], rules.get(key).example["facts"])
    for key in rules.KEYS
] + [
    (
        "muzicando",
        4,
        {"mode": "individual", "bidding": False, "individual_contract": "chooser"},
        {"order": [2, 0, 1, 3], "holding": [3], "contract": {"type": "parada"}, "breach": None},
    ),
    ("muzicando", 4, {"mode": "team"}, {"order": [2, 1, 0, 3], "holding": [], "contract": None, "breach": 1}),
]


def _texts(key: str, players: int, options: dict, facts: dict) -> list[str]:
    result = ruleset_score(ruleset=rules.get(key), players=NAMES[:players], options=options, facts=facts)
    return [line["text"] for line in result["explanation"]]


@pytest.mark.parametrize("language", ["en", "hu"])
@pytest.mark.parametrize(("key", "players", "options", "facts"), SAMPLES, ids=[s[0] for s in SAMPLES])
def test_explanations_name_players_never_seats(language, key, players, options, facts) -> None:
    with translation.override(language):
        texts = _texts(key, players, options, facts)
    assert texts
    for text in texts:
        assert not SEAT_PATTERN.search(text), text
        assert not any(raw in text for raw in RAW_IDS), text
        assert "(s)" not in text, text
        assert not re.search(r"= -\d", text), text


def test_muzicando_individual_deal_names_the_players_in_both_languages() -> None:
    key, players, options, facts = SAMPLES[-2]
    with translation.override("en"):
        english = _texts(key, players, options, facts)
    with translation.override("hu"):
        hungarian = _texts(key, players, options, facts)
    assert "Cili finished in place 1." in english
    assert "Anna finished in place 2." in english
    assert "Contract Parada failed (Cili went out first): −3" in english
    assert "Cili az 1. helyen végzett." in hungarian
    assert "Anna a 2. helyen végzett." in hungarian
    assert "Dani kezében lap maradt: −1" in hungarian
    assert "A Parada vállalás bukott (Cili szállt ki elsőként): −3" in hungarian


def test_muzicando_breach_names_the_player() -> None:
    key, players, options, facts = SAMPLES[-1]
    with translation.override("en"):
        assert "Rule breach by Bence: the team loses 12." in _texts(key, players, options, facts)
    with translation.override("hu"):
        assert "Bence szabályt sértett: a csapat 12 pontot veszít." in _texts(key, players, options, facts)
    void = {**options, "team_breach": "void"}
    with translation.override("en"):
        assert "The deal is void after Bence's rule breach." in _texts(key, players, void, facts)
    with translation.override("hu"):
        assert "Az osztás érvénytelen, mert Bence szabályt sértett." in _texts(key, players, void, facts)


def test_was_sticht_round_shows_task_labels_and_names() -> None:
    ruleset = rules.get("was-sticht")
    example = ruleset.example
    with translation.override("en"):
        texts = _texts("was-sticht", 4, example["options"], example["facts"])
        text = ruleset.render(
            "was-sticht.start_both", {"owner": 1, "task": "exactly-2"}, names=NAMES, translate=translation.gettext
        )
    assert text == "Bence fulfilled “Exactly 2 tricks” too, so only Bence returns it."
    assert "Exactly 2 tricks: took 2 — fulfilled." in texts
    with translation.override("hu"):
        text = ruleset.render(
            "was-sticht.task_not_held",
            {"seat": 2, "task": "last-trick", "held": "betli, most"},
            names=NAMES,
            translate=translation.gettext,
        )
    assert text == "Cili kezében nincs „Az utolsó ütés” feladat (nála van: Betli (egy ütés sem), A legtöbb ütés)."


def test_colour_and_variant_ids_show_as_hungarian_words() -> None:
    example = rules.get("sticheln").example
    with translation.override("hu"):
        texts = " ".join(_texts("sticheln", 4, example["options"], example["facts"]))
        variant = rules.get("sticheln").render(
            "sticheln.facts_variant", {"variant": "gentle"}, translate=translation.gettext
        )
    assert "piros 2 + piros 5 + választólap piros 4 = −11" in texts
    assert not re.search(r"\b(red|blue|green|yellow)\b", texts)
    assert "gentle" not in variant


def test_plurals_follow_the_count_in_both_languages() -> None:
    coloretto = rules.get("coloretto")
    with translation.override("en"):
        one = coloretto.render(
            "coloretto.plus_twos", {"count": 1}, translate=translation.gettext, ntranslate=translation.ngettext
        )
        three = coloretto.render(
            "coloretto.colour_plus",
            {"count": 3, "colour": "green", "value": 6},
            translate=translation.gettext,
            ntranslate=translation.ngettext,
        )
    assert (one, three) == ("1 “+2” card × 2", "green: 3 cards → +6")
    with translation.override("hu"):
        one = coloretto.render(
            "coloretto.plus_twos", {"count": 1}, translate=translation.gettext, ntranslate=translation.ngettext
        )
        three = coloretto.render(
            "coloretto.colour_plus",
            {"count": 3, "colour": "green", "value": 6},
            translate=translation.gettext,
            ntranslate=translation.ngettext,
        )
    assert (one, three) == ("1 „+2” lap × 2", "zöld: 3 lap → +6")
    njet = rules.get("njet")
    with translation.override("en"):
        text = njet.render("njet.team_total", {"haul": 5, "per_trick": 1, "total": 5}, ntranslate=translation.ngettext)
    assert text == "Team: 5 (tricks and zeros) × 1 point = 5"


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("{{ 1|az }}", "az 1"),
        ("{{ 2|az }}", "a 2"),
        ("{{ 5|az }}", "az 5"),
        ("{{ 50|az }}", "az 50"),
        ("{{ 1000|az }}", "az 1000"),
        ("{{ 10|az }}", "a 10"),
        ("{{ 'Éva'|az:True }}", "Az Éva"),
        ("{{ 'Bence'|az }}", "a Bence"),
        ("{{ -3|num }}", "−3"),
        ("{{ 0|num }}", "0"),
        ("{{ 12|num }}", "12"),
        ("{{ None|num }}", "–"),
        ("{{ 'x'|num }}", "x"),
        ("{{ -2.5|floatformat:1|num }}", "−2.5"),
        ("{{ 'a-1'|num }}", "a-1"),
    ],
)
def test_article_and_minus_filters(template, expected) -> None:
    with translation.override("en"):  # floatformat follows the active language's decimal separator
        assert Template("{% load sk %}" + template).render(Context()) == expected


def test_field_phrases_name_player_and_field() -> None:
    with translation.override("en"):
        assert field_phrase("green.2", NAMES) == "Cili, green"
        assert field_phrase("tricks.0", NAMES) == "Anna, tricks"
        assert field_phrase("seats.1.pain", NAMES) == "Bence, pain colour"
        assert field_phrase("trump_colour", NAMES) == "trump colour"
        assert field_phrase("mystery", NAMES) == ""
        assert field_phrase("rounds.3.tricks.1", NAMES) == "round 3: Bence, tricks"
        assert field_phrase("rounds.3", NAMES) == "round 3"
        assert missing_phrase(["tricks.0", "tricks.1", "chief"], NAMES) == "tricks of Anna and Bence; chief"
    with translation.override("hu"):
        assert field_phrase("green.2", NAMES) == "Cili, zöld"
        assert missing_phrase(["tricks.0", "tricks.1", "tricks.2"], NAMES) == "ütések (Anna, Bence és Cili)"


def test_history_lines_name_players_not_seats() -> None:
    with translation.override("en"):
        rows = facts_diff({"chief": 1, "triangles": [10, -5, 0]}, {"chief": 2, "triangles": [10, 5, 0]}, NAMES[:3])
    assert {"field": "chief", "old": "Bence", "new": "Cili"} in rows
    assert {"field": "triangles · Bence", "old": "−5", "new": "5"} in rows
    with translation.override("hu"):
        rows = facts_diff(
            {"contract": {"declarer": 0, "type": "glissando"}, "chosen": [None, "exactly-2"], "discard": "one"},
            {"contract": {"declarer": 1, "type": "parada"}, "chosen": [None, "last-trick"], "discard": "pass"},
            NAMES[:2],
        )
    shown = " | ".join(f"{r['field']}: {r['old']} → {r['new']}" for r in rows)
    assert "felvevő: Anna" in shown and "felvevő: Bence" in shown
    assert "exactly-2" not in shown and "last-trick" not in shown and "glissando" not in shown
    assert "feladatkártya · Bence" in shown


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "where"), [("en", "Anna, green"), ("hu", "Anna, zöld")])
def test_coloretto_refusal_names_player_and_colour_and_stores_nothing(client_in, make_match, language, where) -> None:
    match = make_match("coloretto", 4)
    data = {f"{colour}.{seat}": "0" for colour in rules.get("coloretto").module.COLOURS for seat in range(4)}
    data.update({f"{name}.{seat}": "0" for name in ("jokers", "plus_twos") for seat in range(4)})
    data.update({"yellow.0": "1", "yellow.1": "1", "red.2": "1", "blue.3": "1", "green.0": "10"})
    response = client_in.post(
        reverse("round_new", args=[match.pk]), data, HTTP_ACCEPT_LANGUAGE=language, HTTP_X_REQUESTED_WITH="fetch"
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert f'<a href="#f-green.0">{where}</a>:' in html
    assert re.search(r'id="f-green\.0"[^>]*aria-invalid="true" aria-describedby="err-green\.0"', html)
    assert 'id="err-green.0"' in html
    assert 'aria-describedby="err-green.0" autofocus' in html  # the cursor lands there without scripts too
    assert not re.search(r'id="f-green\.1"[^>]*aria-invalid', html)
    assert Round.objects.filter(match=match).count() == 0


@pytest.mark.django_db
def test_preview_lists_what_is_missing_by_name(client_in, make_match) -> None:
    match = make_match("mue", 4)
    data = {f"triangles.{seat}": "" for seat in range(4)}
    response = client_in.post(reverse("round_preview", args=[match.pk]), data, HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert "Still missing:" in html
    assert "chief" in html and "bid" in html
    assert "This is required." not in html
    with translation.override("hu"):
        response = client_in.post(reverse("round_preview", args=[match.pk]), data, HTTP_ACCEPT_LANGUAGE="hu")
    assert "Még hiányzik:" in response.content.decode()


@pytest.mark.django_db
def test_refused_chip_choice_marks_the_chips_and_names_the_field(client_in, make_match) -> None:
    match = make_match("mue", 4)
    data = {"outcome": "played", "chief": "1", "bid": "3", "vice": "1", "vice_trump": "number:9"}
    data.update({"chief_trump": "colour:green", "partner": "2"})
    data.update({f"triangles.{seat}": str(value) for seat, value in enumerate((15, 15, 15, 15))})
    response = client_in.post(reverse("round_new", args=[match.pk]), data, HTTP_X_REQUESTED_WITH="fetch")
    assert response.status_code == 400
    html = response.content.decode()
    assert '<a href="#f-vice">vice</a>: The chief cannot also be the vice.' in html
    assert re.search(r'<input id="f-vice" type="radio" name="vice" value="0"[^>]*aria-invalid="true"', html)
    assert 'id="err-vice"' in html
    assert Round.objects.filter(match=match).count() == 0


@pytest.mark.django_db
def test_preview_gathers_nothing_entered_yet_by_name(client_in, make_match) -> None:
    match = make_match("sticheln", 3)
    response = client_in.post(reverse("round_preview", args=[match.pk]), {}, HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert "Still missing: chooser card of Anna, Bence and Cili; pain colour of Anna, Bence and Cili" in html
    assert "0 are entered" not in html


@pytest.mark.django_db
def test_muzicando_preview_waits_for_the_finishing_order_then_names_players_not_seats(client_in, make_match) -> None:
    match = make_match("muzicando", 3, {"mode": "individual"})
    url = reverse("round_preview", args=[match.pk])
    base = {"contract_type": "glissando", "declarer": "1"}
    half = client_in.post(url, {**base, "order.0": "1"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Still missing: finishing order" in half
    assert "must name every" not in half
    twice = client_in.post(url, {**base, "order.0": "1", "order.1": "1", "order.2": "0"}).content.decode()
    assert "finishing order: The finishing order must name every player exactly once." in twice
    assert "seat" not in twice
    with translation.override("hu"):
        twice = client_in.post(url, {**base, "order.0": "1", "order.1": "1", "order.2": "0"}, HTTP_ACCEPT_LANGUAGE="hu")
    assert "minden játékos pontosan egyszer" in twice.content.decode()


def test_history_of_a_created_round_goes_player_by_player_in_words() -> None:
    """A new round's facts held per player are listed per player (Sticheln's seats headed by the name), blank
    entries left out, every inner key in words: no "pain_values", "start_return" or "– → –, –"."""
    sticheln = {
        "seats": [
            {"pain": "red", "chooser": {"colour": "red", "value": 4}, "others": 14, "pain_values": [2, 5]},
            {"pain": "blue", "chooser": {"colour": "blue", "value": 0}, "others": 10, "pain_count": 2},
        ]
    }
    was_sticht = {"chosen": [None, "exactly-2"], "colours": [None, None], "start_return": "last-trick"}
    with translation.override("en"):
        rows = facts_diff(None, sticheln, NAMES[:2]) + facts_diff(None, was_sticht, NAMES[:2])
    shown = [f"{r['field']}: {r['old']} → {r['new']}" for r in rows]
    assert shown == [
        "Anna: – → pain colour: red; chooser card: (colour: red, value: 4); other cards: 14; "
        "values of the pain cards: 2, 5",
        "Bence: – → pain colour: blue; chooser card: (colour: blue, value: 0); other cards: 10; pain cards: 2",
        "task card · Bence: – → exactly 2 tricks",
        "task returned by the start player: – → the last trick",
    ]
    with translation.override("hu"):
        rows = facts_diff(None, sticheln, NAMES[:2]) + facts_diff(None, was_sticht, NAMES[:2])
    shown_hu = " | ".join(f"{r['field']}: {r['new']}" for r in rows)
    assert "választólap: (szín: piros, érték: 4)" in shown_hu
    assert "a büntetősínű lapok értékei: 2, 5" in shown_hu
    assert "a kezdőjátékos által visszaadott feladat: az utolsó ütés" in shown_hu
    assert "_" not in shown_hu
