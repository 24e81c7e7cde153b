"""Rounds the other side confirms (issue 47 part 3), the writing half: switch the check on or off for a group,
confirm a round, dispute it. Where rounds stand is read by ``scoring.selectors.confirming``.

A confirmation or dispute speaks for one version of a round: it is written under the match's row lock (as every
round write is), checked against the version the phone showed, kept in ``RoundCheck`` and told in the match's
history (a RoundEvent); the match's version moves on, so every phone showing the match refreshes its board.
Confirming a round already confirmed in that version changes nothing (a double tap, a retry, eight phones at
once): one history line.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.db import transaction
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext

from scoring.models import Group, Match, Round, RoundCheck, RoundEvent
from scoring.rules.sides import other_side
from scoring.selectors.confirming import (
    CONFIRMED,
    DISPUTED,
    UNCHECKED,
    savers_of,
    seat_of,
    seating_of,
    sides_of,
    state_of,
)
from scoring.services.access import owner_require
from scoring.services.common import stats_match_changed, version_check
from scoring.services.errors import Conflict, NotAllowed, ValidationFailed
from scoring.services.locking import match_lock_member

NOTE_MAX = 280


def group_confirm_rounds(*, group: Group, on: bool, user: Any) -> Group:
    """Switch "rounds the other side confirms" on or off (owners only). Switched on, rounds saved from now on wait
    for the other side; switching it off and on again starts afresh from that moment."""
    owner_require(group=group, user=user)
    if on and group.confirm_rounds_since is None:
        group.confirm_rounds_since = timezone.now()
    elif not on:
        group.confirm_rounds_since = None
    group.save(update_fields=["confirm_rounds_since"])
    return group


def note_clean(note: Any) -> str:
    if note is None:
        return ""
    if not isinstance(note, str):
        raise ValidationFailed.single("note", gettext("Must be text."))
    cleaned = " ".join(unicodedata.normalize("NFC", note).split())
    for char in cleaned:
        # what a name refuses too: text that cannot be seen, or that turns the text around it on the other phone
        if unicodedata.category(char) in {"Cc", "Cf", "Cs", "Co", "Cn"}:
            raise ValidationFailed.single(
                "note",
                gettext("A note cannot contain invisible or text-direction characters (here: U+%(code)04X).")
                % {"code": ord(char)},
            )
    if len(cleaned) > NOTE_MAX:
        raise ValidationFailed.single("note", gettext("At most %(n)d characters, please.") % {"n": NOTE_MAX})
    return cleaned


def _locked_round(match: Match, number: Any) -> Round:
    try:
        wanted = int(number)
    except (TypeError, ValueError):
        raise Http404 from None
    rnd = Round.objects.filter(match=match, number=wanted, deleted_at__isnull=True).first()
    if rnd is None:
        raise Http404
    rnd.match = match
    return rnd


def _speaker(match: Match, rnd: Round, user: Any) -> Any:
    """The seat ``user`` plays at, when that player may speak for the other side of ``rnd``; else NotAllowed."""
    seated = seating_of(match)
    mine = seat_of(seated, user.pk)
    if mine is None:
        raise NotAllowed(
            gettext(
                "Only a player of this match can confirm its rounds: your account is not linked to any of its players."
            )
        )
    saver = savers_of(match, [rnd.pk]).get(rnd.pk)
    author = seat_of(seated, saver)
    if saver == user.pk:
        raise NotAllowed(gettext("You saved this round: a player of the other side confirms it."))
    if not other_side(sides_of(match, rnd.facts, len(seated)), author=author, seat=mine):
        raise NotAllowed(
            gettext("%(you)s played on the same side as %(saver)s, who saved this round: the other side confirms it.")
            % {"you": seated[mine].name, "saver": seated[author].name if author is not None else ""}
        )
    return seated[mine]


def _check_write(*, match_id: int, number: Any, user: Any, version: int | None, state: str, note: str) -> RoundCheck:
    with transaction.atomic():
        match = match_lock_member(match_id=match_id, user=user, hidden=True)
        since = Group.objects.filter(pk=match.group_id).values_list("confirm_rounds_since", flat=True).get()
        if since is None:
            raise Conflict(gettext("This group does not have the other side confirm its rounds."))
        rnd = _locked_round(match, number)
        version_check(rnd, version)
        check = RoundCheck.objects.filter(round=rnd).first()
        was = state_of(since=since, check=check, version=rnd.version, updated_at=rnd.updated_at)
        if was == UNCHECKED:
            raise Conflict(gettext("This round was saved before the group began confirming rounds."))
        seated = _speaker(match, rnd, user)
        if check is not None and check.version == rnd.version and check.state == state and check.note == note:
            return check  # said already (a second tap, a retry): nothing changes, no second history line
        before = {"state": check.state, "version": check.version, "note": check.note} if check is not None else None
        check = check or RoundCheck(round=rnd, match=match)
        check.state, check.version, check.note = state, rnd.version, note
        check.by, check.player_id, check.at = user, seated.player_id, timezone.now()
        check.save()
        after = {"state": state, "version": rnd.version, "note": note, "player": seated.name, "was": was}
        RoundEvent.objects.create(
            match=match,
            round=rnd,
            round_number=rnd.number,
            action=RoundEvent.Action.CONFIRM if state == CONFIRMED else RoundEvent.Action.DISPUTE,
            actor=user,
            before=before,
            after=after,
        )
        match.version += 1
        match.save(update_fields=["version", "updated_at"])
        stats_match_changed(match=match)  # the "confirmed rounds only" statistics, and every phone on the match
        return check


def round_confirm(*, match_id: int, number: Any, user: Any, expected_version: int | None) -> RoundCheck:
    """A player of the other side confirms round ``number`` as it is in ``expected_version`` (also a disputed
    one: the dispute is settled as it stands)."""
    return _check_write(match_id=match_id, number=number, user=user, version=expected_version, state=CONFIRMED, note="")


def round_dispute(*, match_id: int, number: Any, user: Any, expected_version: int | None, note: Any = "") -> RoundCheck:
    """A player of the other side disputes round ``number`` (in ``expected_version``), with a short note: the
    round stays as it is, marked, until someone edits it (the new version waits for a confirmation again) or a
    player of the other side confirms it after all."""
    return _check_write(
        match_id=match_id, number=number, user=user, version=expected_version, state=DISPUTED, note=note_clean(note)
    )
