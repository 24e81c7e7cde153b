"""Recording, editing, deleting and restoring rounds.

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
from itertools import takewhile
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.models import IdempotencyKey, Match, Round, RoundEvent, Score
from scoring.rules import Ruleset
from scoring.selectors import entered_by_names, round_next_number
from scoring.services.common import (
    explanation_store,
    history_or_fail,
    match_snapshot,
    normalise_or_fail,
    options_or_fail,
    parse_or_fail,
    request_hash,
    round_snapshot,
    ruleset_get,
    stats_match_changed,
    totals_only_refuse,
    version_check,
)
from scoring.services.errors import AlreadyUndone, Conflict, IdempotencyMismatch, RoundTaken, ServiceError
from scoring.services.locking import Played, live_rounds, match_lock_member, match_lock_table, seating
from scoring.services.round_write import idempotency_insert, round_create_rows

# What every round write changes on its match: saving these columns (and those match_state_follow names) only keeps
# the UPDATE from rewriting the group, the ruleset, the options and the rest.
MATCH_WRITE_FIELDS = ["next_number", "version", "updated_at"]


def _scores_write(rnd: Round, seats: Sequence[int], *, new: bool = False) -> None:
    """Replace the round's Score rows (one per seat) with its current points (a ``new`` round has none yet)."""
    if not new:
        Score.objects.filter(round=rnd).delete()
    if rnd.deleted_at is None:
        Score.objects.bulk_create(
            Score(round=rnd, match_id=rnd.match_id, player_id=player_id, seat=seat, points=points)
            for seat, (player_id, points) in enumerate(zip(seats, rnd.points, strict=True))
        )


def _event(match: Match, rnd: Round | None, action: str, user: Any, before: Any, after: Any) -> RoundEvent:
    return RoundEvent.objects.create(
        match=match,
        round=rnd,
        round_number=rnd.number if rnd is not None else None,
        action=action,
        actor=user if user is not None and user.is_authenticated else None,
        before=before,
        after=after,
    )


def _labels(live: Sequence[Round | Played], focus: Round | None) -> list[str]:
    return ["facts" if rnd is focus else f"rounds.{rnd.number}" for rnd in live]


def _structure(explanation: Any) -> list[Any]:
    """An explanation without its rendered text (what the rules decided, not how it was worded)."""
    return [{k: v for k, v in ln.items() if k != "text"} if isinstance(ln, dict) else ln for ln in explanation or ()]


def rounds_rescore(
    *,
    match: Match,
    ruleset: Ruleset,
    seats: Sequence[int],
    live: Sequence[Round | Played],
    options: dict[str, Any],
    user: Any,
    focus: Round | None = None,
    focus_facts: Any = None,
    from_number: int = 1,
    names: Sequence[str] | None = None,
) -> list[tuple[Any, Any]]:
    """Score the live rounds in order and store every changed result from ``from_number`` on.

    ``focus`` is the round being entered or edited: the caller saves it and
    writes its history event; every other round whose points, explanation or
    ruleset version change gets a "rescore" event.  Returns the history.

    The rounds before ``from_number`` keep their stored points when this ruleset version scored them all: a
    change only ever rescores from the round it touches on, so those points are what a replay would give
    (entering the 100th round then costs one state, not a hundred). Results taken from storage have no lines.
    ``names`` (the players in seat order) name them in the stored English text and in refusals; a round whose
    only change is that text (new wording, a renamed player) is not rescored: pages render the text anew.
    ``focus_facts``: the focus round's facts as the ruleset parsed them when they were normalised (not parsed
    again).
    """
    before = list(takewhile(lambda rnd: rnd.number < from_number and rnd is not focus, live))
    stored = [rnd.points for rnd in before] if all(r.ruleset_version == ruleset.version for r in before) else []
    results = history_or_fail(
        ruleset,
        [focus_facts if rnd is focus and focus_facts is not None else rnd.facts for rnd in live],
        players=len(seats),
        options=options,
        labels=_labels(live, focus),
        stored=stored,
        names=names,
        numbers=[rnd.number for rnd in live],
    )
    for rnd, (_facts, result) in zip(live, results, strict=True):
        if rnd.number < from_number:
            continue
        points = list(result.scores)
        explanation = explanation_store(ruleset, result, names=names)
        if rnd is focus:
            rnd.points, rnd.explanation, rnd.ruleset_version = points, explanation, ruleset.version
            continue
        assert isinstance(rnd, Round)  # a Played round comes before a new round, so before from_number
        same = _structure(explanation) == _structure(rnd.explanation)
        if points == rnd.points and same and rnd.ruleset_version == ruleset.version:
            continue
        before = round_snapshot(rnd)
        rnd.points, rnd.explanation, rnd.ruleset_version = points, explanation, ruleset.version
        rnd.version += 1
        rnd.save(update_fields=["points", "explanation", "ruleset_version", "version", "updated_at"])
        _scores_write(rnd, seats)
        _event(match, rnd, RoundEvent.Action.RESCORE, user, before, round_snapshot(rnd))
    return results


