"""Sticheln: the round facts — their JSON schema, the frozen dataclasses, and reading them (shape only).

The game rules (what the deck allows) are checked in ``sticheln_deck.classic_validate`` and
``sticheln_hattrick.hattrick_validate``; here only the shape of the submitted JSON is read. Every reader
records a complaint and returns a stand-in value, so that one submission reports every shape error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from .errors import Complaints
from .types import N_

FACTS_MESSAGES: dict[str, str] = {
    "sticheln.shape_object": N_("Expected a JSON object here."),
    "sticheln.shape_list": N_("Expected a list here."),
    "sticheln.shape_seats": N_("Enter one entry per player: {players} expected, {count} given."),
    "sticheln.shape_unknown": N_("'{key}' is not part of a Sticheln round."),
    "sticheln.shape_required": N_("This is required."),
    "sticheln.shape_count": N_("Expected a whole number, 0 or more."),
    "sticheln.shape_int": N_("Expected a whole number."),
    "sticheln.shape_colour": N_("Expected a colour name such as 'red'."),
    "sticheln.shape_way": N_(
        "Enter either the cards taken ('taken') or the quick counts ('others' with 'pain_values', or with "
        "'pain_count' and 'pain_sum')."
    ),
    "sticheln.shape_both_ways": N_("Enter the cards taken or the quick counts, not both."),
    "sticheln.shape_pain_way": N_("Enter the pain cards taken as 'pain_values' or as 'pain_count' and 'pain_sum'."),
    "sticheln.shape_tally_way": N_(
        "The quick entry gives 'others' with 'pain_points' (gentle: 'pain_cards') and nothing else of the other ways."
    ),
    "sticheln.shape_tally_one": N_("Give 'pain_points' or 'pain_cards', not both."),
    "sticheln.shape_tally_chooser": N_(
        "The quick entry counts the chooser card in with the pain cards; leave the chooser card out."
    ),
    "sticheln.shape_entry": N_("The entry is 'quick' or 'full', not '{entry}'."),
}


@dataclass(frozen=True)
class Card:
    """One card: colour id and face value."""

    colour: str
    value: int

    def label(self) -> str:
        return f"{self.colour} {self.value}"


def cards_label(cards: Sequence[Card]) -> str:
    """'red 2 + red 5' — colour ids and numbers only, so the line reads the same in every language."""
    return " + ".join(card.label() for card in cards)


@dataclass(frozen=True)
class Seat:
    """One player's round: the chosen colour(s), the chooser card(s), and the cards taken.

    Either ``taken`` (the full way), ``others`` with ``pain_values`` or ``pain_count`` + ``pain_sum`` (the count
    way), or ``others`` with ``pain_points`` or ``pain_cards`` (the quick entry's tally, see ``sticheln_tally``:
    the chooser card(s) counted in, not given) is set. In reverse Sticheln "pain" means the lucky colour.
    """

    pain: tuple[str, ...] = ()
    chooser: tuple[Card, ...] = ()
    taken: tuple[Card, ...] | None = None
    others: int | None = None
    pain_values: tuple[int, ...] | None = None
    pain_count: int | None = None
    pain_sum: int | None = None
    pain_points: int | None = None
    pain_cards: int | None = None

    @property
    def tally(self) -> bool:
        """Entered with the quick entry: the pain cards as points (or, gentle, as a count), chooser included."""
        return self.pain_points is not None or self.pain_cards is not None

    @property
    def quick_pain_count(self) -> int:
        """Pain cards taken, as entered the quick way."""
        return len(self.pain_values) if self.pain_values is not None else (self.pain_count or 0)

    @property
    def taken_count(self) -> int:
        if self.taken is not None:
            return len(self.taken)
        return (self.others or 0) + self.quick_pain_count


@dataclass(frozen=True)
class Facts:
    """A round of classic, reverse, gentle, heavy, foggy or delayed Sticheln: one entry per seat, and which of the
    app's entries made it ("quick", "full"; None when not said, as from the API)."""

    seats: tuple[Seat, ...]
    entry: str | None = None


