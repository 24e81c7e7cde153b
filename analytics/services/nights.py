"""Members' corrections of where game nights begin (``analytics.nights``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from scoring.models import Match
from scoring.services.access import member_require

from ..models import NightBreak
from ..nights import natural_starts, night_gap, night_matches


def _night_break_set(*, match: Match, user: Any, begins: bool) -> None:
    """Make ``match`` begin a night (``begins``) or continue the previous one; an override only where the gap rule
    disagrees, so that undoing a correction leaves no row behind."""
    member_require(group=match.group, user=user)
    with transaction.atomic():
        matches = night_matches(group_id=match.group_id)
        natural = match.pk in natural_starts(matches, gap=night_gap())
        NightBreak.objects.filter(match=match).delete()
        if begins != natural:
            kind = NightBreak.Kind.SPLIT if begins else NightBreak.Kind.MERGE
            NightBreak.objects.create(group_id=match.group_id, match=match, kind=kind, created_by=user)


def night_split(*, match: Match, user: Any) -> None:
    """Begin a new night at ``match``."""
    _night_break_set(match=match, user=user, begins=True)


def night_merge(*, match: Match, user: Any) -> None:
    """Put ``match`` (the first of its night) and the rest of its night into the previous night."""
    _night_break_set(match=match, user=user, begins=False)
