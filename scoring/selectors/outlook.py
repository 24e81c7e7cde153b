"""Reads for the table before and between rounds, in words: "what do I need" for every player of a running match
(issue 47), and the stakes of a MÜ auction or an NJET board before the cards are played.

The figures come from the rules engine (``scoring.rules.outlook``, ``mue_stakes``, ``njet_stakes``); this module
only names the players and words the sentences in the active language (English or Hungarian, the rulebooks' terms).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, ngettext

from scoring import rules
from scoring.models import Match, Seat
from scoring.rules import mue_tables, njet
from scoring.rules.mue import NO_TRUMP, Trump
from scoring.rules.mue_stakes import MueStakes
from scoring.rules.mue_stakes import stakes as mue_stakes
from scoring.rules.njet_stakes import NjetStakes
from scoring.rules.njet_stakes import stakes as njet_stakes
from scoring.rules.outlook import Outlook, SeatOutlook, match_outlook
from scoring.rules.types import MatchState

STAKES_GAMES = ("mue", "njet")


def _signed(number: int) -> str:
    """+3, −2, 0: as the score columns print points (U+2212 for minus)."""
    return f"+{number}" if number > 0 else (f"−{-number}" if number < 0 else "0")


def names_and(names: Sequence[str]) -> str:
    """ "Anna, Béla and Csaba" in the active language."""
    if len(names) <= 1:
        return "".join(names)
    return gettext("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def names_or(names: Sequence[str]) -> str:
    """ "Anna, Béla or Csaba" in the active language."""
    if len(names) <= 1:
        return "".join(names)
    return gettext("%(first)s or %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


# --- what do I need ------------------------------------------------------------------------------------


def _fixed_rounds_text(seat: SeatOutlook, found: Outlook, names: Sequence[str]) -> str:
    name = names[seat.seat]
    if not seat.ahead_of_them:
        if seat.lead:
            return gettext("%(name)s leads by %(lead)s.") % {"name": name, "lead": seat.lead}
        return gettext("%(name)s shares the lead.") % {"name": name}
    left = found.rounds_left or 0
    params = {
        "name": name,
        "behind": seat.behind,
        "leader": names_and([names[s] for s in seat.ahead_of_them]),
        "counter": left,
        "reach": found.reach,
    }
    if seat.can_win:
        return (
            ngettext(
                "%(name)s needs %(behind)s more than %(leader)s in the last round.",
                "%(name)s needs %(behind)s more than %(leader)s in the last %(counter)s rounds.",
                left,
            )
            % params
        )
    return (
        ngettext(
            "%(name)s can no longer win: %(behind)s behind %(leader)s, and the last round can make up at most "
            "%(reach)s.",
            "%(name)s can no longer win: %(behind)s behind %(leader)s, and the last %(counter)s rounds can make up "
            "at most %(reach)s.",
            left,
        )
        % params
    )


def _target_text(seat: SeatOutlook, found: Outlook, names: Sequence[str]) -> str:
    params = {
        "name": names[seat.seat],
        "lead": seat.lead,
        "behind": seat.behind,
        "leader": names_and([names[s] for s in seat.ahead_of_them]),
        "to_target": seat.to_target,
        "target": found.target,
    }
    if seat.ahead_of_them:
        return gettext("%(name)s is %(behind)s behind %(leader)s and needs %(to_target)s more to reach %(target)s.") % (
            params
        )
    if seat.lead:
        return gettext("%(name)s leads by %(lead)s and needs %(to_target)s more to reach %(target)s.") % params
    return gettext("%(name)s shares the lead and needs %(to_target)s more to reach %(target)s.") % params


def _note(found: Outlook, names: Sequence[str]) -> str:
    """One sentence about the whole table: who alone can still win, or when a match to a total can end."""
    if found.target is not None:
        if (found.earliest_end or 0) > 1:
            count = found.earliest_end or 0
            return ngettext(
                "The match lasts at least %(counter)s more round: nobody can reach %(target)s sooner.",
                "The match lasts at least %(counter)s more rounds: nobody can reach %(target)s sooner.",
                count,
            ) % {"counter": count, "target": found.target}
        return gettext("The match can end after the next round.")
    alive = [s.seat for s in found.seats if s.can_win]
    if len(alive) < len(found.seats):
        return ngettext("Only %(names)s can still win.", "Only %(names)s can still win.", len(alive)) % {
            "names": names_and([names[s] for s in alive])
        }
    return ""


def outlook_board(
    *, ruleset: rules.Ruleset, state: MatchState, options: Mapping[str, Any], names: Sequence[str]
) -> dict[str, Any] | None:
    """ "What do I need" for the board and the API: the engine's figures, and every player's sentence in the
    active language. None once the match is over, before its first round, and for a game without a known end."""
    if state.rounds_played == 0:
        return None  # everyone level at 0: nothing to say yet
    parsed = ruleset.options_parse(options, players=len(names))
    found = match_outlook(ruleset.key, state, players=len(names), options=parsed)
    if found is None:
        return None
    data = found.as_dict()
    word = _target_text if found.target is not None else _fixed_rounds_text
    for entry, seat in zip(data["players"], found.seats, strict=True):
        entry["name"] = names[seat.seat]
        entry["text"] = word(seat, found, names)
    data["note"] = _note(found, names)
    return data


# --- the stakes before play ----------------------------------------------------------------------------


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _trump(value: Any) -> Trump | None:
    """The chief's trump as the facts give it, or None while it is not (validly) named."""
    if not isinstance(value, Mapping):
        return None
    kind, named = value.get("kind"), value.get("value")
    if kind == "none":
        return NO_TRUMP
    if kind == "colour" and named in mue_tables.COLOURS:
        return Trump("colour", named)
    if kind == "number" and _whole(named) in mue_tables.NUMBERS:
        return Trump("number", named)
    return None


