"""Shared pieces of the trick referee: cards, plays, notes, the messages and the per-game base class.

The public entry points live in :mod:`scoring.rules.tricks`; each game's own rules live in
``tricks_<game>.py`` as one subclass of :class:`TrickGame`.  Pure Python, stdlib only.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeGuard, TypeVar

from .errors import Complaints
from .tricks_messages import KINDS as KINDS
from .tricks_messages import MESSAGES as MESSAGES
from .tricks_messages import SECTIONS as SECTIONS
from .types import Scalar
from .wording import NTranslate, Translate, fill

# The suit of a card that belongs to the trump suit (a colour id is never "trump").
TRUMP = "trump"

# Keys every play may carry; a game adds its own flags (Meinz: claims, tricks taken, the monster).
PLAY_KEYS: tuple[str, ...] = ("seat", "card", "hand")
CARD_KEYS: tuple[str, ...] = ("colour", "value")


@dataclass(frozen=True)
class Card:
    """One physical card: a colour id and a printed value."""

    colour: str
    value: int

    def params(self) -> dict[str, Scalar]:
        return {"colour": self.colour, "value": self.value}

    def as_dict(self) -> dict[str, Any]:
        return {"colour": self.colour, "value": self.value}


@dataclass(frozen=True)
class Play:
    """One card put into the trick, with what the table knows about its player."""

    index: int
    card: Card
    seat: int | None = None
    hand: tuple[Card, ...] | None = None  # the player's hand BEFORE playing, when given
    claim: bool = False  # Meinz: this player claimed the trick
    claim_after: int | None = None  # Meinz: cards on the table when the claim was made
    tricks_taken: int = 0  # Meinz: tricks this player already has
    monster: bool = False  # Meinz, 3 players: the monster's blind card


@dataclass(frozen=True)
class Note:
    """A structured sentence: message id + params + rule anchor, with its English text."""

    msg: str
    rule: str
    text: str
    index: int | None = None  # the play it is about, if any
    params: tuple[tuple[str, Scalar], ...] = ()

    def param_dict(self) -> dict[str, Scalar]:
        return dict(self.params)

    def as_dict(self) -> dict[str, Any]:
        return {"index": self.index, "msg": self.msg, "rule": self.rule, "params": self.param_dict(), "text": self.text}


def render(
    msg: str,
    params: Mapping[str, Any],
    *,
    translate: Translate | None = None,
    ntranslate: NTranslate | None = None,
) -> str:
    """Message ``msg`` filled with ``params``: colour ids as colour names, the plural form chosen by its count,
    in the language of ``translate``/``ntranslate`` (gettext, ngettext), else English."""
    return fill(MESSAGES[msg], params, kinds=KINDS, labels=MESSAGES, translate=translate, ntranslate=ntranslate)


def note(msg: str, rule: str, index: int | None = None, **params: Scalar) -> Note:
    """Build a :class:`Note`, rendering the English text from :data:`MESSAGES`."""
    return Note(msg=msg, rule=rule, text=render(msg, params), index=index, params=tuple(sorted(params.items())))


def card_note(msg: str, rule: str, play: Play, **params: Scalar) -> Note:
    """A note about one play, with the card's colour and value among its params."""
    return note(msg, rule, play.index, **play.card.params(), **params)


@dataclass(frozen=True)
class Verdict:
    """What a game's judge decides: the winning play, why, the card ranking and each card's part."""

    winner: int
    reason: Note
    ranking: tuple[int, ...]
    notes: tuple[Note, ...]


Key = tuple[int, ...]


def ranked(keys: Sequence[Key | None], *, last_wins: bool = False) -> tuple[int, ...]:
    """Indices of the plays that can win, strongest first; equal keys in tie-break order.

    Of equal cards the earlier played ranks higher, or the later one when ``last_wins``.
    """
    able = {i: key for i, key in enumerate(keys) if key is not None}
    return tuple(sorted(able, key=lambda i: (able[i], i if last_wins else -i), reverse=True))


def equals(keys: Sequence[Key | None], ranking: Sequence[int]) -> int:
    """How many plays share the winning key (1 when the winner stands alone)."""
    return sum(1 for i in ranking if keys[i] == keys[ranking[0]])


def tie_or(reason: Note, rule: str, play: Play, count: int, *, last_wins: bool = False) -> Note:
    """The tie-break as the reason when several equal cards compete for the trick, else ``reason``."""
    if count == 1:
        return reason
    return card_note("tricks.equal_last" if last_wins else "tricks.equal_earlier", rule, play, count=count)


def tiered_verdict(
    rule: str,
    plays: Sequence[Play],
    tiers: Sequence[int | None],
    keys: Sequence[Key | None],
    *,
    reasons: Mapping[int | None, str],
    roles: Mapping[int | None, str],
    last_wins: bool = False,
) -> Verdict:
    """The verdict of a trick whose cards fall into tiers (super trump, trump, led colour, none): the strongest
    key wins, explained by its tier (or by the tie-break when equal cards compete), every card by its role."""
    ranking = ranked(keys, last_wins=last_wins)
    win = plays[ranking[0]]
    reason = card_note(reasons[tiers[win.index]], rule, win, led=plays[0].card.colour)
    return Verdict(
        winner=win.index,
        reason=tie_or(reason, rule, win, equals(keys, ranking), last_wins=last_wins),
        ranking=ranking,
        notes=tuple(card_note(roles[t], rule, play) for t, play in zip(tiers, plays, strict=True)),
    )


