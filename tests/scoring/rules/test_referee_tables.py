"""The trick referee at every table size and in both NJET editions (issue 31), and Coloretto's undrawn cards."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules import InvalidRound, get
from scoring.rules import coloretto as co
from scoring.rules.tricks import GAMES, MESSAGES, referee

# --- helpers -------------------------------------------------------------------------------------------


def play(colour: str, value: int, **extra: Any) -> dict[str, Any]:
    return {"card": {"colour": colour, "value": value}, **extra}


def cards(*pairs: tuple[str, int]) -> list[dict[str, Any]]:
    return [{"colour": colour, "value": value} for colour, value in pairs]


def problems(exc: pytest.ExceptionInfo[InvalidRound]) -> dict[str, str]:
    return {p.field: p.msg for p in exc.value.problems}


# --- NJET: the two editions ------------------------------------------------------------------------------

# The issue's example: black is trump; yellow 7 is led, another yellow 7, red 7, red 1.
ISSUE_TRICK = [play("yellow", 7), play("yellow", 7), play("red", 7), play("red", 1)]


@pytest.mark.parametrize(
    ("edition", "winner", "reason"),
    [("hungarian", 0, "tricks.equal_earlier"), ("english", 1, "tricks.equal_last")],
)
def test_njet_issue_example_in_each_edition(edition: str, winner: int, reason: str) -> None:
    result = referee("njet", {"trump": "black"}, ISSUE_TRICK, options={"tie_rule": edition, "players": 4})
    assert (result.winner, result.reason) == (winner, reason)
    assert result.edition is not None
    assert result.edition.msg == f"tricks.njet_edition_{edition}"
    assert result.edition.rule == "njet-trick-winner"
    assert result.as_dict()["edition"]["msg"] == f"tricks.njet_edition_{edition}"


def test_njet_verdict_names_the_edition_even_when_no_tie_decides() -> None:
    result = referee("njet", {"trump": "black"}, [play("yellow", 7), play("black", 1), play("red", 9)])
    assert (result.winner, result.reason) == (1, "tricks.trump")
    assert result.edition is not None
    assert result.edition.msg == "tricks.njet_edition_english"  # the option's default: stored matches keep it
    assert "English edition" in result.edition.text
    hungarian = referee(
        "njet", {"trump": "black"}, [play("yellow", 7), play("black", 1)], options={"tie_rule": "hungarian"}
    )
    assert hungarian.edition is not None
    assert "Hungarian edition" in hungarian.edition.text


def test_njet_led_super_trump_is_answered_by_trump_only_in_the_hungarian_edition() -> None:
    setup = {"trump": "black", "super_trump": "blue"}
    hand = cards(("blue", 5), ("black", 3))  # a blue card and a trump, no super trump
    plays = [play("blue", 0), play("blue", 5, hand=hand), play("red", 2)]
    english = referee("njet", setup, plays, options={"tie_rule": "english"})
    assert english.illegal == ()
    assert english.legality[0].msg == "tricks.legal_follow_colour"
    hungarian = referee("njet", setup, plays, options={"tie_rule": "hungarian"})
    assert [(n.msg, n.index) for n in hungarian.illegal] == [("tricks.illegal_trump", 1)]
    # void of blue: any card by the English edition, but a trump is owed by the Hungarian one
    hand = cards(("red", 4), ("black", 3))
    plays = [play("blue", 0), play("red", 4, hand=hand), play("red", 2)]
    assert referee("njet", setup, plays, options={"tie_rule": "english"}).illegal == ()
    assert [n.msg for n in referee("njet", setup, plays, options={"tie_rule": "hungarian"}).illegal] == [
        "tricks.illegal_trump"
    ]


def test_njet_edition_messages_say_which_edition() -> None:
    assert "English edition" in MESSAGES["tricks.njet_edition_english"]
    assert "Hungarian edition" in MESSAGES["tricks.njet_edition_hungarian"]


def test_njet_language_defaults_pick_the_edition_of_the_language() -> None:
    njet = get("njet")
    assert njet.language_defaults("hu") == {"tie_rule": "hungarian"}
    assert njet.language_defaults("hu-HU") == {"tie_rule": "hungarian"}
    assert njet.language_defaults("en") == {}
    assert njet.language_defaults(None) == {}
    assert get("meinz").language_defaults("hu") == {}
    # the option's own default stays English: a stored match without the key keeps its meaning
    assert njet.options_parse({}, players=4)["tie_rule"] == "english"
    parsed = njet.options_parse({**njet.language_defaults("hu")}, players=4)
    assert parsed["tie_rule"] == "hungarian"


def test_other_games_name_no_edition() -> None:
    result = referee("mue", {}, [play("red", 1), play("red", 2), play("red", 3), play("red", 4)])
    assert result.edition is None
    assert result.as_dict()["edition"] is None


# --- Meinz: three players with the monster, claims and the two-trick cap -----------------------------------


def test_meinz_monster_card_makes_a_three_player_trick_without_a_player_count() -> None:
    plays = [play("red", 5), play("blue", 2, monster=True), play("red", 8), play("green", 6)]
    result = referee("meinz", {}, plays)
    assert (result.players, result.winner, result.reason) == (3, 1, "tricks.meinz_lowest")
    assert result.notes[1].msg == "tricks.role_monster"
    assert result.as_dict()["players"] == 3
    plays[1].pop("monster")
    assert referee("meinz", {}, plays).players == 4


def test_meinz_three_players_two_monster_cards_are_refused() -> None:
    plays = [play("red", 5, monster=True), play("blue", 2, monster=True), play("red", 8), play("green", 6)]
    with pytest.raises(InvalidRound) as exc:
        referee("meinz", {}, plays)
    assert problems(exc) == {"plays": "tricks.monster_count"}


def test_meinz_three_players_a_claim_takes_the_trick_from_the_monster() -> None:
    plays = [play("red", 5, claim=True), play("blue", 1, monster=True), play("red", 8), play("green", 6)]
    result = referee("meinz", {}, plays, options={"players": 3})
    assert (result.winner, result.reason) == (0, "tricks.meinz_claim")
    assert result.param_dict()["after"] == 1


def test_meinz_player_with_two_tricks_cannot_win_next_lowest_does() -> None:
    # the monster's 1 is lowest but it already has two tricks; the leader's 3 wins (two cards skipped: 1 and 2)
    plays = [
        play("red", 3),
        play("blue", 1, monster=True, tricks_taken=2),
        play("red", 2, tricks_taken=2),
        play("green", 6),
    ]
    result = referee("meinz", {}, plays, options={"players": 3})
    assert (result.winner, result.reason) == (0, "tricks.meinz_capped")
    assert result.param_dict()["skipped"] == 2
    assert [n.msg for n in result.notes][1:3] == ["tricks.role_capped", "tricks.role_capped"]


def test_meinz_player_with_two_tricks_cannot_claim() -> None:
    plays = [
        play("red", 3, claim=True, tricks_taken=2),
        play("blue", 1, monster=True),
        play("red", 2),
        play("green", 6),
    ]
    with pytest.raises(InvalidRound) as exc:
        referee("meinz", {}, plays, options={"players": 3})
    assert problems(exc) == {"plays.0.claim": "tricks.claim_capped"}


# --- Was sticht? with three players -------------------------------------------------------------------------


def test_was_sticht_three_players_played_trick() -> None:
    setup = {"trump_colour": "red", "trump_number": 2}
    result = referee("was-sticht", setup, [play("blue", 7), play("red", 6), play("blue", 9)], options={"players": 3})
    assert (result.players, result.winner, result.reason) == (3, 1, "tricks.ws_trump_colour")
    result = referee("was-sticht", setup, [play("blue", 7), play("green", 6), play("blue", 9)], options={"players": 3})
    assert (result.winner, result.reason) == (2, "tricks.led_colour")


def test_was_sticht_three_players_draft_row_with_the_table_hand() -> None:
    # the rulebook's draft example with the table hand taking Éva's place: the table's yellow 2 takes part
    setup = {"trump_colour": "red", "trump_number": 2}
    row = [play("blue", 7), play("red", 6), play("yellow", 2), play("red", 2)]
    result = referee("was-sticht", setup, row, options={"players": 3})
    assert (result.winner, result.reason) == (3, "tricks.ws_super_trump")
    row = [play("blue", 7), play("red", 6), play("yellow", 2), play("green", 9)]
    assert referee("was-sticht", setup, row, options={"players": 3}).winner == 2


# --- every trick game at every table size ---------------------------------------------------------------------


def _trick(key: str, players: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    game = GAMES[key]
    colours = game.colours(players)
    low, high = game.values(players)
    size = max(game.trick_sizes(players))
    plays = [play(colours[i % len(colours)], min(low + 1 + i, high)) for i in range(size)]
    if key == "meinz" and players == 3:
        plays[3]["monster"] = True
    return plays, {"players": players}


TABLES = [(key, n) for key, game in GAMES.items() for n in range(game.min_players, game.max_players + 1)]


@pytest.mark.parametrize(("key", "players"), TABLES)
def test_every_trick_game_is_judged_at_every_table_size(key: str, players: int) -> None:
    plays, options = _trick(key, players)
    result = referee(key, {}, plays, options=options)
    assert 0 <= result.winner < len(plays)
    assert result.players == players
    assert result.text == MESSAGES[result.reason].format(**result.param_dict())
    assert len(result.notes) == len(plays)


def test_players_from_the_plays() -> None:
    """One card per player, except Meinz, whose four cards are three players and the monster or four players."""
    from scoring.rules.tricks_common import Card, Play

    three = [Play(i, Card("red", i + 1)) for i in range(3)]
    assert GAMES["njet"].players_from(three) == 3
    assert GAMES["mue"].players_from(three) is None  # MÜ needs four players at least
    four = [*three, Play(3, Card("blue", 9), monster=True)]
    assert GAMES["meinz"].players_from(four) == 3
    assert GAMES["meinz"].players_from(three) == 4


def test_table_sizes_cover_each_game_range() -> None:
    assert {key: sorted(n for k, n in TABLES if k == key) for key in GAMES} == {
        "njet": [2, 3, 4, 5],
        "mue": [4, 5, 6],
        "meinz": [3, 4],
        "was-sticht": [3, 4],
        "sticheln": [3, 4, 5, 6, 7, 8],
    }


# --- Coloretto: cards left undrawn --------------------------------------------------------------------------


def five_players_everything() -> dict[str, Any]:
    """Five players holding all 76 cards: possible only with five (15 − 3 × 5 = 0 may stay undrawn)."""
    facts: dict[str, Any] = {c: [9 if seat == i % 5 else 0 for seat in range(5)] for i, c in enumerate(co.COLOURS)}
    return {**facts, "jokers": [1, 1, 1, 0, 0], "plus_twos": [2, 2, 2, 2, 2], "removed_colour": None}


CAPS = {**dict.fromkeys(co.COLOURS, 9), "jokers": 3, "plus_twos": 10}


def four_players(undrawn: int) -> dict[str, Any]:
    """The module's 4-player example (10 undrawn) with cards given to seat 3 or "+2" cards taken back."""
    facts = {k: (list(v) if isinstance(v, list) else v) for k, v in co.EXAMPLE["facts"].items()}
    for _ in range(10 - undrawn):  # one card more for seat 3, of a kind with cards left
        kind = next(k for k, cap in CAPS.items() if sum(facts[k]) < cap)
        facts[kind][3] += 1
    for _ in range(undrawn - 10):  # one "+2" card fewer
        seat = next(s for s, n in enumerate(facts["plus_twos"]) if n > 0)
        facts["plus_twos"][seat] -= 1
    return facts


