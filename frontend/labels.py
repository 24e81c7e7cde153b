"""Human words for the ids the rules engine uses (colours, option choices, task cards…), in both languages.

The rules engine speaks in ids ("two_no_zero", "no-red"); the UI shows these labels. Unknown ids fall
back to the id itself, so a new choice in a game module never breaks a page.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

COLOURS: dict[str, Any] = {
    "red": _("red"),
    "black": _("black"),
    "blue": _("blue"),
    "yellow": _("yellow"),
    "green": _("green"),
    "orange": _("orange"),
    "brown": _("brown"),
    "grey": _("grey"),
    "purple": _("purple"),
    "white": _("white"),
    "pink": _("pink"),
}

# Colour swatches for chips (decorative only: the colour's name is always written next to it).
SWATCHES: dict[str, str] = {
    "red": "#d32f2f",
    "black": "#212121",
    "blue": "#1565c0",
    "yellow": "#f9c80e",
    "green": "#2e7d32",
    "orange": "#ef6c00",
    "brown": "#6d4c41",
    "grey": "#9e9e9e",
    "purple": "#7b1fa2",
    "white": "#fafafa",
    "pink": "#ec407a",
}

# Option choices, by option key then choice id.
CHOICES: dict[str, dict[str, Any]] = {
    "recording": {"full": _("full team totals"), "difference": _("only the difference")},
    "tie_rule": {
        "english": _("English edition: the last of equal cards wins"),
        "hungarian": _("Hungarian edition: the earlier of equal cards wins"),
    },
    "monster": {"counts": _("the monster's sum is ranked"), "fixed": _("the monster always takes the 3")},
    "exactly_split": {"even": _("two of each"), "free": _("any split")},
    "mode": {
        "base": _("base game"),
        "advanced": _("advanced"),
        "master": _("master"),
        "duel": _("duel (2 players)"),
        "team": _("teams (4 players)"),
        "individual": _("individual"),
    },
    "individual_contract": {
        "chooser": _("the chooser, if he goes out first (otherwise he loses it)"),
        "winner": _("whoever goes out first"),
        "unconditional": _("the chooser, always"),
    },
    "team_breach": {"scored": _("scored"), "void": _("void")},
    "joker_rule": {"held": _("a colour the player already has"), "any": _("any colour")},
    "variant": {
        "classic": _("classic"),
        "reverse": _("reverse"),
        "gentle": _("gentle"),
        "heavy": _("heavy"),
        "foggy": _("foggy"),
        "delayed": _("delayed"),
        "hattrick": _("Hattrick"),
    },
}

NJET_DISCARDS: dict[str, Any] = {
    "one": _("discard 1 card"),
    "two": _("discard 2 cards"),
    "two_no_zero": _("discard 2, no 0"),
    "pass": _("pass 2 to the right"),
    "none": _("NJET: nothing"),
}

WAS_STICHT_TASKS: dict[str, Any] = {
    "betli": _("Betli (no trick)"),
    "no-red": _("no red"),
    "no-blue": _("no blue"),
    "no-green": _("no green"),
    "no-yellow": _("no yellow"),
    "exactly-1": _("exactly 1 trick"),
    "exactly-2": _("exactly 2 tricks"),
    "exactly-3": _("exactly 3 tricks"),
    "exactly-4": _("exactly 4 tricks"),
    "last-trick": _("the last trick"),
    "most": _("the most tricks"),
    "fewest": _("the fewest tricks"),
}

MUZICANDO_TYPES: dict[str, Any] = {
    "sarabanda": pgettext_lazy("muzicando", "Sarabanda"),
    "glissando": pgettext_lazy("muzicando", "Glissando"),
    "parada": pgettext_lazy("muzicando", "Parada"),
    "muzicando": pgettext_lazy("muzicando", "Muzicando"),
}

ABLUXXEN_ENDS: dict[str, Any] = {
    "out": _("a player played his last hand card"),
    "exhausted": _("the draw pile and the market ran out"),
}


def colour(value: Any) -> Any:
    return COLOURS.get(str(value), value)


def choice(option: str, value: Any) -> Any:
    return CHOICES.get(option, {}).get(str(value), value)


def choices(option: str, values: Any) -> list[tuple[str, Any]]:
    return [(str(v), choice(option, v)) for v in values]
