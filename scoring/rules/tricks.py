"""The trick referee: who takes this trick and why, and whether each card could be played.

Settles the table's arguments for the trick-taking games: NJET ("njet"), MÜ ("mue"), Meinz ("meinz"),
Was sticht? ("was-sticht") and Sticheln ("sticheln", classic or reverse).  Pure Python, stdlib only; every
answer is JSON-friendly (``as_dict``) and every reason is a message id + params + rule anchor with its
English text, so the UI can render it in English or Hungarian.

Entry points (the REST API and the UI call exactly these):

``referee(key, setup, plays, *, options=None) -> TrickResult``
    ``plays`` in playing order, each ``{"seat": int (optional), "card": {"colour": str, "value": int},
    "hand": [cards] (optional, the hand BEFORE playing, to check legality)}``; Meinz plays may add
    ``"claim": true``, ``"claim_after": 1-3``, ``"tricks_taken": 0-2`` and ``"monster": true``.
    ``setup`` per game:

    - njet: ``{"trump": colour|null, "super_trump": colour|null}`` (the 0s of that colour); option
      ``tie_rule`` (the edition): "english" (default) or "hungarian" (see :mod:`.tricks_njet`); the
      result's ``edition`` note says which edition's rules decided;
    - mue: ``{"chief_trump": trump|null, "vice_trump": trump|null}``, a trump being ``{"kind": "colour",
      "value": colour}``, ``{"kind": "number", "value": 0-9}`` or ``{"kind": "none"}``;
    - meinz: ``{}``; a trick always has four cards: with three players one of them is the monster's
      (``"monster": true``), and without a ``players`` option that flag makes it a 3-player trick;
    - was-sticht: ``{"trump_colour": colour|null, "trump_number": 1-9|null}``; with three players a
      trick in play has 3 cards and a draft row 4 (the table hand's last);
    - sticheln: ``{"variant": "classic"|"reverse"|…}`` (or the match option ``variant``; default classic).

    ``options`` may carry ``players`` (else the trick's size tells) and the game's match options; other
    keys are ignored, so a match's whole option dict can be passed.
``legal_cards(key, setup, lead, hand, *, options=None) -> list[card]``
    the cards of ``hand`` that may be played to a trick led by ``lead`` (``None``: the player leads).
``trump_order(key, setup) -> list[rank]``
    the trumps from strongest to weakest, equal cards sharing a rank (empty for Meinz and Sticheln,
    which have no fixed trumps).
``colours(key, players=None) -> tuple[str, ...]``
    the colour ids of the game's deck.

Input that cannot describe a real trick (unknown colour, value out of range, wrong number of cards, a
physical card twice, a claim nobody could make then …) raises :class:`InvalidRound` with field paths
such as ``"plays.2.card.colour"``; nothing else is ever raised, whatever the JSON.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import tricks_meinz, tricks_mue, tricks_njet, tricks_sticheln, tricks_was_sticht
from .errors import Complaints, InvalidRound
from .tricks_common import (
    CARD_KEYS,
    KINDS,
    MESSAGES,
    SECTIONS,
    Card,
    Note,
    Play,
    TrickGame,
    card_note,
    is_int,
    render,
    shown,
)
from .tricks_common import unknown_keys as _unknown_keys
from .types import Scalar

__all__ = [
    "GAMES",
    "KEYS",
    "MEINZ_COLOURS",
    "MESSAGES",
    "MUE_COLOURS",
    "NJET_COLOURS",
    "SECTIONS",
    "STICHELN_COLOURS_FIVE",
    "STICHELN_COLOURS_SIX",
    "WAS_STICHT_COLOURS",
    "Card",
    "Note",
    "TrickResult",
    "colours",
    "legal_cards",
    "referee",
    "render",
    "trump_order",
]

NJET_COLOURS = tricks_njet.COLOURS
MUE_COLOURS = tricks_mue.COLOURS
MEINZ_COLOURS = tricks_meinz.COLOURS
WAS_STICHT_COLOURS = tricks_was_sticht.COLOURS
STICHELN_COLOURS_FIVE = tricks_sticheln.COLOURS_FIVE  # 3-5 players
STICHELN_COLOURS_SIX = tricks_sticheln.COLOURS_SIX  # 6-8 players

GAMES: dict[str, TrickGame[Any]] = {
    game.key: game
    for game in (tricks_njet.GAME, tricks_mue.GAME, tricks_meinz.GAME, tricks_was_sticht.GAME, tricks_sticheln.GAME)
}
KEYS: tuple[str, ...] = tuple(GAMES)
INPUT = "tricks-input"
_KINDS = dict.fromkeys(MESSAGES, KINDS)  # every message shows colour ids as names


@dataclass(frozen=True)
class TrickResult:
    """Who takes the trick and why, each card's part in it, and any card that should not have been played.

    ``winner`` indexes ``plays``; ``ranking`` lists the plays whose cards could take the trick, strongest
    first (Meinz: every card, lowest first; claims and the two-trick cap aside).  ``legality`` holds a
    verdict for every play that came with a hand, ``illegal`` the broken ones among them.
    """

    key: str
    winner: int
    winner_seat: int | None
    reason: str
    rule: str
    params: tuple[tuple[str, Scalar], ...]
    text: str
    ranking: tuple[int, ...]
    notes: tuple[Note, ...]
    legality: tuple[Note, ...]
    illegal: tuple[Note, ...]
    edition: Note | None = None  # NJET: which edition's rules decided (the editions differ)
    players: int | None = None  # the player count the trick was judged for, when known

    def param_dict(self) -> dict[str, Scalar]:
        return dict(self.params)

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "winner": self.winner,
            "winner_seat": self.winner_seat,
            "reason": self.reason,
            "rule": self.rule,
            "params": self.param_dict(),
            "text": self.text,
            "ranking": list(self.ranking),
            "notes": [n.as_dict() for n in self.notes],
            "legality": [n.as_dict() for n in self.legality],
            "illegal": [n.as_dict() for n in self.illegal],
            "edition": None if self.edition is None else self.edition.as_dict(),
            "players": self.players,
        }


# --- parsing the submitted JSON ------------------------------------------------------------------------


def _game(key: object) -> TrickGame[Any]:
    if isinstance(key, str) and key in GAMES:
        return GAMES[key]
    c = Complaints(MESSAGES, _KINDS)
    c.add("key", "tricks.unknown_game", INPUT, key=shown(key), keys=", ".join(KEYS))
    raise InvalidRound(c.problems)


def _object(c: Complaints, value: object, field: str, msg: str) -> Mapping[str, Any]:
    """A JSON object (``None`` counts as empty); anything else is reported and read as empty."""
    if value is None:
        return {}
    if isinstance(value, Mapping):
        return value
    c.add(field, msg, INPUT)
    return {}


def _players(c: Complaints, game: TrickGame[Any], options: Mapping[str, Any]) -> int | None:
    value = options.get("players")
    if value is None:
        return None
    if is_int(value) and game.min_players <= value <= game.max_players:
        return int(value)
    c.add(
        "options.players",
        "tricks.players",
        f"{game.key}-players",
        game=game.name,
        low=game.min_players,
        high=game.max_players,
        players=shown(value),
    )
    return None


def _card(c: Complaints, game: TrickGame[Any], data: object, field: str, players: int | None) -> Card | None:
    if not isinstance(data, Mapping):
        c.add(field, "tricks.card_object", INPUT)
        return None
    _unknown_keys(c, data, CARD_KEYS, f"{field}.")
    deck = game.colours(players)
    low, high = game.values(players)
    colour, value = data.get("colour"), data.get("value")
    card_colour = colour if isinstance(colour, str) and colour in deck else None
    card_value = value if is_int(value) and low <= value <= high else None
    if card_colour is None:
        c.add(f"{field}.colour", "tricks.colour", INPUT, colour=shown(colour), game=game.name, colours=", ".join(deck))
    if card_value is None:
        c.add(f"{field}.value", "tricks.value", INPUT, game=game.name, low=low, high=high)
    return None if card_colour is None or card_value is None else Card(card_colour, card_value)


def _hand(
    c: Complaints, game: TrickGame[Any], data: object, field: str, players: int | None
) -> tuple[Card, ...] | None:
    if not isinstance(data, (list, tuple)):
        c.add(field, "tricks.hand_list", INPUT)
        return None
    if len(data) > game.max_hand:
        c.add(field, "tricks.hand_size", INPUT, game=game.name, high=game.max_hand)
        return None
    cards = [_card(c, game, item, f"{field}.{i}", players) for i, item in enumerate(data)]
    kept = tuple(card for card in cards if card is not None)
    return kept if len(kept) == len(cards) else None


def _bool(c: Complaints, data: Mapping[str, Any], name: str, field: str) -> bool:
    value = data.get(name, False)
    if isinstance(value, bool):
        return value
    c.add(f"{field}.{name}", "tricks.flag_bool", INPUT, name=name)
    return False


def _int(c: Complaints, data: Mapping[str, Any], name: str, field: str) -> int | None:
    value = data.get(name)
    if value is None or is_int(value):
        return value
    c.add(f"{field}.{name}", "tricks.flag_int", INPUT, name=name)
    return None


def _play(
    c: Complaints, game: TrickGame[Any], data: object, index: int, players: int | None, seat_high: int
) -> Play | None:
    field = f"plays.{index}"
    if not isinstance(data, Mapping):
        c.add(field, "tricks.play_object", INPUT)
        return None
    _unknown_keys(c, data, game.play_keys, f"{field}.")
    card = _card(c, game, data.get("card"), f"{field}.card", players)
    hand = None if data.get("hand") is None else _hand(c, game, data.get("hand"), f"{field}.hand", players)
    seat = _int(c, data, "seat", field)
    if seat is not None and not 0 <= seat <= seat_high:
        c.add(f"{field}.seat", "tricks.seat", INPUT, high=seat_high)
    flags = {name for name in game.play_keys if name in data}
    claim = "claim" in flags and _bool(c, data, "claim", field)
    monster = "monster" in flags and _bool(c, data, "monster", field)
    claim_after = _int(c, data, "claim_after", field) if "claim_after" in flags else None
    tricks_taken = (_int(c, data, "tricks_taken", field) or 0) if "tricks_taken" in flags else 0
    if card is None:
        return None
    return Play(index, card, seat, hand, claim, claim_after, tricks_taken, monster)


def _card_count(c: Complaints, game: TrickGame[Any], sizes: Sequence[int], count: int) -> None:
    """A trick of the wrong size: one message per shape of the allowed sizes, so every language words it whole."""
    if len(sizes) == 1:
        c.add("plays", "tricks.card_count", INPUT, game=game.name, expected=sizes[0], count=count)
    elif len(sizes) == 2:
        c.add("plays", "tricks.card_count_either", INPUT, game=game.name, low=sizes[0], high=sizes[1], count=count)
    else:
        c.add("plays", "tricks.card_count_range", INPUT, game=game.name, low=sizes[0], high=sizes[-1], count=count)


def _over_deck(game: TrickGame[Any], cards: Iterable[Card], players: int | None) -> list[tuple[Card, int, int]]:
    """Cards shown more often than the deck holds them: (card, times shown, copies in the deck)."""
    counts = Counter(cards)
    return [
        (card, count, game.copies(card.value, players))
        for card, count in counts.items()
        if count > game.copies(card.value, players)
    ]


def _check_cards(c: Complaints, game: TrickGame[Any], plays: Sequence[Play], players: int | None) -> None:
    """Physical cards: never more of one than the deck has, a hand holds the card played; one card per seat."""
    name = game.name
    seen: Counter[Card] = Counter()
    for play in plays:
        seen[play.card] += 1
        copies = game.copies(play.card.value, players)
        if seen[play.card] > copies:
            c.add(f"plays.{play.index}.card", "tricks.duplicate", INPUT, game=name, copies=copies, **play.card.params())
    seats: set[int] = set()
    for play in plays:
        if play.seat is not None:
            c.check(play.seat not in seats, f"plays.{play.index}.seat", "tricks.seat_twice", INPUT, seat=play.seat)
            seats.add(play.seat)
    for play in plays:
        if play.hand is None:
            continue
        c.check(play.card in play.hand, f"plays.{play.index}.card", "tricks.not_in_hand", INPUT, **play.card.params())
        others = [other.card for other in plays if other.index != play.index]
        for card, count, copies in _over_deck(game, [*play.hand, *others], players):
            c.add(
                f"plays.{play.index}.hand",
                "tricks.hand_duplicate",
                INPUT,
                game=name,
                copies=copies,
                count=count,
                **card.params(),
            )


def _setup(c: Complaints, game: TrickGame[Any], setup: object, options: Mapping[str, Any]) -> Any:
    data = _object(c, setup, "setup", "tricks.setup_object")
    _unknown_keys(c, data, game.setup_keys, "setup.")
    return game.parse_setup(data, options, c)


# --- the entry points ----------------------------------------------------------------------------------


def referee(
    key: str, setup: Mapping[str, Any], plays: Sequence[Mapping[str, Any]], *, options: Mapping[str, Any] | None = None
) -> TrickResult:
    """Judge one complete trick: the winner, the reason, each card's part, and illegal plays."""
    game = _game(key)
    c = Complaints(MESSAGES, _KINDS)
    opts = _object(c, options, "options", "tricks.options_object")
    parsed_setup = _setup(c, game, setup, opts)
    players = _players(c, game, opts)
    if not isinstance(plays, (list, tuple)):
        c.add("plays", "tricks.plays_list", INPUT)
        raise InvalidRound(c.problems)
    if players is None:
        players = game.infer_players(len(plays))
    sizes = game.trick_sizes(players)
    if len(plays) not in sizes:
        _card_count(c, game, sizes, len(plays))
        raise InvalidRound(c.problems)
    seat_high = max(players or game.max_players, len(plays)) - 1
    parsed = [_play(c, game, data, i, players, seat_high) for i, data in enumerate(plays)]
    c.raise_if_any()
    trick = tuple(play for play in parsed if play is not None)
    if players is None:
        players = game.players_from(trick)
    _check_cards(c, game, trick, players)
    game.check_plays(trick, c, players)
    c.raise_if_any()

    verdict = game.judge(parsed_setup, trick)
    legality: list[tuple[bool, Note]] = []
    for play in trick:
        if play.hand is None:
            continue
        if play.index == 0:
            legality.append((True, card_note("tricks.legal_lead", game.follow_rule, play)))
        else:
            legality.append(game.follow(parsed_setup, trick[0].card, play))
    reason = verdict.reason
    return TrickResult(
        key=game.key,
        winner=verdict.winner,
        winner_seat=trick[verdict.winner].seat,
        reason=reason.msg,
        rule=reason.rule,
        params=reason.params,
        text=reason.text,
        ranking=verdict.ranking,
        notes=verdict.notes,
        legality=tuple(n for _, n in legality),
        illegal=tuple(n for ok, n in legality if not ok),
        edition=game.edition(parsed_setup),
        players=players,
    )


