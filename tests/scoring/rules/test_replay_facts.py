"""Stored rounds' facts are parsed once per process (``Ruleset.replay_facts``): safe only because parsing is pure
and parsed facts cannot change, which these tests check for every game on synthetic matches."""

from __future__ import annotations

import dataclasses
import json
from random import Random
from typing import Any

import pytest

from analytics import synthetic
from scoring import rules
from scoring.rules import FactsText, InvalidRound, to_jsonable


def immutable(value: Any) -> bool:
    """True when nothing inside ``value`` can be changed in place."""
    if isinstance(value, (str, int, float, bool, type(None))):
        return True
    if isinstance(value, (tuple, frozenset)):
        return all(immutable(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        frozen = type(value).__dataclass_params__.frozen  # type: ignore[attr-defined]
        return frozen and all(immutable(getattr(value, f.name)) for f in dataclasses.fields(value))
    return False


@pytest.mark.parametrize("key", rules.KEYS)
def test_replayed_stored_text_gives_what_parsing_the_json_gives_and_is_parsed_once(key):
    ruleset = rules.get(key)
    played = synthetic.play_match(Random(f"replay-{key}"), key, [1.0] * 4)
    texts = [FactsText(json.dumps(facts)) for facts, _result in played.rounds]
    opts = played.options

    parsed = [ruleset.replay_facts(text, players=4, options=opts) for text in texts]
    assert parsed == [ruleset.facts_parse(json.loads(t), players=4, options=opts) for t in texts]
    assert all(immutable(facts) for facts in parsed)
    assert [to_jsonable(facts) for facts in parsed] == [json.loads(t) for t in texts]
    # the same text again: the same object, not a second parse; parsed facts are taken as they are
    again = ruleset.replay_facts(FactsText(str(texts[0])), players=4, options=dict(opts))
    assert again is parsed[0]
    assert ruleset.replay_facts(parsed[0], players=4, options=opts) is parsed[0]

    # replaying the texts scores the match exactly as replaying the JSON objects
    as_text = ruleset.history(texts, players=4, options=opts)
    as_json = ruleset.history([json.loads(t) for t in texts], players=4, options=opts)
    assert [r.scores for _f, r in as_text] == [r.scores for _f, r in as_json] == [r.scores for _f, r in played.rounds]


def test_the_memo_keys_on_the_players_and_the_options_too():
    ruleset = rules.get("njet")
    example = rules.get("njet").example
    text = FactsText(json.dumps(example["facts"]))
    five = ruleset.options_parse(example["options"], players=5)
    parsed = ruleset.replay_facts(text, players=5, options=five)
    assert parsed.tricks == tuple(example["facts"]["tricks"])
    with pytest.raises(InvalidRound):  # five seats of facts do not fit four players: not a cached answer
        ruleset.replay_facts(text, players=4, options=ruleset.options_parse(example["options"], players=4))


def test_a_json_string_as_stored_facts_is_refused_as_facts_not_read_as_text():
    """Only :class:`FactsText` is taken as JSON text: stored facts that are a JSON string stay a refusal."""
    ruleset = rules.get("njet")
    with pytest.raises(InvalidRound) as caught:
        ruleset.history(['{"start_player": 0}'], players=5, options=ruleset.options_parse({}, players=5))
    assert caught.value.problems[0].field == "facts"


def test_the_memo_keeps_the_most_recently_used_rounds_only(monkeypatch):
    monkeypatch.setattr(rules, "STORED_FACTS_KEPT", 2)
    ruleset = rules.get("njet")
    opts = ruleset.options_parse({}, players=5)
    texts = [FactsText(json.dumps({**ruleset.example["facts"], "start_player": seat})) for seat in range(3)]
    first, second = (ruleset.replay_facts(t, players=5, options=opts) for t in texts[:2])
    assert ruleset.replay_facts(texts[0], players=5, options=opts) is first  # used again: now the most recent
    ruleset.replay_facts(texts[2], players=5, options=opts)  # the third: the least recently used (second) goes
    assert ruleset.replay_facts(texts[0], players=5, options=opts) is first
    again = ruleset.replay_facts(texts[1], players=5, options=opts)
    assert again == second and again is not second


def test_options_that_parsed_before_are_not_checked_again_but_their_types_still_count(monkeypatch):
    muzicando = rules.get("muzicando")
    first = muzicando.options_parse({"bidding": True}, players=4)
    again = muzicando.options_parse({"bidding": True}, players=4)
    assert first == again and first is not again and again["bidding"] is True
    with pytest.raises(InvalidRound):  # 1 equals True in Python, but it is no boolean: refused, not remembered
        muzicando.options_parse({"bidding": 1}, players=4)
    with pytest.raises(InvalidRound):  # keys that do not sort: parsed without the memo, refused as unknown
        muzicando.options_parse({1: "x", "bidding": True}, players=4)  # type: ignore[dict-item]
    with pytest.raises((TypeError, ValueError)):  # not a mapping: refused as before the memo
        muzicando.options_parse([("bidding", True), "x"], players=4)  # type: ignore[arg-type]

    was_sticht = rules.get("was-sticht")
    tasks = [
        ["betli", "exactly-1", "no-blue", "no-green"],
        ["most", "fewest", "exactly-2", "exactly-3"],
        ["exactly-3", "exactly-2", "betli", "betli"],
        ["most", "most", "no-yellow", "exactly-1"],
    ]
    mine = was_sticht.options_parse({"tasks": tasks}, players=4)
    mine["tasks"][0].append("changed by a caller")
    assert was_sticht.options_parse({"tasks": tasks}, players=4)["tasks"][0] == tasks[0] != mine["tasks"][0]
    tasks[0][:2] = ["exactly-1", "betli"]  # nor does a change to the lists the options came in
    assert was_sticht.options_parse({"tasks": tasks}, players=4)["tasks"][0][:2] == ["exactly-1", "betli"]

    monkeypatch.setattr(rules, "OPTIONS_KEPT", 1)
    muzicando.options_parse({"bidding": False}, players=4)
    assert len(muzicando._options_parsed) == 1


def test_has_nul_finds_nul_in_any_text_of_a_document_however_deep():
    from scoring.api.views.base import _has_nul

    deep: Any = "ok"
    for _ in range(5000):  # deeper than Python's recursion limit
        deep = [{"k": deep}]
    assert not _has_nul(deep)
    assert _has_nul([{"k": deep}, {"a": ["b", {"c": "d\x00"}]}])
    assert _has_nul({"a\x00": 1}) and _has_nul("\x00") and not _has_nul({"a": [1, None, True, 2.5]})


def test_to_jsonable_writes_every_kind_of_value_as_plain_json():
    from collections import namedtuple
    from fractions import Fraction

    pair = namedtuple("pair", "a b")

    @dataclasses.dataclass(frozen=True)
    class Inner:
        seats: tuple[int, ...]
        colours: frozenset[str]
        note: str | None = None

    value = {1: Inner((1, 2), frozenset({"red", "blue"})), "p": pair(1, [True, 2.5]), "f": Fraction(1, 2)}
    assert to_jsonable(value) == {
        "1": {"seats": [1, 2], "colours": ["blue", "red"], "note": None},
        "p": [1, [True, 2.5]],
        "f": Fraction(1, 2),  # anything else is left as it is
    }
