"""Seat order on the new-match page: the order players were tapped, moves up and down, and who deals and
starts first under the game's own rules (the ruleset's state before any round; no rules live here)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.rules import InvalidRound, Ruleset
from scoring.text.numbers import parse_whole


def _ids(values: Sequence[str]) -> list[int]:
    out: list[int] = []
    for value in values:
        pid = parse_whole(str(value))
        if pid is not None and pid not in out:
            out.append(pid)
    return out


def seated_order(post: Any) -> list[int]:
    """The ticked players in seat order.

    ``order`` (kept by seating.js, or echoed by the page after a submit) lists player ids in the order they
    were tapped; ticked players missing from it follow in the order of the list (the page without script).
    A ``move`` button ("up:<id>" / "down:<id>") swaps that player with their neighbour.
    """
    chosen = _ids(post.getlist("players"))
    order = _ids(str(post.get("order") or "").split(","))
    seated = [pid for pid in order if pid in chosen] + [pid for pid in chosen if pid not in order]
    direction, _, who = str(post.get("move") or "").partition(":")
    moved = parse_whole(who)
    if moved is not None and moved in seated:
        i = seated.index(moved)
        j = i - 1 if direction == "up" else i + 1 if direction == "down" else i
        if 0 <= j < len(seated):
            seated[i], seated[j] = seated[j], seated[i]
    return seated


def first_turns(ruleset: Ruleset, players: int, options: Mapping[str, Any]) -> tuple[int | None, int | None]:
    """Seats of the first dealer and of the first start player (None when the rules do not fix it by seat),
    from the ruleset's own state for a match with no rounds; (None, None) for a player count it refuses."""
    if not ruleset.min_players <= players <= ruleset.max_players:
        return None, None
    try:
        state = ruleset.state([], players=players, options=options)
    except InvalidRound as exc:
        # Only options still being filled in that the seating does not depend on (Was sticht?'s drafted task
        # cards, a JSON option) are wrong: ask the game with them as they stand, one blank per seat if unset.
        # Any other complaint means no answer yet.
        drafts = [spec.key for spec in ruleset.options if spec.kind == "json"]
        if not drafts or any(not p.field.startswith(tuple(f"options.{k}" for k in drafts)) for p in exc.problems):
            return None, None
        filled = {spec.key: spec.default for spec in ruleset.options} | dict(options)
        for key in drafts:
            if not isinstance(filled.get(key), list):
                filled[key] = [[None] for _ in range(players)]
        try:
            state = ruleset.module.match_state([], players=players, options=filled)
        except (InvalidRound, LookupError, TypeError, ValueError):
            return None, None
    return state.next_dealer, state.next_starter


def seating_rows(
    ruleset: Ruleset, names: Mapping[int, str], seated: Sequence[int], options: Mapping[str, Any]
) -> dict[str, Any]:
    """What the seating summary shows: the seats in order, the first dealer and the first start player."""
    dealer, starter = first_turns(ruleset, len(seated), options)
    if ruleset.key in START_PLAYER_GAMES:  # no dealer: only who starts is named
        starter = starter if starter is not None else dealer
        dealer = None
    rows = [
        {
            "number": n + 1,
            "player": pid,
            "name": names.get(pid, "?"),
            "deals": n == dealer,
            "starts": n == starter,
            "first": n == 0,
            "last": n == len(seated) - 1,
        }
        for n, pid in enumerate(seated)
    ]
    return {
        "rows": rows,
        "order": ",".join(str(pid) for pid in seated),
        "dealer": rows[dealer]["name"] if dealer is not None and dealer < len(rows) else None,
        "starter": rows[starter]["name"] if starter is not None and starter < len(rows) else None,
        "start_player_game": ruleset.key in START_PLAYER_GAMES,
        "count_ok": ruleset.min_players <= len(seated) <= ruleset.max_players,
        "low": ruleset.min_players,
        "high": ruleset.max_players,
    }


# Games without a dealer: the start player shuffles and deals himself (Was sticht?: "A kezdőjátékos külön-külön
# megkeveri…"), so the seating names only who starts.
START_PLAYER_GAMES = frozenset({"was-sticht", "coloretto"})


def start_problems(
    error: Any, *, fallback: str, seated: Sequence[int], names: Mapping[int, str], post: Any
) -> list[dict[str, str]]:
    """A refused new match's complaints, each naming the player and the input it is about (Was sticht?'s drafted
    task cards: "Bori, task 3: choose the task card.") with ``input``, the name of the control to mark;
    ``fallback`` is the error's own text, for an error without the rules engine's details."""
    from django.utils.translation import gettext

    details = list(getattr(error, "details", None) or [])
    if not details:
        return [{"text": fallback, "input": ""}]
    out: list[dict[str, str]] = []
    for detail in details:
        parts = str(detail.get("field", "")).split(".")
        text = str(detail.get("text", ""))
        seat = parse_whole(parts[2]) if len(parts) >= 3 and parts[:2] == ["options", "tasks"] else None
        if seat is None or seat >= len(seated):
            out.append({"text": text, "input": ""})
            continue
        pid = seated[seat]
        who = names.get(pid, "?")
        slot = parse_whole(parts[3]) if len(parts) >= 4 else None
        if slot is None:
            out.append({"text": gettext("%(player)s: %(text)s") % {"player": who, "text": text}, "input": ""})
            continue
        name = f"task_{pid}_{slot}"
        if not str(post.get(name) or "").strip():
            text = gettext("choose the task card.")
        where = gettext("%(player)s, task %(n)s") % {"player": who, "n": slot + 1}
        out.append({"text": gettext("%(where)s: %(text)s") % {"where": where, "text": text}, "input": name})
    return out
