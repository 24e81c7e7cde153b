"""Hungarian coverage: every UI page and every rules-engine message template has a Hungarian version."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from scoring import rules
from scoring.rules.types import Plural
from scoring.selectors import ruleset_list

# Strings that read the same in Hungarian (names, formulas).
SAME = {"Hattrick", "Hattrick Sticheln", "Joker → {colour}", "{cards} = {total}", "{colour} {value}: trump."}


def _engine_texts() -> list[str]:
    from scoring.rules import tricks

    texts = list(rules.MESSAGES.values()) + list(tricks.MESSAGES.values()) + list(tricks.SECTIONS.values())
    for ruleset in ruleset_list():
        texts += list(ruleset.messages.values()) + list(ruleset.sections.values())
        texts += [spec.label for spec in ruleset.options]
    return sorted(set(texts))


def _hu(text: str, n: int = 2) -> str:
    """The Hungarian of an engine template (a plural one through ngettext, for ``n``)."""
    if isinstance(text, Plural):
        return translation.ngettext(str(text), text.plural, n)
    return translation.gettext(text)


def test_every_rules_engine_message_is_translated() -> None:
    untranslated = []
    with translation.override("hu"):
        for text in _engine_texts():
            english = {str(text), getattr(text, "plural", str(text))}
            if any(_hu(text, n) in english for n in (1, 2)) and text not in SAME:
                untranslated.append(text)
    assert untranslated == []


def test_translations_keep_the_placeholders() -> None:
    import string

    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    with translation.override("hu"):
        for text in _engine_texts():
            for n in (1, 2):
                assert fields(_hu(text, n)) == fields(text), text


@pytest.mark.django_db
def test_hungarian_when_the_browser_prefers_it(client) -> None:
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="hu-HU,hu;q=0.9,en;q=0.8").content.decode()
    assert '<html lang="hu">' in html
    assert "Belépés" in html and "Regisztráció" in html


@pytest.mark.django_db
def test_the_language_can_be_switched(client) -> None:
    response = client.post(reverse("set_language"), {"language": "hu", "next": "/rules/"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302
    html = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Szabálygyűjtemény" in html
    client.post(reverse("set_language"), {"language": "en", "next": "/rules/"})
    assert "Rules reference" in client.get("/rules/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()


@pytest.mark.django_db
def test_refused_round_explains_in_hungarian(client_in, make_match) -> None:
    match = make_match("njet")
    data = {"start_player": "0", "partner": ["1"], "discard": "none", "points_per_trick": "1"}
    data.update({f"tricks.{s}": "5" for s in range(4)})
    response = client_in.post(
        reverse("round_new", args=[match.pk]), data, HTTP_ACCEPT_LANGUAGE="hu", HTTP_X_REQUESTED_WITH="fetch"
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Az ütések összege 15 kell legyen (fejenként 15 lap, 0 eldobva), nem 20." in html
    assert 'href="/rules/njet/#njet-tricks"' in html
