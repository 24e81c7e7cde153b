"""The rules reference: a page per game in English and Hungarian, with an anchor for every rule the
explanations and errors link to, and MÜ's tables printed from the rules module's constants."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from frontend.rulebook import anchor_game, anchors_of
from scoring import rules
from scoring.rules import mue_tables
from scoring.selectors import ruleset_list

KEYS = [r.key for r in ruleset_list()]


def _ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


@pytest.mark.parametrize("language", ["en", "hu"])
@pytest.mark.parametrize("key", KEYS)
def test_every_section_anchor_exists_in_both_languages(client, key: str, language: str) -> None:
    response = client.get(reverse("rules_game", args=[key]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    assert f"frontend/rules/{key}.{language}.html" in {t.name for t in response.templates}
    ids = _ids(html)
    missing = [anchor for anchor in rules.get(key).sections if anchor not in ids]
    assert missing == []
    assert [a for a in anchors_of(key) if a not in ids] == []  # the trick referee's anchors too


def test_every_anchor_has_a_home() -> None:
    from scoring.rules import tricks

    for anchor in tricks.SECTIONS:
        assert anchor == "tricks-input" or anchor_game(anchor) in KEYS, anchor


def test_the_referee_input_anchor_is_on_the_index(client) -> None:
    assert "tricks-input" in _ids(client.get(reverse("rules")).content.decode())


@pytest.mark.parametrize("language", ["en", "hu"])
def test_mue_tables_come_from_the_module(client, language: str) -> None:
    html = client.get(reverse("rules_game", args=["mue"]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    targets = html[html.index('id="mue-target-table"') :]
    targets = targets[: targets.index("</table>")]
    for bid, row in mue_tables.TARGETS.items():
        cells = "".join(f'<td class="n">{"–" if v is None else v}</td>' for v in row)
        assert f'<th scope="row">{bid}</th>{cells}' in targets
    bonuses = html[html.index('id="mue-bonus-table"') :]
    bonuses = bonuses[: bonuses.index("</table>")]
    for bid, row in mue_tables.BONUSES.items():
        cells = "".join(f'<td class="n">{v}</td>' for v in row)
        assert f"{bid}</th>{cells}" in bonuses
