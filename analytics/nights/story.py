"""The story of a game night: what to tell about the evening in three or four sentences, chosen from its figures.

:func:`night_story` is a pure function of a night's figures (``nightfigures``: each match's players, final totals,
winners, sides and running totals round by round, and the night's upset): it answers a short list of events in no
language, which ``nightreport`` words for the page, the image and the API.  It is run once, when the figures are
computed, and stored with them; a request only words what was stored.  Nothing here scores anything: the running
totals are the sums of the points the rules engine gave each round (what the match board adds up), the winners
are the derived standings' (the rules engine's), and the upset is the figures' own (from prior ratings only).

The events, in the order they are told:

``summary``
    who won the most of the night's matches (``names``, ``wins`` of ``matches``; ``game`` for a night of one match).
``record``
    a group record set tonight: the first of the ``records`` passed in (see :class:`RecordEvent`; its own kind
    under ``record``); ``more`` counts the others.
``upset``
    the night's upset as the figures have it (a winner the ratings from before the match gave less than an even
    chance).
``lead``
    the match whose lead changed hands most often: ``changes``, and who led the last ``held`` rounds (``names``,
    empty when the match ended level at the top).  Without any change of lead, ``wire``: a match of at least
    ``WIRE_ROUNDS`` rounds that one side led after every round.
``swing``
    the biggest one-round gain of a side on the side leading before that round: ``gain`` points, the leader
    ``before`` points ahead beforehand and ``after`` points ahead afterwards (negative: overtaken).
``close`` or ``runaway``
    the closest finish (a shared win, a win on the tiebreak or the smallest winning margin relative to the
    winner's total) when it is within ``CLOSE_SHARE``; otherwise the biggest win by that measure, when it is at
    least ``RUNAWAY_SHARE``.

Only the first ``MOST`` events are kept: a summary and three more at most.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Any, NotRequired, TypedDict

MOST = 4  # sentences: the summary and three more
WIRE_ROUNDS = 3  # a match led from the first round to the last is worth a sentence from this many rounds on
CLOSE_SHARE = 0.10  # a winning margin up to this share of the winner's total is a close finish
RUNAWAY_SHARE = 0.25  # and one of at least this share a runaway win (in between, neither is worth a sentence)


class RecordEvent(TypedDict):
    """A group record set during the night, as the records module will hand it over (not built here).

    ``kind`` is the record's key and ``label`` its English wording (a msgid of the catalogue, translated when the
    story is worded: "most points in a round"); ``names`` who set it; ``value`` the new record and ``previous``
    the one it beat (None for the game's first).  ``round`` is the round's number for a record of one round."""

    kind: str
    label: str
    ruleset: str
    match: int
    round: NotRequired[int | None]
    names: list[str]
    value: int
    previous: int | None


Event = dict[str, Any]


def night_story(figures: Mapping[str, Any], *, records: Sequence[RecordEvent] | None = None) -> list[Event]:
    """The events worth telling about the night of ``figures`` (see the module's docstring), at most ``MOST``."""
    matches = list(figures.get("matches") or [])
    events: list[Event] = []
    summary = _summary(matches)
    if summary is not None:
        events.append(summary)
    if records:
        events.append({**records[0], "kind": "record", "record": records[0]["kind"], "more": len(records) - 1})
    upset = figures.get("upset")
    if upset:
        events.append(
            {
                "kind": "upset",
                "match": upset["match"],
                "ruleset": upset["ruleset"],
                "winners": list(upset["winners"]),
                "chance": upset["chance"],
            }
        )
    for found in (_lead(matches), _swing(matches), _finish(matches)):
        if found is not None:
            events.append(found)
    return events[:MOST]


# --- the pieces -----------------------------------------------------------------------------------------------------


def _summary(matches: Sequence[Mapping[str, Any]]) -> Event | None:
    wins: Counter[str] = Counter()
    for match in matches:
        wins.update(dict.fromkeys(match.get("winners") or [], 1))  # once per match, in the order the match names them
    if not wins:
        return None
    best = max(wins.values())
    names = [name for name, count in wins.items() if count == best]
    names.sort(key=lambda name: _first_win(matches, name))  # in the order they first won tonight
    event: Event = {"kind": "summary", "matches": len(matches), "names": names, "wins": best}
    if len(matches) == 1:
        event["game"] = matches[0]["ruleset"]
    return event


def _first_win(matches: Sequence[Mapping[str, Any]], name: str) -> int:
    return next(i for i, match in enumerate(matches) if name in (match.get("winners") or []))


def _sides(match: Mapping[str, Any]) -> list[list[int]]:
    """The match's sides as seat lists: its fixed partnerships, else each seat alone."""
    sides = match.get("sides")
    if sides:
        return [list(side) for side in sides]
    return [[seat] for seat in range(len(match.get("players") or []))]


def _side_names(match: Mapping[str, Any], side: Iterable[int]) -> list[str]:
    players = match["players"]
    return [players[seat] for seat in side]


def _side_totals(totals: Sequence[int], sides: Sequence[Sequence[int]]) -> list[int]:
    """One total per side: partners hold the same total, so any of them (the best, should they differ)."""
    return [max(int(totals[seat]) for seat in side) for side in sides]


def _running(match: Mapping[str, Any]) -> list[tuple[int, list[int]]]:
    """(round number, each side's total after it), in round order."""
    sides = _sides(match)
    return [(int(step["number"]), _side_totals(step["totals"], sides)) for step in match.get("running") or []]


def _sole_leader(totals: Sequence[int]) -> int | None:
    best = max(totals)
    leaders = [side for side, total in enumerate(totals) if total == best]
    return leaders[0] if len(leaders) == 1 else None


def _lead(matches: Sequence[Mapping[str, Any]]) -> Event | None:
    """The match with the most changes of lead; else the longest one led by one side from first round to last."""
    most: tuple[int, int, Event] | None = None
    wire: tuple[int, int, Event] | None = None
    for index, match in enumerate(matches):
        steps = _running(match)
        if len(steps) < 2 or len(_sides(match)) < 2:
            continue
        leaders = [_sole_leader(totals) for _, totals in steps]
        changes, last = 0, None
        for leader in leaders:
            if leader is None:
                continue  # level at the top: the lead is shared, not taken
            if last is not None and leader != last:
                changes += 1
            last = leader
        final = leaders[-1]
        held = 0
        for leader in reversed(leaders):
            if final is None or leader != final:
                break
            held += 1
        names = [] if final is None else _side_names(match, _sides(match)[final])
        base = {"match": match["id"], "ruleset": match["ruleset"], "rounds": len(steps), "names": names}
        if changes:
            if most is None or changes > most[0]:
                most = (changes, index, {"kind": "lead", **base, "changes": changes, "held": held})
        elif held == len(steps) >= WIRE_ROUNDS and (wire is None or len(steps) > wire[0]):
            wire = (len(steps), index, {"kind": "wire", **base})
    if most is not None:
        return most[2]
    return wire[2] if wire is not None else None


def _swing(matches: Sequence[Mapping[str, Any]]) -> Event | None:
    """The biggest gain in one round of a side on a side that led (alone or level) before that round; of equal gains
    the one that changed the lead (``_swing_rank``), then the earliest."""
    best: Event | None = None
    for match in matches:
        steps = _running(match)
        sides = _sides(match)
        for (_, before), (number, after) in pairwise(steps):
            top = max(before)
            for leader, lead_total in enumerate(before):
                if lead_total != top:
                    continue
                for side in range(len(sides)):
                    if side == leader:
                        continue
                    gain = (after[side] - before[side]) - (after[leader] - lead_total)
                    still = after[leader] - after[side]  # the leader's lead after the round (negative: overtaken)
                    if gain <= 0 or (
                        best is not None and _swing_rank(gain, still) <= _swing_rank(best["gain"], best["after"])
                    ):
                        continue
                    best = {
                        "kind": "swing",
                        "match": match["id"],
                        "ruleset": match["ruleset"],
                        "number": number,
                        "names": _side_names(match, sides[side]),
                        "leader": _side_names(match, sides[leader]),
                        "gain": gain,
                        "before": lead_total - before[side],
                        "after": still,
                    }
    return best


def _swing_rank(gain: int, after: int) -> tuple[int, bool, bool]:
    """The bigger gain first; of equal gains, one that took the lead, then one that drew level (the earlier one of
    equal rank stays)."""
    return gain, after < 0, after <= 0


def _margins(matches: Sequence[Mapping[str, Any]]) -> list[tuple[float, int, Event]]:
    """Each finished match's winning margin: (margin as a share of the winner's total, night order, the event)."""
    found = []
    for index, match in enumerate(matches):
        won = match.get("won") or []
        totals = match.get("totals") or []
        sides = _sides(match)
        if not any(won) or len(totals) != len(match.get("players") or []) or len(sides) < 2:
            continue
        winning = [side for side in sides if any(won[seat] for seat in side)]
        others = [side for side in sides if not any(won[seat] for seat in side)]
        if not others:
            continue  # everyone won: no margin to speak of
        top = max(_side_totals(totals, winning))
        runner_up = max(others, key=lambda side: _side_totals(totals, [side])[0])
        second = _side_totals(totals, [runner_up])[0]
        margin = top - second
        if margin < 0:
            continue  # a game whose winners are not the top totals (none at present): the points say nothing
        # a shared win is as close as a finish gets, whatever the margin over the others
        share = 0.0 if len(winning) > 1 else margin / max(abs(top), 1)
        event: Event = {
            "match": match["id"],
            "ruleset": match["ruleset"],
            "winners": [name for side in winning for name in _side_names(match, side)],
            "shared": len(winning) > 1,
            "others": _side_names(match, runner_up),
            "points": top,
            "second": second,
            "margin": margin,
        }
        found.append((share, index, event))
    return found


def _finish(matches: Sequence[Mapping[str, Any]]) -> Event | None:
    margins = _margins(matches)
    if not margins:
        return None
    # a shared win first, then a win on the tiebreak, then the smallest margin; the earlier match on a tie
    share, _, closest = min(margins, key=lambda m: (not m[2]["shared"], m[0], m[1]))
    if share <= CLOSE_SHARE:
        return {"kind": "close", **closest}
    share, _, runaway = max(margins, key=lambda m: (m[0], -m[1]))
    return {"kind": "runaway", **runaway} if share >= RUNAWAY_SHARE else None
