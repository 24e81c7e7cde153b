"""A night's stored figures (``analytics.nights.figures``) worded in the reader's language, for its page and its image.

Both surfaces print the texts made here, numbers included (rounded once, by ``scoring.text.numbers.decimal_text``, with
the language's decimal mark), so the image can never show another value than the page.  Cheap: one pass over the
stored figures, no query.  The night's story (``nightstory``, stored with the figures) is worded here too, one
sentence per event.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import get_language, gettext, ngettext

from analytics.nights.grouping import Night
from scoring import rules
from scoring.selectors import line_render
from scoring.text.numbers import decimal_mark, decimal_text


@dataclass
class NightReport:
    night: Night
    matches: list[dict[str, Any]] = field(default_factory=list)
    biggest: dict[str, Any] | None = None
    upset: dict[str, Any] | None = None
    ratings: list[dict[str, Any]] = field(default_factory=list)
    partners: dict[str, Any] | None = None
    story: list[dict[str, Any]] = field(default_factory=list)  # the story's events, each with its sentence

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
    report.story = [{**event, "text": story_text(event)} for event in figures.get("story") or []]
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
    return {**found, "players": list(found["names"]), "names": who, "percent": share, "text": text}


# --- the story: one sentence per event of ``nightstory`` ------------------------------------------------------------
# Hungarian puts a name in the nominative or before a postposition (mögött, előtt), never before a case ending, and
# no article before a number: whatever the name or the number, the sentence stays grammatical.


def _whole(value: int) -> str:
    """A score that may be negative, with the minus sign the pages print (U+2212)."""
    return decimal_text(value, 0)


def story_text(event: dict[str, Any]) -> str:
    """The sentence that tells ``event`` (one of ``nightstory.night_story``'s) in the active language."""
    return _STORY[event["kind"]](event)


def _summary_text(event: dict[str, Any]) -> str:
    names, values = event["names"], {"names": names_join(event["names"]), "wins": event["wins"]}
    if event.get("game"):
        return ngettext(
            "%(names)s won the night's only match, %(game)s.",
            "%(names)s won the night's only match, %(game)s.",
            len(names),
        ) % {**values, "game": _game(event["game"])}
    if len(names) == 1:
        text = ngettext(
            "%(names)s won %(wins)s of the night's %(counter)s match.",
            "%(names)s won %(wins)s of the night's %(counter)s matches.",
            event["matches"],
        )
    else:
        text = ngettext(
            "%(names)s won %(wins)s each of the night's %(counter)s match.",
            "%(names)s won %(wins)s each of the night's %(counter)s matches.",
            event["matches"],
        )
    return text % {**values, "counter": event["matches"]}


def _record_text(event: dict[str, Any]) -> str:
    values = {
        "names": names_join(event["names"]),
        "value": _whole(event["value"]),
        "label": gettext(event["label"]),  # the records module's own words, translated by its catalogue entry
        "game": _game(event["ruleset"]),
        "previous": None if event["previous"] is None else _whole(event["previous"]),
    }
    if event["previous"] is None:
        text = gettext("A first group record: %(names)s, %(value)s for %(label)s (%(game)s).") % values
    else:
        text = gettext("A group record: %(names)s, %(value)s for %(label)s (%(game)s), beating %(previous)s.") % values
    if event.get("more"):
        text += " " + ngettext(
            "One more record fell tonight.", "%(counter)s more records fell tonight.", event["more"]
        ) % {"counter": event["more"]}
    return text


def _upset_text(event: dict[str, Any]) -> str:
    found = _upset(event)
    return found["text"] if found else ""


def _lead_text(event: dict[str, Any]) -> str:
    game, names, changes = _game(event["ruleset"]), names_join(event["names"]), event["changes"]
    if not event["names"]:
        return ngettext(
            "%(game)s: the lead changed hands once, and the match ended level at the top.",
            "%(game)s: the lead changed hands %(counter)s times, and the match ended level at the top.",
            changes,
        ) % {"game": game, "counter": changes}
    if event["held"] == 1:
        return ngettext(
            "%(game)s: the lead changed hands once; %(names)s led after the last round.",
            "%(game)s: the lead changed hands %(counter)s times; %(names)s led after the last round.",
            changes,
        ) % {"game": game, "counter": changes, "names": names}
    return ngettext(
        "%(game)s: the lead changed hands once; %(names)s led the last %(held)s rounds.",
        "%(game)s: the lead changed hands %(counter)s times; %(names)s led the last %(held)s rounds.",
        changes,
    ) % {"game": game, "counter": changes, "names": names, "held": event["held"]}


def _wire_text(event: dict[str, Any]) -> str:
    return ngettext(
        "%(names)s led %(game)s from the first round to the last (%(counter)s round).",
        "%(names)s led %(game)s from the first round to the last (%(counter)s rounds).",
        event["rounds"],
    ) % {"names": names_join(event["names"]), "game": _game(event["ruleset"]), "counter": event["rounds"]}


def _swing_text(event: dict[str, Any]) -> str:
    values = {
        "names": names_join(event["names"]),
        "leader": names_join(event["leader"]),
        "game": _game(event["ruleset"]),
        "number": event["number"],
        "counter": event["gain"],
        "before": event["before"],
        "after": abs(event["after"]),
    }
    if event["before"] == 0:
        text = ngettext(
            "The biggest swing: in round %(number)s of %(game)s, %(names)s gained %(counter)s point on %(leader)s "
            "and went from level to %(after)s ahead.",
            "The biggest swing: in round %(number)s of %(game)s, %(names)s gained %(counter)s points on %(leader)s "
            "and went from level to %(after)s ahead.",
            event["gain"],
        )
    elif event["after"] < 0:
        text = ngettext(
            "The biggest swing: in round %(number)s of %(game)s, %(names)s gained %(counter)s point on %(leader)s "
            "and went from %(before)s behind to %(after)s ahead.",
            "The biggest swing: in round %(number)s of %(game)s, %(names)s gained %(counter)s points on %(leader)s "
            "and went from %(before)s behind to %(after)s ahead.",
            event["gain"],
        )
    elif event["after"] == 0:
        text = ngettext(
            "The biggest swing: in round %(number)s of %(game)s, %(names)s gained %(counter)s point on %(leader)s "
            "and drew level from %(before)s behind.",
            "The biggest swing: in round %(number)s of %(game)s, %(names)s gained %(counter)s points on %(leader)s "
            "and drew level from %(before)s behind.",
            event["gain"],
        )
    else:
        text = ngettext(
            "The biggest swing: in round %(number)s of %(game)s, %(names)s gained %(counter)s point on %(leader)s "
            "and cut the gap from %(before)s to %(after)s.",
            "The biggest swing: in round %(number)s of %(game)s, %(names)s gained %(counter)s points on %(leader)s "
            "and cut the gap from %(before)s to %(after)s.",
            event["gain"],
        )
    return text % values


def _finish_text(event: dict[str, Any]) -> str:
    values = {
        "names": names_join(event["winners"]),
        "others": names_join(event["others"]),
        "game": _game(event["ruleset"]),
        "points": _whole(event["points"]),
        "second": _whole(event["second"]),
        "counter": event["margin"],
    }
    if event["kind"] == "close" and event["shared"]:
        text = ngettext(
            "The closest finish: %(names)s shared the win in %(game)s with %(points)s point each.",
            "The closest finish: %(names)s shared the win in %(game)s with %(points)s points each.",
            event["points"],
        )
    elif event["kind"] == "close" and event["margin"] == 0:
        text = ngettext(
            "The closest finish: %(names)s won %(game)s on the tiebreak, level with %(others)s on %(points)s points.",
            "The closest finish: %(names)s won %(game)s on the tiebreak, level with %(others)s on %(points)s points.",
            len(event["winners"]),
        )
    elif event["kind"] == "close":
        text = ngettext(
            "The closest finish: %(names)s won %(game)s by %(counter)s point over %(others)s "
            "(%(points)s to %(second)s).",
            "The closest finish: %(names)s won %(game)s by %(counter)s points over %(others)s "
            "(%(points)s to %(second)s).",
            event["margin"],
        )
    else:
        text = ngettext(
            "The biggest win: %(names)s won %(game)s by %(counter)s point over %(others)s (%(points)s to %(second)s).",
            "The biggest win: %(names)s won %(game)s by %(counter)s points over %(others)s (%(points)s to %(second)s).",
            event["margin"],
        )
    return text % values


_STORY = {
    "summary": _summary_text,
    "record": _record_text,
    "upset": _upset_text,
    "lead": _lead_text,
    "wire": _wire_text,
    "swing": _swing_text,
    "close": _finish_text,
    "runaway": _finish_text,
}
