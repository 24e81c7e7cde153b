"""Game nights: the finished matches a group played within one evening.

A night is a run of matches in start order where each match started at most ``settings.NIGHT_GAP_HOURS`` after
the latest start or finish of the night so far; a longer gap begins a new night.  Members correct the rule
match by match (``NightBreak``): a ``split`` makes a match begin a night, a ``merge`` keeps it in the previous
match's night.  :func:`nights_group` is pure; the selectors below read the group's matches and overrides.
The figures shown for a night are in ``analytics.nights.figures``.

A night is an evening, bounded whatever the history: it holds at most ``MAX_MATCHES`` matches (a match every
24 minutes round the clock) and spans at most ``MAX_SPAN`` from its first match's start; a longer chain of
matches (1 000 imported a minute apart, say) is split there, and no merge can undo that.  So every night's page
and image does work bounded by one day's play.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from django.conf import settings

from analytics.models import NightBreak
from scoring.models import Group, Match

MAX_MATCHES = 60
MAX_SPAN = dt.timedelta(hours=24)


@dataclass(frozen=True)
class NightMatch:
    id: int
    ruleset: str
    started_at: dt.datetime
    finished_at: dt.datetime | None


@dataclass(frozen=True)
class Night:
    group_id: int
    matches: tuple[NightMatch, ...]
    first_night: bool  # no night before it (a merge is not offered)
    can_merge: bool = False  # there is a night before it with room for this night's first match

    @property
    def key(self) -> int:
        """The night's id in links: its first match."""
        return self.matches[0].id

    @property
    def started_at(self) -> dt.datetime:
        return self.matches[0].started_at

    @property
    def ended_at(self) -> dt.datetime:
        return max(m.finished_at or m.started_at for m in self.matches)


def night_gap() -> dt.timedelta:
    return dt.timedelta(hours=settings.NIGHT_GAP_HOURS)


def natural_starts(matches: Sequence[NightMatch], *, gap: dt.timedelta) -> set[int]:
    """The matches that begin a night by the gap rule alone (``matches`` in start order)."""
    return {m.id for m in _split(matches, gap=gap, splits=(), merges=())[1]}


def _split(
    matches: Sequence[NightMatch], *, gap: dt.timedelta, splits: Collection[int], merges: Collection[int]
) -> tuple[list[list[NightMatch]], list[NightMatch]]:
    nights: list[list[NightMatch]] = []
    starts: list[NightMatch] = []
    latest: dt.datetime | None = None
    for match in matches:
        begins = (
            latest is None
            or (match.started_at - latest > gap and match.id not in merges)
            or match.id in splits
            or len(nights[-1]) >= MAX_MATCHES
            or match.started_at - nights[-1][0].started_at > MAX_SPAN
        )
        if begins:
            nights.append([])
            starts.append(match)
            latest = None
        nights[-1].append(match)
        end = match.finished_at or match.started_at
        latest = max(end, match.started_at) if latest is None else max(latest, end, match.started_at)
    return nights, starts


def nights_group(
    matches: Sequence[NightMatch], *, gap: dt.timedelta, splits: Collection[int] = (), merges: Collection[int] = ()
) -> list[list[NightMatch]]:
    """Matches (any order) grouped into nights, oldest first; a ``merge`` at the group's first match is ignored, and so
    is one the bounds of a night (``MAX_MATCHES``, ``MAX_SPAN``) do not allow."""
    ordered = sorted(matches, key=lambda m: (m.started_at, m.id))
    return _split(ordered, gap=gap, splits=splits, merges=merges)[0]


# --- selectors ------------------------------------------------------------------------------------------------------


def night_matches(*, group_id: int) -> list[NightMatch]:
    """The group's finished matches in start order (what nights are made of). A totals-only match was played
    when its final scores say (``finished_at``), not when someone typed them in (``created_at``)."""
    found = Match.objects.filter(group_id=group_id, state=Match.State.FINISHED).values_list(
        "id", "ruleset", "created_at", "finished_at", "totals_only"
    )
    matches = [
        NightMatch(id=i, ruleset=r, started_at=f if totals and f is not None else s, finished_at=f)
        for i, r, s, f, totals in found
    ]
    return sorted(matches, key=lambda m: (m.started_at, m.id))


def night_list(*, group: Group) -> list[Night]:
    """The group's nights, newest first."""
    breaks = dict(NightBreak.objects.filter(group=group).values_list("match_id", "kind"))
    splits = {m for m, kind in breaks.items() if kind == NightBreak.Kind.SPLIT}
    merges = {m for m, kind in breaks.items() if kind == NightBreak.Kind.MERGE}
    grouped = nights_group(night_matches(group_id=group.pk), gap=night_gap(), splits=splits, merges=merges)
    nights = [
        Night(
            group_id=group.pk,
            matches=tuple(ms),
            first_night=i == 0,
            can_merge=i > 0 and _fits(grouped[i - 1], ms[0]),
        )
        for i, ms in enumerate(grouped)
    ]
    return nights[::-1]


def _fits(night: Sequence[NightMatch], match: NightMatch) -> bool:
    """Whether ``match`` could join ``night`` within a night's bounds."""
    return len(night) < MAX_MATCHES and match.started_at - night[0].started_at <= MAX_SPAN


def night_of_match(*, group: Group, match_id: int) -> Night | None:
    """The night a finished match belongs to (``None`` for an open or unknown match)."""
    for night in night_list(group=group):
        if any(m.id == match_id for m in night.matches):
            return night
    return None


def match_for_user(*, user: object, match_id: int) -> Match | None:
    """A finished match of one of ``user``'s groups (outsiders learn nothing)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        Match.objects.filter(pk=match_id, state=Match.State.FINISHED, group__memberships__user=user)
        .select_related("group")
        .first()
    )
