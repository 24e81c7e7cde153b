"""Fixed partnerships through the registry (the statistics rate them as teams); keeps scoring/rules fully covered
by its own tests (these were exercised only by the analytics tests)."""

from __future__ import annotations

from scoring.rules import get


def test_fixed_teams_only_for_muzicando_team_play() -> None:
    muzicando = get("muzicando")
    team = muzicando.options_parse({"mode": "team"}, players=4)
    assert muzicando.fixed_teams(team, players=4) == {0: 0, 2: 0, 1: 1, 3: 1}
    alone = muzicando.options_parse({"mode": "individual"}, players=4)
    assert muzicando.fixed_teams(alone, players=4) is None
    njet = get("njet")
    assert njet.fixed_teams(njet.options_parse({}, players=4), players=4) is None
    assert muzicando.has_fixed_teams and not njet.has_fixed_teams
