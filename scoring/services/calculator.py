"""The stateless calculator and trick referee: same validation as saving a round, nothing stored."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext

from scoring.rules import InvalidRound, Ruleset, to_jsonable
from scoring.services.common import history_or_fail, normalise_or_fail, options_or_fail, rules_failed
from scoring.services.errors import ValidationFailed

MAX_BEFORE = 100


def _names_clean(players: Any) -> list[str]:
    if not isinstance(players, list) or not players:
        raise ValidationFailed.single("players", gettext("List the players' names in seat order."))
    names = []
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip() or len(name) > 60:
            raise ValidationFailed.single(f"players.{i}", gettext("A player's name is 1 to 60 characters."))
        names.append(" ".join(name.split()))
    return names


def ruleset_score(
    *,
    ruleset: Ruleset,
    players: Any,
    options: Any = None,
    facts: Any,
    before: Sequence[Any] | None = None,
    numbers: Sequence[int] = (),
) -> dict[str, Any]:
    """Score one round without storing anything.

    ``players`` are the names in seat order (seat 0 dealt); ``before`` are the
    facts of earlier rounds of the same match, for games whose rounds depend on
    what happened before; ``numbers`` (optional) are the round numbers of ``before`` and of this round, which
    fix each round's deal when an earlier round was deleted.  Returns ``{"scores": [...], "explanation": [...]}``
    plus the normalised facts and the match state after the round.
    """
    from scoring.selectors import line_render

    names = _names_clean(players)
    if before is None:
        before = []
    if not isinstance(before, list) or len(before) > MAX_BEFORE:
        raise ValidationFailed.single(
            "before", gettext("Earlier rounds are a list of at most %(n)d facts objects.") % {"n": MAX_BEFORE}
        )
    parsed = options_or_fail(ruleset, options, players=len(names))
    stored_before = []
    for i, data in enumerate(before):
        try:
            stored_before.append(ruleset.normalise(data, players=len(names), options=parsed))
        except InvalidRound as exc:
            raise rules_failed(ruleset, exc, prefix=f"before.{i}", names=names) from None
        except (TypeError, KeyError, IndexError, AttributeError, ValueError):
            raise ValidationFailed.single(f"before.{i}", gettext("These round facts cannot be read.")) from None
    stored = normalise_or_fail(ruleset, facts, players=len(names), options=parsed, names=names)
    history = history_or_fail(
        ruleset,
        [*stored_before, stored],
        players=len(names),
        options=parsed,
        labels=[*(f"before.{i}" for i in range(len(stored_before))), "facts"],
        names=names,
        numbers=numbers,
    )
    result = history[-1][1]
    state = ruleset.module.match_state(
        history, players=len(names), options=parsed, deal=numbers[-1] if numbers else None
    )
    return {
        "ruleset": ruleset.key,
        "ruleset_version": ruleset.version,
        "players": names,
        "options": parsed,
        "facts": stored,
        "scores": list(result.scores),
        "explanation": [line_render(ruleset, {**ln.as_dict(), "text": ""}, names) for ln in result.lines],
        "state": to_jsonable(state.as_dict()),
    }
