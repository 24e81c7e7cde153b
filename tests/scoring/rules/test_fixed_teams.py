"""The registry's fixed partnerships (the statistics rate such games by teams)."""

from __future__ import annotations

from scoring import rules


def test_muzicando_team_game_has_fixed_partnerships_and_individual_play_none() -> None:
    muzicando = rules.get("muzicando")
    team = muzicando.options_parse({"mode": "team"}, players=4)
    assert muzicando.fixed_teams(team, players=4) == {0: 0, 2: 0, 1: 1, 3: 1}
    single = muzicando.options_parse({"mode": "individual"}, players=4)
    assert muzicando.fixed_teams(single, players=4) is None


def test_games_without_partnerships_name_none() -> None:
    assert rules.get("coloretto").fixed_teams({}, players=4) is None