def _role_row(label: str, cells: list[str], role: str) -> dict[str, Any]:
    return {"role": role, "label": label, "cells": cells}


def _mue_words(found: MueStakes, names: Sequence[str]) -> dict[str, Any]:
    chief = names[found.chief]
    params = {"chief": chief, "bid": found.bid, "target": found.target}
    if found.partner is not None:
        lines = [
            gettext("%(chief)s (chief) bid %(bid)s: %(chief)s and %(partner)s need %(target)s triangles together.")
            % {**params, "partner": names[found.partner]}
        ]
    else:
        lines = [
            gettext("%(chief)s (chief) bid %(bid)s: with a partner, %(chief)s needs %(target)s triangles.") % params
        ]
    missed = [found.missed[0]] if found.bid == 1 else [found.missed[0], found.missed[-1]]
    head = [gettext("%(target)s or more") % {"target": found.target}]
    for m in missed:
        if m.points_from == 0:
            head.append(gettext("under %(points)s") % {"points": m.points_to + 1})
        else:
            head.append(gettext("%(low)s to %(high)s") % {"low": m.points_from, "high": m.points_to})
    made = [outcome for _, outcome in found.made]

    def cells(pick: Any) -> list[str]:
        low, high = min(pick(o) for o in made), max(pick(o) for o in made)
        first = (
            _signed(low)
            if low == high
            else gettext("%(low)s to %(high)s") % {"low": _signed(low), "high": _signed(high)}
        )
        return [first, *(_signed(pick(m.outcome)) for m in missed)]

    others = [s for s in range(found.players) if s not in (found.chief, found.vice, found.partner)]
    rows = [_role_row(gettext("%(name)s (chief)") % {"name": chief}, cells(lambda o: o.chief), "chief")]
    partner = gettext("%(name)s (partner)") % {"name": names[found.partner]} if found.partner is not None else None
    rows.append(_role_row(partner or gettext("the partner"), cells(lambda o: o.partner), "partner"))
    if found.vice is not None:
        vice = gettext("%(name)s (vice)") % {"name": names[found.vice]}
        rows.append(_role_row(vice, cells(lambda o: o.vice), "vice"))
    other = names_and([names[s] for s in others]) if found.partner is not None else gettext("the others")
    rows.append(_role_row(other, cells(lambda o: o.other), "other"))
    if len(made) > 1:
        bonuses = {column: outcome.chief for column, outcome in found.made}
        lines.append(
            gettext(
                "Bonus by the chief's trump: colour %(colour)s, 1 or 7 %(one_or_seven)s, "
                "other number %(other_number)s, no trump %(no_trump)s."
            )
            % bonuses
        )
    lines.append(gettext("Everyone also scores the triangles in their own tricks."))
    return {
        "lines": lines,
        "table": {"caption": gettext("Triangles of the chief's team:"), "head": head, "rows": rows},
    }


