"""The trick referee pages (issues 30 and 31): every game at every table size, verdicts naming players in both
languages, the NJET edition (the match's, or the page language's), Meinz with the monster, claims and tricks
already held, Was sticht? played tricks and draft rows; the new-match page's NJET edition; the Meinz board."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.models import Match
from scoring.rules.tricks import GAMES

pytestmark = pytest.mark.django_db

ISSUE_TRICK = ["yellow:7", "yellow:7", "red:7", "red:1"]  # black is trump


def text(response: Any) -> str:
    """What a person reads: the page without tags, whitespace collapsed."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'").strip()


def verdict(response: Any) -> str:
    html = response.content.decode()
    start = html.find('id="verdict"')
    assert start > 0, text(response)[:2000]
    end = html.find("</div>", start)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[start:end])).replace("&#x27;", "'")


def referee_post(client: Any, key: str, data: dict[str, Any], language: str = "en") -> Any:
    return client.post(reverse("referee_game", args=[key]), data, HTTP_ACCEPT_LANGUAGE=language)


# --- standalone: neutral names, the page language's NJET edition --------------------------------------------


@pytest.mark.parametrize(
    ("language", "checked", "winner", "edition"),
    [
        ("en", "english", "Player 2 takes the trick: yellow 7", "Decided by the English edition's rules"),
        ("hu", "hungarian", "1. játékos viszi az ütést: sárga 7", "A magyar kiadás szabálya döntött"),
    ],
)
def test_standalone_njet_defaults_to_the_edition_of_the_language(
    client: Any, language: str, checked: str, winner: str, edition: str
) -> None:
    page = client.get(reverse("referee_game", args=["njet"]), HTTP_ACCEPT_LANGUAGE=language)
    assert re.search(rf'name="tie_rule" value="{checked}" checked', page.content.decode())
    response = referee_post(client, "njet", {"players": "4", "trump": "black", "play": ISSUE_TRICK}, language)
    shown = verdict(response)
    assert winner in shown
    assert edition in shown
    assert "seat" not in shown.lower() and "ülés" not in shown


def test_standalone_njet_edition_can_be_chosen(client: Any) -> None:
    data = {"players": "4", "trump": "black", "tie_rule": "hungarian", "play": ISSUE_TRICK}
    shown = verdict(referee_post(client, "njet", data))
    assert "Player 1 takes the trick: yellow 7" in shown
    assert "Decided by the Hungarian edition's rules" in shown
    assert "Player 2: yellow 7: a card of the led colour." in shown


def test_the_leader_decides_whose_card_is_whose(client: Any) -> None:
    data = {"players": "4", "trump": "black", "tie_rule": "hungarian", "leader": "2", "play": ISSUE_TRICK}
    shown = verdict(referee_post(client, "njet", data))
    assert "Player 3 takes the trick: yellow 7" in shown
    assert "Player 4: yellow 7" in shown and "Player 1: red 7" in shown and "Player 2: red 1" in shown


def _cards(key: str, players: int, size: int) -> list[str]:
    game = GAMES[key]
    colours = game.colours(players)
    low, high = game.values(players)
    return [f"{colours[i % len(colours)]}:{min(low + 1 + i, high)}" for i in range(size)]


TABLES = [(key, n) for key, game in GAMES.items() for n in range(game.min_players, game.max_players + 1)]


@pytest.mark.parametrize(("key", "players"), TABLES)
@pytest.mark.parametrize("language", ["en", "hu"])
def test_every_game_is_judged_at_every_table_size(client: Any, key: str, players: int, language: str) -> None:
    size = 4 if key == "meinz" else players  # Meinz: three players and the monster
    response = referee_post(client, key, {"players": str(players), "play": _cards(key, players, size)}, language)
    shown = verdict(response)
    assert ("takes the trick" if language == "en" else "viszi az ütést") in shown
    assert shown.count(":") >= size  # every card's part, each after its player's name
    assert "errbox" not in response.content.decode()


def test_a_trick_waits_for_every_card(client: Any) -> None:
    response = referee_post(client, "njet", {"players": "5", "play": ISSUE_TRICK})
    assert 'id="verdict"' not in response.content.decode()
    assert "Next card: Player 5" in text(response)


# --- Meinz: the monster, claims, tricks already held ---------------------------------------------------------


