"""Whose input and which field: a refusal's field path ("green.2", "facts.tricks.0") in words ("Anna, green").

The rules engine names fields by their dotted paths in the round facts, seats by number. People at the table
read names: every complaint shown on the entry form and in the live preview is prefixed with the player it is
about (when the field belongs to one seat) and the field's label, and the preview lists what is still missing
by those same words instead of repeating "This is required.".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from frontend.entry import labels
from scoring.text.numbers import parse_whole

# Facts held per seat: "<name>.<seat>" (the lists of the round facts, one entry per player).
PER_SEAT = frozenset(
    {
        "tricks",
        "booty",
        "triangles",
        "sums",
        "front",
        "hand",
        "jokers",
        "plus_twos",
        "chosen",
        "returned",
        "colours",
        "pain",
        "chooser",
        "others",
        "pain_count",
        "pain_sum",
        "face_down",
        "seats",
        "teams",
        *labels.COLOURS,
    }
)

FIELD_LABELS: dict[str, Any] = {
    "tricks": _("tricks"),
    "booty": _("zeros captured"),
    "triangles": _("triangles"),
    "sums": _("sum of the tricks"),
    "front": _("cards laid out in front"),
    "hand": _("cards left in hand"),
    "jokers": _("jokers"),
    "plus_twos": _("“+2” cards"),
    "chosen": _("task card"),
    "returned": _("task card returned"),
    "colours": _("colours in the tricks"),
    "pain": _("pain colour"),
    "chooser": _("chooser card"),
    "others": _("other cards"),
    "pain_count": _("pain cards"),
    "pain_sum": _("value of the pain cards"),
    "face_down": _("face-down cards"),
    # the quick entry's tallies (Sticheln, Hattrick)
    "pain_points": _("pain points"),
    "pain_cards": _("pain cards"),
    "most": _("cards of the colour held most"),
    "rest": _("cards of the other two colours"),
    "entry": _("entry"),
    "teams": _("team"),
    "start_player": _("start player"),
    "chief": _("chief"),
    "vice": _("vice"),
    "partner": _("partner"),
    "bid": _("bid"),
    "cards": _("cards revealed"),
    "tied": _("tied players"),
    "last_tied": _("tied last"),
    "vice_trump": _("the vice's trump"),
    "chief_trump": _("the chief's trump"),
    "trump_colour": _("trump colour"),
    "trump_number": _("trump number"),
    "last_trick": _("last trick"),
    "order": _("finishing order"),
    "holding": _("left holding cards"),
    "contract": _("contract"),
    "declarer": _("declarer"),
    "level": _("level"),
    "type": _("type"),
    "breach": _("rule breach"),
    "removed_colour": _("removed colour"),
    "monster": _("monster card"),
    "monster_sum": _("the monster's sum"),
    "discard": _("discard"),
    "points_per_trick": _("points per trick"),
    "end": _("end of the game"),
    "outcome": _("outcome"),
}

# Messages that only say "nothing entered here yet": the preview gathers them into one "still missing" line.
MISSING_MSGS = frozenset(
    {
        "abluxxen.missing",
        "coloretto.removed_needed",
        "meinz.field_missing",
        "meinz.monster_sum_missing",
        "mue.field_required",
        "mue.last_tied_required",
        "mue.vice_trump_required",
        "muzicando.contract_needed",
        "muzicando.declarer_needed",
        "muzicando.level_needed",
        "muzicando.missing",
        "njet.field_required",
        "sticheln.shape_required",
        "sticheln.delayed_pain_needed",
        "was-sticht.field_missing",
    }
)


# Facts drawn as one radio group per place (Muzicando's finishing order: "order.0" is who went out first).
PER_PLACE = frozenset({"order"})

# Messages counting what was entered ("exactly one chooser card; 0 are entered"): missing when the count is 0.
COUNT_MSGS = frozenset({"sticheln.chooser_one", "sticheln.chooser_two", "sticheln.pain_one"})


def is_missing(problem: dict[str, Any], post: Any, places: int = 0) -> bool:
    """Whether a complaint only means "nothing entered here yet": a "required" message, a count of nothing,
    any message about an input the form sent blank, or about a fact drawn as one control per place ("order"
    as the radio groups "order.0" … "order.<places-1>") while a place is still untapped."""
    if problem.get("msg") in MISSING_MSGS:
        return True
    if problem.get("msg") in COUNT_MSGS and (problem.get("params") or {}).get("count") == 0:
        return True
    field = problem.get("field") or ""
    if not field:
        return False
    if field in post:
        return str(post.get(field, "")).strip() == ""
    if field not in PER_PLACE:
        return False
    filled = [key for key in post if key.startswith(field + ".") and str(post.get(key, "")).strip()]
    return len(filled) < places


def _label(name: str, overrides: dict[str, Any] | None = None) -> str:
    if name in labels.COLOURS:
        return str(labels.colour(name))
    found = (overrides or {}).get(name) or FIELD_LABELS.get(name)
    return str(found) if found is not None else ""


def field_words(field: str, names: Sequence[str], overrides: dict[str, Any] | None = None) -> tuple[str | None, str]:
    """The player a form field belongs to (None for the round as a whole) and the field's label.

    ``field`` is the form's name for it ("green.2", "seats.1.pain", "contract.level"); unknown parts are left
    out, so a new fact never shows an id.
    """
    parts = [p for p in field.split(".") if p]
    who: str | None = None
    seat = parse_whole(parts[1]) if len(parts) >= 2 and parts[0] in PER_SEAT else None
    if seat is not None:
        who = names[seat] if seat < len(names) else None
        parts = [parts[0], *parts[2:]] if parts[0] != "seats" else parts[2:]
        parts = [p for p in parts if parse_whole(p) is None]
    words = [_label(p, overrides) for p in parts if parse_whole(p) is None]
    words = [w for w in words if w]
    return who, (words[-1] if words else "")


def field_phrase(field: str, names: Sequence[str]) -> str:
    """ "Anna, green", "Anna", "trump colour" or "" for a field path ("round 3: Anna, tricks" for a complaint
    about a later round that a change would break)."""
    parts = field.split(".")
    if len(parts) >= 2 and parts[0] == "rounds" and parse_whole(parts[1]) is not None:
        inner = field_phrase(".".join(parts[2:]), names)
        where = gettext("round %(n)s") % {"n": parts[1]}
        return f"{where}: {inner}" if inner else where
    who, what = field_words(field, names)
    if who and what:
        return gettext("%(player)s, %(field)s") % {"player": who, "field": what}
    return who or what


def missing_phrase(fields: Sequence[str], names: Sequence[str], overrides: dict[str, Any] | None = None) -> str:
    """ "tricks of Anna and Bence; the trump colour": what the preview still waits for, by name (``overrides``:
    a game's own labels for some fields)."""
    by_what: dict[str, list[str]] = {}
    order: list[str] = []
    for field in fields:
        who, what = field_words(field, names, overrides)
        key = what or gettext("a fact of the round")
        if key not in by_what:
            by_what[key] = []
            order.append(key)
        if who and who not in by_what[key]:
            by_what[key].append(who)
    parts = []
    for what in order:
        people = by_what[what]
        if people:
            parts.append(gettext("%(field)s of %(players)s") % {"field": what, "players": name_list(people)})
        else:
            parts.append(what)
    return "; ".join(parts)


def name_list(items: Sequence[str]) -> str:
    """ "Anna", "Anna and Bence", "Anna, Bence and Cili" (in the active language)."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return gettext("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}
