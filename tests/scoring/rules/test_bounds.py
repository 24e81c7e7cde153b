"""How far one round can move the scores (scoring/rules/bounds.py): every figure holds for the rounds the engine
accepts, and the figures called exact are reached by a round the engine accepts (worked out by hand below)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import InvalidRound, get
from scoring.rules import muzicando_facts as mf
from scoring.rules.bounds import RoundBounds, round_bounds, sticheln_bounds
from scoring.rules.sticheln_deck import deck_for
from tests.scoring.rules.test_abluxxen import valid_games as abluxxen_games
from tests.scoring.rules.test_coloretto import valid_games as coloretto_games
from tests.scoring.rules.test_meinz import real_rounds as meinz_rounds
from tests.scoring.rules.test_mue import eklat_rounds, played_rounds
from tests.scoring.rules.test_muzicando import valid_deals
from tests.scoring.rules.test_njet import valid_rounds as njet_rounds
from tests.scoring.rules.test_sticheln import deal, full_rounds, hattrick


def bounds_of(key: str, players: int, options: dict[str, Any] | None = None) -> RoundBounds:
    parsed = get(key).options_parse(options or {}, players=players)
    found = round_bounds(key, players=players, options=parsed)
    assert found is not None
    return found


def scores(key: str, facts: dict[str, Any], players: int, options: dict[str, Any] | None = None) -> tuple[int, ...]:
    """The engine's scores for one round it accepts (``score`` validates first)."""
    return tuple(get(key).score(facts, players=players, options=options or {}).scores)


def within(found: RoundBounds, points: tuple[int, ...]) -> None:
    assert found.least <= min(points) and max(points) <= found.most, (found, points)
    assert max(points) - min(points) <= found.gain, (found, points)


def reaches(found: RoundBounds, *rounds: tuple[int, ...]) -> None:
    """Some accepted round scores the most, one the least and one the largest gain."""
    assert max(max(r) for r in rounds) == found.most
    assert min(min(r) for r in rounds) == found.least
    assert max(max(r) - min(r) for r in rounds) == found.gain


def test_a_game_without_a_known_end_has_no_bounds() -> None:
    assert round_bounds("was-sticht", players=4, options={}) is None


# --- NJET --------------------------------------------------------------------------------------------------


def njet_sweep(players: int, teams: list[int], tricks: int, booty: int, per_trick: int) -> dict[str, Any]:
    """Seat 0 starts, holds the monster card where there is one and takes every trick and ``booty`` zeros."""
    return {
        "start_player": 0,
        "teams": teams,
        "monster": 0 if players in (3, 5) else None,
        "discard": "none",
        "points_per_trick": per_trick,
        "tricks": [tricks] + [0] * (players - 1),
        "booty": [booty] + [0] * (players - 1),
    }


# players, teams with seat 0 on the smaller side, tricks, zeros: the haul (×2 for the monster) at 4 and at −2
NJET_SWEEPS = [
    (2, [0, 1], 15, 12, 27),  # 15 tricks + 12 zeros
    (3, [0, 1, 1], 16, 12, 56),  # (16 + 12) × 2
    (4, [0, 0, 1, 1], 15, 12, 27),
    (5, [0, 0, 1, 1, 1], 12, 12, 48),  # (12 + 12) × 2
]


@pytest.mark.parametrize(("players", "teams", "tricks", "booty", "haul"), NJET_SWEEPS)
@pytest.mark.parametrize("recording", ["full", "difference"])
def test_njet_bounds_are_one_side_sweeping_the_round(
    players: int, teams: list[int], tricks: int, booty: int, haul: int, recording: str
) -> None:
    options = {"recording": recording}
    found = bounds_of("njet", players, options)
    top = scores("njet", njet_sweep(players, teams, tricks, booty, 4), players, options)
    bottom = scores("njet", njet_sweep(players, teams, tricks, booty, -2), players, options)
    assert found.most == 4 * haul == found.gain
    # full recording: the sweeping side scores −2 × haul; only the difference: the other side scores 2 × haul
    assert found.least == (-2 * haul if recording == "full" else 0)
    reaches(found, top, bottom)


