"""The trick referee: pick the trump set-up, tap the cards in the order played, see who takes it and why.

Every tap posts the form (htmx); the server keeps the trick in hidden fields, asks
``scoring.rules.tricks.referee`` once the trick is complete and renders the verdict in the user's language.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext

from frontend import labels
from frontend.entry import to_int
from scoring.rules import InvalidRound

from .common import page

COLOUR_PARAMS = ("colour", "led")


def _tricks() -> Any:
    from scoring.rules import tricks

    return tricks


def _say(message_id: str, params: dict[str, Any], english: str) -> str:
    """A referee sentence in the active language, colour ids replaced by their names."""
    shown = {k: (labels.colour(v) if k in COLOUR_PARAMS else v) for k, v in params.items()}
    try:
        return gettext(_tricks().MESSAGES[message_id]).format(**shown)
    except (KeyError, IndexError, ValueError):
        return english


def referee_index(request: HttpRequest) -> HttpResponse:
    tricks = _tricks()
    games = [{"key": key, "name": tricks.GAMES[key].name} for key in tricks.KEYS]
    return page(request, "frontend/referee/index.html", {"games": games})


def _setup(key: str, post: Any) -> dict[str, Any]:
    def trump(name: str) -> Any:
        raw = post.get(name) or ""
        if raw == "none" or raw == "":
            return {"kind": "none"} if raw == "none" else None
        kind, _, value = raw.partition(":")
        return {"kind": kind, "value": to_int(value) if kind == "number" else value}

    if key == "njet":
        return {"trump": post.get("trump") or None, "super_trump": post.get("super_trump") or None}
    if key == "mue":
        return {"chief_trump": trump("chief_trump"), "vice_trump": trump("vice_trump")}
    if key == "was-sticht":
        return {"trump_colour": post.get("trump_colour") or None, "trump_number": to_int(post.get("trump_number"))}
    if key == "sticheln":
        return {"variant": post.get("variant") or "classic"}
    return {}


def _card(text: str) -> dict[str, Any]:
    colour, _, value = text.partition(":")
    return {"colour": colour, "value": to_int(value)}


def referee_page(request: HttpRequest, key: str) -> HttpResponse:
    tricks = _tricks()
    if key not in tricks.KEYS:
        raise Http404
    game = tricks.GAMES[key]
    post = request.POST if request.method == "POST" else request.GET
    players = to_int(post.get("players"), game.min_players)
    if not isinstance(players, int) or not game.min_players <= players <= game.max_players:
        players = game.min_players
    size = max(game.trick_sizes(players))
    plays = [p for p in post.getlist("play") if ":" in p][:size]
    action = post.get("action")
    if action == "undo" and plays:
        plays.pop()
    elif action == "clear":
        plays = []
    elif post.get("pick_colour") and post.get("pick_value") and len(plays) < size:
        plays.append(f"{post['pick_colour']}:{post['pick_value']}")
    low, high = game.values(players)
    context: dict[str, Any] = {
        "key": key,
        "game": game,
        "players": players,
        "player_counts": range(game.min_players, game.max_players + 1),
        "size": size,
        "colours": tricks.colours(key, players),
        "values": [str(v) for v in range(low, high + 1)],
        "numbers": [str(v) for v in range(low, high + 1)],
        "plays": [{"text": p, **_card(p), "seat": i} for i, p in enumerate(plays)],
        "picked_colour": post.get("pick_colour") or "",
        "post": post,
        "tie_rule": post.get("tie_rule") or "english",
    }
    if len(plays) in game.trick_sizes(players) and len(plays) == size:
        context.update(_judge(key, post, plays, players))
    template = "frontend/referee/panel.html" if getattr(request, "htmx", False) else "frontend/referee/game.html"
    if template.endswith("panel.html"):
        return render(request, template, context)
    return page(request, template, context)


def _judge(key: str, post: Any, plays: list[str], players: int) -> dict[str, Any]:
    tricks = _tricks()
    options: dict[str, Any] = {"players": players}
    if key == "njet":
        options["tie_rule"] = post.get("tie_rule") or "english"
    try:
        result = tricks.referee(
            key, _setup(key, post), [{"seat": i, "card": _card(p)} for i, p in enumerate(plays)], options=options
        )
    except InvalidRound as exc:
        problems = [_say(p.msg, dict(p.params), p.text) for p in exc.problems]
        return {"problems": problems}
    notes = {n.index: _say(n.msg, n.param_dict(), n.text) for n in result.notes if n.index is not None}
    return {
        "result": result,
        "reason": _say(result.reason, result.param_dict(), result.text),
        "notes": [notes.get(i, "") for i in range(len(plays))],
    }