ENTRIES: tuple[str, ...] = ("quick", "full")


# --- readers ----------------------------------------------------------------------------------------------


def _is_list(value: object) -> TypeGuard[list[Any] | tuple[Any, ...]]:
    return isinstance(value, (list, tuple))


def read_keys(c: Complaints, data: Mapping[Any, Any], allowed: Sequence[str], field: str) -> None:
    for key in data:
        if key not in allowed:
            c.add(f"{field}.{key}" if field else str(key), "sticheln.shape_unknown", "sticheln-round", key=str(key))


def read_seats(c: Complaints, data: Mapping[Any, Any], players: int) -> list[tuple[str, Mapping[Any, Any]]]:
    """The ``seats`` list: one JSON object per seat, in seat order; returns (field path, entry) pairs."""
    read_keys(c, data, ("seats", "entry"), "")
    seats = data.get("seats")
    if not _is_list(seats):
        c.add("seats", "sticheln.shape_required" if seats is None else "sticheln.shape_list", "sticheln-round")
        return []
    if not c.check(
        len(seats) == players, "seats", "sticheln.shape_seats", "sticheln-round", players=players, count=len(seats)
    ):
        return []
    out: list[tuple[str, Mapping[Any, Any]]] = []
    for i, entry in enumerate(seats):
        if c.check(isinstance(entry, Mapping), f"seats.{i}", "sticheln.shape_object", "sticheln-round"):
            out.append((f"seats.{i}", entry))
    return out


def read_count(c: Complaints, value: object, field: str, *, required: bool = True) -> int:
    """A whole number, 0 or more (bools refused); 0 stands in after a complaint."""
    if type(value) is int and value >= 0:
        return value
    if value is None and not required:
        return 0
    c.add(field, "sticheln.shape_required" if value is None else "sticheln.shape_count", "sticheln-round")
    return 0


def read_int(c: Complaints, value: object, field: str) -> int:
    if type(value) is int:
        return value
    c.add(field, "sticheln.shape_required" if value is None else "sticheln.shape_int", "sticheln-round")
    return 0


def read_values(c: Complaints, value: object, field: str) -> tuple[int, ...]:
    if not _is_list(value):
        c.add(field, "sticheln.shape_list", "sticheln-round")
        return ()
    return tuple(read_int(c, v, f"{field}.{i}") for i, v in enumerate(value))


def read_colour(c: Complaints, value: object, field: str) -> str:
    if isinstance(value, str):
        return value
    c.add(field, "sticheln.shape_required" if value is None else "sticheln.shape_colour", "sticheln-round")
    return ""


def read_colours(c: Complaints, value: object, field: str) -> tuple[str, ...]:
    """A colour or a list of colours (heavy: two); null is the empty tuple."""
    if value is None:
        return ()
    if _is_list(value):
        return tuple(read_colour(c, v, f"{field}.{i}") for i, v in enumerate(value))
    return (read_colour(c, value, field),)


def read_card(c: Complaints, value: object, field: str) -> Card:
    if not isinstance(value, Mapping):
        c.add(field, "sticheln.shape_object", "sticheln-round")
        return Card("", 0)
    read_keys(c, value, ("colour", "value"), field)
    return Card(
        read_colour(c, value.get("colour"), f"{field}.colour"), read_int(c, value.get("value"), f"{field}.value")
    )


def read_cards(c: Complaints, value: object, field: str, *, single: bool = False) -> tuple[Card, ...]:
    """A list of cards; with ``single`` also one card on its own or null (the chooser)."""
    if single and value is None:
        return ()
    if single and isinstance(value, Mapping):
        return (read_card(c, value, field),)
    if not _is_list(value):
        c.add(field, "sticheln.shape_list", "sticheln-round")
        return ()
    return tuple(read_card(c, v, f"{field}.{i}") for i, v in enumerate(value))


# --- the classic family's seat entry -------------------------------------------------------------------

