"""Was sticht? — the full entry's round facts: their JSON schema, the frozen facts and their shape checks.

The full entry says what the app needs to judge every revealed task itself (see :mod:`.was_sticht`): the start
player, the task each other player revealed, the tricks, the last trick, the colours that decide a "no colour" task
and, optionally, the task the start player returns and the trumps (for the record).  The quick entry's facts are in
:mod:`.was_sticht_quick`.  Complaints use the messages of :mod:`.was_sticht`, whose ``facts_parse`` raises them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import Complaints
from .was_sticht_tasks import COLOURS, TASK_COPIES, TASK_IDS, Table

VALUES = tuple(range(1, 10))

FULL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Was sticht? round",
    "description": "The tasks revealed and what the nine tricks did; the trumps are for the record only.",
    "required": ["start_player", "chosen", "tricks", "last_trick"],
    "additionalProperties": False,
    "properties": {
        "start_player": {
            "type": "integer",
            "minimum": 0,
            "description": "Seat of this round's start player (seat 0 in round 1, then rotating left).",
        },
        "trump_colour": {
            "type": ["string", "null"],
            "enum": [*COLOURS, None],
            "description": "The trump colour drawn (null = grey card, no trump colour); for the record.",
        },
        "trump_number": {
            "type": ["integer", "null"],
            "minimum": 1,
            "maximum": 9,
            "description": "The trump number drawn (null = 'X', no trump number); for the record.",
        },
        "chosen": {
            "type": "array",
            "description": "Per seat: the task card picked this round (null for the start player).",
            "items": {"type": ["string", "null"], "enum": [*TASK_COPIES, None]},
        },
        "tricks": {
            "type": "array",
            "description": "Per seat: tricks taken (they add up to 9; the 3-player table hand takes none).",
            "items": {"type": "integer", "minimum": 0, "maximum": 9},
        },
        "last_trick": {"type": "integer", "minimum": 0, "description": "Seat that took the ninth trick."},
        "colours": {
            "type": ["array", "null"],
            "description": "Per seat: the colours present in that seat's tricks (null = not entered). Needed for "
            "the owner and the start player whenever a 'no colour' task is revealed.",
            "items": {"type": ["array", "null"], "items": {"type": "string", "enum": list(COLOURS)}},
        },
        "start_return": {
            "type": ["string", "null"],
            "enum": [*TASK_COPIES, None],
            "description": "Optional: which of his tasks the start player returns (the rulebook lets him choose); "
            "only when he earns a return this round and holds that task. Absent: his first task still held, "
            "in draft order.",
        },
        "entry": {
            "type": ["string", "null"],
            "enum": ["full", None],
            "description": "Optional: 'full' when the app's full entry made the round (the explanation says so).",
        },
    },
}


@dataclass(frozen=True)
class WasStichtFacts:
    """One round: start player, revealed tasks, tricks per seat, last trick, colours per seat, the trumps."""

    start_player: int
    chosen: tuple[str | None, ...]
    tricks: tuple[int, ...]
    last_trick: int
    colours: tuple[frozenset[str] | None, ...]
    trump_colour: str | None = None
    trump_number: int | None = None
    start_return: str | None = None
    entry: str | None = None  # "full" when the app's full entry said so

    def table(self) -> Table:
        return Table(tricks=self.tricks, last_trick=self.last_trick, colours=self.colours)


FIELDS = (
    "start_player",
    "trump_colour",
    "trump_number",
    "chosen",
    "tricks",
    "last_trick",
    "colours",
    "start_return",
    "entry",
)


# --- parsing ---------------------------------------------------------------------------------------------------
def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(data: Mapping[str, Any], name: str, players: int, c: Complaints) -> int:
    value: Any = data.get(name)
    if name not in data:
        c.add(name, "was-sticht.field_missing", "was-sticht-round")
    elif not (_is_int(value) and 0 <= value < players):
        c.add(name, "was-sticht.seat", "was-sticht-round", high=players - 1)
    return value if _is_int(value) else -1


def _per_seat(data: Mapping[str, Any], name: str, players: int, c: Complaints) -> list[Any]:
    value = data.get(name)
    if name not in data:
        c.add(name, "was-sticht.field_missing", "was-sticht-round")
    elif not isinstance(value, list) or len(value) != players:
        c.add(name, "was-sticht.list", "was-sticht-round", count=players)
    return value if isinstance(value, list) and len(value) == players else []


def _task_or_none(value: Any, field: str, c: Complaints) -> str | None:
    ok = value is None or (isinstance(value, str) and value in TASK_COPIES)
    c.check(ok, field, "was-sticht.task_id", "was-sticht-tasks", tasks=TASK_IDS)
    return value if ok else None


def _colour_set(value: Any, field: str, c: Complaints) -> frozenset[str] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        c.add(field, "was-sticht.colours_list", "was-sticht-round")
        return None
    for i, colour in enumerate(value):
        c.check(
            isinstance(colour, str) and colour in COLOURS,
            f"{field}.{i}",
            "was-sticht.colour",
            "was-sticht-round",
            value=str(colour),
            colours=", ".join(COLOURS),
        )
    return frozenset(v for v in value if isinstance(v, str))


def _trumps(data: Mapping[str, Any], c: Complaints) -> tuple[str | None, int | None]:
    colour, number = data.get("trump_colour"), data.get("trump_number")
    colour_ok = colour is None or (isinstance(colour, str) and colour in COLOURS)
    c.check(
        colour_ok,
        "trump_colour",
        "was-sticht.colour",
        "was-sticht-round",
        value=str(colour),
        colours=", ".join(COLOURS),
    )
    number_ok = number is None or (_is_int(number) and number in VALUES)
    c.check(number_ok, "trump_number", "was-sticht.trump_number", "was-sticht-round")
    return colour, number


def parse_full(data: Mapping[str, Any], *, players: int, c: Complaints) -> WasStichtFacts:
    """The full entry's facts; shape problems go to ``c`` (the caller raises)."""
    entry = data.get("entry")
    c.check(entry in (None, "full"), "entry", "was-sticht.entry", "was-sticht-round", entry=str(entry))
    for name in data:
        c.check(name in FIELDS, str(name), "was-sticht.field_unknown", "was-sticht-round", name=str(name))
    start, last = _seat(data, "start_player", players, c), _seat(data, "last_trick", players, c)
    chosen = tuple(_task_or_none(v, f"chosen.{s}", c) for s, v in enumerate(_per_seat(data, "chosen", players, c)))
    tricks = _per_seat(data, "tricks", players, c)
    for seat, value in enumerate(tricks):
        c.check(_is_int(value), f"tricks.{seat}", "was-sticht.int", "was-sticht-round")
    colours_raw = data.get("colours")
    colours: tuple[frozenset[str] | None, ...] = (None,) * players
    if colours_raw is not None:
        if isinstance(colours_raw, list) and len(colours_raw) == players:
            colours = tuple(_colour_set(v, f"colours.{s}", c) for s, v in enumerate(colours_raw))
        else:
            c.add("colours", "was-sticht.list", "was-sticht-round", count=players)
    colour, number = _trumps(data, c)
    start_return = _task_or_none(data.get("start_return"), "start_return", c)
    return WasStichtFacts(
        start_player=start,
        chosen=chosen,
        tricks=tuple(tricks),
        last_trick=last,
        colours=colours,
        trump_colour=colour,
        trump_number=number,
        start_return=start_return,
        entry="full" if entry == "full" else None,
    )
