"""The shared value types of the rules engine and the registry's generic helpers."""

from __future__ import annotations

import json

import pytest

from scoring import rules
from scoring.rules import InvalidRound, to_jsonable
from scoring.rules.errors import Complaints, Problem
from scoring.rules.types import MatchState, OptionSpec, RoundResult, best_seats, line, totals_of


def test_lines_and_results_serialise_with_params_in_a_stable_order():
    ln = line("njet.team", "njet-scoring", player=1, points=20, zeros=3, tricks=7)
    assert ln.params == (("tricks", 7), ("zeros", 3))
    result = RoundResult(scores=(20, 0), lines=(ln,))
    assert result.as_dict() == {
        "scores": [20, 0],
        "explanation": [
            {"msg": "njet.team", "rule": "njet-scoring", "player": 1, "points": 20, "params": {"tricks": 7, "zeros": 3}}
        ],
    }


def test_option_specs_describe_themselves_as_json_schema():
    bounded = OptionSpec("target", "int", 200, "Target", "mue-end", minimum=50, maximum=1000)
    open_ended = OptionSpec("games", "int", 1, "Games", "x-options")
    flag = OptionSpec("bidding", "bool", False, "Bidding", "x-options")
    free = OptionSpec("tasks", "json", None, "Tasks", "x-options")
    assert bounded.json_schema() == {
        "title": "Target",
        "default": 200,
        "type": "integer",
        "minimum": 50,
        "maximum": 1000,
    }
    assert open_ended.json_schema() == {"title": "Games", "default": 1, "type": "integer"}
    assert flag.json_schema()["type"] == "boolean"
    assert free.json_schema() == {"title": "Tasks", "default": None}


def test_best_seats_shares_ties_and_handles_no_players():
    assert best_seats([3, 5, 5]) == (1, 2)
    assert best_seats([3, 5, 5], highest=False) == (0,)
    assert best_seats([]) == ()
    assert totals_of([RoundResult((1, 2), ()), RoundResult((3, -4), ())], 2) == (4, -2)


def test_to_jsonable_sorts_sets_and_stringifies_keys():
    assert to_jsonable({1: frozenset({"b", "a"}), "t": (1, [2])}) == {"1": ["a", "b"], "t": [1, [2]]}


def test_problems_and_invalid_round_report_every_field():
    c = Complaints({"m.one": "one {n}", "m.two": "two"})
    assert c.check(True, "a", "m.one", "r", n=1)
    assert not c.check(False, "a", "m.one", "r", n=1)
    c.add("", "m.two", "r")
    with pytest.raises(InvalidRound) as err:
        c.raise_if_any()
    assert err.value.by_field() == {"a": ["one 1"], "non_field_errors": ["two"]}
    assert str(err.value) == "a: one 1; round: two"
    assert Problem("a", "m.one", "r", "one 1", (("n", 1),)).as_dict() == {
        "field": "a",
        "msg": "m.one",
        "rule": "r",
        "text": "one 1",
        "params": {"n": 1},
    }


def test_match_state_as_dict_is_json():
    state = MatchState(totals=(1, 2), rounds_played=1, finished=False, extra={"k": [1]})
    assert json.loads(json.dumps(state.as_dict()))["extra"] == {"k": [1]}


def test_ruleset_repr_and_translated_rendering():
    njet = rules.get("njet")
    assert repr(njet) == "<Ruleset njet>"
    params = {"game": "NJET", "low": 2, "high": 5, "players": 7}
    assert njet.render("core.players", params) == "NJET is played by 2 to 5 players, not 7."
    assert njet.render("core.players", params, translate=lambda t: "HU " + t).startswith("HU NJET is played")


@pytest.mark.parametrize(
    ("options", "field"),
    [({"recording": "sideways"}, "options.recording"), ({"target": "high"}, "options.target")],
)
def test_option_values_are_checked_against_their_spec(options, field):
    key = "njet" if "recording" in options else "mue"
    with pytest.raises(InvalidRound) as err:
        rules.get(key).options_parse(options, players=4)
    assert field in err.value.by_field()


def test_bool_options_must_be_booleans():
    with pytest.raises(InvalidRound) as err:
        rules.get("muzicando").options_parse({"mode": "individual", "bidding": "yes"}, players=4)
    assert "options.bidding" in err.value.by_field()
