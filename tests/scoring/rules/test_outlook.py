"""What do I need (scoring/rules/outlook.py): positions worked out by hand in Meinz, NJET and Muzicando (with
players who can no longer win), MÜ played to a total, and the edges (a finished match, a game without a known end)."""

from __future__ import annotations

from typing import Any

from scoring.rules import get
from scoring.rules.bounds import RoundBounds
from scoring.rules.outlook import Outlook, match_outlook, outlook_of
from scoring.rules.types import MatchState


def outlook(key: str, rounds: list[dict[str, Any]], players: int, options: dict[str, Any] | None = None) -> Outlook:
    rules = get(key)
    parsed = rules.options_parse(options or {}, players=players)
    state = rules.state(rounds, players=players, options=parsed)
    found = match_outlook(key, state, players=players, options=parsed)
    assert found is not None
    return found


def test_meinz_two_rounds_left() -> None:
    # five rounds 51/38/37/31 (3/1/0/2 each), then 40/40/39/34 (only the lowest gets its 2): 15, 5, 0, 12
    rounds = [{"sums": [51, 38, 37, 31]}] * 5 + [{"sums": [40, 40, 39, 34]}]
    found = outlook("meinz", rounds, 4)
    assert [s.total for s in found.seats] == [15, 5, 0, 12]
    # two rounds left, a round moves a player at most 3 on another (the 3 against the 0): 6 can still be made up
    assert (found.rounds_left, found.bounds.gain, found.reach) == (2, 3, 6)
    lead, second, third, fourth = found.seats
    assert (lead.behind, lead.lead, lead.can_win, lead.ahead_of_them) == (0, 3, True, ())
    assert (fourth.behind, fourth.can_win, fourth.ahead_of_them) == (3, True, (0,))
    assert (second.behind, second.can_win, second.out_of_reach) == (10, False, (0, 3))  # 12 − 5 = 7 > 6 too
    assert (third.behind, third.can_win, third.out_of_reach) == (15, False, (0, 3))  # 5 behind seat 1: within 6


def njet_round(start: int, teams: list[int], per_trick: int, tricks: list[int], booty: list[int]) -> dict[str, Any]:
    return {
        "start_player": start,
        "teams": teams,
        "monster": None,
        "discard": "none",
        "points_per_trick": per_trick,
        "tricks": tricks,
        "booty": booty,
    }


def test_njet_last_round() -> None:
    sweep = njet_round(0, [0, 0, 1, 1], 4, [15, 0, 0, 0], [12, 0, 0, 0])  # (15 + 12) × 4 = 108 for seats 0 and 1
    close = njet_round(0, [0, 0, 1, 1], 1, [4, 4, 4, 3], [0, 0, 0, 0])  # 8 against 7
    mixed = njet_round(0, [0, 1, 0, 1], 2, [5, 5, 5, 0], [0, 0, 0, 0])  # seats 0 and 2: 20, seats 1 and 3: 10
    found = outlook("njet", [sweep, sweep, close, close, close, close, mixed], 4)
    assert [s.total for s in found.seats] == [268, 258, 48, 38]
    # 4 players play 8 rounds; a round can give one side 108 and the other 0
    assert (found.rounds_left, found.bounds.gain, found.reach) == (1, 108, 108)
    anna, bela, cili, dora = found.seats
    assert (anna.lead, anna.can_win) == (10, True)
    assert (bela.behind, bela.can_win) == (10, True)
    assert (cili.behind, cili.can_win, cili.out_of_reach) == (220, False, (0, 1))
    assert (dora.behind, dora.can_win, dora.out_of_reach) == (230, False, (0, 1))


def muzicando_deal(order: list[int], contract: Any = None, holding: list[int] | None = None) -> dict[str, Any]:
    return {"order": order, "holding": holding or [], "contract": contract, "breach": None}