def match_state_follow(
    *, match: Match, ruleset: Ruleset, results: Sequence[Any], players: int, options: dict[str, Any], user: Any
) -> list[str]:
    """Finish the match when the rules say it is over; reopen it when a change undid that.

    A match finished by hand stays finished.  Records the rules' winners on the match (none until the end
    condition is met), for the statistics.  Saves nothing: the caller saves ``match``; returns the fields
    this changed (for ``update_fields``).
    """
    state = ruleset.module.match_state(list(results), players=players, options=options)
    was = (match.winners, match.state)
    match.winners = state.final_winners()
    if state.finished and match.state == Match.State.OPEN:
        before = match_snapshot(match)
        match.state, match.finish_reason, match.finished_at = (
            Match.State.FINISHED,
            Match.FinishReason.RULES,
            timezone.now(),
        )
        _event(match, None, RoundEvent.Action.FINISH, user, before, match_snapshot(match))
    elif not state.finished and match.state == Match.State.FINISHED and match.finish_reason == Match.FinishReason.RULES:
        before = match_snapshot(match)
        match.state, match.finish_reason, match.finished_at = Match.State.OPEN, Match.FinishReason.NONE, None
        _event(match, None, RoundEvent.Action.REOPEN, user, before, match_snapshot(match))
    changed = ["winners"] if match.winners != was[0] else []
    return changed + (["state", "finish_reason", "finished_at"] if match.state != was[1] else [])


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
        round_create_rows(
            match=match, rnd=rnd, seats=seats, user=user, now=timezone.now(), after=round_snapshot(rnd)
        )
    else:
        rnd.save()
        _scores_write(rnd, seats, new=True)
        match.save(update_fields=[*MATCH_WRITE_FIELDS, *changed])
        _event(match, rnd, RoundEvent.Action.CREATE, user, None, round_snapshot(rnd))
    stats_match_changed(match=match, players=seats)
    rnd.seat_names = names  # type: ignore[attr-defined]  # as read under the lock, for the answer
    return rnd


def _change(
    *,
    rnd: Round,
    user: Any,
    action: str,
    facts: Any = None,
    deleted: bool | None = None,
    undoes: RoundEvent | None = None,
) -> Round:
    """Apply one change to a locked round (new facts and/or deleted flag), re-score from it on, record it."""
    match = rnd.match
    if match.state == Match.State.ABANDONED:  # it must stay empty: a restored round would count nowhere
        raise Conflict(gettext("This match was abandoned; reopen it first."))
    ruleset = ruleset_get(match.ruleset)
    seats, names = seating(match)
    options = options_or_fail(ruleset, match.options, players=len(seats))
    before = round_snapshot(rnd)
    if facts is not None:
        rnd.facts = normalise_or_fail(ruleset, facts, players=len(seats), options=options, names=names)
    live = [r for r in live_rounds(match) if r.pk != rnd.pk]
    if deleted is False and rnd.deleted_at is not None and any(r.number == rnd.number for r in live):
        # its number was given to a round entered after it was deleted: two live rounds cannot share it
        raise Conflict(
            gettext(
                "Round %(n)s cannot be restored: another round %(n)s was entered after it was deleted. "
                "Delete that round first if this one should take its place."
            )
            % {"n": rnd.number}
        )
    if deleted is not None:
        rnd.deleted_at = timezone.now() if deleted else None
    if rnd.deleted_at is None:
        live = sorted([*live, rnd], key=lambda r: r.number)
    results = rounds_rescore(
        match=match,
        ruleset=ruleset,
        seats=seats,
        live=live,
        options=options,
        user=user,
        focus=rnd,
        from_number=rnd.number,
        names=names,
    )
    unchanged = (
        rnd.deleted_at is None
        and not before["deleted"]
        and before["facts"] == rnd.facts
        and before["points"] == rnd.points
        and before["ruleset_version"] == rnd.ruleset_version
    )
    if unchanged and undoes is None:
        return rnd  # nothing changed: no new version, no history line
    rnd.version += 1
    rnd.save()
    _scores_write(rnd, seats)
    match.next_number = round_next_number(live=live)
    match.version += 1
    changed = match_state_follow(
        match=match, ruleset=ruleset, results=results, players=len(seats), options=options, user=user
    )
    match.save(update_fields=[*MATCH_WRITE_FIELDS, *changed])
    after = round_snapshot(rnd)
    if undoes is not None:
        after = {**after, "undoes": undoes.pk, "undid": undoes.action}
    _event(match, rnd, action, user, before, after)
    stats_match_changed(match=match, players=seats)
    return rnd


def _lock_round(rnd: Round, user: Any) -> Round:
    match = match_lock_member(match_id=rnd.match_id, user=user)
    locked = Round.objects.select_related("entered_by").get(pk=rnd.pk)
    locked.match = match
    return locked


