"""Synthetic but realistic match histories for all eight games (benchmarks, demos and tests).

Every generator deals from the game's real deck (read from the rules module's own tables) and plays the
round out coarsely — who takes how many tricks, who goes out first — biased by a hidden skill per player,
so that ratings, streaks and head-to-head records look like a real group's.  :func:`play_match` then runs
every generated round through the rules engine (parse, validate against the match so far, score): a
round the rules refuse is never stored.  Everything is driven by one seeded ``random.Random``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from random import Random
from typing import Any

from analytics.synthetic.common import Skills
from analytics.synthetic.counting import (
    STICHELN_VARIANTS,
    abluxxen_facts,
    coloretto_facts,
    muzicando_facts,
    sticheln_facts,
)
from analytics.synthetic.tricks import meinz_facts, mue_facts, njet_facts, was_sticht_facts, was_sticht_options
from scoring import rules
from scoring.rules import InvalidRound, MatchState, RoundResult, to_jsonable

# --- the games ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    key: str
    players: tuple[int, ...]  # player counts, weighted by how often they occur
    options: Callable[[Random, int], dict[str, Any]]
    facts: Callable[[Random, int, Mapping[str, Any], MatchState, Skills], dict[str, Any]]
    max_rounds: int  # a match still running after this many rounds is finished by hand


def _sticheln_options(rng: Random, n: int) -> dict[str, Any]:
    variants = [v for v in STICHELN_VARIANTS if v != "hattrick" or 4 <= n <= 7]
    return {"variant": rng.choices(variants, weights=[STICHELN_VARIANTS[v] for v in variants])[0]}


def _muzicando_options(rng: Random, n: int) -> dict[str, Any]:
    if n == 4 and rng.random() < 0.6:
        return {"mode": "team", "deals": rng.choice((0, 0, 8))}
    return {"mode": "individual"}


GAMES: dict[str, Game] = {
    "njet": Game("njet", (3, 4, 4, 5, 5, 2), lambda rng, n: {"recording": "full"}, njet_facts, 12),
    "mue": Game("mue", (4, 5, 5, 6), lambda rng, n: {"target": rng.choice((200, 200, 150))}, mue_facts, 30),
    "meinz": Game("meinz", (4, 4, 4, 3), lambda rng, n: {}, meinz_facts, 10),
    "was-sticht": Game("was-sticht", (4, 4, 3), was_sticht_options, was_sticht_facts, 40),
    "sticheln": Game("sticheln", (3, 4, 4, 5, 5, 6, 7, 8), _sticheln_options, sticheln_facts, 6),
    "abluxxen": Game(
        "abluxxen",
        (2, 3, 4, 4, 5),
        lambda rng, n: {"mode": "duel" if n == 2 else "base", "games": rng.choice((1, 1, 3))},
        abluxxen_facts,
        5,
    ),
    "muzicando": Game("muzicando", (4, 4, 4, 3, 5, 6), _muzicando_options, muzicando_facts, 20),
    "coloretto": Game(
        "coloretto", (3, 4, 4, 5), lambda rng, n: {"games": rng.choice((1, 1, 1, n))}, coloretto_facts, 8
    ),
}


@dataclass
class PlayedMatch:
    ruleset: str
    players: int
    options: dict[str, Any]
    rounds: list[tuple[Any, RoundResult]]  # (stored facts JSON, result)
    finished_by_rules: bool
    rejected: int  # generated rounds the rules refused (regenerated)
    winners: list[int]  # what the match records as its winners (Match.winners)


def play_match(
    rng: Random, key: str, skills: Skills, *, options: dict[str, Any] | None = None, rounds: int | None = None
) -> PlayedMatch:
    """Play one match of ``key`` for ``len(skills)`` players through the rules engine.

    ``rounds`` stops early (an open match); otherwise the match runs until the rules end it (or, rarely,
    until the game's round cap, where it would be finished by hand).
    """
    game = GAMES[key]
    ruleset = rules.get(key)
    n = len(skills)
    opts = ruleset.options_parse(options if options is not None else game.options(rng, n), players=n)
    done: list[tuple[Any, RoundResult]] = []
    stored: list[tuple[Any, RoundResult]] = []
    rejected = 0
    limit = rounds if rounds is not None else game.max_rounds
    while len(done) < limit:
        state = ruleset.module.match_state(done, players=n, options=opts)
        if state.finished:
            break
        for _attempt in range(20):
            data = game.facts(rng, n, opts, state, skills)
            try:
                facts = ruleset.facts_parse(data, players=n, options=opts)
                ruleset.module.validate(facts, players=n, options=opts, state=state)
            except InvalidRound:
                rejected += 1
                continue
            break
        else:
            raise RuntimeError(f"the {key} generator keeps producing rounds the rules refuse")
        result = ruleset.module.score_round(facts, players=n, options=opts, state=state)
        done.append((facts, result))
        stored.append((to_jsonable(facts), result))
    else:
        state = ruleset.module.match_state(done, players=n, options=opts)
    return PlayedMatch(key, n, opts, stored, state.finished, rejected, state.final_winners())


def player_skills(rng: Random, count: int) -> list[float]:
    """Hidden skills (log-normal around 1): the generators favour stronger players."""
    return [math.exp(rng.gauss(0.0, 0.5)) for _ in range(count)]


__all__ = ["GAMES", "Game", "PlayedMatch", "Skills", "play_match", "player_skills"]