SEAT_KEYS: tuple[str, ...] = (
    "pain",
    "chooser",
    "taken",
    "others",
    "pain_values",
    "pain_count",
    "pain_sum",
    "pain_points",
    "pain_cards",
)
QUICK_KEYS: tuple[str, ...] = ("others", "pain_values", "pain_count", "pain_sum")
COUNT_KEYS: tuple[str, ...] = ("pain_values", "pain_count", "pain_sum")
TALLY_KEYS: tuple[str, ...] = ("pain_points", "pain_cards")


def read_entry(c: Complaints, data: Mapping[Any, Any]) -> str | None:
    """Which of the app's entries made the round: "quick", "full", or not said (None)."""
    entry = data.get("entry")
    if entry is None or entry in ENTRIES:
        return None if entry is None else str(entry)
    c.add("entry", "sticheln.shape_entry", "sticheln-round", entry=str(entry))
    return None


def read_tally(c: Complaints, entry: Mapping[Any, Any], field: str, pain: tuple[str, ...], *, gentle: bool) -> Seat:
    """The quick entry's seat: the colour(s), the other cards, and the pain points or (gentle) pain cards."""
    c.check(
        entry.get("taken") is None and all(entry.get(key) is None for key in COUNT_KEYS),
        field,
        "sticheln.shape_tally_way",
        "sticheln-round",
    )
    # stored tallies write "no chooser card" as an empty list
    c.check(not entry.get("chooser"), f"{field}.chooser", "sticheln.shape_tally_chooser", "sticheln-round")
    points, cards = entry.get("pain_points"), entry.get("pain_cards")
    c.check(points is None or cards is None, field, "sticheln.shape_tally_one", "sticheln-round")
    if points is None and cards is None:  # a round the quick entry made, with this player's tally still blank
        c.add(f"{field}.{'pain_cards' if gentle else 'pain_points'}", "sticheln.shape_required", "sticheln-round")
    return Seat(
        pain,
        (),
        others=read_count(c, entry.get("others"), f"{field}.others"),
        pain_points=None if points is None else read_count(c, points, f"{field}.pain_points"),
        pain_cards=None if cards is None else read_count(c, cards, f"{field}.pain_cards"),
    )


def read_seat(
    c: Complaints, entry: Mapping[Any, Any], field: str, *, delayed: bool, gentle: bool = False, quick: bool = False
) -> Seat:
    """One seat, the full way, the count way or the tally (always the tally when the quick entry made the round).
    Without ``pain`` the chooser cards' colours are taken."""
    read_keys(c, entry, SEAT_KEYS, field)
    pain = read_colours(c, entry.get("pain"), f"{field}.pain")
    if quick or any(entry.get(key) is not None for key in TALLY_KEYS):
        return read_tally(c, entry, field, pain, gentle=gentle)
    chooser = read_cards(c, entry.get("chooser"), f"{field}.chooser", single=True)
    if not pain and not delayed:
        pain = tuple(dict.fromkeys(card.colour for card in chooser))
    counts = [key for key in QUICK_KEYS if entry.get(key) is not None]
    if entry.get("taken") is not None:
        c.check(not counts, field, "sticheln.shape_both_ways", "sticheln-round")
        return Seat(pain, chooser, taken=read_cards(c, entry.get("taken"), f"{field}.taken"))
    if not counts:
        c.add(field, "sticheln.shape_way", "sticheln-round")
        return Seat(pain, chooser, taken=())
    others = read_count(c, entry.get("others"), f"{field}.others")
    count, total = entry.get("pain_count"), entry.get("pain_sum")
    if entry.get("pain_values") is not None:
        c.check(count is None and total is None, f"{field}.pain_values", "sticheln.shape_pain_way", "sticheln-round")
        return Seat(
            pain, chooser, others=others, pain_values=read_values(c, entry.get("pain_values"), f"{field}.pain_values")
        )
    if count is None and total is None:
        c.add(f"{field}.pain_values", "sticheln.shape_pain_way", "sticheln-round")
        return Seat(pain, chooser, others=others, pain_values=())
    return Seat(
        pain,
        chooser,
        others=others,
        pain_count=read_count(c, count, f"{field}.pain_count"),
        pain_sum=read_count(c, total, f"{field}.pain_sum"),
    )