def follow_check(
    play: Play, lead: Card, follows: Callable[[Card], bool], *, trump: bool, rule: str
) -> tuple[bool, Note]:
    """The common "follow suit if able" rule: ``follows`` tells which cards answer the lead.

    ``trump`` says the lead asks for trump (not for a colour), which only changes the wording.
    """
    led: dict[str, Scalar] = {"led": lead.colour}
    if follows(play.card):
        return True, card_note(
            "tricks.legal_follow_trump" if trump else "tricks.legal_follow_colour", rule, play, **led
        )
    held = sum(1 for card in play.hand or () if follows(card))
    if held == 0:
        return True, card_note("tricks.legal_void_trump" if trump else "tricks.legal_void_colour", rule, play, **led)
    return False, card_note("tricks.illegal_trump" if trump else "tricks.illegal_colour", rule, play, held=held, **led)


def is_int(value: object) -> TypeGuard[int]:
    """A JSON whole number (``true``/``false`` are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value: object) -> str:
    """Submitted junk, short enough to quote in a message (containers are not spelled out)."""
    if isinstance(value, (list, tuple)):
        return "[…]"
    if isinstance(value, Mapping):
        return "{…}"
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def unknown_keys(c: Complaints, data: Mapping[Any, Any], allowed: Sequence[str], prefix: str) -> None:
    """Complain about every key of ``data`` that is not in ``allowed`` (typos must not pass silently)."""
    for name in data:
        if name not in allowed:
            c.add(
                f"{prefix}{shown(name)}",
                "tricks.unknown_field",
                "tricks-input",
                name=shown(name),
                allowed=", ".join(allowed),
            )


S = TypeVar("S")


class TrickGame(ABC, Generic[S]):
    """One game's trick rules: its deck, its trump set-up, who wins and what must be followed.

    ``S`` is the game's parsed set-up (a frozen dataclass).
    """

    key: str
    name: str
    rule: str  # anchor of the section that says who takes a trick
    follow_rule: str  # anchor of the section that says what must be played
    min_players: int
    max_players: int
    max_hand: int
    setup_keys: tuple[str, ...] = ()
    play_keys: tuple[str, ...] = PLAY_KEYS

    @abstractmethod
    def colours(self, players: int | None) -> tuple[str, ...]:
        """The colour ids of the deck (``players`` is None when the count is unknown)."""

    @abstractmethod
    def values(self, players: int | None) -> tuple[int, int]:
        """The lowest and highest printed value."""

    def copies(self, value: int, players: int | None) -> int:
        """How many cards of one colour carry ``value`` (most decks: one)."""
        return 1

    def edition(self, setup: S) -> Note | None:
        """The edition whose rules decided the trick, when the editions differ (NJET); None elsewhere."""
        return None

    def players_from(self, plays: Sequence[Play]) -> int | None:
        """The player count the plays themselves imply (most games: one card per player)."""
        return self.infer_players(len(plays))

    def trick_sizes(self, players: int | None) -> tuple[int, ...]:
        """The possible numbers of cards in a trick: one per player."""
        if players is None:
            return tuple(range(self.min_players, self.max_players + 1))
        return (players,)

    def infer_players(self, cards: int) -> int | None:
        """The player count a trick of ``cards`` cards implies, if it implies one."""
        return cards if self.min_players <= cards <= self.max_players else None

    @abstractmethod
    def parse_setup(self, data: Mapping[str, Any], options: Mapping[str, Any], c: Complaints) -> S:
        """Check and parse the round's set-up; complaints go to ``c`` (a default set-up is returned anyway)."""

    def check_plays(self, plays: Sequence[Play], c: Complaints, players: int | None) -> None:
        """Game-specific checks across the plays (claims, tricks taken …); nothing by default."""

    @abstractmethod
    def judge(self, setup: S, plays: Sequence[Play]) -> Verdict:
        """Who takes the trick, and why."""

    @abstractmethod
    def follow(self, setup: S, lead: Card, play: Play) -> tuple[bool, Note]:
        """Whether ``play`` (not the lead) was allowed given the player's hand, and why."""

    def trump_order(self, setup: S) -> list[dict[str, Any]]:
        """The trumps from strongest to weakest; empty when the game has no fixed trumps."""
        return []


def trump_ranks(groups: Sequence[tuple[str, Sequence[Card]]]) -> list[dict[str, Any]]:
    """Number the non-empty groups of equal trumps from the strongest (rank 1) down, as JSON."""
    kept = [(kind, cards) for kind, cards in groups if cards]
    return [
        {"rank": rank, "kind": kind, "cards": [card.as_dict() for card in cards]}
        for rank, (kind, cards) in enumerate(kept, start=1)
    ]


def colour_or_none(
    c: Complaints, data: Mapping[str, Any], name: str, colours: Sequence[str], *, game: str, rule: str
) -> str | None:
    """A set-up colour: one of ``colours``, or null/missing for none."""
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, str) and value in colours:
        return value
    c.add(f"setup.{name}", "tricks.colour", rule, colour=shown(value), game=game, colours=", ".join(colours))
    return None


def choice(
    c: Complaints, data: Mapping[str, Any], name: str, choices: Sequence[str], *, default: str, field: str, rule: str
) -> str:
    """A choice among ``choices`` (``default`` when missing); a bad one is reported and replaced by the default."""
    value = data.get(name, default)
    if isinstance(value, str) and value in choices:
        return value
    c.add(field, "tricks.choice", rule, value=shown(value), name=name, choices=", ".join(choices))
    return default
