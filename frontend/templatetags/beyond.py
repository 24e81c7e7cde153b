"""Template tags for what issue 47 adds to the match board: the rounds waiting for the other side (or disputed),
and the records a saved round sets or nears. Each reads what it needs through the selectors, so that the board's
template includes them with one line (``frontend/matches/_beyond.html``) and its view stays as it is."""

from __future__ import annotations

from typing import Any

from django import template

from analytics.records.news import record_news as news_of
from scoring.selectors.confirming import CONFIRMED, DISPUTED, TO_CONFIRM, match_checks

register = template.Library()


@register.inclusion_tag("frontend/matches/_checks.html", takes_context=True)
def round_checks(context: Any) -> dict[str, Any]:
    """The board's part on rounds the other side confirms: every round still to confirm or disputed (newest
    first) and the last round once confirmed. Nothing at all, and no query, for a group that leaves it off."""
    match, board = context.get("match"), context.get("board")
    request = context.get("request")
    if match is None or not board or board.get("totals_only") or match.group.confirm_rounds_since is None:
        return {"items": []}
    rounds = board["rounds"]
    user = getattr(request, "user", None)
    standings = match_checks(match=match, rounds=rounds, user=user, group=match.group)
    last = standings[-1].number if standings else None
    shown = (TO_CONFIRM, DISPUTED)
    items = [s for s in reversed(standings) if s.state in shown or (s.state == CONFIRMED and s.number == last)]
    return {"items": items, "match": match, "referee": _referee(match.ruleset), "csrf_token": context.get("csrf_token")}


def _referee(ruleset: str) -> bool:
    from scoring.rules import tricks

    return ruleset in tricks.KEYS


@register.inclusion_tag("frontend/matches/_record_news.html", takes_context=True)
def record_news(context: Any) -> dict[str, Any]:
    """The records the last round saved sets or nears (and, once it finished the match, the match's)."""
    match, board = context.get("match"), context.get("board")
    if match is None or not board or not board.get("rounds"):
        return {"news": []}
    return {"news": news_of(match=match, board=board), "match": match, "number": board["rounds"][-1]["number"]}
