"""The round-entry forms mean exactly the facts they show: every game's worked example survives the trip
facts -> form values -> submitted form -> facts, as the ruleset stores it."""

from __future__ import annotations

from typing import Any

import pytest
from django.http import QueryDict

from frontend.entry import forms as entry
from scoring import rules
from scoring.selectors import ruleset_list

# Sticheln's form takes the quick way (how many pain cards and their sum), whatever way the example used.
QUICK_WAY = {"sticheln"}


def _querydict(values: Any) -> QueryDict:
    qd = QueryDict(mutable=True)
    for name, items in values.lists():
        qd.setlist(name, items)
    return qd


@pytest.mark.parametrize("key", [r.key for r in ruleset_list()])
def test_example_facts_round_trip_through_the_form(key: str) -> None:
    ruleset = rules.get(key)
    example = ruleset.example
    players = example["players"]
    options = ruleset.options_parse(example.get("options"), players=players)
    stored = ruleset.normalise(example["facts"], players=players, options=options)
    c = entry.EntryContext(ruleset=ruleset, names=[f"P{i}" for i in range(players)], options=options)
    form = entry.form_context(c, facts=stored)
    submitted = entry.adapter(key).to_facts(_querydict(form["v"]), c)
    if key in QUICK_WAY:  # the form enters counts where the example lists cards: the points must agree
        before = ruleset.score(stored, players=players, options=options)
        after = ruleset.score(submitted, players=players, options=options)
        assert (after.scores, len(after.lines)) == (before.scores, len(before.lines))
    else:
        assert ruleset.normalise(submitted, players=players, options=options) == stored


@pytest.mark.parametrize("key", [r.key for r in ruleset_list()])
def test_every_game_has_an_entry_template(key: str) -> None:
    from django.template.loader import get_template

    get_template(f"frontend/entry/{key}.html")
