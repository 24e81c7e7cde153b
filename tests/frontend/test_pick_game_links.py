"""The game picker: every "rules" link has its own accessible name, the game's (WCAG 2.4.4, link purpose), and the
name still holds the visible word (2.5.3, label in name)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.utils import translation

from scoring.selectors import ruleset_list

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after():
    """A Hungarian request activates Hungarian in this thread: put the language back for the next test."""
    with translation.override("en"):
        yield


class _Links(HTMLParser):
    """Each link's accessible name: its aria-label, else its text."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []  # (href, name)
        self._open: list[str] | None = None
        self._attrs: dict[str, str | None] = {}

    def handle_starttag(self, tag: str, attrs: list) -> None:  # type: ignore[type-arg]
        if tag == "a":
            self._attrs, self._open = dict(attrs), []

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._open is not None:
            text = " ".join("".join(self._open).split())
            self.links.append((self._attrs.get("href") or "", self._attrs.get("aria-label") or text))
            self._open = None


@pytest.mark.parametrize(
    ("lang", "word", "name"), [("en", "rules", "{game} rules"), ("hu", "szabályok", "{game} – szabályok")]
)
def test_each_rules_link_is_named_after_its_game(client_in, group, lang, word, name):
    html = client_in.get(f"/groups/{group.pk}/matches/new", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    parser = _Links()
    parser.feed(html)
    found = {href: label for href, label in parser.links if href.startswith("/rules/") and href != "/rules/"}
    expected = {f"/rules/{r.key}/": name.format(game=r.name) for r in ruleset_list()}
    assert found == expected
    assert len(set(found.values())) == len(found)
    assert all(word in label for label in found.values())
