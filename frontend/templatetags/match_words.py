"""Template helpers for how a match is named in lists and headers: game, variant and options, winners."""

from __future__ import annotations

from typing import Any

from django import template

from frontend.entry import labels
from scoring import rules

register = template.Library()


def _ruleset(match: Any) -> Any:
    try:
        return rules.get(match.ruleset)
    except (KeyError, ModuleNotFoundError):
        return None


@register.filter
def game_title(match: Any) -> str:
    """ "Sticheln — heavy": the game's name with the options that say how it is played."""
    ruleset = _ruleset(match)
    if ruleset is None:
        return str(match.ruleset)
    return labels.game_title(ruleset, match.options)


@register.filter
def winner_names(match: Any) -> list[str]:
    """The names of the seats the rules named winners (none while open or when finished by hand early)."""
    seats = {seat.number: seat.player.name for seat in match.seats.all()}
    return [seats[w] for w in (match.winners or []) if w in seats]