def read_facts(c: Complaints, data: Mapping[Any, Any], *, players: int, delayed: bool, gentle: bool = False) -> Facts:
    made_by = read_entry(c, data)
    quick = made_by == "quick"
    return Facts(
        seats=tuple(
            read_seat(c, entry, field, delayed=delayed, gentle=gentle, quick=quick)
            for field, entry in read_seats(c, data, players)
        ),
        entry=made_by,
    )


# --- the JSON schema ------------------------------------------------------------------------------------

_COLOUR: dict[str, Any] = {
    "type": "string",
    "description": "A colour id: red, yellow, green, blue, brown (3-8 players), purple (6-8 players); "
    "Hattrick uses red, blue and green.",
}
_CARD: dict[str, Any] = {
    "type": "object",
    "description": "One card: its colour and face value (0-8 with 3 players, 0-11 with 4, 0-14 with 5 and 6, "
    "0-17 with 7, 0-18 with 8).",
    "properties": {"colour": _COLOUR, "value": {"type": "integer", "description": "The number on the card."}},
    "required": ["colour", "value"],
    "additionalProperties": False,
}
_PAIN: dict[str, Any] = {
    "description": "The colour chosen for the round: the pain colour (reverse: the lucky colour). Heavy: a list "
    "of two different colours. Delayed: the colour the player picks at the end among those in their own "
    "tricks (optional with the full way: the app then proposes the cheapest). May be left out when the "
    "chooser card(s) show it.",
    "anyOf": [_COLOUR, {"type": "array", "items": _COLOUR}, {"type": "null"}],
}
_CHOOSER: dict[str, Any] = {
    "description": "The card(s) laid face down to choose the colour; they count against (reverse: for) their "
    "owner. One card, or a list: heavy two (one per pain colour), delayed none.",
    "anyOf": [_CARD, {"type": "array", "items": _CARD}, {"type": "null"}],
}
_COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}


def _or_null(schema: dict[str, Any], description: str) -> dict[str, Any]:
    """An optional field: the stored (normalised) facts write null for the way not taken."""
    return {"anyOf": [schema, {"type": "null"}], "description": description}


