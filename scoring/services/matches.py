"""Matches: create with a ruleset, options and seat order; change options; finish, reopen, delete."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.models import Group, Match, Round, RoundEvent, Seat
from scoring.services.access import member_require
from scoring.services.common import (
    match_snapshot,
    options_or_fail,
    players_seated,
    ruleset_get,
    stats_group_after_commit,
    stats_match_changed,
    totals_only_refuse,
    version_check,
)
from scoring.services.errors import Conflict, NotAllowed
from scoring.services.locking import live_rounds, match_lock, seating
from scoring.services.presets import preset_version_for
from scoring.services.rescoring import _event, match_state_follow, rounds_rescore


@transaction.atomic
def match_create(
    *,
    group: Group,
    ruleset: str,
    options: dict[str, Any] | None,
    player_ids: Sequence[int],
    user: Any,
    language: str | None = None,
    preset_id: Any = None,
) -> Match:
    """Start a match of ``ruleset`` with the players seated in ``player_ids`` order (seat 0 deals first).

    The ruleset checks the player count and the options; the stored options
    have every default filled in. ``language`` (the creator's) picks the defaults that depend on it
    (NJET: the edition of the rules); options given explicitly win.

    ``preset_id``: the group's house rules for this game to start from.  Their current version's options are
    the starting point, ``options`` given are laid over them.  The match records that version only when its
    options end up exactly the preset's; changed options record no house rules (the match page would
    otherwise name rules that were not played).  The match keeps its own copy of the options either way.
    """
    member_require(group=group, user=user)
    rules = ruleset_get(ruleset)
    version = None if preset_id is None else preset_version_for(group=group, ruleset=rules, preset_id=preset_id)
    if options is None or isinstance(options, dict):
        base = rules.language_defaults(language) if version is None else dict(version.options)
        options = {**base, **(options or {})}
    ids = [p.pk for p in players_seated(group=group, player_ids=player_ids)]
    parsed = options_or_fail(rules, options, players=len(ids))
    # no rounds, no winners yet (``None`` is for matches older than the field)
    if version is not None and any(parsed.get(k) != v for k, v in version.options.items()):
        version = None
    match = Match.objects.create(
        group=group, ruleset=rules.key, options=parsed, created_by=user, winners=[], preset_version=version
    )
    Seat.objects.bulk_create(Seat(match=match, player_id=pid, number=n) for n, pid in enumerate(ids))
    return match


def match_rematch(*, match: Match, user: Any) -> Match:
    """Start a new match of the same game with the same players in the same seats and the same options."""
    member_require(group=match.group, user=user)
    seats = Seat.objects.filter(match=match).order_by("number").values_list("player_id", "player__merged_into_id")
    # a player merged into another since then sits as the player they became
    ids = [merged or pid for pid, merged in seats]
    # still the same house rules when their current version has the same options (and they were not removed)
    preset = match.preset_version.preset if match.preset_version is not None else None
    return match_create(
        group=match.group,
        ruleset=match.ruleset,
        options=dict(match.options),
        player_ids=ids,
        user=user,
        preset_id=preset.pk if preset is not None and preset.archived_at is None else None,
    )


def _leaves_its_house_rules(match: Match, options: dict[str, Any]) -> bool:
    """Whether ``options`` are no longer those of the house rules the match names (the label must go: the page
    would otherwise name rules that were not played).  The per-match set-ups are not part of house rules."""
    version = match.preset_version
    return version is not None and any(options.get(k) != v for k, v in version.options.items())


def match_options_change(*, match: Match, options: dict[str, Any], expected_version: int | None, user: Any) -> Match:
    """Change the match options and re-score every round under them (refused if a round breaks).  Options that
    leave the house rules the match was started from drop their label (``preset_version``)."""
    with transaction.atomic():
        locked = match_lock(match_id=match.pk)
        member_require(group=locked.group, user=user)
        version_check(locked, expected_version)
        totals_only_refuse(locked)
        rules = ruleset_get(locked.ruleset)
        seats, names = seating(locked)
        parsed = options_or_fail(rules, options, players=len(seats))
        if parsed == locked.options:
            return locked
        before = match_snapshot(locked)
        if _leaves_its_house_rules(locked, parsed):
            locked.preset_version = None
        locked.options = parsed
        results = rounds_rescore(
            match=locked, ruleset=rules, seats=seats, live=live_rounds(locked), options=parsed, user=user, names=names
        )
        locked.version += 1
        match_state_follow(match=locked, ruleset=rules, results=results, players=len(seats), options=parsed, user=user)
        locked.save()
        _event(locked, None, RoundEvent.Action.OPTIONS, user, before, match_snapshot(locked))
        stats_match_changed(match=locked, players=seats)
        return locked


def match_finish(*, match: Match, expected_version: int | None, user: Any) -> Match:
    """Finish a match by hand (e.g. the evening ended before the rules' end condition)."""
    with transaction.atomic():
        locked = match_lock(match_id=match.pk)
        member_require(group=locked.group, user=user)
        version_check(locked, expected_version)
        if locked.state == Match.State.FINISHED:
            raise Conflict(gettext("This match is already finished."))
        if locked.state == Match.State.ABANDONED:
            raise Conflict(gettext("This match was abandoned; reopen it first."))
        before = match_snapshot(locked)
        locked.state, locked.finish_reason, locked.finished_at = (
            Match.State.FINISHED,
            Match.FinishReason.MANUAL,
            timezone.now(),
        )
        locked.version += 1
        locked.save()
        _event(locked, None, RoundEvent.Action.FINISH, user, before, match_snapshot(locked))
        stats_match_changed(match=locked)
        return locked


def match_abandon(*, match: Match, expected_version: int | None, user: Any) -> Match:
    """Give up a match that has no rounds (a rematch tapped by mistake, an evening that ended before the first
    round): it stays in the group's history as abandoned and counts in no statistics (they read finished matches
    only). Refused once a live round exists (delete the rounds first); ``match_reopen`` takes it back."""
    with transaction.atomic():
        locked = match_lock(match_id=match.pk)
        member_require(group=locked.group, user=user)
        version_check(locked, expected_version)
        if locked.state == Match.State.ABANDONED:
            raise Conflict(gettext("This match was already abandoned."))
        totals_only_refuse(locked)
        if Round.objects.filter(match=locked, deleted_at__isnull=True).exists():
            raise Conflict(gettext("Only a match without rounds can be abandoned; delete its rounds first."))
        before = match_snapshot(locked)
        locked.state, locked.finish_reason, locked.finished_at = (
            Match.State.ABANDONED,
            Match.FinishReason.NONE,
            timezone.now(),
        )
        locked.winners = []
        locked.version += 1
        locked.save()
        _event(locked, None, RoundEvent.Action.ABANDON, user, before, match_snapshot(locked))
        stats_match_changed(match=locked)
        return locked


def match_reopen(*, match: Match, expected_version: int | None, user: Any) -> Match:
    """Reopen a finished or abandoned match so that rounds can be added again (not when the rules say it is
    over)."""
    with transaction.atomic():
        locked = match_lock(match_id=match.pk)
        member_require(group=locked.group, user=user)
        version_check(locked, expected_version)
        if locked.state == Match.State.OPEN:
            raise Conflict(gettext("This match is already open."))
        totals_only_refuse(locked)
        if locked.finish_reason == Match.FinishReason.RULES:
            raise Conflict(gettext("The rules say this match is over; edit or delete a round to reopen it."))
        before = match_snapshot(locked)
        locked.state, locked.finish_reason, locked.finished_at = Match.State.OPEN, Match.FinishReason.NONE, None
        locked.version += 1
        locked.save()
        _event(locked, None, RoundEvent.Action.REOPEN, user, before, match_snapshot(locked))
        stats_match_changed(match=locked)
        return locked


def match_delete(*, match: Match, expected_version: int | None, user: Any) -> None:
    """Delete a match with its rounds and history (refused once rounds exist unless the caller owns the group)."""
    with transaction.atomic():
        locked = match_lock(match_id=match.pk)
        membership = member_require(group=locked.group, user=user)
        version_check(locked, expected_version)
        has_rounds = Round.objects.filter(match=locked).exists()
        if has_rounds and membership.role != membership.Role.OWNER:
            raise NotAllowed(gettext("Only an owner can delete a match that has rounds."))
        group_id = locked.group_id
        locked.delete()
        stats_group_after_commit(group_id=group_id)
