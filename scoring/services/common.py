"""Helpers shared by the services: rulesets, versions, history snapshots, the stats hook."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext, ngettext

from scoring import rules
from scoring.models import Group, Match, Player, Round
from scoring.rules import InvalidRound, Problem, Ruleset
from scoring.services.errors import Conflict, StaleVersion, ValidationFailed

logger = logging.getLogger(__name__)


def ruleset_get(key: str, *, field: str = "ruleset") -> Ruleset:
    """The ruleset for ``key``, or a field-level ValidationFailed naming ``field``."""
    try:
        return rules.get(key)
    except (KeyError, ModuleNotFoundError):
        raise ValidationFailed.single(field, gettext("There is no ruleset called '%(key)s'.") % {"key": key}) from None


def problem_text(ruleset: Ruleset, names: Sequence[str] | None = None) -> Callable[[Problem], str]:
    """Render a rules problem in the active language, players by their ``names`` (falls back to the English
    text)."""

    def render(problem: Problem) -> str:
        return ruleset.render(problem.msg, dict(problem.params), translate=gettext, ntranslate=ngettext, names=names)

    return render


def rules_failed(
    ruleset: Ruleset, error: InvalidRound, *, prefix: str = "", names: Sequence[str] | None = None
) -> ValidationFailed:
    return ValidationFailed.from_rules(error, prefix=prefix, translate=problem_text(ruleset, names))


def version_check(obj: Round | Match, expected: int | None) -> None:
    """Refuse an edit made against an old version (optimistic concurrency)."""
    if expected is None:
        raise ValidationFailed.single("version", gettext("Send the version you are editing (If-Match or 'version')."))
    if expected != obj.version:
        raise StaleVersion(expected=expected, current=obj.version, obj=obj)


def explanation_store(
    ruleset: Ruleset, result: rules.RoundResult, *, names: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """The structured explanation lines plus their English text (players by name), as stored on the round."""
    stored = [line.as_dict() for line in result.lines]
    for line in stored:
        line["text"] = ruleset.render(line["msg"], line["params"], names=names)
    return stored


def request_hash(*parts: Any) -> str:
    payload = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(payload.encode()).hexdigest()


def round_snapshot(rnd: Round) -> dict[str, Any]:
    """What the history keeps of a round before/after a change."""
    return {
        "number": rnd.number,
        "facts": rnd.facts,
        "points": list(rnd.points),
        "ruleset_version": rnd.ruleset_version,
        "version": rnd.version,
        "deleted": rnd.deleted_at is not None,
    }


def match_snapshot(match: Match) -> dict[str, Any]:
    return {
        "state": match.state,
        "finish_reason": match.finish_reason,
        "options": match.options,
        "version": match.version,
    }


def stats_match_changed(*, match: Match, players: Sequence[int] | None = None) -> None:
    """Tell the statistics pipeline that a match or its rounds changed (call it inside the transaction:
    the "dirty" record is written there, the rest runs once it commits), and, once it commits, the phones
    showing the match (its new version on the live channel)."""
    from analytics import services as analytics_services
    from scoring.services import live

    analytics_services.stats_match_changed(match=match, players=players)
    live.publish_after_commit(match_id=match.pk, version=match.version)


def stats_group_after_commit(*, group_id: int) -> None:
    from analytics import services as analytics_services

    transaction.on_commit(lambda: analytics_services.stats_schedule_group(group_id=group_id))


def first_failing_prefix(check: Callable[[int], bool], size: int, *, low: int = 1) -> int:
    """Smallest ``k`` in low..size with ``check(k)`` False, given that failures are monotone in ``k``."""
    high = size
    while low < high:
        mid = (low + high) // 2
        if check(mid):
            low = mid + 1
        else:
            high = mid
    return low


def options_or_fail(ruleset: Ruleset, options: Any, *, players: int) -> dict[str, Any]:
    """Options parsed by the ruleset (defaults filled in), or field-level errors under ``options``."""
    if options is not None and not isinstance(options, dict):
        raise ValidationFailed.single("options", gettext("Options must be a JSON object."))
    try:
        return ruleset.options_parse(options, players=players)
    except InvalidRound as exc:
        raise rules_failed(ruleset, exc) from None


def normalise_or_fail(
    ruleset: Ruleset, facts: Any, *, players: int, options: dict[str, Any], names: Sequence[str] | None = None
) -> Any:
    """The canonical stored form of submitted facts, or field-level errors under ``facts``."""
    return parse_or_fail(ruleset, facts, players=players, options=options, names=names)[1]


def parse_or_fail(
    ruleset: Ruleset, facts: Any, *, players: int, options: dict[str, Any], names: Sequence[str] | None = None
) -> tuple[Any, Any]:
    """Submitted facts parsed and in their canonical stored form, or field-level errors under ``facts``."""
    try:
        return ruleset.parse_normalise(facts, players=players, options=options)
    except InvalidRound as exc:
        raise rules_failed(ruleset, exc, prefix="facts", names=names) from None
    except (TypeError, KeyError, IndexError, AttributeError, ValueError) as exc:
        # A shape the game module did not anticipate: still the client's input, so a 400 (and a log line).
        logger.warning("%s facts_parse raised %r for %r", ruleset.key, exc, facts)
        raise ValidationFailed.single("facts", gettext("These round facts cannot be read.")) from None


def history_or_fail(
    ruleset: Ruleset,
    facts: Sequence[Any],
    *,
    players: int,
    options: dict[str, Any],
    labels: Sequence[str],
    stored: Sequence[Sequence[int]] = (),
    names: Sequence[str] | None = None,
    numbers: Sequence[int] = (),
) -> list[tuple[Any, rules.RoundResult]]:
    """Score a whole match history (``options`` already parsed); on a broken rule, name the round.

    ``labels[i]`` is the field prefix used for complaints about round ``i``
    (``"facts"`` for the round being entered, ``"rounds.7"`` for another one). ``stored``: the points of the
    first rounds as stored under this ruleset version (see ``Ruleset.history``); they are not checked again.
    ``numbers``: the rounds' numbers, which fix each round's deal (see ``Ruleset.history``).
    """
    try:
        return ruleset.history(facts, players=players, options=options, stored=stored, numbers=numbers)
    except InvalidRound as exc:
        error = exc

    def prefix_ok(k: int) -> bool:
        try:
            ruleset.history(facts[:k], players=players, options=options, stored=stored, numbers=numbers)
        except InvalidRound:
            return False
        return True

    index = first_failing_prefix(prefix_ok, len(facts), low=min(len(stored) + 1, len(facts))) - 1
    try:
        ruleset.history(facts[: index + 1], players=players, options=options, stored=stored, numbers=numbers)
    except InvalidRound as exc:
        error = exc
    raise rules_failed(ruleset, error, prefix=labels[index], names=names) from None


def totals_only_refuse(match: Match) -> None:
    """A match recorded from its final scores alone has no rounds: none can be added, and nothing re-scored."""
    if match.totals_only:
        raise Conflict(
            gettext(
                "This match was recorded from its final scores only: it has no rounds, and none can be added to it."
            )
        )


def players_seated(*, group: Group, player_ids: Sequence[Any]) -> list[Player]:
    """The group's active players for these ids, in that (seat) order; a ValidationFailed naming "players" for
    an id that is not a whole number, a player seated twice, or one not (or no longer) in the group."""
    ids = list(player_ids)
    if any(not isinstance(i, int) or isinstance(i, bool) for i in ids):
        raise ValidationFailed.single("players", gettext("Players are given by their ids."))
    if len(set(ids)) != len(ids):
        raise ValidationFailed.single("players", gettext("A player can take only one seat."))
    found = {
        p.pk: p
        for p in Player.objects.filter(group=group, pk__in=ids, merged_into__isnull=True, archived_at__isnull=True)
    }
    missing = [i for i in ids if i not in found]
    if missing:
        raise ValidationFailed.single(
            "players",
            gettext("These players are not in the group: %(ids)s.") % {"ids": ", ".join(map(str, missing))},
        )
    return [found[i] for i in ids]
