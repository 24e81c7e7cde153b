"""House rules as the pages show them: each game's presets in words, and the new-match page's choice."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import get_language, gettext

from frontend.entry import labels
from frontend.rulebook import games
from scoring import selectors, services
from scoring.models import Group, Preset
from scoring.services.presets import preset_option_keys


def _words(ruleset: Any, options: dict[str, Any]) -> str:
    words = labels.option_words(ruleset, options)
    return " · ".join(words) if words else gettext("the rulebook's defaults")


def presets_context(*, group: Group, user: Any) -> dict[str, Any]:
    """The group page's "House rules" section: per game (those with options), its presets in words."""
    presets = services.preset_versions_attach(list(services.preset_list(group=group, user=user)))
    by_game: dict[str, list[Preset]] = {}
    for preset in presets:
        by_game.setdefault(preset.ruleset, []).append(preset)
    sections = []
    for game in games():
        ruleset = selectors.ruleset_get(key=game["key"])
        if not preset_option_keys(ruleset):
            continue
        items = [
            {"preset": p, "words": _words(ruleset, p.current.options)}  # type: ignore[attr-defined]
            for p in by_game.get(game["key"], [])
        ]
        sections.append({"key": game["key"], "name": game["name"], "items": items})
    return {"preset_games": sections}


def preset_choices(*, group: Group, user: Any, ruleset: Any) -> list[dict[str, Any]]:
    """The new-match page's choice of house rules for ``ruleset``: id, name, the default first, and the
    options (JSON for the script that fills the option controls)."""
    presets = services.preset_versions_attach(list(services.preset_list(group=group, user=user, ruleset=ruleset.key)))
    return [
        {
            "id": p.pk,
            "name": p.name,
            "is_default": p.is_default,
            "version": p.current.number,  # type: ignore[attr-defined]
            "options": p.current.options,  # type: ignore[attr-defined]
            "options_json": json.dumps(p.current.options),  # type: ignore[attr-defined]
            "words": _words(ruleset, p.current.options),  # type: ignore[attr-defined]
        }
        for p in presets
    ]


def preset_choice(
    *, group: Group, user: Any, ruleset: Any, post: Any
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The new-match page's house rules for ``ruleset`` and the one chosen: the posted ``preset`` ("" for
    none), else the group's default for the game."""
    presets = preset_choices(group=group, user=user, ruleset=ruleset)
    if post is not None:
        wanted = post.get("preset", "")
        return presets, next((p for p in presets if str(p["id"]) == wanted), None)
    return presets, next((p for p in presets if p["is_default"]), None)


def defaults_json(ruleset: Any) -> str:
    """The options a match gets without house rules (the page's language picks the NJET edition), as JSON for
    the script that fills the option controls when "no house rules" is chosen."""
    by_language = ruleset.language_defaults(get_language())
    keys = preset_option_keys(ruleset)
    return json.dumps({s.key: by_language.get(s.key, s.default) for s in ruleset.options if s.key in keys})
