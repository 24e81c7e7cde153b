"""Ratings that show their doubt (issue 47 part 4): provisional ratings, the uncertainty in words, and the backtest
of the ratings against the group's own results, on a hand-built history with a known answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from openskill.models import PlackettLuce

from analytics.models import RatingTrust
from analytics.ratings.doubt import PROVISIONAL_BELOW, Tally, doubt_of, pair_chances
from tests.analytics.helpers import Table, abluxxen

pytestmark = pytest.mark.django_db


def _three_matches(table: Table) -> None:
    """Anna, Bence, Csilla: A > B > C, again A > B > C, then A > C > B (one-game Abluxxen matches)."""
    a, b, c = table.players[:3]
    abluxxen(table, [a, b, c], [10, 6, 3], [0, 1, 1])
    abluxxen(table, [a, b, c], [12, 7, 2], [0, 1, 1])
    abluxxen(table, [a, b, c], [9, 1, 5], [0, 1, 1])


def test_the_backtest_of_a_hand_built_history(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # the worker replays the ratings and the backtest
        _three_matches(table)
    trust = RatingTrust.objects.get(group_id=table.group.pk, ruleset="abluxxen")
    # match 1: nobody is rated yet, three 50:50 calls (half right each); match 2: the ratings after match 1 put
    # A > B > C, all three right; match 3: A > B > C again, A ahead of both right, B ahead of C wrong
    assert (trust.matches, trust.pairs, trust.correct) == (3, 9, 1.5 + 3 + 2)

    # the Brier score, from the library's own ratings and chances (independent of our bookkeeping)
    model = PlackettLuce()
    a, b, c = model.rating(), model.rating(), model.rating()
    chances: list[tuple[float, int]] = [(0.5, 1)] * 3
    [a], [b], [c] = model.rate([[a], [b], [c]], ranks=[1, 2, 3])
    chances += [(model.predict_win([[x], [y]])[0], 1) for x, y in ((a, b), (a, c), (b, c))]
    [a], [b], [c] = model.rate([[a], [b], [c]], ranks=[1, 2, 3])
    chances += [(model.predict_win([[x], [y]])[0], won) for x, y, won in ((a, b, 1), (a, c, 1), (b, c, 0))]
    expected = sum((chance - won) ** 2 for chance, won in chances)
    assert trust.brier == pytest.approx(expected)
    assert 0.0 < expected / 9 < 0.25  # better than a coin flip on this history

    # a rebuild takes the backtest on the way through its replay of the ratings: the same figures
    from analytics import services

    services.stats_rebuild_group(group_id=table.group.pk)
    rebuilt = RatingTrust.objects.get(group_id=table.group.pk, ruleset="abluxxen")
    assert (rebuilt.matches, rebuilt.pairs, rebuilt.correct) == (3, 9, 6.5)
    assert rebuilt.brier == pytest.approx(trust.brier) and rebuilt.players == trust.players

    summary = Tally(matches=trust.matches, pairs=trust.pairs, correct=trust.correct, brier=trust.brier).summary()
    assert summary["correct_share"] == round(6.5 / 9, 4)
    assert summary["coin_flip"] == {"correct_share": 0.5, "brier": 0.25}


def test_pairs_with_a_shared_place_are_not_predicted_and_even_calls_count_half() -> None:
    def even(teams: list[list[Any]]) -> list[float]:
        return [0.5, 0.5]

    assert pair_chances([["a"], ["b"], ["c"]], [1, 1, 2], even) == [(0.5, 1), (0.5, 1)]
    tally = Tally()
    tally.add_match([(0.5, 1), (0.8, 0), (0.7, 1)])
    tally.add_match([])  # a match with nothing to predict is not counted
    assert (tally.matches, tally.pairs, tally.correct) == (1, 3, 1.5)
    assert tally.brier == pytest.approx(0.25 + 0.64 + 0.09)
    assert Tally().summary()["correct_share"] is None


@pytest.mark.parametrize(
    ("sigma", "rated", "certainty", "provisional"),
    [(25 / 3, 0, "guess", True), (6.5, PROVISIONAL_BELOW - 1, "rough", True), (5.0, PROVISIONAL_BELOW, "fair", False),
     (3.0, 40, "settled", False)],
)  # fmt: skip
def test_how_sure_a_rating_is_in_words(sigma: float, rated: int, certainty: str, provisional: bool) -> None:
    found = doubt_of(mu=25.0, sigma=sigma, rated=rated)
    assert (found["certainty"], found["provisional"]) == (certainty, provisional)
    assert (found["low"], found["high"]) == (round(25 - 2 * sigma, 1), round(25 + 2 * sigma, 1))


def test_dashboards_and_api_show_the_doubt(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any], client: Any
) -> None:
    from analytics import services

    with django_capture_on_commit_callbacks(execute=True):
        _three_matches(table)
    client.force_login(table.owner)
    for url in (f"/stats/groups/{table.group.pk}/games/abluxxen/", f"/stats/groups/{table.group.pk}/"):
        client.get(url)  # asks for the snapshot
        services.stats_group_refresh(group_id=table.group.pk)
        page = client.get(url).content.decode()
        assert "provisional" in page and "a first guess" in page and "likely " in page
        assert "72 % of 9 pairs put in the right order (a coin flip: 50 %)" in page
        assert "lower is better" in page
    hu = client.get(f"/stats/groups/{table.group.pk}/games/abluxxen/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert "ideiglenes" in hu and "pénzfeldobás" in hu

    body = client.get(f"/api/v1/groups/{table.group.pk}/ratings?game=abluxxen").json()
    [game] = body["games"]
    assert game["backtest"]["pairs"] == 9 and game["backtest"]["correct_share"] == round(6.5 / 9, 4)
    anna = next(r for r in game["ratings"] if r["player_name"] == "Anna")
    assert (anna["rated"], anna["provisional"], anna["certainty"]) == (3, True, "guess")
    assert anna["low"] < anna["mu"] < anna["high"]
    assert client.get(f"/api/v1/groups/{table.group.pk}/ratings?game=go").status_code == 400
