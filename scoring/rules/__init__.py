"""The rules engine: one pure-Python module per game, reached through this registry.

Every game module exposes the same public shape:

``KEY, NAME, VERSION, MIN_PLAYERS, MAX_PLAYERS``
    identity, the ruleset version stored with every scored round, player range.
``OPTIONS: tuple[OptionSpec, ...]``
    match options (fixed for the whole match); parsed generically here.
``MESSAGES: dict[str, str]``
    message id -> English template (marked with ``N_`` for translation).
``PARAMS: dict[str, dict[str, str]]`` (optional)
    message id -> the kinds of its params: seats shown as players' names, ids shown as labels (``types.py``).
``SECTIONS: dict[str, str]``
    rule anchor -> English section title, used by explanations and errors.
``FACTS_SCHEMA: dict``
    JSON Schema of the round facts as submitted by the API and the UI.
``EXAMPLE: dict``
    a worked example ``{"players": n, "options": {...}, "facts": {...}}``.
``facts_parse(data, *, players, options) -> Facts``
    turn submitted JSON into the frozen facts dataclass (shape errors raise).
``validate(facts, *, players, options, state) -> None``
    refuse impossible rounds with :class:`InvalidRound` naming the rule broken.
``score_round(facts, *, players, options, state) -> RoundResult``
    the official formula with its explanation lines.
``match_state(history, *, players, options, deal=None) -> MatchState``
    totals, end condition, next dealer/starter and winners after ``history``,
    a sequence of ``(facts, result)`` pairs in round order. It reads the facts and the results' scores,
    never their explanation lines: rounds already stored are passed with their stored points and no lines.
    ``deal`` is the 0-based index of the next deal at the table (``types.deal_index``; the rounds played
    unless the caller knows better): the rotation follows it.
``options_validate(options, *, players) -> None`` (optional)
    extra checks of options that the generic parser cannot make.
``LANGUAGE_DEFAULTS: dict[str, dict[str, Any]]`` (optional)
    language code -> option defaults for a match created in that language (NJET: the Hungarian UI
    defaults to the Hungarian edition); the creator's choice still wins, and the parsed value is stored.
``fixed_teams(options, *, players) -> dict[int, int] | None`` (optional)
    seat -> partnership for a game played in the same teams all match (the statistics rate them as teams).
``WINNERS_BY_TOTALS: bool`` (optional, default False)
    True when ``match_state``'s winners, whenever it names any, are exactly the seats with the highest
    total (ties share): the statistics then rank a finished match from its points without reading its
    facts. Leave it out when something else decides (Abluxxen's hands, Was sticht?'s tasks).
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from threading import Lock
from types import ModuleType
from typing import Any

from .errors import Complaints, InvalidRound, Problem
from .types import N_, Line, MatchState, OptionSpec, RoundResult
from .wording import PLAYER_FALLBACK, NTranslate, Translate, fill

__all__ = [
    "KEYS",
    "FactsText",
    "InvalidRound",
    "Line",
    "MatchState",
    "OptionSpec",
    "Problem",
    "RoundResult",
    "Ruleset",
    "all_rulesets",
    "get",
]

# ruleset key -> module name inside this package, in the order the app lists them
_MODULES: dict[str, str] = {
    "njet": "njet",
    "mue": "mue",
    "meinz": "meinz",
    "was-sticht": "was_sticht",
    "sticheln": "sticheln",
    "abluxxen": "abluxxen",
    "muzicando": "muzicando",
    "coloretto": "coloretto",
}
KEYS: tuple[str, ...] = tuple(_MODULES)

MESSAGES: dict[str, str] = {
    "core.players": N_("{game} is played by {low} to {high} players, not {players}."),
    "core.option_unknown": N_("{game} has no option called '{option}'."),
    "core.option_choice": N_("'{value}' is not one of the choices for {option}: {choices}."),
    "core.option_int": N_("{option} must be a whole number from {low} to {high}."),
    "core.option_bool": N_("{option} must be true or false."),
    "core.facts_object": N_("The round facts must be a JSON object."),
    "core.player": PLAYER_FALLBACK,
}


_SCALARS = (str, int, float, bool, type(None))


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # a dataclass's field names, worked out once


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def to_jsonable(value: Any) -> Any:
    """Dataclasses, tuples and frozensets as plain JSON values (stable order)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: to_jsonable(getattr(value, name)) for name in _field_names(kind)}
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (frozenset, set)):
        return sorted(to_jsonable(v) for v in value)
    return value


