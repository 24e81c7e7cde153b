"""Rounds the other side confirms (issue 47 part 3), the reading half: where each round of a match stands, who
saved its current version and who may confirm or dispute it. The writes are ``scoring.services.confirm``.

A group switches the check on (``Group.confirm_rounds_since``); from then on every round saved, or saved again
(an edit, an undo, a rescore that changed it), waits for a player of another side (``scoring.rules.sides``) to
confirm it on their own phone, or to dispute it. A round saved before the check was switched on, and every round
of a group that leaves it off, is ``unchecked``: nothing about it changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring import rules
from scoring.models import Group, Match, RoundCheck, RoundEvent, Seat
from scoring.rules.sides import confirmers, other_side, round_sides

UNCHECKED, TO_CONFIRM, CONFIRMED, DISPUTED = "unchecked", "to_confirm", "confirmed", "disputed"
STATES = (UNCHECKED, TO_CONFIRM, CONFIRMED, DISPUTED)

# the history actions that make a new version of a round's content (the one who made it "saved" it)
SAVING = (RoundEvent.Action.CREATE, RoundEvent.Action.EDIT, RoundEvent.Action.UNDO, RoundEvent.Action.RESCORE)


@dataclass(frozen=True)
class Seated:
    seat: int
    player_id: int
    name: str
    user_id: int | None


@dataclass
class Standing:
    """Where one live round stands, as a phone shows it."""

    number: int
    version: int
    state: str
    saved_by: str = ""  # who saved this version, as the table calls them ("" when unknown)
    confirmers: list[str] = field(default_factory=list)  # the players (with an account) who may confirm it
    by: str = ""  # who confirmed or disputed it
    note: str = ""
    at: Any = None
    can_act: bool = False  # whether the asking user may confirm or dispute it
    reason: str = ""  # why not, when the user is at the table but may not ("same_side", "saved_it")


def seating_of(match: Match) -> list[Seated]:
    rows = Seat.objects.filter(match=match).order_by("number").values_list("number", "player_id", "player__name")
    users = dict(Seat.objects.filter(match=match, player__user__isnull=False).values_list("number", "player__user_id"))
    return [Seated(seat=n, player_id=pid, name=name, user_id=users.get(n)) for n, pid, name in rows]


def sides_of(match: Match, facts: Any, players: int) -> tuple[int, ...]:
    """Who played with whom in a round of this match (everyone alone when the options cannot be read)."""
    try:
        ruleset = rules.get(match.ruleset)
        fixed = ruleset.fixed_teams(ruleset.options_parse(match.options, players=players), players=players)
    except Exception:  # options an older ruleset cannot read: nobody partners anybody
        fixed = None
    return round_sides(match.ruleset, facts, players=players, fixed=fixed)


def savers_of(match: Match, round_ids: Iterable[int]) -> dict[int, int | None]:
    """The account that saved each round's current version (round id -> user id, None when unknown)."""
    wanted = set(round_ids)
    found: dict[int, int | None] = {}
    events = RoundEvent.objects.filter(match=match, action__in=SAVING).order_by("id")
    for round_id, actor_id in events.values_list("round_id", "actor_id"):
        if round_id in wanted:
            found[round_id] = actor_id
    return found


def seat_of(seated: Sequence[Seated], user_id: int | None) -> int | None:
    if user_id is None:
        return None
    return next((s.seat for s in seated if s.user_id == user_id), None)


def _get(rnd: Any, name: str) -> Any:
    return rnd[name] if isinstance(rnd, Mapping) else getattr(rnd, name)


def state_of(*, since: Any, check: RoundCheck | None, version: int, updated_at: Any) -> str:
    """Where a round stands: its check speaks for its current version only."""
    if since is None:
        return UNCHECKED
    if check is not None and check.version == version:
        return CONFIRMED if check.state == RoundCheck.State.CONFIRMED else DISPUTED
    if updated_at is not None and updated_at < since:
        return UNCHECKED
    return TO_CONFIRM


def match_checks(*, match: Match, rounds: Sequence[Any], user: Any, group: Group | None = None) -> list[Standing]:
    """Where each of ``rounds`` (the match's live rounds: Round objects or the scoreboard's rows, with ``id``,
    ``number``, ``version``, ``facts`` and ``updated_at``) stands, and whether ``user`` may confirm or dispute it.

    A handful of queries whatever the match's length (its checks, its saving events, its seats)."""
    group = group if group is not None else Group.objects.only("confirm_rounds_since").get(pk=match.group_id)
    since = group.confirm_rounds_since
    if since is None:  # the group leaves the check off: nothing to read, nothing to show
        return [Standing(number=_get(r, "number"), version=_get(r, "version"), state=UNCHECKED) for r in rounds]
    ids = [_get(r, "id") for r in rounds]
    checks = {c.round_id: c for c in RoundCheck.objects.filter(match=match).select_related("player", "by")}
    seated = seating_of(match)
    savers = savers_of(match, ids)
    mine = seat_of(seated, getattr(user, "pk", None))
    out = []
    for rnd in rounds:
        rid, version = _get(rnd, "id"), _get(rnd, "version")
        check = checks.get(rid)
        state = state_of(since=since, check=check, version=version, updated_at=_get(rnd, "updated_at"))
        standing = Standing(number=_get(rnd, "number"), version=version, state=state)
        if state == UNCHECKED:
            out.append(standing)
            continue
        saver = savers.get(rid)
        author = seat_of(seated, saver)
        sides = sides_of(match, _get(rnd, "facts"), len(seated))
        standing.saved_by = seated[author].name if author is not None else ""
        # only a player linked to an account can tap Confirm on their own phone
        standing.confirmers = [
            seated[s].name for s in confirmers(sides, author=author) if seated[s].user_id not in (None, saver)
        ]
        if check is not None and check.version == version:
            standing.by = check.player.name if check.player else (check.by.get_username() if check.by else "")
            standing.note, standing.at = check.note, check.at
        if mine is not None:
            standing.can_act = saver != getattr(user, "pk", None) and other_side(sides, author=author, seat=mine)
            if not standing.can_act:
                standing.reason = "saved_it" if saver == getattr(user, "pk", None) else "same_side"
        out.append(standing)
    return out


def confirmed_only_sql(match_column: str, round_table: str, check_table: str) -> str:
    """An SQL condition: the match in ``match_column`` has rounds, and every live one is confirmed in its current
    version (what the dashboards' "confirmed rounds only" filter counts)."""
    return (
        f"EXISTS (SELECT 1 FROM {round_table} cr WHERE cr.match_id = {match_column} AND cr.deleted_at IS NULL) "
        f"AND NOT EXISTS (SELECT 1 FROM {round_table} cr LEFT JOIN {check_table} cc ON cc.round_id = cr.id "
        f"AND cc.state = 'confirmed' AND cc.version = cr.version "
        f"WHERE cr.match_id = {match_column} AND cr.deleted_at IS NULL AND cc.round_id IS NULL)"
    )
