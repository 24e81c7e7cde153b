"""Was sticht?: the quick entry (the task cards returned) and the full entry (tasks revealed, tricks, last trick,
colours) of the same rounds store the same points, totals and end of the game.

Hypothesis plays random valid matches through the full form; the rules engine says which task cards went back in
each round, and those are ticked in the quick form of a second match. Both forms are read by the form parser and
scored by the rules engine.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from hypothesis import given, settings
from hypothesis import strategies as st

from frontend.entry import forms as entry
from scoring import rules
from tests.scoring.rules.test_was_sticht import DRAFT, round_for

NAMES = ["Anna", "Bence", "Cili", "Dani"]
RULES = rules.get("was-sticht")


def _post(values: dict[str, Any]) -> QueryDict:
    qd = QueryDict(mutable=True)
    for name, value in values.items():
        if value is None:
            continue
        qd.setlist(name, [str(v) for v in value] if isinstance(value, list) else [str(value)])
    return qd


def _context(players: int) -> entry.EntryContext:
    options = RULES.options_parse({"tasks": DRAFT[:players]}, players=players)
    return entry.EntryContext(ruleset=RULES, names=NAMES[:players], options=options)


def _full_post(facts: dict[str, Any], choice: str | None) -> QueryDict:
    """The full entry as a player taps it: every revealed task, the tricks, the last trick, the colours asked."""
    values: dict[str, Any] = {"entry": "full", "start_player": facts["start_player"], "last_trick": facts["last_trick"]}
    for seat, task in enumerate(facts["chosen"]):
        values[f"chosen.{seat}"] = task or ""
        values[f"tricks.{seat}"] = facts["tricks"][seat]
        values[f"colours.{seat}"] = facts["colours"][seat]
    values["start_return"] = choice
    return _post(values)


def _quick_post(start: int, returned: list[str | None]) -> QueryDict:
    """The quick entry: the card each player returned tapped, "none" left for the others."""
    return _post(
        {"entry": "quick", "start_player": start, **{f"returned.{s}": t or "" for s, t in enumerate(returned)}}
    )


def _returned_in(state: Any, number: int, players: int) -> list[str | None]:
    """The task card each seat returned in round ``number``, as the rules engine's books say."""
    out: list[str | None] = [None] * players
    for seat, records in enumerate(state.extra["returned"]):
        for record in records:
            if record["round"] == number:
                out[seat] = record["task"]
    return out


@settings(max_examples=40, deadline=None)
@given(st.data(), st.sampled_from([3, 4]))
def test_quick_and_full_entry_store_the_same_points(data: st.DataObject, players: int) -> None:
    c = _context(players)
    form = entry.adapter("was-sticht")
    full_rounds: list[dict[str, Any]] = []
    quick_rounds: list[dict[str, Any]] = []
    full_state = RULES.state([], players=players, options=c.options)
    while not full_state.finished and len(full_rounds) < 12:
        facts = data.draw(round_for(full_state, players))
        held = full_state.extra["held"][facts["start_player"]]
        # the start player may name the card he returns (when he earns a return, the form sends it)
        choice = data.draw(st.none() | st.sampled_from(held))
        full = form.to_facts(_full_post(facts, choice), c)
        scored_full = RULES.score(full, players=players, options=c.options, before=full_rounds)
        full_rounds.append(full)
        full_state = RULES.state(full_rounds, players=players, options=c.options)
        returned = _returned_in(full_state, len(full_rounds), players)
        quick = form.to_facts(_quick_post(facts["start_player"], returned), c)
        assert quick == {"entry": "quick", "start_player": facts["start_player"], "returned": returned}
        scored_quick = RULES.score(quick, players=players, options=c.options, before=quick_rounds)
        quick_rounds.append(quick)
        assert scored_quick.scores == scored_full.scores
        quick_state = RULES.state(quick_rounds, players=players, options=c.options)
        assert quick_state.totals == full_state.totals
        assert (quick_state.finished, quick_state.winners) == (full_state.finished, full_state.winners)
        assert quick_state.extra["held"] == full_state.extra["held"]
        assert quick_state.next_starter == full_state.next_starter
        explained = [ln.msg for ln in scored_quick.lines if ln.player is None]
        assert explained == ["was-sticht.entry_quick"]
        assert scored_full.lines[0].msg == "was-sticht.entry_full"


def test_a_stored_quick_round_comes_back_into_the_quick_entry() -> None:
    c = _context(4)
    form = entry.adapter("was-sticht")
    stored = RULES.normalise(
        {"entry": "quick", "start_player": 0, "returned": [None, "exactly-2", None, "fewest"]},
        players=4,
        options=c.options,
    )
    values = entry.values(form.from_facts(stored, c))
    assert values.get("entry") == "quick"
    assert [values.get(f"returned.{s}") for s in range(4)] == ["", "exactly-2", "", "fewest"]
    assert form.to_facts(values, c) == stored


def test_a_new_round_starts_in_the_quick_entry_with_nothing_returned() -> None:
    c = _context(3)
    defaults = entry.adapter("was-sticht").defaults(c)
    assert defaults["entry"] == "quick"
    assert [defaults[f"returned.{s}"] for s in range(3)] == ["", "", ""]


def test_a_form_that_does_not_say_its_entry_is_read_as_the_full_one() -> None:
    c = _context(4)
    post = _post({"start_player": 0, "chosen.1": "exactly-2", "chosen.2": "betli", "chosen.3": "last-trick"})
    facts = entry.adapter("was-sticht").to_facts(post, c)
    assert "entry" not in facts and "returned" not in facts
    assert facts["chosen"] == [None, "exactly-2", "betli", "last-trick"]