class FactsText(str):
    """A stored round's facts as the JSON text the database holds them in (see :meth:`Ruleset.replay_facts`)."""

    __slots__ = ()


# How many option sets each ruleset keeps parsed (Ruleset.options_parse)
OPTIONS_KEPT = 256
# How many stored rounds' parsed facts each ruleset keeps (see Ruleset.history): a few hundred open matches' rounds.
STORED_FACTS_KEPT = 4096


def _option_key(value: Any) -> Any:
    """An option's value as part of a memo key: choices, whole numbers and booleans as they are, a JSON option
    (Was sticht?'s own task lists) as its canonical text."""
    return value if type(value) in _SCALARS else json.dumps(value, sort_keys=True, default=repr)


def _copied(options: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v if type(v) in _SCALARS else copy.deepcopy(v) for k, v in options.items()}


def _options_key(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """Parsed options as a memo key (see _option_key)."""
    return tuple((k, _option_key(v)) for k, v in sorted(options.items()))


class _Kept:
    """A bounded memo shared by the threads of a process: the least recently used entries go first."""

    def __init__(self) -> None:
        self._items: OrderedDict[Any, Any] = OrderedDict()
        self._lock = Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Any) -> Any:
        """The value kept for ``key`` (now the most recently used), or None."""
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: Any, value: Any, *, limit: int) -> None:
        with self._lock:
            self._items[key] = value
            while len(self._items) > limit:
                self._items.popitem(last=False)


