"""Reads shared by every part of the read side: the rulesets, a stored explanation line rendered in the reader's
language, and ids taken from URLs and forms."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.http import Http404
from django.utils.translation import gettext, ngettext

from scoring import rules
from scoring.rules import Ruleset
from scoring.text.numbers import parse_whole

logger = logging.getLogger(__name__)


PK_MAX = 2**63 - 1


def _pk(value: Any, *, high: int = PK_MAX) -> int:
    """A primary key (or round number) from a URL; anything that cannot be one is simply not found."""
    number = parse_whole(value, max_digits=19)
    if number is None or not 0 < number <= high:
        raise Http404
    return number


# --- rulesets -----------------------------------------------------------------------------------


def ruleset_list() -> list[Ruleset]:
    """Every ruleset whose game module is installed, in the registry's order."""
    found = []
    for key in rules.KEYS:
        try:
            found.append(rules.get(key))
        except ModuleNotFoundError as exc:  # a game module not written yet (development only)
            if not (exc.name or "").startswith("scoring.rules"):
                raise
            logger.warning("ruleset %s is not available: %s", key, exc)
    return found


def ruleset_get(*, key: str) -> Ruleset:
    """The ruleset for ``key`` or Http404."""
    if key not in rules.KEYS:
        raise Http404
    try:
        return rules.get(key)
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("scoring.rules"):
            raise
        raise Http404 from None


def line_render(
    ruleset: Ruleset, line: dict[str, Any], names: Sequence[str] | None = None, *, rendered: bool = False
) -> dict[str, Any]:
    """A stored explanation line with its text in the active language and the player's name (``rendered``: its
    stored text is already that, worded with these ``names`` in the active language)."""
    try:
        params = line.get("params") or {}
        if rendered:
            text = line["text"]
        else:
            text = ruleset.render(line["msg"], params, translate=gettext, ntranslate=ngettext, names=names)
    except (KeyError, IndexError, ValueError):  # a message of an older ruleset version
        text = line.get("text", "")
    seat = line.get("player")
    name = names[seat] if names is not None and isinstance(seat, int) and 0 <= seat < len(names) else None
    return {**line, "text": text, "player_name": name}
