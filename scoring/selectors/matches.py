"""Reads of matches and their rounds: lists, one match or round as the member may see it, who saved what, the
round numbers, and the scoreboard (points, explanations, totals and where the match stands after every round)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from django.db.models import Case, Count, Exists, F, OuterRef, Prefetch, Q, QuerySet, Value, When
from django.http import Http404

from scoring import rules
from scoring.models import Group, Match, Player, Round, RoundEvent, Seat
from scoring.rules import InvalidRound
from scoring.selectors.common import _pk, line_render
from scoring.selectors.outlook import outlook_board


def _seats_prefetch() -> Prefetch:
    return Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number"))


def match_list(*, group: Group, state: str | None = None, ruleset: str | None = None) -> QuerySet[Match]:
    """The group's matches, open ones first and then newest first, with seats and the number of live rounds."""
    still_open = Case(When(state=Match.State.OPEN, then=Value(0)), default=Value(1))
    matches = (
        Match.objects.filter(group=group)
        .select_related("preset_version")
        .prefetch_related(_seats_prefetch())
        .annotate(rounds_played=Count("rounds", filter=Q(rounds__deleted_at__isnull=True)))
        .order_by(still_open, "-created_at", "-id")
    )
    if state:
        matches = matches.filter(state=state)
    if ruleset:
        matches = matches.filter(ruleset=ruleset)
    return matches


def match_get(*, user: Any, match_id: Any, rounds_played: bool = True, seats: bool = True) -> Match:
    """A match of one of ``user``'s groups, else Http404; with its seats unless ``seats`` is False (recording
    a round reads them under the match's lock anyway) and, unless ``rounds_played`` is False, the number of live
    rounds (a count over the match's rounds that the round endpoints do not need)."""
    if not user.is_authenticated:
        raise Http404
    matches = Match.objects.filter(group__memberships__user=user).select_related("group", "preset_version")
    if seats:
        matches = matches.prefetch_related(_seats_prefetch())
    if rounds_played:
        matches = matches.annotate(rounds_played=Count("rounds", filter=Q(rounds__deleted_at__isnull=True)))
    try:
        return matches.get(pk=_pk(match_id))
    except Match.DoesNotExist:
        raise Http404 from None


def round_list(*, match: Match, include_deleted: bool = False) -> QuerySet[Round]:
    rounds = Round.objects.filter(match=match).select_related("entered_by").order_by("number")
    if not include_deleted:
        rounds = rounds.filter(deleted_at__isnull=True)
    return rounds


def round_get(*, match: Match, number: Any) -> Round:
    """The round with this number: the live one, else (no live round has it) the one deleted last.

    A number is unique among the live rounds only: a round deleted before another was entered with its number
    is no longer reachable by number (its history stays in the match's events)."""
    wanted = _pk(number, high=2**31 - 1)
    rounds = round_list(match=match, include_deleted=True).filter(number=wanted)
    rnd = rounds.order_by(F("deleted_at").desc(nulls_first=True), "-id").first()
    if rnd is None:
        raise Http404
    rnd.match = match
    return rnd


class _Numbered(Protocol):
    @property
    def number(self) -> int: ...


def round_next_number(*, live: Sequence[_Numbered]) -> int:
    """The number the next round gets: the highest live round number + 1 (``live`` in order)."""
    return live[-1].number + 1 if live else 1


def round_gaps(*, match: Match) -> list[Round]:
    """The deleted rounds whose number no live round holds (the one deleted last of each), by number: the
    gaps in the numbering, each shown as a round that can be restored."""
    live = Round.objects.filter(match=match, number=OuterRef("number"), deleted_at__isnull=True)
    deleted = (
        round_list(match=match, include_deleted=True)
        .filter(deleted_at__isnull=False)
        .exclude(Exists(live))
        .order_by("number", "-deleted_at", "-id")
    )
    gaps: dict[int, Round] = {}
    for rnd in deleted:
        gaps.setdefault(rnd.number, rnd)
    return list(gaps.values())


def round_savers(*, match: Match) -> dict[int, str]:
    """Who saved each live round, by number, as the table calls them (see ``entered_by_names``)."""
    live = round_list(match=match).values_list("number", "entered_by_id")
    entered = {number: user_id for number, user_id in live if user_id is not None}
    names = entered_by_names(match=match, user_ids=entered.values())
    return {number: names.get(user_id, "") for number, user_id in entered.items()}


def round_changed_by(*, round: Round) -> str:
    """Who made the newest change to ``round`` (entered, edited, deleted, restored it), as the table calls them
    (see ``entered_by_names``); "" when nobody is known (an account since removed)."""
    actor = RoundEvent.objects.filter(round=round).order_by("-id").values_list("actor_id", flat=True).first()
    if actor is None:
        return ""
    return entered_by_names(match=round.match, user_ids=[actor]).get(actor, "")


