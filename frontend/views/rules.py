"""The rules reference: one page per game, in our own words, in English and Hungarian."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import select_template
from django.utils.translation import get_language

from frontend.rulebook import anchor_title, anchors_of, games, in_page_order
from frontend.views.common import page
from scoring import selectors


def _language() -> str:
    return "hu" if (get_language() or "en").startswith("hu") else "en"


def rules_index(request: HttpRequest) -> HttpResponse:
    return page(request, "frontend/rules/index.html", {"games": games()})


def rules_page(request: HttpRequest, key: str) -> HttpResponse:
    ruleset = selectors.ruleset_get(key=key)
    lang = _language()
    body = select_template(
        [
            f"frontend/rules/{ruleset.key}.{lang}.html",
            f"frontend/rules/{ruleset.key}.en.html",
            "frontend/rules/_sections.html",
        ]
    )
    anchors = in_page_order(anchors_of(ruleset.key), getattr(body.template, "source", ""))
    sections = [{"anchor": a, "title": anchor_title(a)} for a in anchors]
    context: dict[str, Any] = {
        "ruleset": ruleset,
        "body_template": body.template.name,
        "games": games(),
        "sections": sections,
    }
    context.update(_tables(ruleset.key))
    return page(request, "frontend/rules/game.html", context)


def _tables(key: str) -> dict[str, Any]:
    """Tables printed from the game modules' constants (so the reference and the scoring never disagree)."""
    if key == "mue":
        from scoring.rules import mue_tables as t

        targets = [{"bid": bid, "cells": list(row)} for bid, row in t.TARGETS.items()]
        bonuses = [{"bid": bid, "cells": list(row), "top": bid == t.BONUS_TOP_BID} for bid, row in t.BONUSES.items()]
        return {"target_players": t.TARGET_PLAYERS, "targets": targets, "bonuses": bonuses, "mue": t}
    if key == "njet":
        from scoring.rules import njet

        counts = sorted(njet.CARDS_PER_PLAYER)
        return {
            "njet_rows": [
                {
                    "players": n,
                    "cards": njet.CARDS_PER_PLAYER[n],
                    "rounds": njet.ROUNDS[n],
                    "teams": njet.TEAM_SIZES[n],
                    "monster": n in njet.MONSTER_PLAYERS,
                }
                for n in counts
            ]
        }
    if key == "sticheln":
        from scoring.rules import sticheln_deck as deck

        rows = [
            {"players": n, "colours": len(row[0]), "low": row[1], "high": row[2], "each": row[3], "unused": row[4]}
            for n, row in deck.CLASSIC_DECKS.items()
        ]
        hattrick = [
            {"players": n, "low": row[1], "high": row[2], "each": row[3]} for n, row in deck.HATTRICK_DECKS.items()
        ]
        return {"sticheln_rows": rows, "hattrick_rows": hattrick}
    if key == "coloretto":
        from scoring.rules import coloretto

        table = getattr(coloretto, "COLOUR_POINTS", None)
        return {"colour_points": table}
    return {}
