"""The trick referee: pick the trump set-up, tap the cards in the order played, see who takes it and why.

The trick lives in the page: ``referee.js`` adds every tapped card to the form's hidden fields at once (no tap
waits for the network), then posts the form, one request at a time, and takes the answer only when it was made
for exactly the cards and the set-up the page shows now. The server asks ``scoring.rules.tricks.referee`` once the
trick is complete and renders the verdict in the user's language. Without scripts the form posts as it is.

Cards belong to hands: the leader's card comes first, then the hands to the left in turn.  Opened for a match
(``?match=<id>``) the hands are the match's players in seat order and NJET follows the match's edition;
standalone they are "Player 1", "Player 2" … and NJET defaults to the edition of the page's language.  Meinz with
three players adds the monster's hand to the rotation (it leads like everyone); Was sticht? with three players
judges either a trick in play (3 cards) or a draft row (4 cards, the last the table hand's).
"""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language, gettext, ngettext

from frontend.entry.forms import to_int
from frontend.views.common import page
from scoring import rules, selectors
from scoring.models import Match
from scoring.rules import InvalidRound

EDITIONS = ("english", "hungarian")  # NJET's option tie_rule: the edition whose rules decide
MEINZ_TRICKS = ("0", "1", "2")  # tricks a Meinz player may already hold
MONSTER_SEAT = 3  # Meinz with three players: the monster's hand sits after the last seat
TABLE_SEAT = 3  # Was sticht? with three players: the table hand takes the last card of a draft row


def _tricks() -> Any:
    from scoring.rules import tricks

    return tricks


def _say(message_id: str, params: dict[str, Any], english: str) -> str:
    """A referee sentence in the active language: colour ids as their names, plurals by the language's rule."""
    try:
        return str(_tricks().render(message_id, params, translate=gettext, ntranslate=ngettext))
    except (KeyError, IndexError, ValueError):
        return english


def referee_index(request: HttpRequest) -> HttpResponse:
    tricks = _tricks()
    games = [{"key": key, "name": tricks.GAMES[key].name} for key in tricks.KEYS]
    return page(request, "frontend/referee/index.html", {"games": games})


def _setup(key: str, post: Any, variant: str) -> dict[str, Any]:
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
        return {"variant": variant}
    return {}


def _card(text: str) -> dict[str, Any]:
    colour, _, value = text.partition(":")
    return {"colour": colour, "value": to_int(value)}


def _match(request: HttpRequest, post: Any, key: str) -> Match | None:
    """The match the referee was opened for (``match`` in the query or the form), if any."""
    raw = post.get("match") or request.GET.get("match")
    if not raw:
        return None
    match = selectors.match_get(user=request.user, match_id=raw, rounds_played=False)
    if match.ruleset != key:
        raise Http404
    return match


