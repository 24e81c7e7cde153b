"""Game-specific statistics and partner synergy, aggregated in SQL from the stored round facts.

The facts are stored exactly as each game module's ``facts_parse`` normalised them (see ``FACTS_SCHEMA`` in
``scoring/rules/<game>.py``); where a statistic needs the rules' verdict (did the MÜ chief make the target?
what did the pain colour cost?) it reads the stored explanation lines, i.e. what the rules engine said when
the round was scored, instead of repeating any rule here.  Every query groups by player; the game-wide
figures are the sums over players.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from analytics.sql.game_counting import _coloretto, _muzicando, _sticheln
from analytics.sql.game_tricks import _meinz, _mue, _mue_synergy, _njet, _njet_synergy, _was_sticht
from analytics.stats import StatsFilter

SPECIFIC: dict[str, Callable[[int, StatsFilter], dict[str, Any]]] = {
    "njet": _njet,
    "mue": _mue,
    "meinz": _meinz,
    "was-sticht": _was_sticht,
    "sticheln": _sticheln,
    "coloretto": _coloretto,
    "muzicando": _muzicando,
}


def specific(group_id: int, flt: StatsFilter, rulesets: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Game-specific figures for the group's games that have them: ``{ruleset: {"all": …, "players": …}}``."""
    return {key: SPECIFIC[key](group_id, flt) for key in sorted(set(rulesets)) if key in SPECIFIC}


SYNERGY_GAMES = ("njet", "mue")  # the games with partnerships worth a synergy table, in output order


def synergy(group_id: int, flt: StatsFilter, rulesets: Iterable[str]) -> list[dict[str, Any]]:
    """Who wins with whom: NJET teammates (team won the round) and MÜ chief + partner (target made)."""
    played = set(rulesets)
    out: list[dict[str, Any]] = []
    if "njet" in played:
        out += _njet_synergy(group_id, flt)
    if "mue" in played:
        out += _mue_synergy(group_id, flt)
    return out