def test_meinz_three_players_the_monster_plays_in_turn(client: Any) -> None:
    data = {"players": "3", "play": ["red:5", "blue:2", "red:8", "green:1"]}
    response = referee_post(client, "meinz", data)
    page = response.content.decode()
    assert 'name="leader" value="3"' in page  # the monster leads like everyone
    shown = verdict(response)
    assert "The monster takes the trick: green 1" in shown
    assert "The monster: green 1: the monster's card" in shown
    hu = verdict(referee_post(client, "meinz", data, "hu"))
    assert "A szörny viszi az ütést: zöld 1" in hu


def test_meinz_monster_leads_and_the_claim_of_a_player(client: Any) -> None:
    data = {"players": "3", "leader": "3", "claim": "1", "play": ["red:5", "blue:2", "red:8", "green:1"]}
    shown = verdict(referee_post(client, "meinz", data))
    # the monster led red 5; Player 1 played blue 2 and Player 2 claimed with red 8
    assert "The monster: red 5" in shown and "Player 1: blue 2" in shown
    assert "Player 2 takes the trick: red 8" in shown
    assert "Claimed by Meinz" in shown


def test_meinz_a_player_with_two_tricks_cannot_win(client: Any) -> None:
    data = {"players": "3", "taken_1": "2", "play": ["red:5", "blue:2", "red:8", "green:6"]}
    shown = verdict(referee_post(client, "meinz", data))
    assert "Player 1 takes the trick: red 5" in shown
    assert "Player 2: blue 2: this player already has two tricks" in shown
    hu = verdict(referee_post(client, "meinz", data, "hu"))
    assert "1. játékos viszi az ütést: piros 5" in hu


def test_meinz_a_player_with_two_tricks_cannot_claim(client: Any) -> None:
    data = {"players": "4", "taken_0": "2", "claim": "0", "play": ["red:5", "blue:2", "red:8", "green:6"]}
    response = referee_post(client, "meinz", data)
    assert "A player who already has two tricks can neither win nor claim a trick." in text(response)
    assert 'id="verdict"' not in response.content.decode()


def test_meinz_four_players_have_no_monster(client: Any) -> None:
    page = referee_post(client, "meinz", {"players": "4"}).content.decode()
    assert "The monster" not in page
    assert 'name="leader" value="3"' in page and 'name="taken_3"' in page


# --- Was sticht? with three players ---------------------------------------------------------------------------


def test_was_sticht_three_players_played_trick(client: Any) -> None:
    data = {"players": "3", "trump_colour": "red", "trump_number": "2", "play": ["blue:7", "red:6", "blue:9"]}
    shown = verdict(referee_post(client, "was-sticht", data))
    assert "Player 2 takes the trick: red 6" in shown
    assert "The table hand" not in shown


def test_was_sticht_three_players_draft_row(client: Any) -> None:
    data = {
        "players": "3",
        "row": "draft",
        "leader": "1",
        "trump_colour": "red",
        "trump_number": "2",
        "play": ["blue:7", "red:6", "yellow:2", "red:2"],
    }
    shown = verdict(referee_post(client, "was-sticht", data))
    assert "The table hand takes the trick: red 2" in shown
    assert "Player 2: blue 7" in shown and "Player 1: yellow 2" in shown
    assert "Az asztal viszi az ütést: piros 2" in verdict(referee_post(client, "was-sticht", data, "hu"))


# --- opened for a match -----------------------------------------------------------------------------------------


def _match_referee(client: Any, match: Match, data: dict[str, Any], language: str = "en") -> Any:
    return referee_post(client, match.ruleset, {"match": str(match.pk), **data}, language)