@settings(max_examples=300, deadline=None)
@given(njet_rounds(), st.sampled_from(["full", "difference"]))
def test_njet_no_accepted_round_goes_beyond_the_bounds(case: tuple[int, dict[str, Any]], recording: str) -> None:
    players, facts = case
    options = {"recording": recording}
    within(bounds_of("njet", players, options), scores("njet", facts, players, options))


# --- MÜ ----------------------------------------------------------------------------------------------------


def mue_round(players: int, bid: int, triangles: list[int], trump: dict[str, Any]) -> dict[str, Any]:
    """Seat 0 is chief, seat 1 partner, no vice."""
    return {
        "outcome": "played",
        "chief": 0,
        "bid": bid,
        "vice": None,
        "vice_trump": None,
        "chief_trump": trump,
        "partner": 1,
        "triangles": triangles,
    }


@pytest.mark.parametrize(("players", "hand"), [(4, 15), (5, 12), (6, 10)])
def test_mue_bounds_by_hand(players: int, hand: int) -> None:
    found = bounds_of("mue", players)
    rest = [0] * (players - 2)
    # bid 7 with no trump: bonus 10 × (7 + 3) = 100, and all 60 triangles in the chief's tricks
    best = scores("mue", mue_round(players, 7, [60, 0, *rest], {"kind": "none"}), players)
    # the whole hand bid, not a triangle for the chief's team: −10 per card for the chief, +5 per card and all
    # 60 triangles for an opponent
    worst = scores("mue", mue_round(players, hand, [0, 0, 60, *rest[1:]], {"kind": "none"}), players)
    assert best[0] == 160 == found.most
    assert worst[0] == -10 * hand == found.least
    assert worst[2] == 60 + 5 * hand
    assert found.gain == 60 + 15 * hand
    reaches(found, best, worst)


@settings(max_examples=300, deadline=None)
@given(played_rounds() | eklat_rounds())
def test_mue_no_accepted_round_goes_beyond_the_bounds(case: tuple[int, dict[str, Any]]) -> None:
    players, facts = case
    within(bounds_of("mue", players), scores("mue", facts, players))


# --- Meinz -------------------------------------------------------------------------------------------------


def test_meinz_bounds_are_the_point_cards() -> None:
    # RULES.md: sums 51 / 38 / 37 / 31 → 3 / 1 / 0 / 2
    example = scores("meinz", {"sums": [51, 38, 37, 31]}, 4)
    assert example == (3, 1, 0, 2)
    reaches(bounds_of("meinz", 4), example)
    reaches(bounds_of("meinz", 3), scores("meinz", {"sums": [51, 37, 31], "monster_sum": 26}, 3))
    # the monster always takes the 3: the players compete for 1, 0 and 2
    fixed = {"monster": "fixed"}
    assert bounds_of("meinz", 3, fixed) == RoundBounds(most=2, least=0, gain=2)
    reaches(bounds_of("meinz", 3, fixed), scores("meinz", {"sums": [51, 38, 31]}, 3, fixed))


@settings(max_examples=200, deadline=None)
@given(meinz_rounds(), st.sampled_from(["counts", "fixed"]))
def test_meinz_no_accepted_round_goes_beyond_the_bounds(case: tuple[int, dict[str, Any]], monster: str) -> None:
    players, facts = case
    options = {"monster": monster}
    if players == 4:
        options = {}
    elif monster == "fixed":
        facts = {"sums": facts["sums"]}
    within(bounds_of("meinz", players, options), scores("meinz", facts, players, options))


# --- Sticheln ----------------------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(full_rounds())
def test_sticheln_no_accepted_round_goes_beyond_the_bounds(case: tuple[int, str, dict[str, Any]]) -> None:
    players, variant, facts = case
    options = {"variant": variant}
    within(bounds_of("sticheln", players, options), scores("sticheln", facts, players, options))


@pytest.mark.parametrize("variant", ["classic", "reverse", "gentle", "heavy", "foggy", "delayed"])
@pytest.mark.parametrize("players", [3, 5, 8])
def test_sticheln_one_player_taking_every_trick_stays_within_the_bounds(variant: str, players: int) -> None:
    deck = deck_for(players, variant)
    assert deck is not None
    facts = deal(players, variant, winners=[0] * deck.tricks)
    options = {"variant": variant}
    within(bounds_of("sticheln", players, options), scores("sticheln", facts, players, options))