def entered_by_names(*, match: Match, user_ids: Iterable[int | None]) -> dict[int, str]:
    """How each user who entered rounds is called at this table: the name of the group's player linked to the
    account, else the account's full name, else its username (two queries at most)."""
    from django.contrib.auth import get_user_model

    wanted = {pk for pk in user_ids if pk is not None}
    if not wanted:
        return {}
    players = Player.objects.filter(group_id=match.group_id, user_id__in=wanted, merged_into__isnull=True)
    names: dict[int, str] = {uid: name for uid, name in players.values_list("user_id", "name") if uid is not None}
    missing = wanted - set(names)
    if missing:
        for user in get_user_model().objects.filter(pk__in=missing):
            names[user.pk] = user.get_full_name() or user.get_username()
    return names


def event_list(*, match: Match) -> QuerySet[RoundEvent]:
    return RoundEvent.objects.filter(match=match).select_related("actor").order_by("id")


# --- the scoreboard -----------------------------------------------------------------------------


def _seat_ref(seat: int | None, seats: Sequence[Seat]) -> dict[str, Any] | None:
    if seat is None or not 0 <= seat < len(seats):
        return None
    return {"seat": seat, "id": seats[seat].player_id, "name": seats[seat].player.name}


def match_scoreboard(*, match: Match) -> dict[str, Any]:
    """Per-round points with explanations, running totals and where the match stands.

    Points are the stored ones (what each round was scored with); the end
    condition, next dealer/starter, rounds left, target and winners come from
    the ruleset's ``state`` over the live rounds.  ``needs_rescore`` says that
    some round was scored by an older ruleset version: then every round is
    checked and scored again, and a round the rules now refuse is reported
    under ``problems``; otherwise the state is computed from the stored points
    (what a replay would give, in one pass instead of one per round).
    """
    ruleset = rules.get(match.ruleset)
    seats = (
        list(match.seats.all())
        if hasattr(match, "_prefetched_objects_cache")
        else list(Seat.objects.filter(match=match).select_related("player").order_by("number"))
    )
    names = [s.player.name for s in seats]
    live = list(round_list(match=match))
    running = [0] * len(seats)
    rows = []
    for rnd in live:
        running = [a + b for a, b in zip(running, rnd.points, strict=False)]
        rows.append(
            {
                "id": rnd.pk,
                "number": rnd.number,
                "version": rnd.version,
                "ruleset_version": rnd.ruleset_version,
                "facts": rnd.facts,
                "points": list(rnd.points),
                "totals": list(running),
                "explanation": [line_render(ruleset, ln, names) for ln in rnd.explanation],
                "entered_by": rnd.entered_by.get_username() if rnd.entered_by else None,
                "created_at": rnd.created_at,
                "updated_at": rnd.updated_at,
            }
        )
    board: dict[str, Any] = {
        "match": match.pk,
        "ruleset": ruleset.key,
        "ruleset_name": ruleset.name,
        "ruleset_version": ruleset.version,
        "version": match.version,
        "state": match.state,
        "finish_reason": match.finish_reason,
        "players": [{"seat": s.number, "id": s.player_id, "name": s.player.name} for s in seats],
        "rounds": rows,
        "totals": running,
        "rounds_played": len(live),
        "next_number": round_next_number(live=live),
        "needs_rescore": any(r.ruleset_version != ruleset.version for r in live),
        "problems": [],
        "finished": None,
        "next_dealer": None,
        "next_starter": None,
        "rounds_left": None,
        "target": None,
        "winners": [],
        "extra": {},
        "totals_only": match.totals_only,
        "outlook": None,
    }
    if match.totals_only:  # recorded from its final scores: no rounds to replay, the recorded winners stand
        board.update(
            totals=[int(v) for v in match.totals or []],
            finished=True,
            winners=[ref for ref in (_seat_ref(w, seats) for w in match.winners or []) if ref is not None],
        )
        return board
    try:
        state = ruleset.state(
            [r.facts for r in live],
            players=len(seats),
            options=match.options,
            stored=[] if board["needs_rescore"] else [r.points for r in live],
            # the deal passes on from the last live round's dealer, whatever earlier round was deleted
            numbers=[r.number for r in live],
            deal=board["next_number"] - 1,
        )
    except InvalidRound as exc:  # stored rounds that a newer ruleset refuses: show them, flag the match
        board["needs_rescore"] = True
        board["problems"] = [p.as_dict() for p in exc.problems]
        return board
    board.update(
        finished=state.finished,
        next_dealer=None if state.finished else _seat_ref(state.next_dealer, seats),
        next_starter=None if state.finished else _seat_ref(state.next_starter, seats),
        rounds_left=state.rounds_left,
        target=state.target,
        winners=[ref for ref in (_seat_ref(w, seats) for w in state.winners) if ref is not None],
        extra=rules.to_jsonable(state.extra),
        outlook=outlook_board(ruleset=ruleset, state=state, options=match.options, names=names),
    )
    return board
