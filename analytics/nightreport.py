"""A night's stored figures (``analytics.nightfigures``) worded in the reader's language, for its page and its image.

Both surfaces print the texts made here, numbers included (rounded once, by ``scoring.numbers.decimal_text``, with
the language's decimal mark), so the image can never show another value than the page.  Cheap: one pass over the
stored figures, no query.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import get_language, gettext, ngettext

from scoring import rules
from scoring.numbers import decimal_mark, decimal_text
from scoring.selectors import line_render

from .nights import Night


@dataclass
class NightReport:
    night: Night
    matches: list[dict[str, Any]] = field(default_factory=list)
    biggest: dict[str, Any] | None = None
    upset: dict[str, Any] | None = None
    ratings: list[dict[str, Any]] = field(default_factory=list)
    partners: dict[str, Any] | None = None

    @property
    def players(self) -> list[str]:
        return sorted({name for m in self.matches for name in m["players"]})


def names_join(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return gettext("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def percent(value: float) -> int:
    return round(value * 100)


def rating_text(value: float, *, sign: bool = False) -> str:
    """A rating or its change as every surface prints it: one decimal, the reader's decimal mark."""
    return decimal_text(value, 1, mark=decimal_mark(get_language()), sign=sign)


def _game(ruleset: str) -> str:
    return str(rules.get(ruleset).name)


def night_report(*, night: Night, figures: dict[str, Any]) -> NightReport:
    """The night's figures with their texts in the active language."""
    report = NightReport(night=night)
    for match in figures["matches"]:
        report.matches.append(
            {**match, "game": _game(match["ruleset"]), "started_at": dt.datetime.fromisoformat(match["started_at"])}
        )
    report.biggest = _biggest(figures["biggest"])
    report.upset = _upset(figures["upset"])
    report.ratings = [
        {
            **row,
            "game": _game(row["ruleset"]),
            "change_text": rating_text(row["change"], sign=True),
            "before_text": rating_text(row["before"]),
            "after_text": rating_text(row["after"]),
        }
        for row in figures["ratings"]
    ]
    report.partners = _partners(figures["partners"])
    return report


def _biggest(found: dict[str, Any] | None) -> dict[str, Any] | None:
    if found is None:
        return None
    game = rules.get(found["ruleset"])
    lines = [line_render(game, ln, found["names"]) for ln in found["explanation"]]
    return {
        **found,
        "game": str(game.name),
        "text": gettext("%(player)s scored %(points)s in round %(number)s of %(game)s.")
        % {"player": found["player"], "points": found["points"], "number": found["number"], "game": game.name},
        "lines": _lines_by_player(lines, found["seat"]),
    }


def _lines_by_player(lines: list[dict[str, Any]], first: int) -> list[dict[str, Any]]:
    """The round's lines as the match board groups them: the general ones, then player by player (the round's top
    scorer first), each labelled with the player's name."""
    general = [ln for ln in lines if ln.get("player") is None]
    own = sorted((ln for ln in lines if ln.get("player") is not None), key=lambda ln: ln["player"] != first)
    return [
        *({**ln, "label": ln["text"]} for ln in general),
        *({**ln, "label": f"{ln['player_name']}: {ln['text']}"} for ln in own),
    ]


def _upset(found: dict[str, Any] | None) -> dict[str, Any] | None:
    if found is None:
        return None
    game, share = _game(found["ruleset"]), percent(found["chance"])
    text = ngettext(
        "%(names)s won %(game)s with a %(percent)s %% chance by the ratings before the match.",
        "%(names)s won %(game)s with a %(percent)s %% chance by the ratings before the match.",
        len(found["winners"]),
    ) % {"names": names_join(found["winners"]), "game": game, "percent": share}
    return {**found, "game": game, "percent": share, "text": text}


def _partners(found: dict[str, Any] | None) -> dict[str, Any] | None:
    if found is None:
        return None
    who, share = names_join(found["names"]), percent(found["won"] / found["rounds"])
    text = ngettext(
        "%(names)s won %(won)s of their %(rounds)s round together (%(percent)s %%).",
        "%(names)s won %(won)s of their %(rounds)s rounds together (%(percent)s %%).",
        found["rounds"],
    ) % {"names": who, "won": found["won"], "rounds": found["rounds"], "percent": share}
    return {**found, "names": who, "percent": share, "text": text}
