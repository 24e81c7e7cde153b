"""Helpers shared by the scoring tests (facts taken from the game modules' worked examples)."""

from __future__ import annotations

from typing import Any

from scoring import rules, services
from scoring.models import Match
from scoring.selectors.confirming import match_checks


def streamed(response: Any) -> bytes:
    """A response's body, whether it was sent whole or streamed (the exports stream)."""
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content)
    return bytes(response.content)


def example(key: str) -> dict[str, Any]:
    return rules.get(key).example


def njet_facts(**changes: Any) -> dict[str, Any]:
    """The NJET example round (5 players), with some facts changed."""
    return {**example("njet")["facts"], **changes}


def record(match: Match, user: Any, n: int = 1, **changes: Any) -> list[Any]:
    return [services.round_record(match=match, facts=njet_facts(**changes), user=user) for _ in range(n)]


# Was sticht? is the game whose rounds depend on the rounds before them (tasks held, start player rotating).
WS_ROUND_1 = {
    "start_player": 0,
    "trump_colour": "red",
    "trump_number": 2,
    "chosen": [None, "exactly-2", "betli", "last-trick"],
    "tricks": [2, 2, 0, 5],
    "last_trick": 3,
}
# Seat 1 misses "exactly-2" (3 tricks): seat 0, the start player, fulfils it instead and returns "betli".
WS_ROUND_1_EDITED = {**WS_ROUND_1, "tricks": [2, 3, 0, 4]}
# Seat 1 starts and fulfils seat 3's "exactly-1": he returns his first task still held, which depends on round 1.
WS_ROUND_2 = {
    "start_player": 1,
    "trump_colour": "blue",
    "trump_number": 3,
    "chosen": ["most", None, "exactly-3", "exactly-1"],
    "tricks": [4, 1, 2, 2],
    "last_trick": 0,
}


def ws_match(group: Any, players: Any, user: Any) -> Match:
    return services.match_create(
        group=group,
        ruleset="was-sticht",
        options=example("was-sticht")["options"],
        player_ids=[p.pk for p in players[:4]],
        user=user,
    )


def played_match(
    table: Any, key: str, seed: str, *, options: Any = None, rounds: int | None = None
) -> tuple[Any, Match]:
    """A match of ``key`` the synthetic players play (``analytics.synthetic``), and an empty match of ``key`` with
    its options for the first four of ``table``'s players, to enter its rounds into."""
    from random import Random

    from analytics import synthetic

    played = synthetic.play_match(Random(seed), key, [1.0] * 4, options=options, rounds=rounds)
    match = services.match_create(
        group=table.group,
        ruleset=key,
        options=played.options,
        player_ids=[p.pk for p in table.players[:4]],
        user=table.owner,
    )
    return played, match


def standings(group: Any, user: Any) -> dict[str, list[tuple[Any, ...]]]:
    """Where every live round of every match of ``group`` stands for the other side's confirmation, as ``user``'s
    phone shows it (``scoring.selectors.confirming.match_checks``), by match uid."""
    out = {}
    for match in Match.objects.filter(group=group):
        rounds = list(match.rounds.filter(deleted_at__isnull=True).order_by("number"))
        out[str(match.uid)] = [
            (s.number, s.version, s.state, s.saved_by, s.by, s.note, s.at, s.can_act, tuple(s.confirmers))
            for s in match_checks(match=match, rounds=rounds, user=user)
        ]
    return out
