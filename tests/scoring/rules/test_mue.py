"""MÜ rules: the overview-card tables, the rulebook's worked examples, validation, the match, invariants."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import InvalidRound, MatchState, get, mue, mue_tables
from scoring.rules.types import RoundResult

RULES = get("mue")
FRESH = MatchState(totals=(0,) * 5, rounds_played=0, finished=False)

# the rulebook's table: Anita, Jenő, Éva, Márk, Emma in seats 0-4
ANITA, JENO, EVA, MARK, EMMA = range(5)


def mark_bids_four(triangles: Any, **changes: Any) -> dict[str, Any]:
    """Márk is chief with 4 cards (target 33 with 5 players), Anita his partner, Éva the vice."""
    facts: dict[str, Any] = {
        "outcome": "played",
        "chief": MARK,
        "bid": 4,
        "vice": EVA,
        "vice_trump": {"kind": "number", "value": 9},
        "chief_trump": {"kind": "colour", "value": "green"},
        "partner": ANITA,
        "triangles": triangles,
    }
    facts.update(changes)
    return facts


def eklat(tied: list[int], last: int | None, cards: int) -> dict[str, Any]:
    return {"outcome": "eklat", "tied": tied, "last_tied": last, "cards": cards}


def problems(excinfo: pytest.ExceptionInfo[InvalidRound]) -> set[tuple[str, str, str]]:
    return {(p.field, p.msg, p.rule) for p in excinfo.value.problems}


def refused(facts: Any, players: int = 5, **kw: Any) -> set[tuple[str, str, str]]:
    with pytest.raises(InvalidRound) as excinfo:
        RULES.score(facts, players=players, **kw)
    return problems(excinfo)


def rendered(result: RoundResult, seat: int | None) -> list[str]:
    return [RULES.render(ln.msg, ln.param_dict()) for ln in result.lines if ln.player == seat]


# --- the overview card: every cell --------------------------------------------------------------------


TARGET_FORMULA = {4: lambda bid: 28 + 2 * bid, 5: lambda bid: 21 + 3 * bid, 6: lambda bid: 16 + 4 * bid}


@pytest.mark.parametrize("players", [4, 5, 6])
@pytest.mark.parametrize("bid", range(1, 16))
def test_target_table_cell(bid: int, players: int) -> None:
    cell = mue_tables.TARGETS[bid][mue_tables.TARGET_PLAYERS.index(players)]
    if bid <= mue_tables.HAND_SIZE[players]:
        assert cell == TARGET_FORMULA[players](bid)
        assert mue_tables.target_for(players, bid) == cell
    else:
        assert cell is None  # nobody can reveal more cards than a hand holds


def test_target_table_has_one_row_per_possible_bid() -> None:
    assert list(mue_tables.TARGETS) == list(range(1, 16))
    assert mue_tables.HAND_SIZE == {4: 15, 5: 12, 6: 10}


def test_rulebook_pins_five_player_targets() -> None:
    assert [mue_tables.target_for(5, bid) for bid in (1, 2, 3, 4)] == [24, 27, 30, 33]


BONUS_K = {"colour": 0, "one_or_seven": 1, "other_number": 2, "no_trump": 3}


@pytest.mark.parametrize("column", list(BONUS_K))
@pytest.mark.parametrize("bid", range(1, 11))
def test_bonus_table_cell(bid: int, column: str) -> None:
    cell = mue_tables.BONUSES[bid][mue_tables.BONUS_COLUMNS.index(column)]
    assert cell == min(100, 10 * (bid + BONUS_K[column]))


@pytest.mark.parametrize(
    ("trump", "k"),
    [
        (mue.Trump("colour", "red"), 0),
        (mue.Trump("number", 1), 1),
        (mue.Trump("number", 7), 1),
        *[(mue.Trump("number", n), 2) for n in (0, 2, 3, 4, 5, 6, 8, 9)],
        (mue.NO_TRUMP, 3),
    ],
)
@pytest.mark.parametrize("bid", range(1, 16))
def test_bonus_by_the_chiefs_trump(bid: int, trump: mue.Trump, k: int) -> None:
    assert mue.bonus_for(bid, trump) == min(100, 10 * (bid + k))  # bids over 10 read the "≥ 10" row


# --- the deck --------------------------------------------------------------------------------------------


def test_deck_holds_sixty_cards_and_sixty_triangles() -> None:
    assert len(mue_tables.COLOURS) * len(mue_tables.COLOUR_VALUES) == 60
    assert sum(mue_tables.TRIANGLES[v] for v in mue_tables.COLOUR_VALUES) == 12
    assert mue_tables.DECK_TRIANGLES == 60
    assert all(hand * players == 60 for players, hand in mue_tables.HAND_SIZE.items())


# --- the worked examples (RULES.md "Worked examples") -----------------------------------------------------


def test_mue_example_five_players_bid_four_target_33() -> None:
    result = RULES.score(mark_bids_four([15, 10, 10, 20, 5]), players=5)
    assert rendered(result, None) == ["Bid 4: the chief's team needed 33 and made 35."]


def test_mue_example_success_colour_trump_bonus_40() -> None:
    result = RULES.score(mark_bids_four([15, 10, 10, 20, 5]), players=5)
    assert result.scores == (15 + 40, 10, 10, 20 + 40, 5)
    assert "Bid 4 made with a colour as trump: bonus 40" in rendered(result, MARK)


def test_mue_example_success_trump_number_one_bonus_50() -> None:
    facts = mark_bids_four([15, 10, 10, 20, 5], chief_trump={"kind": "number", "value": 1})
    result = RULES.score(facts, players=5)
    assert result.scores == (15 + 50, 10, 10, 20 + 50, 5)
    assert "Bid 4 made with the 1s as trump: bonus 50" in rendered(result, ANITA)


def test_mue_example_failure_29_points_level_2() -> None:
    # Márk 20 + Anita 9 = 29 (the Hungarian text's "33" is a slip): enough only for a bid of 2
    result = RULES.score(mark_bids_four([9, 11, 12, 20, 8]), players=5)
    assert result.scores == (9 + 0, 11 + 10, 12 + 10, 20 - 20, 8 + 10)
    assert rendered(result, None) == [
        "Bid 4: the chief's team needed 33 but made only 29.",
        "29 points are enough for a bid of 2: short by 4 − 2 = 2.",
    ]
    assert "Partner of a missed bid: nothing gained, nothing lost" in rendered(result, ANITA)


def test_mue_example_failure_23_points_shortfall_4() -> None:
    result = RULES.score(mark_bids_four([3, 13, 12, 20, 12]), players=5)
    assert result.scores == (3, 13 + 20, 12 + 20, 20 - 40, 12 + 20)
    assert "23 points are not enough even for a bid of 1: short by the whole bid, 4." in rendered(result, None)


def test_mue_example_eklat_mark_tied_last() -> None:
    result = RULES.score(eklat([ANITA, EVA, MARK], MARK, 3), players=5)
    assert result.scores == (15, 0, 15, -30, 0)
    assert rendered(result, MARK) == ["Tied last with 3 cards: −10 × 3 = −30"]
    assert rendered(result, EVA) == ["Tied with 3 cards: 5 × 3 = 15"]


def test_mue_example_vice_tie_break_eva_beats_anita() -> None:
    # Anita opened with the red 6; both she and Éva bid a 9, then Éva an 8 and Anita only a 6
    bids = [[6, 9, 2], [3], [9, 0, 8], [1, 7, 8, 1], []]
    assert mue.chief_of(bids) == MARK
    assert mue.vice_of(bids) == EVA


def test_mue_example_mark_may_name_green_blue_1_7_8() -> None:
    revealed = [("green", 1), ("blue", 7), ("green", 8), ("blue", 1)]
    assert mue.trump_choices(revealed) == (
        mue.Trump("colour", "blue"),
        mue.Trump("colour", "green"),
        mue.Trump("number", 1),
        mue.Trump("number", 7),
        mue.Trump("number", 8),
    )


# --- auction helpers --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bids", "chief", "vice"),
    [
        ([[], [], [], []], None, None),  # nobody bid
        ([[5, 4], [9, 9], [], []], None, None),  # Eklat: no chief, so no vice
        ([[5, 4, 1], [], [], []], 0, None),  # only the chief bid
        ([[5, 4, 1], [9, 2], [9, 3], []], 0, 2),  # tie on the 9s, then 3 beats 2
        ([[5, 4, 1], [9, 2], [2, 9], [3]], 0, None),  # the same cards: still tied
        ([[1], [5, 4, 1], [0], [2, 9]], 1, 3),  # strictly second most
    ],
)
def test_chief_and_vice_from_bids(bids: list[list[int]], chief: int | None, vice: int | None) -> None:
    assert mue.chief_of(bids) == chief
    assert mue.vice_of(bids) == vice


# --- more scoring ----------------------------------------------------------------------------------------


def test_bonus_without_a_chief_trump_and_no_vice() -> None:
    facts = {
        "outcome": "played",
        "chief": 2,
        "bid": 1,
        "chief_trump": {"kind": "none"},
        "partner": 0,
        "triangles": [20, 10, 10, 20],
    }
    result = RULES.score(facts, players=4)  # target 30, made exactly 30
    assert result.scores == (60, 10, 50, 20)
    assert "Bid 1 made without a trump of the chief's: bonus 40" in rendered(result, 2)


def test_bonus_other_number_six_players() -> None:
    facts = {
        "outcome": "played",
        "chief": 5,
        "bid": 9,
        "vice": 1,
        "vice_trump": {"kind": "colour", "value": "red"},
        "chief_trump": {"kind": "colour", "value": "red"},  # the chief may name the vice's trump
        "partner": 0,
        "triangles": [30, 0, 0, 0, 0, 30],
    }
    assert RULES.score(facts, players=6).scores == (120, 0, 0, 0, 0, 120)  # target 52, bonus 90
    facts["chief_trump"] = {"kind": "number", "value": 4}
    assert RULES.score(facts, players=6).scores == (130, 0, 0, 0, 0, 130)  # capped at 100


def test_nobody_bid_scores_nothing() -> None:
    result = RULES.score(eklat([], None, 0), players=4)
    assert result.scores == (0, 0, 0, 0)
    assert rendered(result, None) == ["Nobody bid: nobody scores this round."]


def test_level_reached() -> None:
    assert [mue_tables.level_reached(5, made) for made in (0, 23, 24, 29, 30, 57, 60)] == [0, 0, 1, 2, 3, 12, 12]


def test_normalise_round_trips() -> None:
    facts = mark_bids_four([15, 10, 10, 20, 5])
    assert RULES.normalise(facts, players=5, options={}) == facts
    stored = RULES.normalise({**facts, "vice": None, "vice_trump": None}, players=5, options={})
    assert stored["vice_trump"] == {"kind": "none", "value": None}
    assert RULES.normalise(stored, players=5, options={}) == stored
    stored = RULES.normalise(eklat([0, 2], 2, 1), players=5, options={})
    assert stored == eklat([0, 2], 2, 1)


# --- shape of the facts ------------------------------------------------------------------------------------


def test_facts_must_be_an_object_with_an_outcome() -> None:
    with pytest.raises(InvalidRound) as excinfo:
        mue.facts_parse([], players=4, options={})  # type: ignore[arg-type]
    assert problems(excinfo) == {("facts", "mue.facts_object", "mue-round")}
    assert refused({"outcome": "won"}) == {("outcome", "mue.field_choice", "mue-round")}
    assert refused({}) == {("outcome", "mue.field_choice", "mue-round")}


@pytest.mark.parametrize("players", [3, 7])
def test_player_count(players: int) -> None:
    with pytest.raises(InvalidRound) as excinfo:
        mue.facts_parse(eklat([], None, 0), players=players, options={})
    assert problems(excinfo) == {("players", "mue.players", "mue-players")}
    with pytest.raises(InvalidRound):
        mue.match_state([], players=players, options={})


def test_played_shape_problems_at_once() -> None:
    data = {
        "outcome": "played",
        "chief": 5,
        "bid": "4",
        "vice": True,
        "vice_trump": "red",
        "chief_trump": {"kind": "suit", "value": "red"},
        "partner": None,
        "triangles": [10, 10.0, 10, 10, 20],
        "tied": [],
    }
    assert refused(data) == {
        ("chief", "mue.field_seat", "mue-chief"),
        ("bid", "mue.field_int", "mue-bid"),
        ("vice", "mue.field_seat", "mue-vice"),
        ("vice_trump", "mue.field_trump", "mue-trumps"),
        ("chief_trump.kind", "mue.field_choice", "mue-trumps"),
        ("partner", "mue.field_required", "mue-partner"),
        ("triangles.1", "mue.field_int", "mue-triangles"),
        ("tied", "mue.field_unknown", "mue-round"),
    }


def test_played_missing_fields() -> None:
    assert {p[:2] for p in refused({"outcome": "played"})} == {
        ("chief", "mue.field_required"),
        ("bid", "mue.field_required"),
        ("chief_trump", "mue.field_required"),
        ("partner", "mue.field_required"),
        ("triangles", "mue.field_required"),
    }


def test_triangles_one_per_player() -> None:
    assert refused(mark_bids_four([30, 30])) == {("triangles", "mue.field_seats", "mue-triangles")}
    assert refused(mark_bids_four({"3": 60})) == {("triangles", "mue.field_seats", "mue-triangles")}


def test_trump_value_shapes() -> None:
    base = mark_bids_four([15, 10, 10, 20, 5])
    assert refused({**base, "chief_trump": {"kind": "colour", "value": 3}}) == {
        ("chief_trump.value", "mue.field_colour", "mue-trumps")
    }
    assert refused({**base, "chief_trump": {"kind": "number", "value": "7"}}) == {
        ("chief_trump.value", "mue.field_int", "mue-trumps")
    }
    assert refused({**base, "chief_trump": {"kind": "none", "value": "red"}}) == {
        ("chief_trump.value", "mue.field_no_value", "mue-trumps")
    }
    assert refused({**base, "chief_trump": {"kind": "colour", "value": "red", "strength": 2}}) == {
        ("chief_trump.strength", "mue.field_unknown", "mue-round")
    }


def test_eklat_shape_problems_at_once() -> None:
    data = {"outcome": "eklat", "tied": [0, 9, "1"], "last_tied": 1.5, "cards": None, "bid": 3}
    assert refused(data) == {
        ("tied.1", "mue.field_seat", "mue-eklat"),
        ("tied.2", "mue.field_seat", "mue-eklat"),
        ("last_tied", "mue.field_seat", "mue-eklat"),
        ("cards", "mue.field_int", "mue-eklat"),
        ("bid", "mue.field_unknown", "mue-round"),
    }
    assert refused({"outcome": "eklat", "tied": "0,1"}) == {
        ("tied", "mue.field_list", "mue-eklat"),
        ("cards", "mue.field_required", "mue-eklat"),
    }


# --- the rules ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "bid"), [(4, 16), (5, 13), (6, 11), (5, 0), (5, -1)])
def test_bid_within_the_hand(players: int, bid: int) -> None:
    facts = mark_bids_four([60 // players] * players, bid=bid, vice=None, vice_trump=None)
    assert refused(facts, players) == {("bid", "mue.bid_range", "mue-bid")}


def test_chief_vice_and_partner_are_different_players() -> None:
    assert refused(mark_bids_four([15, 10, 10, 20, 5], vice=MARK)) == {("vice", "mue.vice_is_chief", "mue-vice")}
    assert refused(mark_bids_four([15, 10, 10, 20, 5], partner=MARK)) == {
        ("partner", "mue.partner_is_chief", "mue-partner")
    }
    assert refused(mark_bids_four([15, 10, 10, 20, 5], partner=EVA)) == {
        ("partner", "mue.partner_is_vice", "mue-partner")
    }


def test_a_vice_needs_a_chief_with_two_cards_or_more() -> None:
    assert refused(mark_bids_four([15, 10, 10, 20, 5], bid=1)) == {("vice", "mue.vice_needs_bid", "mue-vice")}


def test_the_vice_must_name_a_trump() -> None:
    assert refused(mark_bids_four([15, 10, 10, 20, 5], vice_trump={"kind": "none"})) == {
        ("vice_trump", "mue.vice_trump_required", "mue-trumps")
    }
    facts = mark_bids_four([15, 10, 10, 20, 5])
    del facts["vice_trump"]
    assert refused(facts) == {("vice_trump", "mue.vice_trump_required", "mue-trumps")}


def test_no_vice_no_vice_trump() -> None:
    assert refused(mark_bids_four([15, 10, 10, 20, 5], vice=None)) == {
        ("vice_trump", "mue.vice_trump_without_vice", "mue-trumps")
    }


def test_trumps_name_real_colours_and_numbers() -> None:
    facts = mark_bids_four(
        [15, 10, 10, 20, 5],
        vice_trump={"kind": "number", "value": 10},
        chief_trump={"kind": "colour", "value": "purple"},
    )
    assert refused(facts) == {
        ("vice_trump.value", "mue.trump_number", "mue-trumps"),
        ("chief_trump.value", "mue.trump_colour", "mue-trumps"),
    }
    facts = mark_bids_four([15, 10, 10, 20, 5], vice_trump={"kind": "number", "value": -1})
    assert refused(facts) == {("vice_trump.value", "mue.trump_number", "mue-trumps")}


def test_triangles_add_up_to_sixty() -> None:
    assert refused(mark_bids_four([15, 10, 10, 20, 6])) == {("triangles", "mue.triangles_sum", "mue-triangles")}
    assert refused(mark_bids_four([70, -10, 0, 0, 0])) == {
        ("triangles.0", "mue.triangles_range", "mue-triangles"),
        ("triangles.1", "mue.triangles_range", "mue-triangles"),
    }


def test_eklat_rules() -> None:
    assert refused(eklat([0], 0, 2)) == {("tied", "mue.tied_two", "mue-eklat")}
    assert refused(eklat([0, 0], 0, 2)) == {
        ("tied", "mue.tied_repeated", "mue-eklat"),
        ("tied", "mue.tied_two", "mue-eklat"),
    }
    assert refused(eklat([0, 1], None, 2)) == {("last_tied", "mue.last_tied_required", "mue-eklat")}
    assert refused(eklat([0, 1], 2, 2)) == {("last_tied", "mue.last_tied_among", "mue-eklat")}
    assert refused(eklat([0, 1], 1, 13)) == {("cards", "mue.eklat_cards", "mue-eklat")}
    assert refused(eklat([0, 1], 1, -1)) == {("cards", "mue.eklat_cards", "mue-eklat")}
    assert refused(eklat([0, 1], 1, 0)) == {
        ("tied", "mue.no_bid_tied", "mue-eklat"),
        ("last_tied", "mue.no_bid_last", "mue-eklat"),
    }
    assert RULES.score(eklat([1, 3, 0, 2, 4], 0, 2), players=5).scores == (-20, 10, 10, 10, 10)


# --- options and the module contract --------------------------------------------------------------------


def test_target_option() -> None:
    assert RULES.options_parse({}, players=5) == {"target": 200}
    with pytest.raises(InvalidRound) as excinfo:
        RULES.options_parse({"target": "200"}, players=5)
    assert {(p.field, p.rule) for p in excinfo.value.problems} == {("options.target", "mue-end")}


def test_module_contract() -> None:
    described = RULES.describe()
    assert (described["key"], described["min_players"], described["max_players"]) == ("mue", 4, 6)
    for anchor in ("mue-players", "mue-options", "mue-round", "mue-target"):
        assert anchor in mue.SECTIONS
    example = mue.EXAMPLE
    result = RULES.score(example["facts"], players=example["players"], options=example["options"])
    assert result.scores == (55, 10, 10, 60, 5)
    played, eklat_schema = mue.FACTS_SCHEMA["oneOf"]
    assert set(played["properties"]) == set(mue.PlayedRound.__dataclass_fields__)
    assert set(eklat_schema["properties"]) == set(mue.Eklat.__dataclass_fields__)


def test_direct_module_calls_agree_with_the_registry() -> None:
    facts = mue.facts_parse(mark_bids_four([15, 10, 10, 20, 5]), players=5, options={})
    mue.validate(facts, players=5, options={}, state=FRESH)
    direct = mue.score_round(facts, players=5, options={}, state=FRESH)
    assert direct == RULES.score(mark_bids_four([15, 10, 10, 20, 5]), players=5)
    with pytest.raises(InvalidRound):
        mue.validate(facts, players=3, options={}, state=FRESH)


# --- the match ---------------------------------------------------------------------------------------------


def test_match_ends_after_the_round_that_reaches_the_target() -> None:
    win = mark_bids_four([15, 10, 10, 20, 5])  # Márk +60, Anita +55
    state = RULES.state([win, win], players=5)
    assert (state.finished, state.totals, state.next_dealer, state.target) == (False, (110, 20, 20, 120, 10), 2, 200)
    assert state.winners == () and state.rounds_left is None and state.next_starter is None
    state = RULES.state([win, win, win, win], players=5)
    assert state.finished and state.totals[MARK] == 240 and state.winners == (MARK,)
    assert state.next_dealer is None


def test_no_round_after_the_end() -> None:
    win = mark_bids_four([15, 10, 10, 20, 5])
    assert refused(win, before=[win] * 4) == {("", "mue.match_over", "mue-end")}


def test_ties_share_the_win_and_the_target_is_an_option() -> None:
    state = RULES.state([eklat([ANITA, EVA, MARK], MARK, 3)], players=5, options={"target": 15})
    assert state.finished and state.winners == (ANITA, EVA)


def test_finished_even_if_the_leader_drops_back() -> None:
    # the registry refuses rounds after the end; a history built by hand still ends where the target was met
    up, down = RoundResult(scores=(0, 0, 0, 60, 0), lines=()), RoundResult(scores=(0, 0, 0, -20, 0), lines=())
    facts = mue.facts_parse(mark_bids_four([15, 10, 10, 20, 5]), players=5, options={})
    state = mue.match_state([(facts, up), (facts, down)], players=5, options={"target": 60})
    assert state.finished and state.totals[MARK] == 40 and state.winners == (MARK,)


def test_dealer_rotates_left_eklat_rounds_included() -> None:
    rounds = [eklat([], None, 0)] * 7
    assert [RULES.state(rounds[:n], players=6).next_dealer for n in range(8)] == [0, 1, 2, 3, 4, 5, 0, 1]


# --- invariants --------------------------------------------------------------------------------------------


def trumps() -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(
        st.builds(lambda c: {"kind": "colour", "value": c}, st.sampled_from(mue_tables.COLOURS)),
        st.builds(lambda n: {"kind": "number", "value": n}, st.integers(0, 9)),
    )


@st.composite
def played_rounds(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    players = draw(st.integers(4, 6))
    seats = draw(st.permutations(range(players)))
    bid = draw(st.integers(1, mue_tables.HAND_SIZE[players]))
    has_vice = bid >= 2 and draw(st.booleans())
    cuts = sorted(draw(st.lists(st.integers(0, 60), min_size=players - 1, max_size=players - 1)))
    facts = {
        "outcome": "played",
        "chief": seats[0],
        "partner": seats[1],
        "bid": bid,
        "vice": seats[2] if has_vice else None,
        "vice_trump": draw(trumps()) if has_vice else None,
        "chief_trump": draw(trumps() | st.just({"kind": "none"})),
        "triangles": [b - a for a, b in zip([0, *cuts], [*cuts, 60], strict=True)],
    }
    return players, facts


@st.composite
def eklat_rounds(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    players = draw(st.integers(4, 6))
    tied = draw(st.lists(st.integers(0, players - 1), min_size=2, max_size=players, unique=True))
    return players, eklat(tied, draw(st.sampled_from(tied)), draw(st.integers(1, mue_tables.HAND_SIZE[players])))


@settings(max_examples=200, deadline=None)
@given(played_rounds())
def test_triangles_preserved(case: tuple[int, dict[str, Any]]) -> None:
    players, facts = case
    result = RULES.score(facts, players=players)
    assert sum(ln.points or 0 for ln in result.lines if ln.msg == "mue.triangles") == 60
    assert [ln.player for ln in result.lines if ln.msg == "mue.triangles"] == list(range(players))


@settings(max_examples=200, deadline=None)
@given(played_rounds() | eklat_rounds())
def test_lines_explain_every_point(case: tuple[int, dict[str, Any]]) -> None:
    players, facts = case
    result = RULES.score(facts, players=players)
    for seat in range(players):
        carried = [ln.points for ln in result.lines if ln.player == seat and ln.points is not None]
        assert sum(carried) == result.scores[seat]
    for ln in result.lines:
        assert RULES.render(ln.msg, ln.param_dict())
        assert ln.rule in mue.SECTIONS


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 70) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)
FIELDS = ["outcome", "chief", "bid", "vice", "vice_trump", "chief_trump", "partner", "triangles", "tied", "cards"]
KEYS = st.sampled_from([*FIELDS, "last_tied"])


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(KEYS | st.text(max_size=4), JSON, max_size=8) | JSON, st.integers(4, 6))
def test_arbitrary_json_only_ever_raises_invalid_round(data: Any, players: int) -> None:
    with contextlib.suppress(InvalidRound):
        RULES.score(data, players=players)


@settings(max_examples=200, deadline=None)
@given(played_rounds() | eklat_rounds(), KEYS, JSON | trumps(), st.booleans())
def test_near_valid_facts_only_ever_raise_invalid_round(
    case: tuple[int, dict[str, Any]], key: str, value: Any, drop: bool
) -> None:
    players, facts = case
    facts = dict(facts)
    if drop:
        facts.pop(key, None)
    elif isinstance(facts.get(key), list) and facts[key] and not isinstance(value, (list, dict)):
        facts[key] = [value, *facts[key][1:]]
    else:
        facts[key] = value
    try:
        result = RULES.score(facts, players=players)
    except InvalidRound:
        return
    assert len(result.scores) == players


@settings(max_examples=50, deadline=None)
@given(played_rounds() | eklat_rounds() | st.just((5, eklat([], None, 0))))
def test_schema_describes_the_stored_facts(case: tuple[int, dict[str, Any]]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    players, facts = case
    validator = jsonschema.Draft202012Validator(mue.FACTS_SCHEMA)
    validator.check_schema(mue.FACTS_SCHEMA)
    validator.validate(facts)
    validator.validate(RULES.normalise(facts, players=players, options={}))
