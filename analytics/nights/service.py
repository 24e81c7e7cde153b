"""Game nights: members' corrections of where nights begin (``analytics.nights.grouping``), and each night's figures and
image computed once per version of the night and served from storage afterwards.

A view asks for a night's figures (:func:`night_figures_get`) or image (:func:`night_image_get`): the night's
version (``nightfigures.night_version``, four small queries) is compared with the stored one; the same version is
answered from the stored row, another one is computed, stored and answered.  Requests for the same night that
arrive together wait for one computation (a transaction-level advisory lock on the night), then read its result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import get_language

from analytics.models import NightBreak, NightFigures, NightImage
from analytics.nights.figures import night_figures_compute, night_version
from analytics.nights.grouping import Night, natural_starts, night_gap, night_matches
from analytics.nights.image import night_png
from analytics.nights.report import night_report
from scoring.models import Match
from scoring.services.access import member_require

# The first key of PostgreSQL's two-key advisory locks held while a night's figures or image are computed.
NIGHT_LOCK = 7010

T = TypeVar("T")


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


def _once(key: int, found: Callable[[], T | None], compute: Callable[[], T]) -> T:
    """``found()`` if it answers, else ``compute()`` under the night's lock (looking again once it is held: a request
    that waited finds what the first one stored)."""
    ready = found()
    if ready is not None:
        return ready
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [NIGHT_LOCK, key])
        ready = found()
        return ready if ready is not None else compute()


def _figures_row(night: Night, version: str) -> NightFigures:
    def found() -> NightFigures | None:
        return NightFigures.objects.filter(key=night.key, version=version).first()

    def compute() -> NightFigures:
        row, _ = NightFigures.objects.update_or_create(
            key=night.key,
            defaults={
                "group_id": night.group_id,
                "version": version,
                "figures": night_figures_compute(night=night),
                "computed_at": timezone.now(),
            },
        )
        return row

    return _once(night.key, found, compute)


def night_figures_get(*, night: Night, version: str | None = None) -> dict[str, Any]:
    """The night's figures (``nightfigures``), computed only when the night changed since they were stored.
    ``version``: the night's ``night_version`` when the caller has just worked it out (the API compares it with
    the client's ETag first)."""
    return _figures_row(night, version or night_version(night=night)).figures


def night_image_get(*, night: Night) -> bytes:
    """The night's PNG in the active language, drawn only when the night changed since it was stored."""
    version = night_version(night=night)
    figures = _figures_row(night, version)
    language = (get_language() or "en")[:10]

    def found() -> bytes | None:
        row = NightImage.objects.filter(night=figures, language=language, version=version).only("png").first()
        return bytes(row.png) if row is not None else None

    def compute() -> bytes:
        png = night_png(night_report(night=night, figures=figures.figures))
        NightImage.objects.update_or_create(
            night=figures, language=language, defaults={"version": version, "png": png, "drawn_at": timezone.now()}
        )
        return png

    return _once(night.key, found, compute)