def test_coloretto_undrawn_lower_bound_by_players() -> None:
    assert [co.undrawn_at_least(n) for n in (3, 4, 5)] == [6, 3, 0]
    assert co.UNDRAWN_AT_MOST == 14


@pytest.mark.parametrize("undrawn", [3, 10, 14])
def test_coloretto_four_players_accepts_three_to_fourteen_undrawn(undrawn: int) -> None:
    facts = four_players(undrawn)
    taken = sum(sum(facts[c]) for c in co.COLOURS) + sum(facts["jokers"]) + sum(facts["plus_twos"])
    assert taken == 76 - undrawn
    get("coloretto").score(facts, players=4)


@pytest.mark.parametrize(("undrawn", "msg"), [(15, "coloretto.too_few"), (2, "coloretto.too_many")])
def test_coloretto_four_players_refuses_fifteen_or_two_undrawn(undrawn: int, msg: str) -> None:
    with pytest.raises(InvalidRound) as exc:
        get("coloretto").score(four_players(undrawn), players=4)
    assert [(p.field, p.msg, p.rule) for p in exc.value.problems] == [("", msg, "coloretto-end")]


def test_coloretto_every_card_drawn_only_with_five_players() -> None:
    get("coloretto").score(five_players_everything(), players=5)
    facts = five_players_everything()
    facts = {k: (v[:4] if isinstance(v, list) else v) for k, v in facts.items()}
    facts["blue"] = [9, 0, 0, 0]
    facts["plus_twos"] = [4, 2, 2, 2]
    with pytest.raises(InvalidRound) as exc:
        get("coloretto").score(facts, players=4)
    assert [p.msg for p in exc.value.problems] == ["coloretto.too_many"]
    assert "at least 3 of the 76 cards stay undrawn, so at most 73" in exc.value.problems[0].text
    assert "not 76" in exc.value.problems[0].text


def test_coloretto_three_players_leave_at_least_six_undrawn() -> None:
    facts: dict[str, Any] = {
        "yellow": [9, 0, 0],
        "orange": [0, 0, 0],
        "red": [0, 9, 0],
        "green": [0, 0, 9],
        "blue": [9, 0, 0],
        "brown": [0, 9, 0],
        "grey": [0, 0, 6],
        "jokers": [1, 1, 1],
        "plus_twos": [3, 3, 3],
        "removed_colour": "orange",
    }  # 51 + 3 + 9 = 63 of 67: 4 undrawn, 2 too few
    with pytest.raises(InvalidRound) as exc:
        get("coloretto").score(facts, players=3)
    assert [p.msg for p in exc.value.problems] == ["coloretto.too_many"]
    facts["grey"] = [0, 0, 4]  # 6 undrawn
    get("coloretto").score(facts, players=3)
