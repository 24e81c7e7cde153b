"""Types shared by every game module of the rules engine.

Pure Python: no Django, no I/O, no clock, no randomness.  Seats are numbered
0..n-1 in playing order (clockwise); seat 0 deals the first round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Scalar = int | str | bool | None


def N_(text: str) -> str:
    """Mark an English message template for translation without importing Django.

    ``makemessages --keyword=N_`` picks these up; the Django layer translates the
    template with gettext and then fills in the numbers.
    """
    return text


class Plural(str):
    """An English message template with a plural form: the string itself is the singular.

    ``count_param`` names the param whose number picks the form; the Django layer passes both forms to ``ngettext``, so
    each language uses its own plural rule (Hungarian keeps the noun singular after a numeral).
    """

    plural: str
    count_param: str

    def __new__(cls, singular: str, plural: str, count: str = "count") -> Plural:
        self = super().__new__(cls, singular)
        self.plural = plural
        self.count_param = count
        return self


def NP_(singular: str, plural: str, count: str = "count") -> str:
    """Mark a template with a plural form (``makemessages --keyword=NP_:1,2``); see :class:`Plural`."""
    return Plural(singular, plural, count)


PLAYER = "player"
"""The param kind of a seat number. A game module's ``PARAMS: dict[str, dict[str, str]]`` maps a message id
to its params' kinds: ``PLAYER`` for a seat (shown as the player's name, never as a seat number), or a
message-id prefix for an id shown as a label (``"was-sticht.task"``: the task "exactly-2" is shown as the
message ``"was-sticht.task.exactly-2"``, "Exactly 2 tricks"). Params not listed are shown as they are."""


@dataclass(frozen=True)
class Line:
    """One line of a score explanation.

    ``msg`` is a message id whose English template lives in the game module's
    ``MESSAGES``; ``params`` fill the template; ``rule`` is the anchor of the
    rules-reference section the line comes from; ``points`` is what the line
    adds to ``player``'s score (None for a purely informative line).
    """

    msg: str
    rule: str
    player: int | None = None
    points: int | None = None
    params: tuple[tuple[str, Scalar], ...] = ()

    def param_dict(self) -> dict[str, Scalar]:
        return dict(self.params)

    def as_dict(self) -> dict[str, Any]:
        return {
            "msg": self.msg,
            "rule": self.rule,
            "player": self.player,
            "points": self.points,
            "params": self.param_dict(),
        }


def line(msg: str, rule: str, *, player: int | None = None, points: int | None = None, **params: Scalar) -> Line:
    """Build a :class:`Line` with keyword params (kept in a stable order)."""
    return Line(msg=msg, rule=rule, player=player, points=points, params=tuple(sorted(params.items())))


@dataclass(frozen=True)
class RoundResult:
    """Every seat's points for one round and the lines that explain them."""

    scores: tuple[int, ...]
    lines: tuple[Line, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "explanation": [ln.as_dict() for ln in self.lines]}


@dataclass(frozen=True)
class OptionSpec:
    """A match option (fixed when the match starts, not per round)."""

    key: str
    kind: str  # "choice" | "int" | "bool" | "json"
    default: Any
    label: str
    rule: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def json_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"title": self.label, "default": self.default}
        if self.kind == "choice":
            schema.update(type="string", enum=list(self.choices))
        elif self.kind == "int":
            schema["type"] = "integer"
            if self.minimum is not None:
                schema["minimum"] = self.minimum
            if self.maximum is not None:
                schema["maximum"] = self.maximum
        elif self.kind == "bool":
            schema["type"] = "boolean"
        return schema


@dataclass(frozen=True)
class MatchState:
    """Where a match stands after the rounds played so far."""

    totals: tuple[int, ...]
    rounds_played: int
    finished: bool
    winners: tuple[int, ...] = ()  # seats; empty while the match is running
    next_dealer: int | None = None
    next_starter: int | None = None  # who leads/starts the next round, when the rules fix it
    rounds_left: int | None = None  # for games with a fixed number of rounds
    target: int | None = None  # for games played to a total
    extra: Mapping[str, Any] = field(default_factory=dict)  # game-specific (e.g. Was sticht? tasks)

    def final_winners(self) -> list[int]:
        """What a match records as its winners (``Match.winners``): the rules' winners once the end condition is
        met, none before."""
        return list(self.winners) if self.finished else []

    def as_dict(self) -> dict[str, Any]:
        return {
            "totals": list(self.totals),
            "rounds_played": self.rounds_played,
            "finished": self.finished,
            "winners": list(self.winners),
            "next_dealer": self.next_dealer,
            "next_starter": self.next_starter,
            "rounds_left": self.rounds_left,
            "target": self.target,
            "extra": dict(self.extra),
        }


def totals_of(results: Sequence[RoundResult], players: int) -> tuple[int, ...]:
    """Sum the rounds' scores seat by seat."""
    sums = [0] * players
    for result in results:
        for seat, points in enumerate(result.scores):
            sums[seat] += points
    return tuple(sums)


def best_seats(values: Sequence[int], *, highest: bool = True) -> tuple[int, ...]:
    """Seats holding the best value; ties share (``highest=False`` for lowest)."""
    if not values:
        return ()
    best = max(values) if highest else min(values)
    return tuple(seat for seat, v in enumerate(values) if v == best)


def deal_index(played: int, deal: int | None) -> int:
    """The 0-based index of the next deal: ``deal`` when the caller knows it, else the rounds played.

    At the table the deal passes on from the last dealer whatever record was deleted, so a round's deal is
    fixed by its round number (round ``k`` was deal ``k - 1``), not by how many rounds are still on record:
    with round 1 of 4 deleted, three rounds are played but the next deal is the fifth.  The services pass the
    round numbers; a caller without them (a bare calculator) counts the rounds."""
    return played if deal is None else deal


def fixed_rounds_state(
    history: Sequence[tuple[Any, RoundResult]],
    *,
    players: int,
    rounds: int,
    starter: Callable[[int], int | None] | None = None,
    dealer_after_end: bool = False,
    extra: Mapping[str, Any] | None = None,
    deal: int | None = None,
) -> MatchState:
    """A match of ``rounds`` rounds: totals, the end once they are played, the highest total winning (ties
    share) and the deal moving left (seat ``deal % players``).  ``starter(deal)`` names who starts the
    next round; ``dealer_after_end`` keeps naming the next dealer and starter after the end (a series that can
    be played on).  ``deal`` is the 0-based index of the next deal at the table (see :func:`deal_index`)."""
    played = len(history)
    position = deal_index(played, deal)
    totals = totals_of([result for _, result in history], players)
    finished = played >= rounds
    going_on = not finished or dealer_after_end
    return MatchState(
        totals=totals,
        rounds_played=played,
        finished=finished,
        winners=best_seats(totals) if finished else (),
        next_dealer=position % players if going_on else None,
        next_starter=starter(position) if starter is not None and going_on else None,
        rounds_left=max(rounds - played, 0),
        extra=extra or {},
    )


Options = Mapping[str, Any]
