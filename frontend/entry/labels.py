"""Human words for the ids the rules engine uses (colours, option choices, task cards…), in both languages.

The rules engine speaks in ids ("two_no_zero", "no-red"); the UI shows these labels. Unknown ids fall
back to the id itself, so a new choice in a game module never breaks a page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.html import format_html
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

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
    # Sticheln's variants, by the Hungarian rulebook's own names ("Heves", "Késleltetett" …)
    "variant": {
        "classic": pgettext_lazy("sticheln variant", "classic"),
        "reverse": pgettext_lazy("sticheln variant", "reverse"),
        "gentle": pgettext_lazy("sticheln variant", "gentle"),
        "heavy": pgettext_lazy("sticheln variant", "heavy"),
        "foggy": pgettext_lazy("sticheln variant", "foggy"),
        "delayed": pgettext_lazy("sticheln variant", "delayed"),
        "hattrick": pgettext_lazy("sticheln variant", "Hattrick"),
    },
}

# One sentence per choice, shown under the choice where the rulebook leaves the reading open (Muzicando's
# individual play: the book says only "placement points plus the value of the undertaking").
CHOICE_HELP: dict[str, dict[str, Any]] = {
    "individual_contract": {
        "chooser": _(
            "The player who chose the type of play scores its value if he is the first to lay down all his "
            "cards, and loses as much otherwise, as a team's contract does."
        ),
        "winner": _(
            "The value goes to whoever lays down all his cards first, whoever chose the type; nobody loses it."
        ),
        "unconditional": _(
            "The player who chose the type of play scores its value in every deal, whoever goes out first; "
            "nobody loses it."
        ),
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


_CHOICE_WITH_HELP = '<strong class="choice-name">{}</strong><small class="choice-help">{}</small>'


def choice_help(option: str, value: Any) -> Any:
    return CHOICE_HELP.get(option, {}).get(str(value))


def choices(option: str, values: Any) -> list[tuple[str, Any]]:
    """(value, label) pairs for a choice option; where a choice has a help sentence, the label carries it
    below the choice's name (as HTML, escaped through ``format_html``)."""
    out: list[tuple[str, Any]] = []
    for v in values:
        label, help_text = choice(option, v), choice_help(option, v)
        if help_text is not None:
            label = format_html(_CHOICE_WITH_HELP, label, help_text)
        out.append((str(v), label))
    return out


# --- a match's options in a few words (lists and headers: "Sticheln — heavy") ------------------------------

# Options that say which form of the game is played: always named, even at their default.
HEADLINE_OPTIONS = ("variant", "mode")

# Other options, named only when they differ from the game's default.
OPTION_WORDS: dict[str, dict[str, Any]] = {
    "recording": {"full": _("full totals recorded"), "difference": _("difference recording")},
    "tie_rule": {"english": _("English tie rule"), "hungarian": _("Hungarian tie rule")},
    "monster": {"counts": _("the monster's sum is ranked"), "fixed": _("the monster takes the 3")},
    "exactly_split": {"even": _("two of each exactly-card"), "free": _("exactly-cards in any split")},
    "individual_contract": {
        "chooser": _("the chooser scores if out first"),
        "winner": _("whoever goes out first scores"),
        "unconditional": _("the chooser always scores"),
    },
    "team_breach": {"scored": _("breaches scored"), "void": _("a breach voids the deal")},
    "joker_rule": {"held": _("jokers join a held colour"), "any": _("jokers join any colour")},
    "bidding": {"True": _("bidding with levels"), "False": _("no bidding")},
}


def _int_words(key: str, value: int, label: str) -> str:
    if key == "target":
        return ngettext("to %(n)s point", "to %(n)s points", value) % {"n": value}
    if key == "games":
        return ngettext("%(n)s game", "%(n)s games", value) % {"n": value}
    if key == "deals":
        return ngettext("%(n)s deal", "%(n)s deals", value) % {"n": value}
    return f"{gettext(label)}: {value}"


def option_words(ruleset: Any, options: Mapping[str, Any] | None) -> list[str]:
    """The match's options worth naming, in words of the active language (the ruleset's option order)."""
    return _option_words(ruleset, options, every=False)


def option_words_every(ruleset: Any, options: Mapping[str, Any] | None) -> list[str]:
    """Every option of the match in words that say what it is about ("jokers join a held colour", "to 100
    points"), defaults included: a spreadsheet row must stand on its own.  The per-match set-ups (``json``
    options: Was sticht?'s drafted tasks) are left out."""
    return _option_words(ruleset, options, every=True)


def _option_words(ruleset: Any, options: Mapping[str, Any] | None, *, every: bool) -> list[str]:
    options = options or {}
    words: list[str] = []
    for spec in ruleset.options:
        value = options.get(spec.key, spec.default)
        named = OPTION_WORDS.get(spec.key, {})
        if spec.kind == "json" or (not every and spec.key not in HEADLINE_OPTIONS and value == spec.default):
            continue
        if spec.key in HEADLINE_OPTIONS:
            words.append(str(choice(spec.key, value)))
        elif spec.kind == "int" and isinstance(value, int):
            words.append(_int_words(spec.key, value, spec.label))
        elif every and str(value) not in named:  # a row of its own says what the value is about
            words.append(f"{gettext(spec.label)}: {choice(spec.key, value)}")
        else:
            words.append(str(named.get(str(value), value)))
    return words


def game_title(ruleset: Any, options: Mapping[str, Any] | None) -> str:
    """The game's name with its variant and options: "Sticheln — heavy", "NJET — difference recording"."""
    words = option_words(ruleset, options)
    return f"{ruleset.name} — {' · '.join(words)}" if words else str(ruleset.name)