def test_muzicando_teams_one_deal_left() -> None:
    made = muzicando_deal([0, 2, 1, 3], {"declarer": 0, "type": "muzicando", "level": 4}, [3])  # NS 4+3+8, EW 2+1−1
    plain = muzicando_deal([0, 1, 2, 3])  # NS 4 + 2, EW 3 + 1
    found = outlook("muzicando", [made, made, plain], 4, {"mode": "team"})
    assert [s.total for s in found.seats] == [36, 8, 36, 8]
    # one deal left; the best deal for East-West against the worst for North-South moves them 25 (15 against −10)
    assert (found.rounds_left, found.bounds.gain, found.reach) == (1, 25, 25)
    north, east, south, west = found.seats
    assert north.can_win and south.can_win and north.lead == south.lead == 0  # partners share the lead
    assert (east.behind, east.can_win, east.ahead_of_them) == (28, False, (0, 2))
    assert not west.can_win


def test_muzicando_teams_still_within_reach() -> None:
    made = muzicando_deal([0, 2, 1, 3], {"declarer": 0, "type": "muzicando", "level": 4}, [3])
    found = outlook("muzicando", [made, made], 4, {"mode": "team"})  # 30 against 4 with two deals left
    assert found.reach == 50 and all(s.can_win for s in found.seats)


def test_mue_played_to_a_total() -> None:
    # RULES.md: Márk (seat 3) bids 4, partner Anita (0), colour trump, made: 40 each plus the triangles
    played = {
        "outcome": "played",
        "chief": 3,
        "bid": 4,
        "vice": 2,
        "vice_trump": {"kind": "number", "value": 9},
        "chief_trump": {"kind": "colour", "value": "green"},
        "partner": 0,
        "triangles": [15, 10, 10, 20, 5],
    }
    found = outlook("mue", [played], 5, {"target": 500})
    assert [s.total for s in found.seats] == [55, 10, 10, 60, 5]
    assert found.rounds_left is None and found.reach is None and found.target == 500
    # a round gives one player at most 160 (60 triangles and a bonus of 100): 440 more need three rounds
    assert found.bounds.most == 160 and found.earliest_end == 3
    mark = found.seats[3]
    assert (mark.lead, mark.to_target) == (5, 440)
    # nobody is ever out of it before someone reaches the target
    assert all(s.can_win for s in found.seats)
    assert [s.to_target for s in found.seats] == [445, 490, 490, 440, 495]


def test_mue_the_next_round_can_end_it() -> None:
    found = outlook("mue", [], 4, {"target": 100})
    assert found.earliest_end == 1 and all(s.behind == 0 for s in found.seats)
    assert all(s.lead == 0 and s.ahead_of_them == () for s in found.seats)  # everyone level: nobody leads alone


def test_no_outlook_once_the_match_is_over_or_without_a_known_end() -> None:
    rounds = [{"sums": [51, 38, 37, 31]}] * 8
    rules = get("meinz")
    state = rules.state(rounds, players=4)
    assert state.finished
    assert match_outlook("meinz", state, players=4, options={}) is None
    running = MatchState(totals=(1, 0, 0), rounds_played=1, finished=False)  # neither rounds left nor a target
    assert outlook_of(running, bounds=RoundBounds(most=3, least=0, gain=3)) is None
    assert match_outlook("was-sticht", running, players=3, options={}) is None


def test_outlook_as_json() -> None:
    found = outlook("meinz", [{"sums": [51, 38, 37, 31]}], 4)
    data = found.as_dict()
    assert data["rounds_left"] == 7 and data["reach"] == 21 and data["round"] == {"most": 3, "least": 0, "gain": 3}
    assert data["players"][0] == {
        "seat": 0,
        "total": 3,
        "behind": 0,
        "lead": 1,
        "behind_whom": [],
        "can_win": True,
        "out_of_reach": [],
        "to_target": None,
    }
    assert data["players"][2]["behind_whom"] == [0]
