"""Template tags for ratings that show their doubt (``ratings.doubt``): a rating's certainty in words beside it,
and how well the ratings have predicted the group's own results, for the dashboards' ratings tables."""

from __future__ import annotations

from typing import Any

from django import template

from analytics.models import RatingTrust
from analytics.ratings.doubt import COIN_FLIP, doubt_of, trust_summary

register = template.Library()


@register.inclusion_tag("analytics/_doubt.html")
def rating_doubt(row: Any) -> dict[str, Any]:
    """Under a rating: "provisional" while it rests on too few matches, where the skill likely lies, and how sure
    the rating is, in words."""
    try:
        mu, sigma, rated = float(row["mu"]), float(row["sigma"]), int(row.get("rated") or 0)
    except (KeyError, TypeError, ValueError):
        return {"doubt": None}
    return {"doubt": doubt_of(mu=mu, sigma=sigma, rated=rated), "rated": rated}


@register.inclusion_tag("analytics/_trust.html")
def rating_trust(group_id: int, ruleset: str) -> dict[str, Any]:
    """How well this game's ratings have predicted the group's results (one row, kept by the worker)."""
    trust = RatingTrust.objects.filter(group_id=group_id, ruleset=ruleset).first()
    summary = trust_summary(trust) if trust is not None else None
    return {"trust": summary, "coin": COIN_FLIP}