_FULL: dict[str, Any] = {
    "title": "Full way",
    "type": "object",
    "properties": {
        "pain": _PAIN,
        "chooser": _CHOOSER,
        "taken": {"type": "array", "items": _CARD, "description": "Every card the player took in tricks."},
        **{key: {"type": "null"} for key in (*QUICK_KEYS, *TALLY_KEYS)},
    },
    "required": ["taken"],
    "additionalProperties": False,
}
_QUICK: dict[str, Any] = {
    "title": "Quick way",
    "type": "object",
    "description": "Counts instead of cards. Give the pain cards as 'pain_values', or as 'pain_count' and 'pain_sum'.",
    "properties": {
        "pain": _PAIN,
        "chooser": _CHOOSER,
        "taken": {"type": "null"},
        "others": {**_COUNT, "description": "How many cards of the other colours the player took in tricks."},
        "pain_values": _or_null(
            {"type": "array", "items": {"type": "integer"}},
            "The values of the pain-colour (reverse: lucky-colour) cards taken in tricks, the chooser card(s) "
            "not included. Heavy: the values of both pain colours in one list.",
        ),
        "pain_count": _or_null(_COUNT, "How many pain-colour cards the player took in tricks."),
        "pain_sum": _or_null(_COUNT, "The sum of their values."),
        **{key: {"type": "null"} for key in TALLY_KEYS},
    },
    "required": ["others"],
    "additionalProperties": False,
}
_TALLY: dict[str, Any] = {
    "title": "Tally (the app's quick entry)",
    "type": "object",
    "description": "What a player counts at the table: the other cards, and the pain cards as points (every "
    "variant but gentle) or, in gentle Sticheln, as a count; the chooser card(s) counted in, not given.",
    "properties": {
        "pain": _PAIN,
        "chooser": {"anyOf": [{"type": "null"}, {"type": "array", "maxItems": 0}]},
        "taken": {"type": "null"},
        "others": {**_COUNT, "description": "How many cards of the other colours the player took in tricks."},
        **{key: {"type": "null"} for key in COUNT_KEYS},
        "pain_points": _or_null(
            _COUNT,
            "The values of the player's pain-colour (reverse: lucky-colour) cards added up, the chooser card(s) "
            "included. Every variant but gentle.",
        ),
        "pain_cards": _or_null(
            _COUNT, "Gentle: how many pain-colour cards the player has, the chooser card(s) included."
        ),
    },
    "required": ["pain", "others"],
    "additionalProperties": False,
}
_HATTRICK: dict[str, Any] = {
    "title": "Hattrick",
    "type": "object",
    "properties": {
        "red": {**_COUNT, "description": "Red cards taken, face up."},
        "blue": {**_COUNT, "description": "Blue cards taken, face up."},
        "green": {**_COUNT, "description": "Green cards taken, face up."},
        "face_down": _or_null(_COUNT, "Cards laid face down when passing (default 0)."),
        "best": {
            "anyOf": [_COLOUR, {"type": "null"}],
            "description": "On a tie for the most cards: the tied colour the player scores +1 (default: the "
            "first of them in the order red, blue, green; the choice never changes the score).",
        },
    },
    "required": ["red", "blue", "green"],
    "additionalProperties": False,
}
_HATTRICK_TALLY: dict[str, Any] = {
    "title": "Hattrick tally (the app's quick entry)",
    "type": "object",
    "properties": {
        "most": {**_COUNT, "description": "Face-up cards of the colour the player has most of."},
        "rest": {**_COUNT, "description": "Face-up cards of the other two colours together."},
        "face_down": _or_null(_COUNT, "Cards laid face down when passing (default 0)."),
    },
    "required": ["most", "rest"],
    "additionalProperties": False,
}

FACTS_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Sticheln round",
    "description": "What each player has in front of them at the end of a round. Classic, reverse, gentle, "
    "heavy, foggy and delayed: per seat the full way (every card taken), the quick way (counts) or the tally "
    "(what a player counts at the table); all are checked against the deck as far as they allow. Hattrick: "
    "per seat the face-up cards by colour and the face-down cards, or the tally (most-cards colour, the rest).",
    "type": "object",
    "properties": {
        "seats": {
            "type": "array",
            "description": "One entry per player, indexed by seat (seat 0 dealt the first round).",
            "items": {"anyOf": [_FULL, _QUICK, _TALLY, _HATTRICK, _HATTRICK_TALLY]},
        },
        "entry": {
            "anyOf": [{"type": "string", "enum": list(ENTRIES)}, {"type": "null"}],
            "description": "Which of the app's entries made the round ('quick' or 'full'); the explanation says "
            "so. Optional.",
        },
    },
    "required": ["seats"],
    "additionalProperties": False,
}

# RULES.md worked example (Axel = seat 0): red 4 chooser, red 2 and 5 taken, 14 other cards -> 14 - 11 = 3.
EXAMPLE: dict[str, Any] = {
    "players": 4,
    "options": {"variant": "classic"},
    "facts": {
        "seats": [
            {"pain": "red", "chooser": {"colour": "red", "value": 4}, "others": 14, "pain_values": [2, 5]},
            {"pain": "blue", "chooser": {"colour": "blue", "value": 0}, "others": 10, "pain_count": 2, "pain_sum": 3},
            {"pain": "green", "chooser": {"colour": "green", "value": 1}, "others": 8, "pain_values": []},
            {"pain": "yellow", "chooser": {"colour": "yellow", "value": 0}, "others": 18, "pain_values": [11, 3]},
        ]
    },
}