def round_edit(*, round: Round, facts: Any, expected_version: int | None, user: Any) -> Round:
    """Replace a round's facts; re-score it and every later round (their state may depend on it).

    Raises StaleVersion when ``expected_version`` is not the round's current version.
    """
    with transaction.atomic():
        rnd = _lock_round(round, user)
        version_check(rnd, expected_version)
        if rnd.deleted_at is not None:
            raise Conflict(gettext("This round was deleted; restore it before editing it."))
        return _change(rnd=rnd, user=user, action=RoundEvent.Action.EDIT, facts=facts)


def round_delete(*, round: Round, expected_version: int | None, user: Any) -> Round:
    """Soft-delete a round (undoable); later rounds are re-scored without it."""
    with transaction.atomic():
        rnd = _lock_round(round, user)
        version_check(rnd, expected_version)
        if rnd.deleted_at is not None:
            raise Conflict(gettext("This round is already deleted."))
        return _change(rnd=rnd, user=user, action=RoundEvent.Action.DELETE, deleted=True)


UNDOABLE = (RoundEvent.Action.CREATE, RoundEvent.Action.EDIT, RoundEvent.Action.DELETE)


def _undoable(events: Sequence[RoundEvent]) -> RoundEvent | None:
    """The newest create/edit/delete event that no undo has reverted yet (events newest first)."""
    undone = {e.after.get("undoes") for e in events if e.action == RoundEvent.Action.UNDO and e.after}
    for event in events:
        if event.action in UNDOABLE and event.pk not in undone:
            return event
    return None


def _undo(*, rnd: Round, target: RoundEvent, user: Any) -> Round:
    if target.action == RoundEvent.Action.DELETE:
        return _change(rnd=rnd, user=user, action=RoundEvent.Action.UNDO, deleted=False, undoes=target)
    if target.action == RoundEvent.Action.CREATE:
        return _change(rnd=rnd, user=user, action=RoundEvent.Action.UNDO, deleted=True, undoes=target)
    # an edit: put the facts back as they were before it
    if rnd.deleted_at is not None:
        raise Conflict(gettext("This round was deleted; restore it first."))
    return _change(rnd=rnd, user=user, action=RoundEvent.Action.UNDO, facts=target.before["facts"], undoes=target)


def round_undo(*, round: Round, user: Any, expected_version: int | None = None) -> Round:
    """Revert the newest not-yet-undone change of this round.

    A deletion is restored, an edit is reverted to the facts before it, a
    creation is undone by deleting the round.  Repeated undos walk back through
    the round's history.  ``expected_version`` is checked when given.
    """
    with transaction.atomic():
        rnd = _lock_round(round, user)
        if expected_version is not None:
            version_check(rnd, expected_version)
        target = _undoable(list(RoundEvent.objects.filter(round=rnd).order_by("-id")))
        if target is None:
            raise Conflict(gettext("There is nothing to undo for this round."))
        return _undo(rnd=rnd, target=target, user=user)


def match_undo_last(*, match: Match, user: Any, expected_version: int | None = None) -> Round:
    """Undo the newest not-yet-undone round change anywhere in the match (the "oops" button).

    ``expected_version`` is the match version the caller saw: a repeated or parallel tap sent with the same
    version undoes one change, and every other one raises AlreadyUndone (the version moved on with the first).
    """
    with transaction.atomic():
        locked = match_lock_member(match_id=match.pk, user=user)
        if expected_version is not None and expected_version != locked.version:
            raise AlreadyUndone(expected=expected_version, current=locked.version, obj=locked)
        events = list(RoundEvent.objects.filter(match=locked, round__isnull=False).order_by("-id"))
        target = _undoable(events)
        if target is None:
            raise Conflict(gettext("There is nothing to undo in this match."))
        rnd = Round.objects.get(pk=target.round_id)
        rnd.match = locked
        return _undo(rnd=rnd, target=target, user=user)


def match_rescore(*, match: Match, user: Any, expected_version: int | None = None) -> Match:
    """Re-score every live round with the current ruleset version (after a rules fix).

    Rounds whose result changes get a new version and a "rescore" event; the
    match finishes or reopens as the rules now say. ``expected_version`` (the match version a preview showed)
    is checked when given: a match changed since then is refused with StaleVersion.
    """
    with transaction.atomic():
        locked = match_lock_member(match_id=match.pk, user=user)
        if expected_version is not None:
            version_check(locked, expected_version)
        totals_only_refuse(locked)
        ruleset = ruleset_get(locked.ruleset)
        seats, names = seating(locked)
        options = options_or_fail(ruleset, locked.options, players=len(seats))
        live = live_rounds(locked)
        results = rounds_rescore(
            match=locked, ruleset=ruleset, seats=seats, live=live, options=options, user=user, names=names
        )
        locked.version += 1
        changed = match_state_follow(
            match=locked, ruleset=ruleset, results=results, players=len(seats), options=options, user=user
        )
        locked.save(update_fields=[*MATCH_WRITE_FIELDS, *changed])
        stats_match_changed(match=locked, players=seats)
        return locked
