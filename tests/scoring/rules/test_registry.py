"""The registry and the contract every game module keeps."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest

from scoring import rules
from scoring.rules import InvalidRound

ROOT = Path(__file__).resolve().parents[3]


def test_importing_the_rules_engine_loads_no_django_module():
    code = (
        "import sys, importlib, pkgutil, scoring.rules as r\n"
        "for m in pkgutil.iter_modules(r.__path__): importlib.import_module('scoring.rules.' + m.name)\n"
        "[r.get(k) for k in r.KEYS]\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework', 'celery'))\n"
        "print(len([m for m in sys.modules if m.startswith('scoring.rules.')]), bad)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    loaded, bad = result.stdout.split(" ", 1)
    assert int(loaded) >= 8
    assert bad.strip() == "[]"


def test_registry_has_the_eight_keys_in_order():
    assert rules.KEYS == ("njet", "mue", "meinz", "was-sticht", "sticheln", "abluxxen", "muzicando", "coloretto")
    assert [r.key for r in rules.all_rulesets()] == list(rules.KEYS)


def test_unknown_key_is_a_key_error():
    with pytest.raises(KeyError):
        rules.get("skat")


@pytest.mark.parametrize("key", rules.KEYS)
def test_description_is_json_and_complete(key):
    ruleset = rules.get(key)
    described = json.loads(json.dumps(ruleset.describe()))
    assert described["key"] == key
    assert 1 <= described["min_players"] <= described["max_players"] <= 8
    schema = described["facts_schema"]
    variants = schema.get("oneOf", [schema])
    assert all(variant["type"] == "object" for variant in variants)
    for anchor in (f"{key}-players", f"{key}-options", f"{key}-round"):
        assert anchor in ruleset.sections, anchor


@pytest.mark.parametrize("key", rules.KEYS)
def test_worked_example_scores_and_explains_every_point(key):
    ruleset = rules.get(key)
    example = ruleset.example
    players = example["players"]
    result = ruleset.score(example["facts"], players=players, options=example.get("options"))
    assert len(result.scores) == players
    for seat, score in enumerate(result.scores):
        explained = sum(ln.points for ln in result.lines if ln.player == seat and ln.points is not None)
        assert explained == score, (seat, result.lines)
    for ln in result.lines:
        text = ruleset.render(ln.msg, ln.param_dict())
        assert "{" not in text, text
        assert ln.rule in ruleset.sections, ln.rule


@pytest.mark.parametrize("key", rules.KEYS)
def test_normalised_facts_score_the_same(key):
    ruleset = rules.get(key)
    example = ruleset.example
    players = example["players"]
    options = ruleset.options_parse(example.get("options"), players=players)
    stored = ruleset.normalise(example["facts"], players=players, options=options)
    assert json.loads(json.dumps(stored)) == stored
    assert ruleset.score(stored, players=players, options=options) == ruleset.score(
        example["facts"], players=players, options=options
    )


@pytest.mark.parametrize("key", rules.KEYS)
def test_player_count_outside_the_range_names_the_rule(key):
    ruleset = rules.get(key)
    with pytest.raises(InvalidRound) as err:
        ruleset.options_parse({}, players=ruleset.max_players + 1)
    (problem,) = err.value.problems
    assert (problem.field, problem.msg, problem.rule) == ("players", "core.players", f"{key}-players")
    assert str(ruleset.max_players + 1) in problem.text


@pytest.mark.parametrize("key", rules.KEYS)
def test_unknown_option_and_non_object_facts_are_refused(key):
    ruleset = rules.get(key)
    players = ruleset.example["players"]
    with pytest.raises(InvalidRound) as err:
        ruleset.options_parse({"no-such-option": 1}, players=players)
    assert "options.no-such-option" in err.value.by_field()
    with pytest.raises(InvalidRound) as err:
        ruleset.score([1, 2, 3], players=players, options=ruleset.example.get("options"))  # type: ignore[arg-type]
    assert err.value.problems[0].msg == "core.facts_object"


@pytest.mark.parametrize("key", rules.KEYS)
def test_state_after_the_example_round(key):
    ruleset = rules.get(key)
    example = ruleset.example
    state = ruleset.state([example["facts"]], players=example["players"], options=example.get("options"))
    assert state.rounds_played == 1
    assert len(state.totals) == example["players"]
    assert json.loads(json.dumps(state.as_dict()))["rounds_played"] == 1


def test_every_rule_anchor_the_referee_links_to_is_a_section_of_its_game():
    sections = {anchor for key in rules.KEYS for anchor in rules.get(key).sections}
    used: set[str] = set()
    for path in (ROOT / "scoring" / "rules").glob("tricks*.py"):
        used |= set(re.findall(r'"((?:njet|mue|meinz|was-sticht|sticheln)-[a-z-]+)"', path.read_text()))
    assert used, "the referee names no rule anchors"
    assert used <= sections, used - sections


def _played(key: str, seed: int) -> tuple[int, dict[str, object], list[object]]:
    """A whole match of ``key`` played through the rules (the synthetic history's generators)."""
    from analytics import synthetic

    rng = Random(f"{key}-{seed}")
    n = rng.choice(synthetic.GAMES[key].players)
    played = synthetic.play_match(rng, key, synthetic.player_skills(rng, n))
    return n, played.options, [facts for facts, _result in played.rounds]


@pytest.mark.parametrize("key", rules.KEYS)
def test_history_from_stored_points_gives_what_the_full_replay_gives(key):
    ruleset = rules.get(key)
    for seed in range(4):
        players, options, facts = _played(key, seed)
        full = ruleset.history(facts, players=players, options=options)
        final = ruleset.module.match_state(full, players=players, options=options)
        for k in range(len(facts) + 1):
            part = ruleset.history(
                facts, players=players, options=options, stored=[list(r.scores) for _f, r in full[:k]]
            )
            assert [f for f, _r in part] == [f for f, _r in full]
            assert [r.scores for _f, r in part] == [r.scores for _f, r in full]
            assert part[k:] == full[k:]  # the rounds after the stored ones are scored and explained as before
            assert all(r.lines == () for _f, r in part[:k])
            # match_state reads the results' points only: the same state without the stored rounds' lines
            assert ruleset.module.match_state(part, players=players, options=options) == final


def test_history_scores_only_the_rounds_after_the_stored_ones(monkeypatch):
    ruleset = rules.get("was-sticht")
    players, options, facts = _played("was-sticht", 0)
    full = ruleset.history(facts, players=players, options=options)
    scored: list[object] = []
    checked: list[object] = []
    score_round, validate = ruleset.module.score_round, ruleset.module.validate
    monkeypatch.setattr(ruleset.module, "score_round", lambda f, **kw: scored.append(f) or score_round(f, **kw))
    monkeypatch.setattr(ruleset.module, "validate", lambda f, **kw: checked.append(f) or validate(f, **kw))

    ruleset.history(facts, players=players, options=options, stored=[list(r.scores) for _f, r in full[:-1]])

    assert len(facts) > 3
    assert scored == checked == [full[-1][0]]


def test_a_broken_round_after_stored_ones_is_still_refused():
    ws = rules.get("was-sticht")
    example = ws.example
    first = example["facts"]
    done = ws.history([first], players=example["players"], options=example["options"])
    again = {**first, "chosen": [None, None, None, None]}  # round 2 again started by seat 0, not seat 1
    with pytest.raises(InvalidRound) as caught:
        ws.history(
            [first, again],
            players=example["players"],
            options=example["options"],
            stored=[list(done[0][1].scores)],
        )
    assert "start_player" in caught.value.by_field()
