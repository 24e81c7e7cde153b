"""Entering a round (editing, deleting and restoring it: ``round_changes``; rescoring: ``rescoring``).

Every write locks the match row (``select_for_update``) for the whole
transaction, so parallel submissions from several phones are serialised.  A new
round gets the highest live round number + 1 (deleting the last round frees its
number); a submission that names the number its form showed is refused with
RoundTaken when that is no longer the next number, so two phones never store
one round twice.  Scores always come from ``Ruleset.history`` over the live
rounds in order, because a round's state (dealer, rounds left, earlier results)
depends on the rounds before it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.models import IdempotencyKey, Match, Round, RoundEvent
from scoring.selectors import entered_by_names, round_next_number
from scoring.services.common import (
    options_or_fail,
    parse_or_fail,
    request_hash,
    round_snapshot,
    ruleset_get,
    stats_match_changed,
    totals_only_refuse,
)
from scoring.services.errors import Conflict, IdempotencyMismatch, RoundTaken, ServiceError
from scoring.services.locking import Played, match_lock_table
from scoring.services.rescoring import (
    MATCH_WRITE_FIELDS,
    _event,
    _scores_write,
    match_state_follow,
    rounds_rescore,
)
from scoring.services.round_write import idempotency_insert, round_create_rows


def _replay(*, user: Any, key: str, scope: str, digest: str) -> Round | None:
    """The round stored for an earlier request with this Idempotency-Key, if any."""
    stored = IdempotencyKey.objects.filter(user=user, key=key).first()
    if stored is None:
        return None
    if stored.scope != scope or stored.request_hash != digest or stored.round_id is None:
        raise IdempotencyMismatch(gettext("This Idempotency-Key was already used for a different request."))
    rnd = Round.objects.select_related("match", "entered_by").get(pk=stored.round_id)
    rnd.replayed = True  # type: ignore[attr-defined]
    rnd.idempotent_response = stored.response  # type: ignore[attr-defined]
    return rnd


def round_record(
    *,
    match: Match | None = None,
    match_id: int | None = None,
    facts: Any,
    user: Any,
    idempotency_key: str | None = None,
    respond: Callable[[Round], Any] | None = None,
    expected_number: int | None = None,
) -> Round:
    """Score and store the next round of ``match`` (or of the match ``match_id``, not read beforehand: the
    locking SELECT is the access check, and a match outside the user's groups is Http404, as if it did not
    exist; the new round's ``match`` is the match as the write left it).

    Locks the match row, takes the next round number, validates and scores the
    round against the live rounds before it, stores the normalised facts, the
    points, the explanation and one Score row per seat, appends a "create"
    event and finishes the match when the rules say it is over.

    With ``idempotency_key`` a repeated call (a retry, a double tap) returns the
    round stored by the first call, marked ``replayed = True``; reusing a key for
    different facts raises IdempotencyMismatch. ``respond(round)`` builds the
    answer to remember with the key (``rnd.match`` is the updated match); it is
    stored in the same transaction, so a replay always gets the first answer
    byte for byte, and is available as ``idempotent_response`` on the round.
    A new round also carries ``seat_names``: the players' names in seat order, as read under the lock, so the
    caller does not need to fetch the seats again to explain the result.

    ``expected_number`` is the round number the entering form showed: when it is not the number the round would
    get (another phone saved that round meanwhile, or rounds were deleted), nothing is stored and RoundTaken
    names the live round with that number and who saved it.  A replay of the same Idempotency-Key wins first:
    a retry of a request that was stored gets its round back, never this error.
    """
    pk = match.pk if match is not None else match_id
    if pk is None:
        raise TypeError("round_record needs match or match_id")
    scope = f"round_record:{pk}"
    digest = request_hash(scope, facts)
    if idempotency_key and (user is None or not user.is_authenticated):
        idempotency_key = None
    try:
        with transaction.atomic():
            rnd = _round_create(
                locked=match_lock_table(match_id=pk, user=user, hidden=match is None),
                facts=facts,
                user=user,
                expected_number=expected_number,
            )
            response = respond(rnd) if respond is not None else None
            if idempotency_key and connection.vendor == "postgresql":
                idempotency_insert(
                    user=user,
                    key=idempotency_key,
                    scope=scope,
                    digest=digest,
                    round_id=rnd.pk,
                    status=201,
                    response=response,
                    now=timezone.now(),
                )
            elif idempotency_key:
                IdempotencyKey.objects.create(
                    user=user,
                    key=idempotency_key,
                    scope=scope,
                    request_hash=digest,
                    round=rnd,
                    status=201,
                    response=response,
                )
    except (IntegrityError, ServiceError):
        # A repeated key is found by its unique index, so the common case (a new key) costs no lookup: the
        # retry's round is rolled back with its transaction and the first answer is returned instead. A retry
        # that can no longer be applied (the first request finished the match, say) is answered the same way.
        if idempotency_key:
            replay = _replay(user=user, key=idempotency_key, scope=scope, digest=digest)
            if replay is not None:
                return replay
        raise
    rnd.replayed = False  # type: ignore[attr-defined]
    rnd.idempotent_response = response  # type: ignore[attr-defined]
    return rnd


def _taken(match: Match, live: Sequence[Played], expected: int) -> RoundTaken:
    """The error for a form made for round ``expected`` when the next round is another number."""
    played = next((rnd for rnd in live if rnd.number == expected), None)
    # read whole (``live`` holds what a new round needs of the rounds before it)
    saved = None if played is None else Round.objects.select_related("entered_by").get(pk=played.pk)
    by = ""
    if saved is not None and saved.entered_by_id is not None:
        by = entered_by_names(match=match, user_ids=[saved.entered_by_id]).get(saved.entered_by_id, "")
    return RoundTaken(expected=expected, next_number=round_next_number(live=live), round=saved, by=by)


def _round_create(
    *, locked: tuple[Match, list[int], list[str], list[Played]], facts: Any, user: Any, expected_number: int | None
) -> Round:
    """The new round on the match ``match_lock_table`` locked and read (so ``user`` is a member)."""
    match, seats, names, before = locked
    totals_only_refuse(match)
    number = round_next_number(live=before)
    if expected_number is not None and expected_number != number:
        # also when that round finished the match (Coloretto's one round): the late phone is told who saved it
        raise _taken(match, before, expected_number)
    if match.state == Match.State.FINISHED:
        raise Conflict(gettext("This match is finished; reopen it to add rounds."))
    if match.state == Match.State.ABANDONED:
        raise Conflict(gettext("This match was abandoned; reopen it to add rounds."))
    ruleset = ruleset_get(match.ruleset)
    options = options_or_fail(ruleset, match.options, players=len(seats))
    parsed, stored = parse_or_fail(ruleset, facts, players=len(seats), options=options, names=names)
    rnd = Round(
        match=match,
        number=number,
        facts=stored,
        ruleset_version=ruleset.version,
        entered_by=user if user is not None and user.is_authenticated else None,
    )
    live: list[Round | Played] = [*before, rnd]
    results = rounds_rescore(
        match=match,
        ruleset=ruleset,
        seats=seats,
        live=live,
        options=options,
        user=user,
        focus=rnd,
        focus_facts=parsed,
        from_number=rnd.number,
        names=names,
    )
    match.next_number = number + 1
    match.version += 1
    changed = match_state_follow(
        match=match, ruleset=ruleset, results=results, players=len(seats), options=options, user=user
    )
    if connection.vendor == "postgresql" and not changed:
        # the common case in one statement (round_write); the same rows as the ORM writes below
        round_create_rows(match=match, rnd=rnd, seats=seats, user=user, now=timezone.now(), after=round_snapshot(rnd))
    else:
        rnd.save()
        _scores_write(rnd, seats, new=True)
        match.save(update_fields=[*MATCH_WRITE_FIELDS, *changed])
        _event(match, rnd, RoundEvent.Action.CREATE, user, None, round_snapshot(rnd))
    stats_match_changed(match=match, players=seats)
    rnd.seat_names = names  # type: ignore[attr-defined]  # as read under the lock, for the answer
    return rnd
