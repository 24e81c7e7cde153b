"""Totals-only matches: a match recorded from its final scores alone (a paper pad, an evening with no rounds).

Such a match has seats, options and the final points per seat (``Match.totals``) but no rounds; it is finished
from its creation, at the time it was played.  The standings and ratings count it (the best totals win, as in a
match finished by hand), the per-round statistics never see it, and rounds cannot be added to it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.models import Group, Match, Player, Seat
from scoring.rules.types import best_seats
from scoring.services.access import member_require
from scoring.services.common import options_or_fail, players_seated, ruleset_get, stats_match_changed
from scoring.services.errors import ValidationFailed

# the widest final score any of our games reaches in a long evening is a few thousand points
POINTS_LIMIT = 100_000
EARLIEST = dt.date(1990, 1, 1)


def played_at_check(value: Any) -> dt.datetime:
    """The moment a match was played: a date becomes that day at noon (local time, never after now); a
    ValidationFailed under ``played_at`` for a day in the future or before ``EARLIEST`` (the BG Stats import
    asks before it adds anyone)."""
    now = timezone.now()
    if isinstance(value, dt.datetime):
        moment = value if timezone.is_aware(value) else timezone.make_aware(value)
        day = timezone.localtime(moment).date()
    elif isinstance(value, dt.date):
        day = value
        moment = min(timezone.make_aware(dt.datetime.combine(value, dt.time(12, 0))), now)
    else:
        raise ValidationFailed.single("played_at", gettext("Give the date the match was played."))
    if day > timezone.localdate() or moment > now:
        raise ValidationFailed.single("played_at", gettext("The date played cannot be in the future."))
    if day < EARLIEST:
        raise ValidationFailed.single(
            "played_at", gettext("The date played cannot be before %(date)s.") % {"date": EARLIEST.isoformat()}
        )
    return moment


def _points(seated: Sequence[Player], points: Any) -> list[int]:
    if not isinstance(points, list | tuple) or len(points) != len(seated):
        raise ValidationFailed.single("points", gettext("Give exactly one final score for each player."))
    problems: dict[str, list[str]] = {}
    for seat, (player, value) in enumerate(zip(seated, points, strict=True)):
        if not isinstance(value, int) or isinstance(value, bool) or not -POINTS_LIMIT <= value <= POINTS_LIMIT:
            problems[f"points.{seat}"] = [
                gettext("%(name)s: the final score must be a whole number between %(low)s and %(high)s.")
                % {"name": player.name, "low": -POINTS_LIMIT, "high": POINTS_LIMIT}
            ]
    if problems:
        raise ValidationFailed(problems)
    return [int(v) for v in points]


def _teams_check(seated: Sequence[Player], totals: Sequence[int], teams: dict[int, int] | None) -> None:
    """Partners in a fixed partnership share their score (NJET teams): their final scores must be equal."""
    if not teams:
        return
    first: dict[int, int] = {}
    for seat, team in sorted(teams.items()):
        if team not in first:
            first[team] = seat
        elif totals[seat] != totals[first[team]]:
            raise ValidationFailed.single(
                f"points.{seat}",
                gettext("%(name)s and %(partner)s play as partners: their final scores must be equal.")
                % {"name": seated[seat].name, "partner": seated[first[team]].name},
            )


@transaction.atomic
def _winners(given: Sequence[int] | None, totals: list[int]) -> list[int]:
    """The winning seats: ``given`` when it names seats of this table, else the best totals."""
    if given:
        seats = sorted({int(n) for n in given})
        if all(0 <= n < len(totals) for n in seats):
            return seats
        raise ValidationFailed.single("winners", gettext("A winner must be one of the players at the table."))
    return list(best_seats(totals))


def match_record_totals(
    *,
    group: Group,
    ruleset: str,
    options: dict[str, Any] | None,
    player_ids: Sequence[int],
    points: Sequence[int],
    played_at: Any,
    user: Any,
    winners: Sequence[int] | None = None,
) -> Match:
    """Record a finished match from its final scores: ``points[i]`` is the final score of ``player_ids[i]``
    (seat order).  The best totals win (every game of ours is won on points when it is not played to the end
    under its own rules) unless ``winners`` names the winning seats (a score sheet from another app that says
    who won); the match is finished at ``played_at`` (a date or a datetime, not in the future)."""
    member_require(group=group, user=user)
    rules = ruleset_get(ruleset)
    seated = players_seated(group=group, player_ids=player_ids)
    parsed = options_or_fail(rules, options, players=len(seated))
    totals = _points(seated, points)
    _teams_check(seated, totals, rules.fixed_teams(parsed, players=len(seated)))
    moment = played_at_check(played_at)
    match = Match.objects.create(
        group=group,
        ruleset=rules.key,
        options=parsed,
        created_by=user,
        state=Match.State.FINISHED,
        finish_reason=Match.FinishReason.MANUAL,
        finished_at=moment,
        winners=_winners(winners, totals),
        totals_only=True,
        totals=totals,
    )
    # the match was played then, not now: it sorts, and falls into a night, by when it was played
    Match.objects.filter(pk=match.pk).update(created_at=moment)
    match.created_at = moment
    Seat.objects.bulk_create(Seat(match=match, player=p, number=n) for n, p in enumerate(seated))
    stats_match_changed(match=match, players=[p.pk for p in seated])
    return match