def _hands(key: str, players: int, names: list[str], draft: bool) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The hands that take turns leading (seat order), and the hand that always plays last (the table's)."""
    rotation: list[dict[str, Any]] = [{"name": name, "seat": seat, "monster": False} for seat, name in enumerate(names)]
    if key == "meinz" and players == 3:
        rotation.append({"name": gettext("The monster"), "seat": MONSTER_SEAT, "monster": True})
    table = None
    if key == "was-sticht" and players == 3 and draft:
        table = {"name": gettext("The table hand"), "seat": TABLE_SEAT, "monster": False}
    return rotation, table


def _edition_default(match: Match | None) -> str:
    """The match's edition (a match stored before the option existed follows the English edition), else the
    edition of the page's language."""
    if match is not None:
        return str(match.options.get("tie_rule", "english"))
    return str(rules.get("njet").language_defaults(get_language()).get("tie_rule", "english"))


def _sticheln_default(match: Match | None) -> str:
    return "reverse" if match is not None and match.options.get("variant") == "reverse" else "classic"


def referee_page(request: HttpRequest, key: str) -> HttpResponse:
    tricks = _tricks()
    if key not in tricks.KEYS:
        raise Http404
    game = tricks.GAMES[key]
    post = request.POST if request.method == "POST" else request.GET
    match = _match(request, post, key)
    if match is not None:
        names = [seat.player.name for seat in match.seats.all()]
        players = len(names)
    else:
        players = to_int(post.get("players"), game.min_players)
        if not isinstance(players, int) or not game.min_players <= players <= game.max_players:
            players = game.min_players
        names = [gettext("Player %(n)s") % {"n": n} for n in range(1, players + 1)]
    draft = key == "was-sticht" and players == 3 and post.get("row") == "draft"
    rotation, table = _hands(key, players, names, draft)
    leader = to_int(post.get("leader"), 0)
    if not isinstance(leader, int) or not 0 <= leader < len(rotation):
        leader = 0
    order = [rotation[(leader + i) % len(rotation)] for i in range(len(rotation))] + ([table] if table else [])
    size = len(order)
    plays = [p for p in post.getlist("play") if ":" in p][:size]
    action = post.get("action")
    if action == "undo" and plays:
        plays.pop()
    elif action == "clear":
        plays = []
    elif post.get("pick_colour") and post.get("pick_value") and len(plays) < size:
        plays.append(f"{post['pick_colour']}:{post['pick_value']}")
    edition = post.get("tie_rule") if match is None and post.get("tie_rule") in EDITIONS else _edition_default(match)
    variant = post.get("variant") if post.get("variant") in ("classic", "reverse") else _sticheln_default(match)
    taken = {hand["seat"]: _taken(post, hand["seat"]) for hand in rotation}
    claim = to_int(post.get("claim"))
    low, high = game.values(players)
    context: dict[str, Any] = {
        "key": key,
        "game": game,
        "match": match,
        "players": players,
        "player_counts": range(game.min_players, game.max_players + 1),
        "size": size,
        "draft": draft,
        "rotation": rotation,
        "leader": leader,
        "order": order,
        "taken": [{**hand, "value": str(taken[hand["seat"]])} for hand in rotation],
        "tricks_choices": MEINZ_TRICKS,
        "claim": claim,
        "claimers": [hand for hand in rotation if not hand["monster"]],
        "colours": tricks.colours(key, players),
        "values": [str(v) for v in range(low, high + 1)],
        "numbers": [str(v) for v in range(low, high + 1)],
        "plays": [{"text": p, **_card(p), "hand": order[i]} for i, p in enumerate(plays)],
        "next_hand": order[len(plays)] if len(plays) < size else None,
        # for referee.js, which adds each tapped card to the trick in the page: the hands that take turns leading
        # (seat order) and the hand that always plays last, if any
        "hands_json": json.dumps([hand["name"] for hand in rotation], ensure_ascii=False),
        "table_name": table["name"] if table else "",
        "picked_colour": post.get("pick_colour") or "",
        "post": post,
        "tie_rule": edition,
        "editions": EDITIONS,
        "variant": variant,
    }
    if len(plays) == size:
        engine_plays = [_engine_play(key, order[i], p, taken, claim) for i, p in enumerate(plays)]
        options: dict[str, Any] = {**(match.options if match is not None else {}), "players": players}
        if key == "njet":
            options["tie_rule"] = edition
        context.update(_judge(key, _setup(key, post, variant), engine_plays, options, order))
    template = "frontend/referee/panel.html" if getattr(request, "htmx", False) else "frontend/referee/game.html"
    if template.endswith("panel.html"):
        return render(request, template, context)
    return page(request, template, context)


def _taken(post: Any, seat: int) -> int:
    value = post.get(f"taken_{seat}")
    return int(value) if value in MEINZ_TRICKS else 0


def _engine_play(key: str, hand: dict[str, Any], text: str, taken: dict[int, int], claim: Any) -> dict[str, Any]:
    play: dict[str, Any] = {"seat": hand["seat"], "card": _card(text)}
    if key == "meinz":
        if hand["monster"]:
            play["monster"] = True
        if taken.get(hand["seat"]):
            play["tricks_taken"] = taken[hand["seat"]]
        if claim == hand["seat"] and not hand["monster"]:
            play["claim"] = True
    return play


def _judge(
    key: str, setup: dict[str, Any], plays: list[dict[str, Any]], options: dict[str, Any], order: list[dict[str, Any]]
) -> dict[str, Any]:
    tricks = _tricks()
    try:
        result = tricks.referee(key, setup, plays, options=options)
    except InvalidRound as exc:
        problems = [_say(p.msg, dict(p.params), p.text) for p in exc.problems]
        return {"problems": problems}
    notes = {n.index: _say(n.msg, n.param_dict(), n.text) for n in result.notes if n.index is not None}
    edition = result.edition
    return {
        "result": result,
        "winner_name": order[result.winner]["name"],
        "reason": _say(result.reason, result.param_dict(), result.text),
        "edition_text": None if edition is None else _say(edition.msg, edition.param_dict(), edition.text),
        "notes": [{"name": order[i]["name"], "text": notes.get(i, "")} for i in range(len(plays))],
    }