def legal_cards(
    key: str,
    setup: Mapping[str, Any],
    lead: Mapping[str, Any] | None,
    hand: Sequence[Mapping[str, Any]],
    *,
    options: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """The distinct cards of ``hand`` that may be played to a trick led by ``lead`` (None: leading)."""
    game = _game(key)
    c = Complaints(MESSAGES, _KINDS)
    opts = _object(c, options, "options", "tricks.options_object")
    parsed_setup = _setup(c, game, setup, opts)
    players = _players(c, game, opts)
    led = None if lead is None else _card(c, game, lead, "lead", players)
    cards = _hand(c, game, hand, "hand", players)
    c.raise_if_any()
    assert cards is not None  # _hand complained otherwise
    shown_cards = [*cards] if led is None else [led, *cards]
    for card, count, copies in _over_deck(game, shown_cards, players):
        c.add("hand", "tricks.hand_duplicate", INPUT, game=game.name, copies=copies, count=count, **card.params())
    c.raise_if_any()
    out: list[Card] = []
    for card in cards:
        if card in out:
            continue
        if led is None or game.follow(parsed_setup, led, Play(index=1, card=card, hand=cards))[0]:
            out.append(card)
    return [card.as_dict() for card in out]


def trump_order(key: str, setup: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The trumps of a round from strongest to weakest: ``[{"rank", "kind", "cards"}]``, equal cards share a rank."""
    game = _game(key)
    c = Complaints(MESSAGES, _KINDS)
    parsed_setup = _setup(c, game, setup, {})
    c.raise_if_any()
    return game.trump_order(parsed_setup)


def colours(key: str, players: int | None = None) -> tuple[str, ...]:
    """The colour ids of the game's deck (Sticheln: five colours up to 5 players, six from 6)."""
    game = _game(key)
    c = Complaints(MESSAGES, _KINDS)
    known = _players(c, game, {"players": players})
    c.raise_if_any()
    return game.colours(known)
