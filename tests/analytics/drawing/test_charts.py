"""Figures built from real snapshots: every game's specific figure, rating bands, synergy heat maps."""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from analytics.drawing import charts
from analytics.models import Snapshot
from scoring import rules
from tests.analytics.helpers import Table, play


def test_heat_colours() -> None:
    assert charts.heat_colour(None) == charts.HEAT_NONE
    assert charts.heat_colour(0.0) == "rgb(215,48,31)"
    assert charts.heat_colour(0.5) == "rgb(247,247,247)"
    assert charts.heat_colour(1.0) == "rgb(33,102,172)"


def test_every_game_page_draws_its_specific_figures(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    rng = Random(3)
    p = table.players
    with django_capture_on_commit_callbacks(execute=True):
        for key, seats in [
            ("njet", p[:4]), ("mue", p[:5]), ("meinz", p[:4]), ("was-sticht", p[:4]), ("sticheln", p[:4]),
            ("muzicando", p[:4]), ("coloretto", p[:4]), ("abluxxen", p[:3]),
        ]:  # fmt: skip
            for _ in range(2):
                play(table, key, seats, rng)
    names = {pl.pk: pl.name for pl in p}
    games = {r.key: r.name for r in rules.all_rulesets()}
    expected = {
        "njet": {"njet_levels", "synergy"},
        "mue": {"mue_bid_success", "synergy"},
        "meinz": {"meinz_cards"},
        "was-sticht": {"was_sticht_tasks"},
        "sticheln": {"sticheln_pain"},
        "muzicando": {"muzicando_contracts"},
        "coloretto": {"coloretto_profile"},
        "abluxxen": set(),
    }
    for key, wanted in expected.items():
        payload = Snapshot.objects.get(key=f"game:{table.group.pk}:{key}|all").payload
        drawn = charts.game_charts(payload, names, games)
        keys = {c.key for c in drawn}
        assert wanted | {"rating_over_time", "win_rate", "head_to_head"} <= keys, key
        band = next(c for c in drawn if c.key == "rating_over_time").figure["data"]
        assert band[1]["fill"] == "tonexty"  # μ − 3σ up to μ + 3σ shaded
    player = Snapshot.objects.get(key=f"player:{p[0].pk}|all").payload
    keys = [c.key for c in charts.player_charts(player, names, games)]
    assert {"win_rate_by_game", "score_over_time", "rank_over_time", "head_to_head", "partners"} <= set(keys)
    assert keys.count("rating_over_time") == 8
    assert "mue_bid_success" in keys  # the player's own bids as chief