def test_new_njet_match_from_the_hungarian_page_preselects_and_stores_the_hungarian_edition(
    client_in: Any, group: Any, players: list[Any]
) -> None:
    url = reverse("match_new", args=[group.pk]) + "?game=njet"
    page = client_in.get(url, HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert re.search(r'name="opt_tie_rule" value="hungarian" checked', page)
    assert "A szabályok kiadása" in page
    english = client_in.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.search(r'name="opt_tie_rule" value="english" checked', english)
    data = {"game": "njet", "players": [str(p.pk) for p in players[:4]], "opt_recording": "full"}
    response = client_in.post(reverse("match_new", args=[group.pk]), data, HTTP_ACCEPT_LANGUAGE="hu")
    assert response.status_code == 302
    assert Match.objects.get().options["tie_rule"] == "hungarian"


def test_match_referee_uses_the_match_names_and_edition(client_in: Any, make_match: Any) -> None:
    match = make_match("njet", 4, {"tie_rule": "hungarian"})
    page = client_in.get(reverse("match", args=[match.pk])).content.decode()
    assert f"{reverse('referee_game', args=['njet'])}?match={match.pk}" in page
    response = _match_referee(client_in, match, {"trump": "black", "play": ISSUE_TRICK})
    shown = verdict(response)
    assert "Anna takes the trick: yellow 7" in shown
    assert "Bence: yellow 7" in shown and "Cili: red 7" in shown and "Dani: red 1" in shown
    assert "Decided by the Hungarian edition's rules" in shown
    assert 'name="tie_rule"' not in response.content.decode()  # the match's edition, not a choice
    hu = verdict(_match_referee(client_in, match, {"trump": "black", "play": ISSUE_TRICK}, "hu"))
    assert "Anna viszi az ütést: sárga 7" in hu and "A magyar kiadás szabálya döntött" in hu
    # a page's tie_rule cannot override the match's edition
    forced = _match_referee(client_in, match, {"trump": "black", "tie_rule": "english", "play": ISSUE_TRICK})
    assert "Anna takes the trick" in verdict(forced)


def test_a_match_stored_without_an_edition_keeps_the_english_rule(client_in: Any, make_match: Any) -> None:
    match = make_match("njet", 4)
    match.options.pop("tie_rule")
    match.save()
    shown = verdict(_match_referee(client_in, match, {"trump": "black", "play": ISSUE_TRICK}, "hu"))
    assert "Bence viszi az ütést: sárga 7" in shown
    assert "Az angol kiadás szabálya döntött" in shown


def test_match_referee_meinz_three_players_names_the_monster(client_in: Any, make_match: Any) -> None:
    match = make_match("meinz", 3)
    data = {"leader": "2", "claim": "0", "play": ["red:5", "blue:1", "red:8", "green:6"]}
    shown = verdict(_match_referee(client_in, match, data))
    # Cili leads, then the monster, Anna (who claimed), Bence
    assert "Cili: red 5" in shown and "The monster: blue 1" in shown and "Bence: green 6" in shown
    assert "Anna takes the trick: red 8" in shown
    # Bence plays the fourth card: he may never claim
    response = _match_referee(client_in, match, {**data, "claim": "1"})
    assert "The fourth player may never claim a trick." in text(response)


def test_match_referee_is_only_for_members_and_the_match_game(client_in: Any, make_match: Any) -> None:
    match = make_match("njet", 4)
    assert Client().get(reverse("referee_game", args=["njet"]) + f"?match={match.pk}").status_code == 404
    assert client_in.get(reverse("referee_game", args=["mue"]) + f"?match={match.pk}").status_code == 404
    assert client_in.get(reverse("referee_game", args=["njet"]) + f"?match={match.pk}").status_code == 200


# --- the Meinz board: who leads --------------------------------------------------------------------------------


def test_meinz_board_says_when_the_monster_leads(client_in: Any, make_match: Any, user: Any) -> None:
    match = make_match("meinz", 3)
    facts = {"sums": [51, 38, 37], "monster_sum": 31}
    for _ in range(2):
        services.round_record(match=match, facts=facts, user=user)
    board = text(client_in.get(reverse("match_board", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="en"))
    assert "Next dealer: Cili" in board and "Start player: the monster" in board
    hu = text(client_in.get(reverse("match_board", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="hu"))
    assert "Kezdőjátékos: a szörny" in hu
    services.round_record(match=match, facts=facts, user=user)
    board = text(client_in.get(reverse("match_board", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="en"))
    # round 4: Anna deals and leads (the lead goes round four hands, the deal round three)
    assert "Next dealer: Anna" in board and "Start player: Anna" in board


def test_meinz_hungarian_verdict_counts_in_singular_and_plural(client: Any) -> None:
    one = {"players": "3", "taken_1": "2", "play": ["red:5", "blue:2", "red:8", "green:6"]}
    response = referee_post(client, "meinz", one, "hu")
    assert "1 lap, amely ütné, olyan játékosé, akinek már két ütése van, így többet nem vihet." in verdict(response)
    assert "Az ütés: 4/4 lap" in text(response)
    two = {**one, "taken_3": "2", "play": ["red:5", "blue:2", "red:8", "green:1"]}  # the monster holds two too
    shown = verdict(referee_post(client, "meinz", two, "hu"))
    assert "1. játékos viszi az ütést: piros 5" in shown
    assert "2 lap, amely ütné, olyan játékosoké, akiknek már két ütésük van, így többet nem vihetnek." in shown
    english = verdict(referee_post(client, "meinz", two))
    assert "2 cards that would beat it belong to players who already have two tricks" in english
    assert "(s)" not in english
