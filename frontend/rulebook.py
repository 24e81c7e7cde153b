"""Where each rule anchor lives in our rules reference, and what it is called.

Anchors come from the game modules' ``SECTIONS`` and from the trick referee's ``SECTIONS``; every one of
them has an ``id`` in the game's reference page (English and Hungarian), which explanations and errors
link to.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.utils.translation import gettext

from scoring import rules
from scoring.selectors import ruleset_list


def _tricks_sections() -> dict[str, str]:
    try:
        from scoring.rules import tricks
    except ImportError:  # the referee module is optional for the rules pages
        return {}
    return dict(tricks.SECTIONS)


@cache
def _titles() -> dict[str, str]:
    titles = dict(_tricks_sections())
    for ruleset in ruleset_list():
        titles.update(ruleset.sections)
    return titles


def anchor_game(anchor: str) -> str | None:
    """The ruleset key whose page holds ``anchor`` (longest key prefix wins: "was-sticht-…")."""
    best = None
    for key in rules.KEYS:
        if anchor.startswith(key + "-") and (best is None or len(key) > len(best)):
            best = key
    return best


def anchor_title(anchor: str) -> str:
    title = _titles().get(anchor)
    return gettext(title) if title else anchor


def anchors_of(key: str) -> list[str]:
    """Every anchor the reference page of ``key`` must hold (game sections and trick sections)."""
    found = [a for a in _titles() if anchor_game(a) == key]
    return found


def games() -> list[dict[str, Any]]:
    return [{"key": r.key, "name": r.name, "min": r.min_players, "max": r.max_players} for r in ruleset_list()]


def in_page_order(anchors: list[str], source: str) -> list[str]:
    """``anchors`` sorted by where their ``id="…"`` stands in the page ``source`` (the contents list follows
    the page); anchors the page does not hold keep their order, after the others."""
    missing = len(source)

    def position(anchor: str) -> int:
        found = source.find(f'id="{anchor}"')
        return missing if found < 0 else found

    return sorted(anchors, key=position)  # stable: equal positions keep the given order
