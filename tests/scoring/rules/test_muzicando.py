"""Muzicando: the rulebook's tables, team and individual scoring, every option, validation, the match."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import InvalidRound, get
from scoring.rules import muzicando as mz
from scoring.rules import muzicando_facts as mf

RULES = get("muzicando")
SOLO = {"mode": "individual"}


def deal(
    order: list[int], contract: Any = None, holding: list[int] | None = None, breach: int | None = None
) -> dict[str, Any]:
    return {"order": order, "holding": holding or [], "contract": contract, "breach": breach}


def bid(declarer: int | None, kind: str, level: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind}
    if declarer is not None:
        out["declarer"] = declarer
    if level is not None:
        out["level"] = level
    return out


def refused(
    facts: Any, players: int = 4, options: dict[str, Any] | None = None, before: tuple[Any, ...] = ()
) -> list[tuple[str, str, str]]:
    with pytest.raises(InvalidRound) as info:
        RULES.score(facts, players=players, options=options, before=before)
    return [(p.field, p.msg, p.rule) for p in info.value.problems]


def seat_points(result: Any, seat: int) -> list[int | None]:
    return [ln.points for ln in result.lines if ln.player == seat]


# --- the rulebook's tables ("VII. Pontozás", "X. Egyéni játék") ----------------------------------


def test_muzicando_bid_order_as_printed() -> None:
    assert mf.BIDS == (
        "1S", "1G", "1P", "1M", "2S", "2G", "2P", "2M", "3S", "3G", "3P", "3M", "4S", "4G", "4P", "4M",
    )  # fmt: skip


@pytest.mark.parametrize(("kind", "value"), [("muzicando", 4), ("parada", 3), ("glissando", 2), ("sarabanda", 1)])
@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_muzicando_table_contract_value_is_level_plus_type(kind: str, value: int, level: int) -> None:
    assert mz.contract_value(mf.Contract(declarer=0, type=kind, level=level)) == level + value
    assert mz.contract_value(mf.Contract(declarer=None, type=kind, level=None)) == value


@pytest.mark.parametrize(("place", "points"), [(1, 4), (2, 3), (3, 2), (4, 1)])
def test_muzicando_table_team_placement(place: int, points: int) -> None:
    order = [0, 1, 2, 3]
    result = RULES.score(deal(order), players=4)
    placement = [ln for ln in result.lines if ln.msg == "muzicando.placement" and ln.param_dict()["place"] == place]
    assert {ln.points for ln in placement} == {points}
    assert {ln.player for ln in placement} == {order[place - 1], (order[place - 1] + 2) % 4}


def test_muzicando_individual_eight_player_result_table() -> None:
    """ "Eredmény táblázat (8 játékos esetében)": I = 8 … VIII = 1, Sarabanda 1 … Muzicando 4."""
    result = RULES.score(deal(list(range(8)), bid(None, "sarabanda")), players=8, options=SOLO)
    placement = {ln.player: ln.points for ln in result.lines if ln.msg == "muzicando.placement"}
    assert placement == {0: 8, 1: 7, 2: 6, 3: 5, 4: 4, 5: 3, 6: 2, 7: 1}
    # seat 1 (left of dealer 0) chose Sarabanda (1) and did not go out first
    assert result.scores == (8, 7 - 1, 6, 5, 4, 3, 2, 1)


# --- team play ------------------------------------------------------------------------------------


def test_muzicando_team_example_contract_made_last_player_holding_cards() -> None:
    result = RULES.score(mz.EXAMPLE["facts"], players=4, options=mz.EXAMPLE["options"])
    # N–S: 1st (seat 2) 4 + 3rd (seat 0) 2 + 2G made 4; E–W: 2nd 3 + 4th 1 − 1 for the cards left
    assert result.scores == (10, 3, 10, 3)
    texts = [RULES.render(ln.msg, ln.param_dict()) for ln in result.lines if ln.player == 0]
    assert texts == [
        "player 3 finished in place 1.",
        "player 1 finished in place 3.",
        "Contract 2G made (player 3 went out first): +4",
    ]
    assert seat_points(result, 3) == [3, 1, -1]


def test_muzicando_team_contract_failed_only_declarers_lose() -> None:
    result = RULES.score(deal([1, 0, 2, 3], bid(0, "muzicando", 4)), players=4)
    assert result.scores == (3 + 2 - 8, 4 + 1, 3 + 2 - 8, 4 + 1)
    failed = [ln for ln in result.lines if ln.msg == "muzicando.contract_failed"]
    assert [ln.player for ln in failed] == [0, 2]
    assert RULES.render(failed[0].msg, failed[0].param_dict()) == "Contract 4M failed (player 2 went out first): −8"


def test_muzicando_team_four_passes_placement_points_only() -> None:
    result = RULES.score(deal([0, 1, 2, 3]), players=4)
    assert result.scores == (6, 4, 6, 4)
    assert any(ln.msg == "muzicando.no_contract" and ln.player is None for ln in result.lines)


def test_muzicando_team_breach_scored_default() -> None:
    result = RULES.score(deal([0, 1, 2, 3], bid(1, "sarabanda", 1), breach=3), players=4)
    # E–W: 3 + 1 − (1S = 2) − 12
    assert result.scores == (6, -10, 6, -10)
    assert seat_points(result, 1)[-1] == -12


def test_muzicando_team_breach_void_option() -> None:
    result = RULES.score(deal([], breach=2), players=4, options={"team_breach": "void"})
    assert result.scores == (-12, 0, -12, 0)
    assert result.lines[0].msg == "muzicando.void"
    with_order = RULES.score(
        deal([0, 1, 2, 3], bid(0, "parada", 3), breach=1), players=4, options={"team_breach": "void"}
    )
    assert with_order.scores == (0, -12, 0, -12)
    assert refused(deal([0, 1, 1, 3], breach=1), options={"team_breach": "void"}) == [
        ("order", "muzicando.order", "muzicando-placement")
    ]


def test_muzicando_team_scores_are_per_team() -> None:
    result = RULES.score(deal([3, 2, 1, 0], bid(1, "glissando", 3), holding=[0]), players=4)
    assert result.scores[0] == result.scores[2] == 3 + 1 - 1
    assert result.scores[1] == result.scores[3] == 4 + 2 + 5
    assert mz.team_of(0) == mz.team_of(2) == "north_south"
    assert mz.team_of(1) == mz.team_of(3) == "east_west"


# --- individual play ------------------------------------------------------------------------------


def test_muzicando_individual_chooser_goes_out_first() -> None:
    result = RULES.score(deal([1, 0, 2], bid(None, "parada"), holding=[2]), players=3, options=SOLO)
    assert result.scores == (2, 3 + 3, 1 - 1)
    made = [ln for ln in result.lines if ln.msg == "muzicando.contract_made"]
    assert RULES.render(made[0].msg, made[0].param_dict()) == "Contract Parada made (player 2 went out first): +3"


def test_muzicando_individual_chooser_fails() -> None:
    result = RULES.score(deal([0, 1, 2], bid(None, "parada")), players=3, options=SOLO)
    assert result.scores == (3, 2 - 3, 1)


def test_muzicando_individual_option_winner_scores_the_value() -> None:
    options = {**SOLO, "individual_contract": "winner"}
    result = RULES.score(deal([0, 1, 2], bid(None, "parada")), players=3, options=options)
    assert result.scores == (3 + 3, 2, 1)
    assert RULES.render(result.lines[-1].msg, result.lines[-1].param_dict()) == "Won the deal playing Parada: +3"


def test_muzicando_individual_option_unconditional() -> None:
    options = {**SOLO, "individual_contract": "unconditional"}
    result = RULES.score(deal([0, 1, 2], bid(None, "glissando")), players=3, options=options)
    assert result.scores == (3, 2 + 2, 1)


def test_muzicando_individual_chooser_moves_left_with_the_dealer() -> None:
    first = deal([0, 1, 2], bid(None, "parada"))
    second = deal([2, 0, 1], bid(2, "muzicando"))
    result = RULES.score(second, players=3, options=SOLO, before=(first,))
    assert result.scores == (2, 1, 3 + 4)
    assert refused(deal([2, 0, 1], bid(1, "muzicando")), players=3, options=SOLO, before=(first,)) == [
        ("contract.declarer", "muzicando.chooser", "muzicando-individual")
    ]


def test_muzicando_individual_several_players_left_holding_cards() -> None:
    result = RULES.score(deal([4, 3, 2, 1, 0], bid(None, "sarabanda"), holding=[0, 1]), players=5, options=SOLO)
    assert result.scores == (1 - 1, 2 - 1 - 1, 3, 4, 5)


def test_muzicando_individual_bidding_option_with_levels() -> None:
    options = {**SOLO, "bidding": True}
    result = RULES.score(deal([3, 0, 1, 2], bid(3, "muzicando", 2)), players=4, options=options)
    assert result.scores == (3, 2, 1, 4 + 6)
    passed = RULES.score(deal([3, 0, 1, 2]), players=4, options=options)
    assert passed.scores == (3, 2, 1, 4)
    assert refused(deal([3, 0, 1, 2], bid(None, "parada")), options=options) == [
        ("contract.declarer", "muzicando.declarer_needed", "muzicando-bidding"),
        ("contract.level", "muzicando.level_needed", "muzicando-bidding"),
    ]


def test_muzicando_individual_breach_voids_the_deal() -> None:
    result = RULES.score(deal([], breach=1), players=3, options=SOLO)
    assert result.scores == (0, -11, 0)
    assert [ln.msg for ln in result.lines] == ["muzicando.void", "muzicando.breach_individual"]
    played = RULES.score(deal([1, 0, 2], bid(None, "parada"), breach=0), players=3, options=SOLO)
    assert played.scores == (-11, 0, 0)


# --- validation -----------------------------------------------------------------------------------


def test_muzicando_order_must_name_every_seat_once() -> None:
    assert refused(deal([0, 1, 1, 3])) == [("order", "muzicando.order", "muzicando-placement")]
    assert refused({"contract": None}) == [("order", "muzicando.order", "muzicando-placement")]


def test_muzicando_holding_rules() -> None:
    assert refused(deal([0, 1, 2, 3], holding=[3, 3])) == [
        ("holding.1", "muzicando.holding_seat", "muzicando-placement")
    ]
    assert refused(deal([0, 1, 2, 3], holding=[0])) == [("holding", "muzicando.holding_first", "muzicando-placement")]
    assert refused(deal([0, 1, 2], bid(None, "parada"), holding=[1]), players=3, options=SOLO) == [
        ("holding", "muzicando.holding_tail", "muzicando-placement")
    ]
    assert refused(deal([0, 1, 2, 3], holding=[2, 3])) == [("holding", "muzicando.holding_team", "muzicando-placement")]


def test_muzicando_team_contract_names_declarer_and_level() -> None:
    assert refused(deal([0, 1, 2, 3], bid(None, "parada"))) == [
        ("contract.declarer", "muzicando.declarer_needed", "muzicando-bidding"),
        ("contract.level", "muzicando.level_needed", "muzicando-bidding"),
    ]


def test_muzicando_individual_needs_the_chosen_type_without_level() -> None:
    assert refused(deal([0, 1, 2]), players=3, options=SOLO) == [
        ("contract", "muzicando.contract_needed", "muzicando-individual")
    ]
    assert refused(deal([0, 1, 2], bid(1, "parada", 2)), players=3, options=SOLO) == [
        ("contract.level", "muzicando.level_no_bidding", "muzicando-individual")
    ]


def test_muzicando_facts_shape_errors() -> None:
    problems = refused(
        {
            "order": "0123",
            "holding": [4, True],
            "contract": {"type": "tango", "level": 5, "declarer": -1, "x": 1},
            "b": 1,
        }
    )
    assert problems == [
        ("b", "muzicando.unknown_field", "muzicando-round"),
        ("order", "muzicando.seat_list", "muzicando-round"),
        ("holding.0", "muzicando.seat", "muzicando-round"),
        ("holding.1", "muzicando.seat", "muzicando-round"),
        ("contract.x", "muzicando.unknown_field", "muzicando-round"),
        ("contract.declarer", "muzicando.seat", "muzicando-round"),
        ("contract.type", "muzicando.type", "muzicando-bidding"),
        ("contract.level", "muzicando.level", "muzicando-bidding"),
    ]
    assert refused(deal([0, 1, 2, 3], contract=[1], breach=4)) == [
        ("contract", "muzicando.contract_object", "muzicando-bidding"),
        ("breach", "muzicando.seat", "muzicando-round"),
    ]
    assert refused(deal([0, 1, 2, 3], contract={"level": 1.0, "declarer": 0})) == [
        ("contract.type", "muzicando.missing", "muzicando-round"),
        ("contract.level", "muzicando.level", "muzicando-bidding"),
    ]
    assert refused(deal([0, 1, 2, 3], contract={"type": "parada", "level": True, "declarer": 0})) == [
        ("contract.level", "muzicando.level", "muzicando-bidding")
    ]
    assert refused(None) == [("facts", "core.facts_object", "muzicando-round")]


def test_muzicando_normalised_facts_parse_again() -> None:
    normal = RULES.normalise(mz.EXAMPLE["facts"], players=4, options={})
    assert normal == mz.EXAMPLE["facts"]
    solo = RULES.normalise(deal([0, 1, 2], bid(None, "parada")), players=3, options=SOLO)
    assert solo["contract"] == {"declarer": None, "type": "parada", "level": None}
    assert RULES.score(solo, players=3, options=SOLO).scores == (3, -1, 1)


# --- options --------------------------------------------------------------------------------------


def options_refused(options: dict[str, Any], players: int) -> list[tuple[str, str, str]]:
    with pytest.raises(InvalidRound) as info:
        RULES.options_parse(options, players=players)
    return [(p.field, p.msg, p.rule) for p in info.value.problems]


def test_muzicando_options_defaults() -> None:
    assert RULES.options_parse(None, players=4) == {
        "mode": "team",
        "individual_contract": "chooser",
        "bidding": False,
        "team_breach": "scored",
        "deals": 0,
    }


def test_muzicando_team_needs_four_players_and_four_deals() -> None:
    assert options_refused({}, 3) == [("options.mode", "muzicando.team_players", "muzicando-players")]
    assert options_refused({"deals": 3}, 4) == [("options.deals", "muzicando.deals_team", "muzicando-match")]
    assert RULES.options_parse({"deals": 6}, players=4)["deals"] == 6


def test_muzicando_individual_bidding_and_deals() -> None:
    assert options_refused({**SOLO, "bidding": True}, 5) == [
        ("options.bidding", "muzicando.bidding_players", "muzicando-bidding")
    ]
    assert RULES.options_parse({**SOLO, "bidding": True}, players=8)["bidding"] is True
    assert options_refused({**SOLO, "deals": 4}, 3) == [
        ("options.deals", "muzicando.deals_individual", "muzicando-match")
    ]
    assert RULES.options_parse({**SOLO, "deals": 6}, players=3)["deals"] == 6
    state = RULES.state([deal([0, 1, 2], bid(None, "parada"))], players=3, options={**SOLO, "deals": 6})
    assert state.rounds_left == 5 and state.extra == {"deals": 6}
    assert options_refused({"individual_contract": "dealer"}, 4)[0][1] == "core.option_choice"


# --- the match ------------------------------------------------------------------------------------


def test_muzicando_team_match_at_least_four_deals() -> None:
    deals = [deal([0, 1, 2, 3]), deal([1, 0, 3, 2]), deal([2, 1, 0, 3]), deal([3, 2, 1, 0], bid(1, "parada", 1))]
    state = RULES.state(deals[:1], players=4)
    assert not state.finished and state.rounds_left == 3 and state.winners == ()
    assert state.next_dealer == 1 and state.next_starter is None
    assert state.extra == {"deals": 4, "team_totals": {"north_south": 6, "east_west": 4}, "first_bidder": 1}
    state = RULES.state(deals, players=4)
    assert state.finished and state.rounds_left == 0
    assert state.totals == (20, 24, 20, 24)
    assert state.winners == (1, 3)
    assert state.next_dealer == 0
    # "minimum négy lejátszás": a fifth deal may still be recorded
    state = RULES.state([*deals, deal([0, 1, 2, 3], bid(0, "sarabanda", 1))], players=4)
    assert state.rounds_played == 5 and state.totals[0] == state.totals[1] == 28
    assert state.winners == (0, 1, 2, 3)


def test_muzicando_individual_match_is_the_preset_deals() -> None:
    deals = [
        deal([0, 1, 2], bid(None, "parada")),
        deal([2, 0, 1], bid(None, "glissando")),
        deal([1, 0, 2], bid(None, "sarabanda"), holding=[2]),
    ]
    state = RULES.state(deals[:1], players=3, options=SOLO)
    assert not state.finished and state.rounds_left == 2
    assert (state.next_dealer, state.next_starter) == (1, 2)
    assert state.extra == {"deals": 3}
    state = RULES.state(deals, players=3, options=SOLO)
    # (3, -1, 1) + (2, 1, 5) + (2 - 1, 3, 1 - 1)
    assert state.totals == (6, 3, 6)
    assert state.finished and state.winners == (0, 2)
    assert (state.next_dealer, state.next_starter) == (0, 1)
    assert refused(deal([0, 1, 2], bid(None, "parada")), players=3, options=SOLO, before=tuple(deals)) == [
        ("", "muzicando.match_over", "muzicando-match")
    ]


def test_muzicando_module_shape() -> None:
    for anchor in ("muzicando-players", "muzicando-options", "muzicando-round"):
        assert anchor in mz.SECTIONS
    assert {spec.rule for spec in mz.OPTIONS} <= set(mz.SECTIONS)
    assert set(mz.FACTS_SCHEMA["properties"]) == set(mf.Facts.__dataclass_fields__)
    assert mz.bid_name(mf.Contract(0, "parada", 3)) == "3P"


# --- properties -----------------------------------------------------------------------------------


@st.composite
def valid_deals(draw: st.DrawFn) -> tuple[int, dict[str, Any], dict[str, Any]]:
    team = draw(st.booleans())
    if team:
        players = 4
        options: dict[str, Any] = {"team_breach": draw(st.sampled_from(["scored", "void"]))}
    else:
        players = draw(st.integers(2, 8))
        options = {
            "mode": "individual",
            "individual_contract": draw(st.sampled_from(["chooser", "winner", "unconditional"])),
            "bidding": players in (4, 8) and draw(st.booleans()),
        }
    order = draw(st.permutations(range(players)))
    holding = order[players - draw(st.integers(0, 1 if team else players - 1)) :]
    kind = draw(st.sampled_from(mf.TYPES))
    if team or options["bidding"]:
        contract = draw(
            st.none()
            | st.just({"declarer": draw(st.integers(0, players - 1)), "type": kind, "level": draw(st.integers(1, 4))})
        )
    else:
        contract = {"type": kind}
    breach = draw(st.none() | st.integers(0, players - 1))
    return players, options, deal(order, contract, holding, breach)


@settings(max_examples=200, deadline=None)
@given(valid_deals())
def test_muzicando_lines_add_up_and_partners_share(game: tuple[int, dict[str, Any], dict[str, Any]]) -> None:
    players, options, facts = game
    result = RULES.score(facts, players=players, options=options)
    for seat in range(players):
        assert sum(ln.points or 0 for ln in result.lines if ln.player == seat) == result.scores[seat]
    if players == 4 and options.get("mode", "team") == "team":
        assert result.scores[0] == result.scores[2] and result.scores[1] == result.scores[3]
    elif facts["breach"] is not None:
        assert sum(result.scores) == -11


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 9) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)
contracts = st.fixed_dictionaries(
    {}, optional={"declarer": json_values, "type": st.sampled_from(mf.TYPES) | json_values, "level": json_values}
)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([(4, {}), (3, SOLO), (4, {**SOLO, "bidding": True})]),
    st.fixed_dictionaries(
        {},
        optional={
            "order": json_values | st.permutations(range(4)),
            "holding": json_values,
            "contract": json_values | contracts,
            "breach": json_values,
        },
    ),
)
def test_muzicando_any_json_is_scored_or_refused(setup: tuple[int, dict[str, Any]], facts: dict[str, Any]) -> None:
    players, options = setup
    with contextlib.suppress(InvalidRound):
        RULES.score(facts, players=players, options=options)


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.text(max_size=8), json_values, max_size=5))
def test_muzicando_garbage_is_refused_cleanly(facts: dict[str, Any]) -> None:
    with contextlib.suppress(InvalidRound):
        RULES.score(facts, players=4)
