"""The trick referee: worked examples from RULES.md, each game's rules, input checks and invariants."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.errors import InvalidRound
from scoring.rules.tricks import (
    GAMES,
    KEYS,
    MESSAGES,
    NJET_COLOURS,
    SECTIONS,
    STICHELN_COLOURS_FIVE,
    STICHELN_COLOURS_SIX,
    colours,
    legal_cards,
    referee,
    trump_order,
)

# --- helpers -------------------------------------------------------------------------------------------


def card(colour: str, value: int) -> dict[str, Any]:
    return {"colour": colour, "value": value}


def play(colour: str, value: int, **extra: Any) -> dict[str, Any]:
    return {"card": card(colour, value), **extra}


def cards(*pairs: tuple[str, int]) -> list[dict[str, Any]]:
    return [card(colour, value) for colour, value in pairs]


def problems(exc: pytest.ExceptionInfo[InvalidRound]) -> dict[str, tuple[str, str]]:
    """field -> (msg, rule) of the first problem on each field."""
    out: dict[str, tuple[str, str]] = {}
    for p in exc.value.problems:
        out.setdefault(p.field, (p.msg, p.rule))
    return out


def order_cards(order: list[dict[str, Any]]) -> list[list[tuple[str, int]]]:
    return [[(c["colour"], c["value"]) for c in rank["cards"]] for rank in order]


# --- worked examples from RULES.md ---------------------------------------------------------------------


def test_njet_trick_example_black_seven_takes_it() -> None:
    """3-team leader blue 9, partner blue 0, opponent blue 4, opponent (void) black 0, last (void) black 7."""
    plays = [
        play("blue", 9, seat=0),
        play("blue", 0, seat=1),
        play("blue", 4, seat=2),
        play("black", 0, seat=3, hand=cards(("black", 0), ("red", 5))),
        play("black", 7, seat=4, hand=cards(("black", 7), ("yellow", 2))),
    ]
    result = referee("njet", {"trump": "black", "super_trump": None}, plays)
    assert (result.winner, result.winner_seat) == (4, 4)
    assert (result.reason, result.rule) == ("tricks.trump", "njet-trick-winner")
    assert result.text == "black 7 is the highest trump: a trump beats every card that is not a trump."
    assert result.ranking == (4, 3, 0, 2, 1)
    assert [n.msg for n in result.notes] == ["tricks.role_led"] * 3 + ["tricks.role_trump"] * 2
    # both void players could play anything
    assert [n.msg for n in result.legality] == ["tricks.legal_void_colour", "tricks.legal_void_colour"]
    assert result.illegal == ()


def test_was_sticht_trump_order_red_and_five() -> None:
    order = trump_order("was-sticht", {"trump_colour": "red", "trump_number": 5})
    assert [rank["kind"] for rank in order[:3]] == ["super_trump", "trump_number", "trump_colour"]
    assert order_cards(order) == [
        [("red", 5)],
        [("blue", 5), ("green", 5), ("yellow", 5)],
        *[[("red", v)] for v in (9, 8, 7, 6, 4, 3, 2, 1)],
    ]
    assert [rank["rank"] for rank in order] == list(range(1, 11))


def test_was_sticht_trump_order_number_five_no_colour() -> None:
    order = trump_order("was-sticht", {"trump_colour": None, "trump_number": 5})
    assert order_cards(order) == [[("red", 5), ("blue", 5), ("green", 5), ("yellow", 5)]]
    assert order[0]["kind"] == "trump_number"


def test_was_sticht_trump_order_red_no_number() -> None:
    order = trump_order("was-sticht", {"trump_colour": "red", "trump_number": None})
    assert order_cards(order) == [[("red", v)] for v in range(9, 0, -1)]


def test_was_sticht_draft_example_jeno_takes_it_with_the_super_trump() -> None:
    """Trumps red and 2; Anita (monster holder) blue 7, Márk red 6, Jenő red 2, Éva yellow 2."""
    anita, mark, jeno, eva = 0, 1, 2, 3
    plays = [
        play("blue", 7, seat=anita),
        play("red", 6, seat=mark),
        play("red", 2, seat=jeno),
        play("yellow", 2, seat=eva),
    ]
    result = referee("was-sticht", {"trump_colour": "red", "trump_number": 2}, plays)
    assert result.winner_seat == jeno
    assert (result.reason, result.rule) == ("tricks.ws_super_trump", "was-sticht-trumps")
    assert result.ranking == (2, 3, 1, 0)
    assert [n.msg for n in result.notes] == [
        "tricks.role_led",
        "tricks.role_trump_colour",
        "tricks.role_super_trump",
        "tricks.role_trump_number",
    ]


def test_meinz_following_example_green_five_or_anything() -> None:
    """Jenő leads red 5; Anita has no red but a green 5: she may play it, or any other card."""
    hand = cards(("green", 5), ("blue", 2), ("yellow", 9))
    assert legal_cards("meinz", {}, card("red", 5), hand) == hand
    for index, msg in ((0, "tricks.legal_value"), (1, "tricks.legal_void_colour"), (2, "tricks.legal_void_colour")):
        chosen = hand[index]
        plays = [
            play("red", 5),
            {"card": chosen, "hand": hand},
            play("red", 7),
            play("blue", 8),
        ]
        result = referee("meinz", {}, plays)
        assert result.illegal == ()
        assert result.legality[0].msg == msg


# --- NJET ----------------------------------------------------------------------------------------------


def test_njet_super_trump_beats_trump() -> None:
    plays = [play("red", 9), play("black", 9), play("blue", 0), play("red", 8)]
    result = referee("njet", {"trump": "black", "super_trump": "blue"}, plays)
    assert (result.winner, result.reason) == (2, "tricks.super_trump")
    assert result.notes[2].msg == "tricks.role_super_trump"
    assert result.ranking == (2, 1, 0, 3)


def test_njet_no_trump_highest_of_led_colour() -> None:
    plays = [play("red", 3), play("yellow", 9), play("red", 6)]
    result = referee("njet", {}, plays)
    assert (result.winner, result.reason) == (2, "tricks.led_colour")
    assert result.param_dict()["led"] == "red"
    assert result.notes[1].msg == "tricks.role_off"


def test_njet_super_trump_colour_may_also_be_trump() -> None:
    plays = [play("black", 9), play("black", 0)]
    result = referee("njet", {"trump": "black", "super_trump": "black"}, plays)
    assert (result.winner, result.reason) == (1, "tricks.super_trump")


@pytest.mark.parametrize(
    ("tie_rule", "winner", "msg"),
    [("english", 2, "tricks.equal_last"), ("hungarian", 0, "tricks.equal_earlier")],
)
def test_njet_tie_rule_equal_led_cards(tie_rule: str, winner: int, msg: str) -> None:
    plays = [play("red", 7), play("red", 2), play("red", 7), play("yellow", 7)]
    result = referee("njet", {"trump": "blue"}, plays, options={"tie_rule": tie_rule})
    assert (result.winner, result.reason, result.rule) == (winner, msg, "njet-trick-winner")
    assert result.param_dict()["count"] == 2


@pytest.mark.parametrize(("tie_rule", "winner"), [("english", 3), ("hungarian", 1)])
def test_njet_tie_rule_equal_super_trumps(tie_rule: str, winner: int) -> None:
    plays = [play("red", 9), play("blue", 0), play("black", 9), play("blue", 0)]
    result = referee("njet", {"trump": "black", "super_trump": "blue"}, plays, options={"tie_rule": tie_rule})
    assert result.winner == winner


def test_njet_tie_rule_default_is_english() -> None:
    plays = [play("black", 7), play("black", 7)]
    assert referee("njet", {"trump": "black"}, plays).reason == "tricks.equal_last"


def test_njet_english_follow_printed_colour_only() -> None:
    """English: a led trump is followed by its printed colour; a super-trump 0 of another colour is free."""
    setup = {"trump": "black", "super_trump": "blue"}
    hand = cards(("blue", 0), ("red", 3))
    plays = [play("black", 5), play("red", 3, hand=hand)]
    result = referee("njet", setup, plays)
    assert result.illegal == ()
    assert legal_cards("njet", setup, card("black", 5), hand) == hand


def test_njet_hungarian_led_trump_must_be_answered_with_trump() -> None:
    setup = {"trump": "black", "super_trump": "blue"}
    hand = cards(("blue", 0), ("red", 3))
    opts = {"tie_rule": "hungarian"}
    result = referee("njet", setup, [play("black", 5), play("red", 3, hand=hand)], options=opts)
    assert [(n.index, n.msg, n.rule) for n in result.illegal] == [(1, "tricks.illegal_trump", "njet-tricks")]
    assert result.illegal[0].param_dict()["held"] == 1
    assert legal_cards("njet", setup, card("black", 5), hand, options=opts) == [card("blue", 0)]
    # a led super trump asks for trump too; with none in hand anything goes
    result = referee(
        "njet", setup, [play("blue", 0), play("blue", 4, hand=cards(("blue", 4), ("red", 1)))], options=opts
    )
    assert [n.msg for n in result.legality] == ["tricks.legal_void_trump"]
    result = referee("njet", setup, [play("blue", 0), play("black", 1, hand=cards(("black", 1)))], options=opts)
    assert [n.msg for n in result.legality] == ["tricks.legal_follow_trump"]


def test_njet_must_follow_led_colour() -> None:
    hand = cards(("red", 2), ("black", 9))
    result = referee("njet", {"trump": "black"}, [play("red", 5, hand=cards(("red", 5))), play("black", 9, hand=hand)])
    assert [n.msg for n in result.legality] == ["tricks.legal_lead", "tricks.illegal_colour"]
    assert result.illegal[0].text == "black 9 does not follow the led colour, red, but the hand holds 1 card of it."
    assert result.winner == 1  # the referee still judges the cards as played
    result = referee("njet", {}, [play("red", 5), play("red", 2, hand=hand)])
    assert result.legality[0].msg == "tricks.legal_follow_colour"


def test_njet_trump_order() -> None:
    order = trump_order("njet", {"trump": "red", "super_trump": "yellow"})
    assert order_cards(order) == [[("yellow", 0)], *[[("red", v)] for v in range(9, -1, -1)]]
    same = trump_order("njet", {"trump": "red", "super_trump": "red"})
    assert order_cards(same) == [[("red", 0)], *[[("red", v)] for v in range(9, 0, -1)]]
    assert trump_order("njet", {}) == []


def test_njet_deck_copies_by_player_count() -> None:
    """Three 0s per colour; four 7s, but only one per colour with three players."""
    zeros = [play("red", 0)] * 3 + [play("blue", 1)]
    assert referee("njet", {}, zeros).winner == 2
    with pytest.raises(InvalidRound) as exc:
        referee("njet", {}, [play("red", 0)] * 4)
    assert problems(exc) == {"plays.3.card": ("tricks.duplicate", "tricks-input")}
    assert referee("njet", {}, [play("red", 7)] * 4).winner == 3
    with pytest.raises(InvalidRound) as exc:
        referee("njet", {}, [play("red", 7), play("red", 7), play("blue", 1)])
    assert problems(exc) == {"plays.1.card": ("tricks.duplicate", "tricks-input")}


# --- MÜ ------------------------------------------------------------------------------------------------

RED_CHIEF_SEVEN_VICE = {"chief_trump": {"kind": "colour", "value": "red"}, "vice_trump": {"kind": "number", "value": 7}}


def test_mue_double_trump_beats_everything() -> None:
    plays = [play("blue", 9), play("red", 9), play("blue", 7), play("red", 7)]
    result = referee("mue", RED_CHIEF_SEVEN_VICE, plays)
    assert (result.winner, result.reason, result.rule) == (3, "tricks.mue_double_trump", "mue-trumps")
    assert [n.msg for n in result.notes] == [
        "tricks.role_led",
        "tricks.role_chief_trump",
        "tricks.role_vice_trump",
        "tricks.role_double_trump",
    ]
    assert result.ranking == (3, 1, 2, 0)


def test_mue_double_trump_number_from_the_chief() -> None:
    setup = {"chief_trump": {"kind": "number", "value": 1}, "vice_trump": {"kind": "colour", "value": "green"}}
    result = referee("mue", setup, [play("green", 9), play("blue", 1), play("green", 1), play("red", 9)])
    assert (result.winner, result.reason) == (2, "tricks.mue_double_trump")


def test_mue_two_double_trumps_earlier_wins() -> None:
    plays = [play("blue", 2), play("red", 7), play("red", 7), play("red", 9)]
    result = referee("mue", RED_CHIEF_SEVEN_VICE, plays)
    assert (result.winner, result.reason) == (1, "tricks.equal_earlier")


def test_mue_chief_zero_beats_best_vice_trump() -> None:
    plays = [play("blue", 7), play("green", 7), play("red", 0), play("black", 9)]
    result = referee("mue", RED_CHIEF_SEVEN_VICE, plays)
    assert (result.winner, result.reason) == (2, "tricks.mue_chief_trump")


def test_mue_vice_trump_wins_without_chief_trump() -> None:
    setup = {"chief_trump": {"kind": "none"}, "vice_trump": {"kind": "colour", "value": "yellow"}}
    result = referee("mue", setup, [play("blue", 9), play("yellow", 1), play("yellow", 3), play("blue", 8)])
    assert (result.winner, result.reason) == (2, "tricks.mue_vice_trump")


def test_mue_number_chief_trump_cards_are_equal() -> None:
    setup = {"chief_trump": {"kind": "number", "value": 5}}
    result = referee("mue", setup, [play("blue", 9), play("green", 5), play("red", 5), play("blue", 8)])
    assert (result.winner, result.reason) == (1, "tricks.equal_earlier")


def test_mue_no_trump_highest_of_led_colour() -> None:
    result = referee("mue", {}, [play("blue", 3), play("blue", 9), play("red", 9), play("blue", 1)])
    assert (result.winner, result.reason) == (1, "tricks.led_colour")


def test_mue_trump_number_card_is_not_its_colour() -> None:
    """If the 6 is trump, the red 6 is no red card: holding it does not oblige to follow red."""
    setup = {"chief_trump": {"kind": "number", "value": 6}, "vice_trump": None}
    hand = cards(("red", 6), ("blue", 2))
    result = referee("mue", setup, [play("red", 3), play("blue", 2, hand=hand), play("red", 1), play("red", 9)])
    assert result.illegal == ()
    assert result.legality[0].msg == "tricks.legal_void_colour"
    assert legal_cards("mue", setup, card("red", 3), hand) == hand
    hand = cards(("red", 4), ("blue", 2))
    result = referee("mue", setup, [play("red", 3), play("blue", 2, hand=hand), play("red", 1), play("red", 9)])
    assert [n.msg for n in result.illegal] == ["tricks.illegal_colour"]


def test_mue_chief_and_vice_trumps_are_one_suit() -> None:
    hand = cards(("blue", 7), ("green", 3))
    plays = [play("red", 3), play("blue", 7, hand=hand), play("green", 2, hand=cards(("green", 2), ("black", 7)))]
    plays.append(play("black", 1))
    result = referee("mue", RED_CHIEF_SEVEN_VICE, plays)
    assert [n.msg for n in result.legality] == ["tricks.legal_follow_trump", "tricks.illegal_trump"]
    assert legal_cards("mue", RED_CHIEF_SEVEN_VICE, card("red", 3), hand) == [card("blue", 7)]


def test_mue_same_trump_named_twice_is_just_chief_trump() -> None:
    setup = {"chief_trump": {"kind": "colour", "value": "red"}, "vice_trump": {"kind": "colour", "value": "red"}}
    result = referee("mue", setup, [play("red", 3), play("red", 4), play("blue", 9), play("red", 0)])
    assert (result.winner, result.reason) == (1, "tricks.mue_chief_trump")
    order = trump_order("mue", setup)
    assert {rank["kind"] for rank in order} == {"chief_trump"}


def test_mue_trump_order() -> None:
    order = trump_order("mue", RED_CHIEF_SEVEN_VICE)
    assert order_cards(order) == [
        [("red", 7)],
        *[[("red", v)] for v in (9, 8, 6, 5, 4, 3, 2, 1, 0)],
        [("blue", 7), ("yellow", 7), ("black", 7), ("green", 7)],
    ]
    assert [rank["kind"] for rank in order] == ["double_trump"] + ["chief_trump"] * 9 + ["vice_trump"]
    two_numbers = {"chief_trump": {"kind": "number", "value": 2}, "vice_trump": {"kind": "number", "value": 8}}
    assert [rank["kind"] for rank in trump_order("mue", two_numbers)] == ["chief_trump", "vice_trump"]
    assert trump_order("mue", {"chief_trump": None}) == []


# --- Meinz ---------------------------------------------------------------------------------------------

MEINZ_TRICK = [play("red", 5), play("blue", 3), play("red", 8), play("green", 6)]


def meinz(plays: list[dict[str, Any]], **kw: Any) -> Any:
    return referee("meinz", {}, plays, **kw)


def test_meinz_lowest_value_wins_whatever_the_colour() -> None:
    result = meinz(MEINZ_TRICK)
    assert (result.winner, result.reason, result.rule) == (1, "tricks.meinz_lowest", "meinz-play")
    assert result.ranking == (1, 0, 3, 2)
    assert {n.msg for n in result.notes} == {"tricks.role_value"}


def test_meinz_equal_values_earlier_wins() -> None:
    result = meinz([play("red", 5), play("blue", 2), play("yellow", 2), play("green", 6)])
    assert (result.winner, result.reason) == (1, "tricks.equal_earlier")


@pytest.mark.parametrize(
    ("claimer", "after"),
    [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (0, None), (1, None), (2, None)],
)
def test_meinz_claim_order_allowed(claimer: int, after: int | None) -> None:
    plays = [dict(p) for p in MEINZ_TRICK]
    plays[claimer].update(claim=True, **({} if after is None else {"claim_after": after}))
    result = meinz(plays)
    assert (result.winner, result.reason, result.rule) == (claimer, "tricks.meinz_claim", "meinz-claims")
    assert result.param_dict()["after"] == (claimer + 1 if after is None else after)
    assert result.text.startswith("Claimed by Meinz")


@pytest.mark.parametrize(("claimer", "after"), [(1, 1), (2, 1), (2, 2), (0, 4), (0, 0)])
def test_meinz_claim_order_refused(claimer: int, after: int) -> None:
    plays = [dict(p) for p in MEINZ_TRICK]
    plays[claimer].update(claim=True, claim_after=after)
    with pytest.raises(InvalidRound) as exc:
        meinz(plays)
    assert problems(exc) == {f"plays.{claimer}.claim_after": ("tricks.claim_when", "meinz-claims")}


def test_meinz_fourth_player_never_claims() -> None:
    plays = [dict(p) for p in MEINZ_TRICK]
    plays[3]["claim"] = True
    with pytest.raises(InvalidRound) as exc:
        meinz(plays)
    assert problems(exc) == {"plays.3.claim": ("tricks.claim_fourth", "meinz-claims")}


def test_meinz_only_one_claim() -> None:
    plays = [dict(p) for p in MEINZ_TRICK]
    plays[0]["claim"] = plays[1]["claim"] = True
    with pytest.raises(InvalidRound) as exc:
        meinz(plays)
    assert problems(exc) == {"plays.1.claim": ("tricks.claim_twice", "meinz-claims")}


def test_meinz_claim_after_needs_a_claim() -> None:
    plays = [dict(p) for p in MEINZ_TRICK]
    plays[1]["claim_after"] = 2
    with pytest.raises(InvalidRound) as exc:
        meinz(plays)
    assert problems(exc) == {"plays.1.claim_after": ("tricks.claim_after_alone", "meinz-claims")}
    plays[1]["claim"] = False
    with pytest.raises(InvalidRound):
        meinz(plays)


def test_meinz_two_trick_cap_next_lowest_wins() -> None:
    plays = [play("red", 5), play("blue", 1, tricks_taken=2), play("red", 1, tricks_taken=2), play("green", 4)]
    result = meinz(plays)
    assert (result.winner, result.reason, result.rule) == (3, "tricks.meinz_capped", "meinz-tricks")
    assert result.param_dict()["skipped"] == 2
    assert [n.msg for n in result.notes] == [
        "tricks.role_value",
        "tricks.role_capped",
        "tricks.role_capped",
        "tricks.role_value",
    ]


def test_meinz_player_with_two_tricks_cannot_claim() -> None:
    plays = [dict(p) for p in MEINZ_TRICK]
    plays[1].update(claim=True, tricks_taken=2)
    with pytest.raises(InvalidRound) as exc:
        meinz(plays)
    assert problems(exc) == {"plays.1.claim": ("tricks.claim_capped", "meinz-tricks")}


def test_meinz_tricks_taken_checks() -> None:
    plays = [dict(p) for p in MEINZ_TRICK]
    plays[0]["tricks_taken"] = 3
    with pytest.raises(InvalidRound) as exc:
        meinz(plays)
    assert problems(exc) == {"plays.0.tricks_taken": ("tricks.tricks_taken", "meinz-tricks")}
    for p in plays:
        p["tricks_taken"] = 2
    with pytest.raises(InvalidRound) as exc:
        meinz(plays)
    assert problems(exc) == {"plays": ("tricks.tricks_total", "meinz-tricks")}
    assert dict(exc.value.problems[0].params)["total"] == 8


def test_meinz_must_follow_colour_or_value() -> None:
    hand = cards(("red", 2), ("blue", 6))
    result = meinz([play("red", 5), play("blue", 6, hand=hand), play("red", 8), play("green", 6)])
    assert [(n.msg, n.rule) for n in result.illegal] == [("tricks.illegal_meinz", "meinz-play")]
    assert result.illegal[0].param_dict()["led_value"] == 5
    assert legal_cards("meinz", {}, card("red", 5), hand) == [card("red", 2)]
    hand = cards(("red", 2), ("blue", 5))
    assert legal_cards("meinz", {}, card("red", 5), hand) == hand
    result = meinz([play("red", 5), play("red", 2, hand=hand), play("red", 8), play("green", 6)])
    assert result.legality[0].msg == "tricks.legal_follow_colour"


def test_meinz_three_players_and_the_monster() -> None:
    plays = [play("red", 5), play("blue", 2, monster=True, hand=cards(("blue", 2))), play("red", 8), play("green", 6)]
    result = meinz(plays, options={"players": 3})
    assert (result.winner, result.reason) == (1, "tricks.meinz_lowest")
    assert result.notes[1].msg == "tricks.role_monster"
    assert [(n.msg, n.rule) for n in result.legality] == [("tricks.legal_monster", "meinz-monster")]
    # the monster is capped at two tricks too
    plays[1]["tricks_taken"] = 2
    assert meinz(plays, options={"players": 3}).winner == 0


@pytest.mark.parametrize(("players", "monsters"), [(3, 0), (4, 1), (None, 2), (3, 2)])
def test_meinz_monster_count(players: int | None, monsters: int) -> None:
    plays = [dict(p) for p in MEINZ_TRICK]
    for p in plays[:monsters]:
        p["monster"] = True
    with pytest.raises(InvalidRound) as exc:
        meinz(plays, options={"players": players})
    assert problems(exc)["plays"] == ("tricks.monster_count", "meinz-monster")


def test_meinz_monster_never_claims() -> None:
    plays = [dict(p) for p in MEINZ_TRICK]
    plays[2].update(monster=True, claim=True)
    with pytest.raises(InvalidRound) as exc:
        meinz(plays, options={"players": 3})
    assert problems(exc) == {"plays.2.claim": ("tricks.claim_monster", "meinz-monster")}


def test_meinz_trick_has_four_cards_and_no_trumps() -> None:
    with pytest.raises(InvalidRound) as exc:
        meinz(MEINZ_TRICK[:3], options={"players": 3})
    assert problems(exc) == {"plays": ("tricks.card_count", "tricks-input")}
    assert exc.value.problems[0].text == "A Meinz trick has 4 cards, not 3."
    assert trump_order("meinz", {}) == []


# --- Was sticht? ---------------------------------------------------------------------------------------

RED_TWO = {"trump_colour": "red", "trump_number": 2}


def test_was_sticht_trump_numbers_equal_earlier_wins() -> None:
    result = referee("was-sticht", RED_TWO, [play("blue", 9), play("yellow", 2), play("red", 9), play("green", 2)])
    assert (result.winner, result.reason) == (1, "tricks.equal_earlier")


def test_was_sticht_trump_colour_and_led_colour() -> None:
    result = referee("was-sticht", RED_TWO, [play("blue", 5), play("red", 3), play("red", 7), play("blue", 9)])
    assert (result.winner, result.reason) == (2, "tricks.ws_trump_colour")
    result = referee("was-sticht", RED_TWO, [play("blue", 5), play("green", 9), play("blue", 6)])
    assert (result.winner, result.reason) == (2, "tricks.led_colour")
    result = referee("was-sticht", {}, [play("blue", 5), play("green", 9), play("blue", 6)])
    assert result.winner == 2
    single = referee("was-sticht", RED_TWO, [play("green", 5), play("blue", 2), play("green", 9), play("red", 8)])
    assert (single.winner, single.reason) == (1, "tricks.ws_trump_number")


def test_was_sticht_trump_led_play_trump() -> None:
    hand = cards(("green", 2), ("red", 1), ("blue", 7))
    assert legal_cards("was-sticht", RED_TWO, card("red", 6), hand) == cards(("green", 2), ("red", 1))
    # the trump number is not its colour: a green 2 does not follow green
    assert legal_cards("was-sticht", RED_TWO, card("green", 6), cards(("green", 2), ("blue", 7))) == cards(
        ("green", 2), ("blue", 7)
    )
    result = referee(
        "was-sticht", RED_TWO, [play("red", 6), play("blue", 7, hand=hand), play("red", 9), play("red", 8)]
    )
    assert [n.msg for n in result.illegal] == ["tricks.illegal_trump"]


def test_was_sticht_three_players_trick_or_draft_row() -> None:
    three = [play("blue", 5), play("green", 9), play("blue", 6)]
    assert referee("was-sticht", {}, three, options={"players": 3}).winner == 2
    row = [*three, play("blue", 8)]
    assert referee("was-sticht", {}, row, options={"players": 3}).winner == 3
    with pytest.raises(InvalidRound) as exc:
        referee("was-sticht", {}, three, options={"players": 4})
    assert problems(exc) == {"plays": ("tricks.card_count", "tricks-input")}
    assert exc.value.problems[0].text == "A Was sticht? trick has 4 cards, not 3."
    with pytest.raises(InvalidRound) as exc:
        referee("was-sticht", {}, three[:2])
    assert exc.value.problems[0].text == "A Was sticht? trick has 3 or 4 cards, not 2."


def test_was_sticht_setup_checks() -> None:
    with pytest.raises(InvalidRound) as exc:
        trump_order("was-sticht", {"trump_colour": "black", "trump_number": 0})
    assert problems(exc) == {
        "setup.trump_number": ("tricks.trump_number", "was-sticht-trumps"),
        "setup.trump_colour": ("tricks.colour", "was-sticht-trumps"),
    }
    with pytest.raises(InvalidRound) as exc:
        trump_order("was-sticht", {"trump_number": True})
    assert problems(exc) == {"setup.trump_number": ("tricks.trump_number", "was-sticht-trumps")}


# --- Sticheln ------------------------------------------------------------------------------------------


def sticheln(plays: list[dict[str, Any]], variant: str | None = None, **kw: Any) -> Any:
    return referee("sticheln", {} if variant is None else {"variant": variant}, plays, **kw)


def test_sticheln_classic_highest_trump_wins() -> None:
    plays = [play("red", 8), play("blue", 3), play("green", 5), play("yellow", 0)]
    result = sticheln(plays)
    assert (result.winner, result.reason, result.rule) == (2, "tricks.sticheln_trump_high", "sticheln-tricks")
    assert [n.msg for n in result.notes] == [
        "tricks.role_led",
        "tricks.role_trump",
        "tricks.role_trump",
        "tricks.role_zero",
    ]
    assert result.ranking == (2, 1, 0)


def test_sticheln_classic_equal_trumps_earlier_wins() -> None:
    result = sticheln([play("red", 8), play("blue", 5), play("green", 5)])
    assert (result.winner, result.reason) == (1, "tricks.equal_earlier")


def test_sticheln_reverse_lowest_non_zero_trump_wins() -> None:
    plays = [play("red", 8), play("blue", 3), play("green", 0), play("yellow", 1), play("brown", 1)]
    result = sticheln(plays, "reverse")
    assert (result.winner, result.reason) == (3, "tricks.equal_earlier")
    result = sticheln(plays[:4], "reverse")
    assert (result.winner, result.reason, result.rule) == (3, "tricks.sticheln_trump_low", "sticheln-reverse")


def test_sticheln_reverse_without_trump_is_classic() -> None:
    result = sticheln([play("red", 2), play("red", 7), play("blue", 0)], "reverse")
    assert (result.winner, result.reason) == (1, "tricks.led_colour")


def test_sticheln_zeros_of_other_colours_never_win() -> None:
    result = sticheln([play("red", 1), play("blue", 0), play("green", 0)])
    assert (result.winner, result.reason) == (0, "tricks.led_colour")


def test_sticheln_all_zero_trick_goes_to_the_leader() -> None:
    result = sticheln([play("green", 0), play("red", 0), play("blue", 0), play("yellow", 0)], "reverse")
    assert (result.winner, result.reason) == (0, "tricks.sticheln_all_zero")


def test_sticheln_no_obligation_to_follow() -> None:
    hand = cards(("red", 3), ("blue", 4))
    result = sticheln([play("red", 8), play("blue", 4, hand=hand), play("green", 1)])
    assert [n.msg for n in result.legality] == ["tricks.legal_free"]
    assert legal_cards("sticheln", {}, card("red", 8), hand) == hand


def test_sticheln_variant_from_options_and_scoring_only_variants() -> None:
    plays = [play("red", 8), play("blue", 3), play("green", 5)]
    assert sticheln(plays, options={"variant": "reverse"}).winner == 1
    assert sticheln(plays, "classic", options={"variant": "reverse"}).winner == 2  # the set-up wins
    for variant in ("gentle", "heavy", "foggy", "delayed"):
        assert sticheln(plays, variant).winner == 2


def test_sticheln_hattrick_and_unknown_variants_refused() -> None:
    plays = [play("red", 8), play("blue", 3), play("green", 5)]
    with pytest.raises(InvalidRound) as exc:
        sticheln(plays, "hattrick")
    assert problems(exc) == {"setup.variant": ("tricks.hattrick", "sticheln-hattrick")}
    with pytest.raises(InvalidRound) as exc:
        sticheln(plays, options={"variant": "wild"})
    assert problems(exc) == {"options.variant": ("tricks.choice", "sticheln-tricks")}


def test_sticheln_deck_by_player_count() -> None:
    assert colours("sticheln", 5) == STICHELN_COLOURS_FIVE
    assert colours("sticheln", 6) == STICHELN_COLOURS_SIX
    assert len(STICHELN_COLOURS_FIVE) == 5
    assert len(STICHELN_COLOURS_SIX) == 6
    three = [play("red", 8), play("blue", 3), play("green", 5)]
    with pytest.raises(InvalidRound) as exc:
        sticheln([*three[:2], play("purple", 9)])
    assert problems(exc) == {
        "plays.2.card.colour": ("tricks.colour", "tricks-input"),
        "plays.2.card.value": (
            "tricks.value",
            "tricks-input",
        ),
    }
    six = [*three, play("purple", 14), play("brown", 1), play("yellow", 0)]
    assert sticheln(six).winner == 3
    with pytest.raises(InvalidRound) as exc:
        sticheln(six, options={"players": 7})
    assert problems(exc) == {"plays": ("tricks.card_count", "tricks-input")}
    assert exc.value.problems[0].text == "A Sticheln trick has 7 cards, not 6."
    assert trump_order("sticheln", {"variant": "reverse"}) == []


# --- input checks --------------------------------------------------------------------------------------


def test_unknown_game() -> None:
    for key in ("coloretto", None, ["njet"]):
        with pytest.raises(InvalidRound) as exc:
            referee(key, {}, [])  # type: ignore[arg-type]
        assert problems(exc) == {"key": ("tricks.unknown_game", "tricks-input")}
    with pytest.raises(InvalidRound):
        colours("abluxxen")


def test_shapes_refused_with_field_paths() -> None:
    with pytest.raises(InvalidRound) as exc:
        referee("njet", [], "plays", options=5)  # type: ignore[arg-type]
    assert problems(exc) == {
        "options": ("tricks.options_object", "tricks-input"),
        "setup": ("tricks.setup_object", "tricks-input"),
        "plays": ("tricks.plays_list", "tricks-input"),
    }
    bad = [
        "red 5",
        {"card": "red 5"},
        {"card": {"colour": "green", "value": 10, "suit": "x"}, "hand": "all", "seat": -1, "extra": 1},
        {"card": {"colour": "red", "value": True}, "hand": [{"colour": "red", "value": 1}] * 17, "seat": "x"},
    ]
    with pytest.raises(InvalidRound) as exc:
        referee("njet", {"trumps": "red", "trump": "purple"}, bad, options={"tie_rule": "french"})
    assert problems(exc) == {
        "setup.trumps": ("tricks.unknown_field", "tricks-input"),
        "setup.trump": ("tricks.colour", "njet-trick-winner"),
        "options.tie_rule": ("tricks.choice", "njet-trick-winner"),
        "plays.0": ("tricks.play_object", "tricks-input"),
        "plays.1.card": ("tricks.card_object", "tricks-input"),
        "plays.2.extra": ("tricks.unknown_field", "tricks-input"),
        "plays.2.card.suit": ("tricks.unknown_field", "tricks-input"),
        "plays.2.card.colour": ("tricks.colour", "tricks-input"),
        "plays.2.card.value": ("tricks.value", "tricks-input"),
        "plays.2.hand": ("tricks.hand_list", "tricks-input"),
        "plays.2.seat": ("tricks.seat", "tricks-input"),
        "plays.3.card.value": ("tricks.value", "tricks-input"),
        "plays.3.hand": ("tricks.hand_size", "tricks-input"),
        "plays.3.seat": ("tricks.flag_int", "tricks-input"),
    }


def test_junk_is_quoted_briefly() -> None:
    plays = [play("red", 5), play("blue", 3), play("red", 8), {"card": {"colour": {"r": 1}, "value": 2}}]
    with pytest.raises(InvalidRound) as exc:
        referee("meinz", {}, plays)
    assert exc.value.problems[0].text == "'{…}' is not a colour of the Meinz deck (red, blue, green, yellow)."
    plays[3] = {"card": {"colour": "x" * 50, "value": 2}}
    with pytest.raises(InvalidRound) as exc:
        referee("meinz", {}, plays)
    assert exc.value.problems[0].params[0] == ("colour", "x" * 39 + "…")


def test_players_option_and_card_count() -> None:
    plays = [play("red", 1), play("red", 2), play("red", 3)]
    with pytest.raises(InvalidRound) as exc:
        referee("njet", {}, plays, options={"players": 6})
    assert problems(exc) == {"options.players": ("tricks.players", "njet-players")}
    with pytest.raises(InvalidRound) as exc:
        referee("njet", {}, plays, options={"players": 4})
    assert problems(exc) == {"plays": ("tricks.card_count", "tricks-input")}
    with pytest.raises(InvalidRound) as exc:
        referee("njet", {}, [play("red", 1)] * 6)
    assert exc.value.problems[0].text == "A NJET trick has 2 to 5 cards, not 6."
    # the match's other options are ignored
    assert referee("njet", None, plays, options={"players": 3, "recording": "difference"}).winner == 2  # type: ignore[arg-type]


def test_hand_must_hold_the_card_and_fit_the_deck() -> None:
    plays = [play("red", 5), play("blue", 3, hand=cards(("blue", 4), ("red", 5))), play("red", 8), play("green", 6)]
    with pytest.raises(InvalidRound) as exc:
        referee("meinz", {}, plays)
    assert problems(exc) == {
        "plays.1.card": ("tricks.not_in_hand", "tricks-input"),
        "plays.1.hand": ("tricks.hand_duplicate", "tricks-input"),
    }
    with pytest.raises(InvalidRound) as exc:
        legal_cards("meinz", {}, card("red", 5), cards(("red", 5), ("blue", 1)))
    assert problems(exc) == {"hand": ("tricks.hand_duplicate", "tricks-input")}
    with pytest.raises(InvalidRound) as exc:
        legal_cards("meinz", {}, None, None)  # type: ignore[arg-type]
    assert problems(exc) == {"hand": ("tricks.hand_list", "tricks-input")}
    with pytest.raises(InvalidRound) as exc:
        legal_cards("meinz", {}, "red 5", [])  # type: ignore[arg-type]
    assert problems(exc) == {"lead": ("tricks.card_object", "tricks-input")}


def test_legal_cards_when_leading_lists_each_card_once() -> None:
    hand = cards(("red", 7), ("red", 7), ("blue", 0))
    assert legal_cards("njet", {"trump": "red"}, None, hand) == cards(("red", 7), ("blue", 0))
    assert colours("njet") == NJET_COLOURS
    with pytest.raises(InvalidRound) as exc:
        colours("sticheln", 9)
    assert problems(exc) == {"options.players": ("tricks.players", "sticheln-players")}


def test_seats_and_flags() -> None:
    plays = [play("red", 5, seat=2), play("blue", 3, seat=2), play("red", 8, seat=4), play("green", 6, claim="yes")]
    with pytest.raises(InvalidRound) as exc:
        referee("meinz", {}, plays)
    assert problems(exc) == {
        "plays.2.seat": ("tricks.seat", "tricks-input"),
        "plays.3.claim": ("tricks.flag_bool", "tricks-input"),
    }
    plays[2]["seat"] = 3
    del plays[3]["claim"]
    with pytest.raises(InvalidRound) as exc:
        referee("meinz", {}, plays)
    assert problems(exc) == {"plays.1.seat": ("tricks.seat_twice", "tricks-input")}
    plays[1]["seat"] = 1
    plays[3].update(seat=0, tricks_taken="2", monster=None)
    with pytest.raises(InvalidRound) as exc:
        referee("meinz", {}, plays)
    assert problems(exc) == {
        "plays.3.tricks_taken": ("tricks.flag_int", "tricks-input"),
        "plays.3.monster": ("tricks.flag_bool", "tricks-input"),
    }
    del plays[3]["monster"]
    plays[3]["tricks_taken"] = 1
    result = referee("meinz", {}, plays)
    assert (result.winner, result.winner_seat) == (1, 1)
    # Meinz's flags are unknown to the other games
    with pytest.raises(InvalidRound) as exc:
        referee("njet", {}, [play("red", 5, claim=True), play("red", 6)])
    assert problems(exc) == {"plays.0.claim": ("tricks.unknown_field", "tricks-input")}


def test_mue_setup_checks() -> None:
    bad = {
        "chief_trump": {"kind": "colour", "value": "purple", "extra": 1},
        "vice_trump": "7",
    }
    with pytest.raises(InvalidRound) as exc:
        trump_order("mue", bad)
    assert problems(exc) == {
        "setup.chief_trump.extra": ("tricks.unknown_field", "tricks-input"),
        "setup.chief_trump": ("tricks.mue_trump", "mue-trumps"),
        "setup.vice_trump": ("tricks.mue_trump", "mue-trumps"),
    }
    for trump in ({"kind": "number", "value": 10}, {"kind": "none", "value": 3}, {"kind": "suit"}):
        with pytest.raises(InvalidRound):
            trump_order("mue", {"chief_trump": trump})


def test_messages_and_sections_are_consistent() -> None:
    assert set(KEYS) == {"njet", "mue", "meinz", "was-sticht", "sticheln"}
    for key, game in GAMES.items():
        assert game.key == key
        assert game.rule in SECTIONS
        assert game.follow_rule in SECTIONS
    assert all(msg.startswith("tricks.") for msg in MESSAGES)
    assert NJET_COLOURS == ("red", "black", "blue", "yellow")


def test_result_as_dict_is_json() -> None:
    result = referee(
        "njet", {"trump": "black"}, [play("red", 5, seat=0), play("black", 2, seat=1, hand=cards(("black", 2)))]
    )
    data = json.loads(json.dumps(result.as_dict()))
    assert data["winner"] == 1
    assert data["winner_seat"] == 1
    assert data["reason"] == "tricks.trump"
    assert data["params"] == {"colour": "black", "led": "red", "value": 2}
    assert data["notes"][0]["index"] == 0
    assert data["legality"][0]["msg"] == "tricks.legal_void_colour"
    assert data["illegal"] == []


# --- properties ----------------------------------------------------------------------------------------


def deck_of(key: str, players: int | None) -> list[dict[str, Any]]:
    game = GAMES[key]
    low, high = game.values(players)
    return [
        card(colour, value)
        for colour in game.colours(players)
        for value in range(low, high + 1)
        for _ in range(game.copies(value, players))
    ]


TRICK_PLAYERS = {"njet": (2, 5), "mue": (4, 6), "meinz": (4, 4), "was-sticht": (3, 4), "sticheln": (3, 8)}


@st.composite
def setups(draw: st.DrawFn, key: str) -> dict[str, Any]:
    if key == "njet":
        return {
            "trump": draw(st.sampled_from([None, *NJET_COLOURS])),
            "super_trump": draw(st.sampled_from([None, *NJET_COLOURS])),
        }
    if key == "mue":
        trump = st.one_of(
            st.none(),
            st.just({"kind": "none"}),
            st.builds(lambda c: {"kind": "colour", "value": c}, st.sampled_from(colours("mue"))),
            st.builds(lambda n: {"kind": "number", "value": n}, st.integers(0, 9)),
        )
        return {"chief_trump": draw(trump), "vice_trump": draw(trump)}
    if key == "was-sticht":
        return {
            "trump_colour": draw(st.sampled_from([None, *colours("was-sticht")])),
            "trump_number": draw(st.none() | st.integers(1, 9)),
        }
    if key == "sticheln":
        return {"variant": draw(st.sampled_from(["classic", "reverse"]))}
    return {}


@st.composite
def tricks(draw: st.DrawFn) -> tuple[str, dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """A valid trick of any game, with seats, some hands and (Meinz) claims and tricks taken."""
    key = draw(st.sampled_from(KEYS))
    low, high = TRICK_PLAYERS[key]
    players = draw(st.integers(low, high))
    deck = deck_of(key, players)
    shuffled = draw(st.permutations(range(len(deck))))
    first = draw(st.integers(0, players - 1))
    plays: list[dict[str, Any]] = []
    pos = players
    for i in range(players):
        p: dict[str, Any] = {"card": deck[shuffled[i]], "seat": (first + i) % players}
        if draw(st.booleans()):
            size = draw(st.integers(0, 5))
            p["hand"] = [deck[j] for j in shuffled[pos : pos + size]] + [p["card"]]
            pos += size
        plays.append(p)
    options: dict[str, Any] = {"players": players}
    if key == "njet":
        options["tie_rule"] = draw(st.sampled_from(["english", "hungarian"]))
    if key == "meinz":
        taken = draw(st.lists(st.integers(0, 2), min_size=4, max_size=4).filter(lambda t: sum(t) <= 7))
        for p, t in zip(plays, taken, strict=True):
            p["tricks_taken"] = t
        claimer = draw(st.sampled_from([None, 0, 1, 2]))
        if claimer is not None and taken[claimer] < 2:
            plays[claimer]["claim"] = True
            plays[claimer]["claim_after"] = draw(st.integers(claimer + 1, 3))
    return key, draw(setups(key)), plays, options


@settings(max_examples=200, deadline=None)
@given(tricks())
def test_property_winner_is_one_of_the_players(trick: tuple[str, dict[str, Any], list[dict[str, Any]], Any]) -> None:
    key, setup, plays, options = trick
    result = referee(key, setup, plays, options=options)
    assert 0 <= result.winner < len(plays)
    assert result.winner_seat == plays[result.winner]["seat"]
    assert result.reason in MESSAGES
    assert result.rule in SECTIONS
    assert len(result.notes) == len(plays)
    assert {n.index for n in result.legality} == {i for i, p in enumerate(plays) if "hand" in p}
    assert set(result.illegal) <= set(result.legality)
    json.dumps(result.as_dict())
    won = plays[result.winner]
    if key == "meinz":
        assert won.get("tricks_taken", 0) < 2
        assert set(result.ranking) == set(range(len(plays)))
    else:
        assert result.ranking[0] == result.winner
    if key == "sticheln":
        lead = plays[0]["card"]
        assert won["card"]["value"] > 0 or won["card"]["colour"] == lead["colour"]


@settings(max_examples=150, deadline=None)
@given(tricks())
def test_property_legal_cards_agree_with_the_referee(trick: tuple[str, dict[str, Any], list[Any], Any]) -> None:
    key, setup, plays, options = trick
    lead = plays[0]["card"]
    result = referee(key, setup, plays, options=options)
    illegal = {n.index for n in result.illegal}
    for i, p in enumerate(plays[1:], start=1):
        if "hand" not in p or p.get("monster"):
            continue
        allowed = legal_cards(key, setup, lead, p["hand"], options=options)
        assert allowed, "some card of a hand can always be played"
        assert (p["card"] in allowed) == (i not in illegal)


@settings(max_examples=100, deadline=None)
@given(tricks())
def test_property_njet_tie_rule_matters_only_for_equal_cards(trick: tuple[str, dict[str, Any], list[Any], Any]) -> None:
    key, setup, plays, options = trick
    if key != "njet":
        return
    english = referee(key, setup, plays, options={**options, "tie_rule": "english"})
    hungarian = referee(key, setup, plays, options={**options, "tie_rule": "hungarian"})
    if english.winner != hungarian.winner:
        assert plays[english.winner]["card"] == plays[hungarian.winner]["card"]
        assert hungarian.winner < english.winner
        assert english.reason == "tricks.equal_last"


FIELD_NAMES = ["card", "colour", "value", "hand", "seat", "claim", "claim_after", "tricks_taken", "monster", "players"]
SETUP_NAMES = ["trump", "super_trump", "chief_trump", "vice_trump", "kind", "trump_colour", "trump_number", "variant"]
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 20)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(["red", "blue", "green", "black", "colour", "number", "none", "reverse", "hattrick"]),
    lambda children: (
        st.lists(children, max_size=6)
        | st.dictionaries(st.sampled_from(FIELD_NAMES + SETUP_NAMES) | st.text(max_size=5), children, max_size=5)
    ),
    max_leaves=25,
)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([*KEYS, "nope"]) | json_values, json_values, json_values, json_values)
def test_property_any_json_raises_only_invalid_round(key: Any, setup: Any, plays: Any, options: Any) -> None:
    for call in (
        lambda: referee(key, setup, plays, options=options),
        lambda: legal_cards(key, setup, plays, options, options=setup),
        lambda: trump_order(key, setup),
        lambda: colours(key, options),
    ):
        try:
            call()
        except InvalidRound as exc:
            assert exc.problems
            assert all(p.msg in MESSAGES for p in exc.problems)


@settings(max_examples=200, deadline=None)
@given(tricks(), st.data())
def test_property_near_valid_tricks_raise_only_invalid_round(trick: Any, data: st.DataObject) -> None:
    key, setup, plays, options = trick
    # replace one leaf or branch of the valid input with arbitrary JSON
    target = data.draw(st.sampled_from(["setup", "options", "play", "card", "hand"]))
    junk = data.draw(json_values)
    i = data.draw(st.integers(0, len(plays) - 1))
    if target == "setup":
        setup = {**setup, data.draw(st.sampled_from(SETUP_NAMES)): junk}
    elif target == "options":
        options = {**options, data.draw(st.sampled_from(["players", "tie_rule", "variant"])): junk}
    elif target == "play":
        plays[i] = {**plays[i], data.draw(st.sampled_from(FIELD_NAMES)): junk}
    elif target == "card":
        plays[i] = {**plays[i], "card": {**plays[i]["card"], data.draw(st.sampled_from(["colour", "value"])): junk}}
    else:
        plays[i] = {**plays[i], "hand": [*plays[i].get("hand", []), junk]}
    try:
        result = referee(key, setup, plays, options=options)
    except InvalidRound as exc:
        assert exc.problems
    else:
        assert 0 <= result.winner < len(plays)