class Ruleset:
    """A game module seen through one uniform interface."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.key: str = module.KEY
        self.name: str = module.NAME
        self.version: str = module.VERSION
        self.min_players: int = module.MIN_PLAYERS
        self.max_players: int = module.MAX_PLAYERS
        self.options: tuple[OptionSpec, ...] = module.OPTIONS
        self.messages: dict[str, str] = {**MESSAGES, **module.MESSAGES}
        self.params: dict[str, dict[str, str]] = dict(getattr(module, "PARAMS", {}))
        self.sections: dict[str, str] = module.SECTIONS
        self.facts_schema: dict[str, Any] = module.FACTS_SCHEMA
        self.example: dict[str, Any] = module.EXAMPLE
        self.winners_by_totals: bool = bool(getattr(module, "WINNERS_BY_TOTALS", False))
        # whether some options seat the players in fixed partnerships (see fixed_teams)
        self.has_fixed_teams: bool = hasattr(module, "fixed_teams")
        # stored rounds' facts parsed from their JSON text: parsing is a pure function of the text, the player count
        # and the options, and parsed facts are frozen, so each stored round is parsed once per process however
        # many later rounds replay it (``test_replay_facts`` checks they are immutable all the way down). The
        # least recently used go first.
        self._stored_facts = _Kept()
        self._options_parsed = _Kept()  # see options_parse

    def __repr__(self) -> str:
        return f"<Ruleset {self.key}>"

    def _complaints(self) -> Complaints:
        return Complaints(self.messages, self.params)

    def players_check(self, players: int) -> None:
        c = self._complaints()
        c.check(
            self.min_players <= players <= self.max_players,
            "players",
            "core.players",
            f"{self.key}-players",
            game=self.name,
            low=self.min_players,
            high=self.max_players,
            players=players,
        )
        c.raise_if_any()

    def options_parse(self, data: Mapping[str, Any] | None, *, players: int) -> dict[str, Any]:
        """Fill defaults and check every option against its spec (and the game's own checks).

        Options that parsed before are not checked again (every round write parses its match's stored options):
        the answer is kept by the options' values and their types (``1`` is not ``true``), the least recently used
        going first, and handed out as a copy."""
        try:
            key = (players, tuple(sorted((k, type(v), _option_key(v)) for k, v in (data or {}).items())))
        except (TypeError, ValueError, AttributeError):  # not a mapping, keys that do not sort: parsed, not kept
            return self._options_parse(data, players=players)
        parsed = self._options_parsed.get(key)
        if parsed is None:
            parsed = _copied(self._options_parse(data, players=players))  # not the caller's lists
            self._options_parsed.put(key, parsed, limit=OPTIONS_KEPT)
        return _copied(parsed)

    def _options_parse(self, data: Mapping[str, Any] | None, *, players: int) -> dict[str, Any]:
        data = dict(data or {})
        self.players_check(players)
        c = self._complaints()
        specs = {spec.key: spec for spec in self.options}
        for key in data:
            if key not in specs:
                c.add(f"options.{key}", "core.option_unknown", f"{self.key}-options", game=self.name, option=key)
        out: dict[str, Any] = {}
        for spec in self.options:
            value = data.get(spec.key, spec.default)
            field = f"options.{spec.key}"
            if spec.kind == "choice":
                c.check(
                    value in spec.choices,
                    field,
                    "core.option_choice",
                    spec.rule,
                    value=str(value),
                    option=spec.key,
                    choices=", ".join(spec.choices),
                )
            elif spec.kind == "int":
                low = spec.minimum if spec.minimum is not None else -(10**9)
                high = spec.maximum if spec.maximum is not None else 10**9
                c.check(
                    isinstance(value, int) and not isinstance(value, bool) and low <= value <= high,
                    field,
                    "core.option_int",
                    spec.rule,
                    option=spec.key,
                    low=low,
                    high=high,
                )
            elif spec.kind == "bool":
                c.check(isinstance(value, bool), field, "core.option_bool", spec.rule, option=spec.key)
            out[spec.key] = value
        c.raise_if_any()
        extra_check = getattr(self.module, "options_validate", None)
        if extra_check is not None:
            extra_check(out, players=players)
        return out

    def language_defaults(self, language: str | None) -> dict[str, Any]:
        """Option defaults that depend on the language a match is created in (``"hu-hu"`` counts as ``"hu"``)."""
        table: Mapping[str, Mapping[str, Any]] = getattr(self.module, "LANGUAGE_DEFAULTS", {})
        base = (language or "").split("-")[0].lower()
        return dict(table.get(base, {}))

    def fixed_teams(self, options: Mapping[str, Any], *, players: int) -> dict[int, int] | None:
        """Seat -> partnership when the game is played in fixed teams with these (parsed) options, else None."""
        found = getattr(self.module, "fixed_teams", None)
        return found(options, players=players) if found is not None else None

    def facts_parse(self, data: Any, *, players: int, options: Mapping[str, Any]) -> Any:
        if not isinstance(data, Mapping):
            c = self._complaints()
            c.add("facts", "core.facts_object", f"{self.key}-round")
            c.raise_if_any()
        return self.module.facts_parse(data, players=players, options=options)

    def replay_facts(self, data: Any, *, players: int, options: Mapping[str, Any]) -> Any:
        """One round's facts as :meth:`history` takes them: a JSON object as submitted or stored, a stored
        round's JSON text as :class:`FactsText` (parsed once per process and kept, see ``_stored_facts``), or
        facts this ruleset already parsed with these players and options (a new round's, parsed when it was
        normalised), taken as they are."""
        if isinstance(data, FactsText):
            key = (str(data), players, _options_key(options))
            facts = self._stored_facts.get(key)
            if facts is None:
                facts = self.facts_parse(json.loads(data), players=players, options=options)
                self._stored_facts.put(key, facts, limit=STORED_FACTS_KEPT)
            return facts
        if dataclasses.is_dataclass(data) and not isinstance(data, type):
            return data
        return self.facts_parse(data, players=players, options=options)

    def history(
        self,
        rounds: Sequence[Any],
        *,
        players: int,
        options: Mapping[str, Any],
        stored: Sequence[Sequence[int]] = (),
        numbers: Sequence[int] = (),
    ) -> list[tuple[Any, RoundResult]]:
        """Parse, validate and score stored rounds in order (each against the state before it).

        ``rounds`` holds each round's facts in a form :meth:`replay_facts` takes. ``stored`` holds the points
        already stored for the first rounds, scored by this version of the rules with these options: those rounds
        are parsed only, and their results carry the stored points and no lines. Every state costs a pass over
        the rounds before it, so appending a round to a long match then computes one state instead of one per
        round.  ``numbers``, when given, are the rounds' numbers: round ``k`` was the table's deal ``k - 1``
        (who dealt and who started it), even when an earlier round's record was deleted.
        """
        done: list[tuple[Any, RoundResult]] = [
            (self.replay_facts(data, players=players, options=options), RoundResult(scores=tuple(points), lines=()))
            for data, points in zip(rounds, stored, strict=False)
        ]
        for data in rounds[len(done) :]:
            deal = numbers[len(done)] - 1 if len(numbers) > len(done) else None
            state = self.module.match_state(done, players=players, options=options, deal=deal)
            facts = self.replay_facts(data, players=players, options=options)
            self.module.validate(facts, players=players, options=options, state=state)
            done.append((facts, self.module.score_round(facts, players=players, options=options, state=state)))
        return done

    def score(
        self,
        facts: Mapping[str, Any],
        *,
        players: int,
        options: Mapping[str, Any] | None = None,
        before: Sequence[Mapping[str, Any]] = (),
    ) -> RoundResult:
        """Score one round given the raw options and the rounds before it (all validated)."""
        opts = self.options_parse(options, players=players)
        done = self.history([*before, facts], players=players, options=opts)
        return done[-1][1]

    def state(
        self,
        rounds: Sequence[Mapping[str, Any]],
        *,
        players: int,
        options: Mapping[str, Any] | None = None,
        stored: Sequence[Sequence[int]] = (),
        numbers: Sequence[int] = (),
        deal: int | None = None,
    ) -> MatchState:
        """Where the match stands after ``rounds`` (``stored`` and ``numbers`` as for :meth:`history`); ``deal``
        is the 0-based index of the next deal at the table (the rounds played when not given)."""
        opts = self.options_parse(options, players=players)
        done = self.history(rounds, players=players, options=opts, stored=stored, numbers=numbers)
        state: MatchState = self.module.match_state(done, players=players, options=opts, deal=deal)
        return state

    def normalise(self, facts: Mapping[str, Any], *, players: int, options: Mapping[str, Any]) -> Any:
        """The canonical JSON form of submitted facts (what gets stored)."""
        return self.parse_normalise(facts, players=players, options=options)[1]

    def parse_normalise(self, facts: Mapping[str, Any], *, players: int, options: Mapping[str, Any]) -> tuple[Any, Any]:
        """Submitted facts parsed, and their canonical JSON form."""
        parsed = self.facts_parse(facts, players=players, options=options)
        return parsed, to_jsonable(parsed)

    def render(
        self,
        msg: str,
        params: Mapping[str, Any],
        translate: Translate | None = None,
        *,
        names: Sequence[str] | None = None,
        ntranslate: NTranslate | None = None,
    ) -> str:
        """Message ``msg`` filled with ``params``: seats as the players' ``names`` (or "player 1" without them),
        ids as labels, in the language of ``translate``/``ntranslate`` (gettext, ngettext), else English."""
        return fill(
            self.messages[msg],
            params,
            kinds=self.params.get(msg),
            labels=self.messages,
            names=names,
            translate=translate,
            ntranslate=ntranslate,
        )

    def describe(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "version": self.version,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [
                {
                    "key": s.key,
                    "kind": s.kind,
                    "default": s.default,
                    "label": s.label,
                    "rule": s.rule,
                    "choices": list(s.choices),
                    "schema": s.json_schema(),
                }
                for s in self.options
            ],
            "facts_schema": self.facts_schema,
            "example": self.example,
        }


_cache: dict[str, Ruleset] = {}


def get(key: str) -> Ruleset:
    """The ruleset for ``key``; ``KeyError`` for an unknown key."""
    if key not in _cache:
        module = importlib.import_module(f".{_MODULES[key]}", __name__)
        _cache[key] = Ruleset(module)
    return _cache[key]


def all_rulesets() -> list[Ruleset]:
    return [get(key) for key in KEYS]
