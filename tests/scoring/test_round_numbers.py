"""Round numbers: a new round takes the highest live number + 1, a save names the number its form was for (a
stale one stores nothing and says who saved that round), deleted rounds free their number, and the match's
undo takes the version the caller saw, so a double tap undoes one change."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from django.db import connection
from rest_framework.authtoken.models import Token

from scoring import selectors, services
from scoring.models import IdempotencyKey, Match, Round, RoundEvent, Score
from scoring.services.errors import AlreadyUndone, RoundTaken
from tests.scoring.helpers import njet_facts, record

pytestmark = pytest.mark.django_db


def _rounds_url(match: Match) -> str:
    return f"/api/v1/matches/{match.pk}/rounds"


def _live_numbers(match: Match) -> list[int]:
    return list(
        Round.objects.filter(match=match, deleted_at__isnull=True).order_by("number").values_list("number", flat=True)
    )


# --- the service ------------------------------------------------------------------------------------------


def test_a_save_for_a_round_saved_meanwhile_stores_nothing_and_names_who_saved_it(table, njet_match):
    # table.owner is linked to the player Anna: the phone is told the player's name
    services.round_record(match=njet_match, facts=njet_facts(), user=table.owner, expected_number=1)
    version = Match.objects.get(pk=njet_match.pk).version

    with pytest.raises(RoundTaken) as caught:
        services.round_record(
            match=njet_match, facts=njet_facts(points_per_trick=3), user=table.member, expected_number=1
        )

    taken = caught.value
    assert (taken.expected, taken.next_number, taken.by) == (1, 2, "Anna")
    assert taken.round.number == 1 and taken.round.entered_by_id == table.owner.pk
    assert taken.message() == "Round 1 was just saved by Anna."
    assert _live_numbers(njet_match) == [1]
    assert Round.objects.get(match=njet_match).facts["points_per_trick"] == 2  # the first phone's round
    match = Match.objects.get(pk=njet_match.pk)
    assert (match.version, match.next_number) == (version, 2)
    assert RoundEvent.objects.filter(match=njet_match, action="create").count() == 1


def test_a_saver_without_a_player_is_named_by_the_account(table, njet_match):
    table.member.first_name, table.member.last_name = "Máté", "Kiss"
    table.member.save()
    services.round_record(match=njet_match, facts=njet_facts(), user=table.member, expected_number=1)
    with pytest.raises(RoundTaken) as caught:
        services.round_record(match=njet_match, facts=njet_facts(), user=table.owner, expected_number=1)
    assert caught.value.by == "Máté Kiss"


def test_the_right_number_is_stored_as_that_number(table, njet_match):
    for number in (1, 2, 3):
        rnd = services.round_record(match=njet_match, facts=njet_facts(), user=table.member, expected_number=number)
        assert rnd.number == number
    assert _live_numbers(njet_match) == [1, 2, 3]


def test_a_number_past_the_next_one_is_refused_too(table, njet_match):
    _first, second = record(njet_match, table.member, n=2)
    services.round_delete(round=second, expected_version=1, user=table.member)
    # a form still showing round 3 (made before round 2 was deleted): the round would be round 2
    with pytest.raises(RoundTaken) as caught:
        services.round_record(match=njet_match, facts=njet_facts(), user=table.member, expected_number=3)
    assert (caught.value.round, caught.value.next_number) == (None, 2)
    assert "would now be round 2, not 3" in caught.value.message()
    assert _live_numbers(njet_match) == [1]


def test_a_replayed_idempotency_key_gets_its_round_not_a_conflict(table, njet_match):
    first = services.round_record(
        match=njet_match, facts=njet_facts(), user=table.member, idempotency_key="k-1", expected_number=1
    )
    again = services.round_record(
        match=njet_match, facts=njet_facts(), user=table.member, idempotency_key="k-1", expected_number=1
    )
    assert again.pk == first.pk and again.replayed is True
    assert Round.objects.filter(match=njet_match).count() == 1
    # another phone's key with the same number is the conflict
    with pytest.raises(RoundTaken):
        services.round_record(
            match=njet_match, facts=njet_facts(), user=table.owner, idempotency_key="k-2", expected_number=1
        )
    assert not IdempotencyKey.objects.filter(key="k-2").exists()


def test_deleting_the_last_round_then_entering_one_reuses_its_number(table, njet_match):
    _first, _second, third = record(njet_match, table.member, n=3)
    services.round_delete(round=third, expected_version=1, user=table.member)
    assert Match.objects.get(pk=njet_match.pk).next_number == 3
    assert selectors.match_scoreboard(match=njet_match)["next_number"] == 3

    again = services.round_record(match=njet_match, facts=njet_facts(), user=table.member, expected_number=3)

    assert again.number == 3
    assert _live_numbers(njet_match) == [1, 2, 3]
    assert Round.objects.filter(match=njet_match, number=3).count() == 2  # the deleted one is kept
    assert Match.objects.get(pk=njet_match.pk).next_number == 4
    # the number now addresses the live round
    assert selectors.round_get(match=njet_match, number=3).pk == again.pk
    assert Score.objects.filter(round=again).count() == 5


def test_a_deleted_middle_round_leaves_a_gap_that_can_be_restored(table, njet_match):
    _first, second, _third = record(njet_match, table.member, n=3)
    services.round_delete(round=second, expected_version=1, user=table.member)
    assert [r.pk for r in selectors.round_gaps(match=njet_match)] == [second.pk]
    assert services.round_record(match=njet_match, facts=njet_facts(), user=table.member).number == 4

    services.round_undo(round=selectors.round_get(match=njet_match, number=2), user=table.member)

    assert _live_numbers(njet_match) == [1, 2, 3, 4]
    assert selectors.round_gaps(match=njet_match) == []
    assert Match.objects.get(pk=njet_match.pk).next_number == 5


def test_restoring_a_round_whose_number_was_given_again_is_refused(table, njet_match):
    _first, second = record(njet_match, table.member, n=2)
    services.round_delete(round=second, expected_version=1, user=table.member)
    services.round_record(match=njet_match, facts=njet_facts(points_per_trick=3), user=table.member)

    with pytest.raises(services.Conflict) as caught:
        services.round_undo(round=second, user=table.member)

    assert "Round 2 cannot be restored" in str(caught.value)
    assert Round.objects.get(pk=second.pk).deleted_at is not None
    assert _live_numbers(njet_match) == [1, 2]
    assert selectors.round_gaps(match=njet_match) == []  # no gap: the deleted round is not offered for restoring


def test_undo_of_the_match_walks_back_through_a_reused_number(table, njet_match):
    _first, second = record(njet_match, table.member, n=2)
    services.round_delete(round=second, expected_version=1, user=table.member)
    new = services.round_record(match=njet_match, facts=njet_facts(points_per_trick=3), user=table.member)

    assert services.match_undo_last(match=njet_match, user=table.member).pk == new.pk  # the new round 2 goes
    assert services.match_undo_last(match=njet_match, user=table.member).pk == second.pk  # the old one comes back
    assert _live_numbers(njet_match) == [1, 2]
    assert Round.objects.get(match=njet_match, number=2, deleted_at__isnull=True).pk == second.pk


def test_a_double_undo_with_one_version_undoes_one_change(table, njet_match):
    record(njet_match, table.member, n=3)
    seen = Match.objects.get(pk=njet_match.pk).version

    services.match_undo_last(match=njet_match, user=table.member, expected_version=seen)
    with pytest.raises(AlreadyUndone) as caught:
        services.match_undo_last(match=njet_match, user=table.member, expected_version=seen)

    assert _live_numbers(njet_match) == [1, 2]
    assert RoundEvent.objects.filter(match=njet_match, action="undo").count() == 1
    assert "already undone" in caught.value.message()
    # with the version the page shows now, the next undo goes ahead
    services.match_undo_last(match=njet_match, user=table.member, expected_version=seen + 1)
    assert _live_numbers(njet_match) == [1]


# --- the API ----------------------------------------------------------------------------------------------


def test_api_stale_round_number_is_a_409_with_the_saved_round_and_nothing_stored(table, client_for, njet_match):
    owner, member = client_for(table.owner), client_for(table.member)
    first = owner.post(_rounds_url(njet_match), {"facts": njet_facts(), "number": 1}, format="json")
    assert first.status_code == 201 and first.json()["number"] == 1

    late = member.post(_rounds_url(njet_match), {"facts": njet_facts(points_per_trick=3), "number": 1}, format="json")

    assert late.status_code == 409, late.json()
    body = late.json()
    assert body["detail"] == "Round 1 was just saved by Anna."
    assert (body["number"], body["next_number"], body["saved_by"]) == (1, 2, "Anna")
    assert body["current"]["number"] == 1 and body["current"]["facts"]["points_per_trick"] == 2
    assert body["current"]["points"] == [20, 20, 20, 18, 18]
    assert body["current"]["explanation"][0]["text"]
    assert Round.objects.filter(match=njet_match).count() == 1
    board = member.get(f"/api/v1/matches/{njet_match.pk}/scoreboard").json()
    assert (board["rounds_played"], board["next_number"]) == (1, 2)


COLORETTO_ROUND = {  # three players, red out of the game: 54 cards, the one round that ends the match
    "removed_colour": "red",
    "yellow": [9, 0, 0],
    "orange": [0, 9, 0],
    "red": [0, 0, 0],
    "green": [0, 0, 9],
    "blue": [5, 4, 0],
    "brown": [0, 5, 4],
    "grey": [4, 0, 5],
    "jokers": [0, 0, 0],
    "plus_twos": [0, 0, 0],
}


def test_api_a_late_save_of_the_round_that_finished_the_match_is_told_who_saved_it(table, client_for):
    """Coloretto is one round: the first phone's save finishes the match, and the late phone must still hear
    "Round 1 was just saved by Anna" with that round, not only that the match is finished."""
    match = services.match_create(
        group=table.group,
        ruleset="coloretto",
        options={},
        player_ids=[p.pk for p in table.players[:3]],
        user=table.owner,
    )
    first = client_for(table.owner).post(_rounds_url(match), {"facts": COLORETTO_ROUND, "number": 1}, format="json")
    assert first.status_code == 201 and Match.objects.get(pk=match.pk).state == Match.State.FINISHED

    late_facts = {**COLORETTO_ROUND, "yellow": [6, 0, 3]}
    late = client_for(table.member).post(_rounds_url(match), {"facts": late_facts, "number": 1}, format="json")

    assert late.status_code == 409, late.json()
    body = late.json()
    assert (body["detail"], body["number"], body["saved_by"]) == ("Round 1 was just saved by Anna.", 1, "Anna")
    assert body["current"]["facts"]["yellow"] == [9, 0, 0]
    assert list(Round.objects.filter(match=match).values_list("facts__yellow", flat=True)) == [[9, 0, 0]]
    # without a number the finished match still refuses a round, as before
    plain = client_for(table.member).post(_rounds_url(match), {"facts": late_facts}, format="json")
    assert plain.status_code == 409 and "finished" in plain.json()["detail"]


def test_api_stale_number_in_hungarian(table, client_for, njet_match):
    client_for(table.owner).post(_rounds_url(njet_match), {"facts": njet_facts(), "number": 1}, format="json")
    late = client_for(table.member).post(
        _rounds_url(njet_match), {"facts": njet_facts(), "number": 1}, format="json", HTTP_ACCEPT_LANGUAGE="hu"
    )
    assert late.status_code == 409
    assert late.json()["detail"] == "1. kör: épp most mentette el Anna."


def test_api_replay_of_the_same_key_is_still_201(table, client_for, njet_match):
    api = client_for(table.member)
    payload = {"facts": njet_facts(), "number": 1}
    first = api.post(_rounds_url(njet_match), payload, format="json", HTTP_IDEMPOTENCY_KEY="same")
    again = api.post(_rounds_url(njet_match), payload, format="json", HTTP_IDEMPOTENCY_KEY="same")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Round.objects.filter(match=njet_match).count() == 1


def test_api_without_a_number_still_takes_the_next_one(table, client_for, njet_match):
    api = client_for(table.member)
    numbers = [api.post(_rounds_url(njet_match), {"facts": njet_facts()}, format="json").json()["number"] for _ in "ab"]
    assert numbers == [1, 2]


def test_api_match_undo_twice_with_one_version_undoes_one_change(table, client_for, njet_match):
    api = client_for(table.member)
    for _ in range(2):
        api.post(_rounds_url(njet_match), {"facts": njet_facts()}, format="json")
    version = api.get(f"/api/v1/matches/{njet_match.pk}").json()["version"]
    url = f"/api/v1/matches/{njet_match.pk}/undo"

    first = api.post(url, {"version": version}, format="json")
    second = api.post(url, {}, format="json", HTTP_IF_MATCH=f'"{version}"')

    assert first.status_code == 200 and (first.json()["number"], first.json()["deleted"]) == (2, True)
    assert second.status_code == 409, second.json()
    assert "already undone" in second.json()["detail"]
    assert second.json()["current"]["version"] == version + 1
    assert _live_numbers(njet_match) == [1]
    assert RoundEvent.objects.filter(match=njet_match, action="undo").count() == 1


# --- parallel taps on PostgreSQL --------------------------------------------------------------------------


@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (DATABASE_URL)")
def test_ten_parallel_undos_with_one_version_undo_one_change(transactional_db, live_server, table, njet_match):
    for _ in range(3):
        services.round_record(match=njet_match, facts=njet_facts(), user=table.member)
    version = Match.objects.get(pk=njet_match.pk).version
    token, _ = Token.objects.get_or_create(user=table.member)
    headers = {"Authorization": f"Token {token.key}", "If-Match": f'"{version}"'}
    url = f"{live_server.url}/api/v1/matches/{njet_match.pk}/undo"
    taps = 10
    barrier = threading.Barrier(taps)

    def tap(_: Any) -> requests.Response:
        barrier.wait(timeout=30)
        return requests.post(url, json={}, headers=headers, timeout=60)

    with ThreadPoolExecutor(max_workers=taps) as pool:
        responses = list(pool.map(tap, range(taps)))

    codes = sorted(r.status_code for r in responses)
    assert codes == [200] + [409] * (taps - 1), [r.text for r in responses]
    assert _live_numbers(njet_match) == [1, 2]
    assert RoundEvent.objects.filter(match=njet_match, action="undo").count() == 1
    assert Match.objects.get(pk=njet_match.pk).version == version + 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (DATABASE_URL)")
def test_parallel_saves_of_one_round_number_store_one_round(transactional_db, live_server, table, njet_match):
    tokens = [Token.objects.get_or_create(user=user)[0].key for user in (table.owner, table.member)]
    phones = tokens * 3
    url = f"{live_server.url}/api/v1/matches/{njet_match.pk}/rounds"
    barrier = threading.Barrier(len(phones))

    def save(token: str) -> requests.Response:
        barrier.wait(timeout=30)
        return requests.post(
            url, json={"facts": njet_facts(), "number": 1}, headers={"Authorization": f"Token {token}"}, timeout=60
        )

    with ThreadPoolExecutor(max_workers=len(phones)) as pool:
        responses = list(pool.map(save, phones))

    codes = sorted(r.status_code for r in responses)
    assert codes == [201] + [409] * (len(phones) - 1), [r.text for r in responses]
    assert _live_numbers(njet_match) == [1]
    winner = Round.objects.get(match=njet_match)
    saver = "Anna" if winner.entered_by_id == table.owner.pk else "mate"
    assert all(r.json()["saved_by"] == saver for r in responses if r.status_code == 409)