def _njet_words(found: NjetStakes, names: Sequence[str]) -> dict[str, Any]:
    # a captured 0 adds to the haul as a trick does (the engine gives both the same worth; the stakes tests check
    # it), so one sentence says what either is worth to whom
    groups: dict[tuple[int, ...], list[int]] = {}
    for taker in range(found.players):
        groups.setdefault(found.trick[taker], []).append(taker)
    lines = []
    for trick, takers in groups.items():
        who = names_or([names[t] for t in takers])
        if found.monster in takers:
            who = gettext("%(name)s (monster card)") % {"name": who}
        if found.difference:
            rival = next(s for s in range(found.players) if found.teams[s] != found.teams[takers[0]])
            moved = trick[takers[0]] - trick[rival]
            side = [s for s in range(found.players) if (found.teams[s] == found.teams[takers[0]]) == (moved >= 0)]
            lines.append(
                gettext("Each trick or captured 0 of %(takers)s moves the difference %(points)s towards %(names)s.")
                % {"takers": who, "points": abs(moved), "names": names_and([names[s] for s in side])}
            )
            continue
        gets = [s for s in range(found.players) if trick[s]]
        points = trick[gets[0]]
        if len(gets) == 1:
            effect = gettext("%(points)s for %(name)s") % {"points": _signed(points), "name": names[gets[0]]}
        else:
            effect = gettext("%(points)s each for %(names)s") % {
                "points": _signed(points),
                "names": names_and([names[s] for s in gets]),
            }
        lines.append(gettext("Each trick or captured 0 of %(takers)s: %(effect)s.") % {"takers": who, "effect": effect})
    if found.monster is None and found.players in njet.MONSTER_PLAYERS:
        lines.append(gettext("The tricks and captured 0s of the monster card's holder count double."))
    if found.difference:
        lines.append(gettext("Only the difference between the teams is recorded: the higher team scores it."))
    return {"lines": lines, "table": None}


def _mue_from(facts: Mapping[str, Any], players: int) -> tuple[MueStakes | None, list[str]]:
    if facts.get("outcome", "played") != "played":
        return None, ["outcome"]
    chief, bid = _whole(facts.get("chief")), _whole(facts.get("bid"))
    missing = [name for name, value in (("chief", chief), ("bid", bid)) if value is None]
    if chief is None or bid is None:
        return None, missing
    try:
        found = mue_stakes(
            players=players,
            chief=chief,
            bid=bid,
            vice=_whole(facts.get("vice")),
            partner=_whole(facts.get("partner")),
            chief_trump=_trump(facts.get("chief_trump")),
        )
    except ValueError:
        return None, ["chief", "bid", "vice", "partner"]
    return found, []


def _njet_from(
    facts: Mapping[str, Any], players: int, options: Mapping[str, Any]
) -> tuple[NjetStakes | None, list[str]]:
    start, per_trick = _whole(facts.get("start_player")), _whole(facts.get("points_per_trick"))
    given = facts.get("teams")
    teams = [t for t in given if _whole(t) is not None] if isinstance(given, list) else None
    if players == 2 and start is not None and given is None:
        teams = [0 if seat == start else 1 for seat in range(players)]  # each plays alone
    missing = [n for n, v in (("start_player", start), ("points_per_trick", per_trick), ("teams", teams)) if v is None]
    if start is None or per_trick is None or teams is None:
        return None, missing
    try:
        found = njet_stakes(
            players=players,
            options=options,
            start_player=start,
            teams=teams,  # a list that lost an entry that was no number is refused for its length
            monster=_whole(facts.get("monster")),
            points_per_trick=per_trick,
        )
    except ValueError:
        return None, ["start_player", "teams", "monster", "points_per_trick"]
    return found, []


def match_seat_names(*, match: Match) -> list[str]:
    """The seated players' names in seat order (from the seats ``selectors.match_get`` prefetched, if it did)."""
    if "seats" in getattr(match, "_prefetched_objects_cache", {}):
        return [seat.player.name for seat in match.seats.all()]
    return [s.player.name for s in Seat.objects.filter(match=match).select_related("player").order_by("number")]


def match_stakes(*, match: Match, facts: Mapping[str, Any]) -> dict[str, Any]:
    """The stakes of the round ``facts`` describe so far (a MÜ auction, an NJET board), worded for the table.

    ``ready`` is False while the facts still lack (or hold impossible values for) the fields listed under
    ``missing``; other games have no stakes before play (``available`` False)."""
    out: dict[str, Any] = {
        "ruleset": match.ruleset,
        "available": match.ruleset in STAKES_GAMES,
        "ready": False,
        "missing": [],
        "stakes": None,
        "lines": [],
        "table": None,
    }
    if not out["available"]:
        return out
    names = match_seat_names(match=match)
    ruleset = rules.get(match.ruleset)
    options = ruleset.options_parse(match.options, players=len(names))
    found: MueStakes | NjetStakes | None
    if match.ruleset == "mue":
        found, out["missing"] = _mue_from(facts, len(names))
        words = _mue_words(found, names) if isinstance(found, MueStakes) else None
    else:
        found, out["missing"] = _njet_from(facts, len(names), options)
        words = _njet_words(found, names) if isinstance(found, NjetStakes) else None
    if found is None or words is None:
        return out
    out.update(ready=True, stakes=rules.to_jsonable(found), **words)
    return out