def test_sticheln_bounds_by_hand() -> None:
    # 3 players: 5 colours of 0-8 (a colour sums to 36), 14 tricks of 3 cards = 42 cards taken
    assert bounds_of("sticheln", 3) == RoundBounds(most=42, least=-36, gain=78)
    assert bounds_of("sticheln", 3, {"variant": "reverse"}) == RoundBounds(most=36, least=-42, gain=78)
    assert bounds_of("sticheln", 3, {"variant": "gentle"}) == RoundBounds(most=42, least=-45, gain=87)  # 9 × −5
    assert bounds_of("sticheln", 3, {"variant": "heavy"}) == RoundBounds(most=39, least=-72, gain=111)  # 13 tricks
    assert bounds_of("sticheln", 3, {"variant": "delayed"}) == RoundBounds(most=45, least=-36, gain=81)  # 15
    # Hattrick, 4 players: 1-20 in three colours, 14 double tricks (the last card is set aside)
    assert bounds_of("sticheln", 4, {"variant": "hattrick"}) == RoundBounds(most=20, least=-48, gain=68)


@st.composite
def hattrick_rounds(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    """Every card but each player's last one somewhere: face up by colour, or face down."""
    players = draw(st.integers(4, 7))
    low = 0 if players == 7 else 1
    cards = [colour for colour in ("red", "blue", "green") for _ in range(low, 21)]
    cards = draw(st.permutations(cards))[players:]
    rows = [[0, 0, 0, 0] for _ in range(players)]
    for colour in cards:
        seat = draw(st.integers(0, players - 1))
        down = draw(st.integers(0, 9)) == 0
        rows[seat][3 if down else ("red", "blue", "green").index(colour)] += 1
    return players, hattrick(*(tuple(row) for row in rows))


@settings(max_examples=200, deadline=None)
@given(hattrick_rounds())
def test_sticheln_hattrick_no_accepted_round_goes_beyond_the_bounds(case: tuple[int, dict[str, Any]]) -> None:
    players, facts = case
    options = {"variant": "hattrick"}
    try:
        points = scores("sticheln", facts, players, options)
    except InvalidRound:  # too many face-down cards for the double tricks
        return
    within(bounds_of("sticheln", players, options), points)


def test_sticheln_bounds_refuse_a_variant_not_played_by_this_many() -> None:
    with pytest.raises(ValueError):
        sticheln_bounds(players=3, options={"variant": "hattrick"})


# --- Muzicando ---------------------------------------------------------------------------------------------


def every_team_deal() -> list[dict[str, Any]]:
    contracts: list[Any] = [None] + [
        {"declarer": d, "type": t, "level": lv} for d in range(4) for t in mf.TYPES for lv in mf.LEVELS
    ]
    deals = []
    for order in itertools.permutations(range(4)):
        for holding, contract, breach in itertools.product(([], [order[3]]), contracts, [None, 0, 1, 2, 3]):
            deals.append({"order": list(order), "holding": holding, "contract": contract, "breach": breach})
    return deals


@pytest.mark.parametrize(("breach", "expected"), [("scored", (15, -18, 25)), ("void", (15, -12, 13))])
def test_muzicando_team_bounds_are_exact_over_every_deal(breach: str, expected: tuple[int, int, int]) -> None:
    options = {"mode": "team", "team_breach": breach}
    rules = get("muzicando")
    parsed = rules.options_parse(options, players=4)
    state = rules.state([], players=4, options=options)
    module = rules.module
    results = []
    for data in every_team_deal():
        facts = rules.facts_parse(data, players=4, options=parsed)
        module.validate(facts, players=4, options=parsed, state=state)
        results.append(module.score_round(facts, players=4, options=parsed, state=state).scores)
    found = bounds_of("muzicando", 4, options)
    assert (found.most, found.least, found.gain) == expected
    reaches(found, *results)


@pytest.mark.parametrize(
    ("players", "options", "expected"),
    [
        (3, {"individual_contract": "chooser"}, (7, -11, 11)),  # 3 + Muzicando's 4; a breach costs 11
        (3, {"individual_contract": "winner"}, (7, -11, 11)),
        (3, {"individual_contract": "unconditional"}, (7, -11, 11)),
        (4, {"bidding": True}, (12, -11, 12)),  # 4 + level 4 + 4; first against the last holding cards
        (8, {"bidding": True}, (16, -11, 16)),
    ],
)
def test_muzicando_individual_bounds(players: int, options: dict[str, Any], expected: tuple[int, int, int]) -> None:
    options = {"mode": "individual", **options}
    found = bounds_of("muzicando", players, options)
    assert (found.most, found.least, found.gain) == expected
    contract = {"type": "muzicando"}
    if options.get("bidding"):
        contract = {"declarer": 0, "type": "muzicando", "level": 4}
    order = list(range(players))
    # the chooser (the player left of the first dealer: seat 1, or the declarer) goes out first
    first = 0 if options.get("bidding") else 1
    order.remove(first)
    made = {"order": [first, *order], "holding": [order[-1]], "contract": contract, "breach": None}
    breach = {"order": [], "holding": [], "contract": contract, "breach": 2}
    reaches(found, scores("muzicando", made, players, options), scores("muzicando", breach, players, options))


@settings(max_examples=300, deadline=None)
@given(valid_deals())
def test_muzicando_no_accepted_deal_goes_beyond_the_bounds(case: tuple[int, dict[str, Any], dict[str, Any]]) -> None:
    players, options, facts = case
    within(bounds_of("muzicando", players, options), scores("muzicando", facts, players, options))


# --- Abluxxen ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "mode"), [(2, "duel"), (3, "base"), (5, "master")])
def test_abluxxen_bounds_are_the_deck_less_one_card_in_each_other_hand(players: int, mode: str) -> None:
    options = {"mode": mode}
    found = bounds_of("abluxxen", players, options)
    others = [1] * (players - 1)
    nothing = [0] * (players - 1)
    most = {"front": [110 - players, *nothing], "hand": [0, *others], "end": "out"}
    least = {"front": [0, *nothing], "hand": [110 - players, *others], "end": "exhausted"}
    # gone out with one card in front while the next player holds the rest but one card in every other hand
    gain = {"front": [1, *nothing], "hand": [0, 110 - players, *others[1:]], "end": "out"}
    assert found == RoundBounds(most=110 - players, least=players - 110, gain=111 - players)
    reaches(found, *(scores("abluxxen", facts, players, options) for facts in (most, least, gain)))


@settings(max_examples=200, deadline=None)
@given(abluxxen_games())
def test_abluxxen_no_accepted_game_goes_beyond_the_bounds(case: tuple[int, str, dict[str, Any]]) -> None:
    players, mode, facts = case
    options = {"mode": mode}
    within(bounds_of("abluxxen", players, options), scores("abluxxen", facts, players, options))


# --- Coloretto ---------------------------------------------------------------------------------------------


def test_coloretto_most_and_least() -> None:
    # 4 players: seat 0 holds three colours of nine and every "+2": 3 × 21 + 10 × 2 = 83
    most = {
        "yellow": [9, 0, 0, 0],
        "orange": [9, 0, 0, 0],
        "red": [9, 0, 0, 0],
        "green": [0, 9, 0, 0],
        "blue": [0, 0, 9, 0],
        "brown": [0, 0, 0, 9],
        "grey": [0, 6, 0, 0],
        "jokers": [0, 1, 1, 1],
        "plus_twos": [10, 0, 0, 0],
    }
    # seat 0 holds six of every colour of seven: 3 × 21 − 4 × 21 = −21
    least = {c: [6, 1, 1, 1] for c in ("yellow", "orange", "red", "green", "blue", "brown", "grey")}
    least |= {"jokers": [1, 1, 1, 0], "plus_twos": [0, 2, 2, 2]}
    found = bounds_of("coloretto", 4)
    top, bottom = scores("coloretto", most, 4), scores("coloretto", least, 4)
    assert (top[0], bottom[0]) == (83, -21) == (found.most, found.least)
    assert found.gain == 104  # a bound: the two cannot happen in one game
    # 3 players, six colours: three positive colours always outweigh the other three
    assert bounds_of("coloretto", 3).least == 0


@settings(max_examples=200, deadline=None)
@given(coloretto_games())
def test_coloretto_no_accepted_game_goes_beyond_the_bounds(case: tuple[int, dict[str, Any]]) -> None:
    players, facts = case
    within(bounds_of("coloretto", players), scores("coloretto", facts, players))
