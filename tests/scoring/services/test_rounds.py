"""round_record / round_edit / round_delete / round_undo / match_rescore against the real rules engine."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext

from scoring import rules, selectors, services
from scoring.models import IdempotencyKey, Match, Round, RoundEvent, Score
from tests.scoring.helpers import (
    WS_ROUND_1,
    WS_ROUND_1_EDITED,
    WS_ROUND_2,
    example,
    njet_facts,
    played_match,
    record,
    ws_match,
)

pytestmark = pytest.mark.django_db


def test_round_record_stores_facts_points_explanation_scores_and_history(table, njet_match):
    njet = rules.get("njet")
    expected = njet.score(njet_facts(), players=5)

    rnd = services.round_record(match=njet_match, facts=njet_facts(), user=table.member)

    rnd.refresh_from_db()
    assert rnd.number == 1
    assert rnd.facts == njet.normalise(njet_facts(), players=5, options=njet_match.options)
    assert rnd.ruleset_version == njet.version
    assert rnd.points == list(expected.scores) == [20, 20, 20, 18, 18]
    assert [line["msg"] for line in rnd.explanation] == [line.msg for line in expected.lines]
    assert all(line["text"] for line in rnd.explanation)
    assert rnd.entered_by == table.member
    scores = list(Score.objects.filter(round=rnd).order_by("seat").values_list("player_id", "points"))
    assert scores == [(p.pk, pts) for p, pts in zip(table.players, expected.scores, strict=True)]
    event = RoundEvent.objects.get(round=rnd)
    assert (event.action, event.actor, event.before) == ("create", table.member, None)
    assert event.after["points"] == rnd.points
    match = Match.objects.get(pk=njet_match.pk)
    assert (match.next_number, match.version, match.state) == (2, 2, "open")


def test_round_record_refuses_an_impossible_round_with_field_level_messages(table, njet_match):
    with pytest.raises(services.ValidationFailed) as caught:
        services.round_record(match=njet_match, facts=njet_facts(tricks=[0, 0, 0, 0, 0]), user=table.member)

    assert any(field.startswith("facts.tricks") for field in caught.value.problems), caught.value.problems
    assert caught.value.details[0]["rule"].startswith("njet")
    assert not Round.objects.exists()
    assert Match.objects.get(pk=njet_match.pk).next_number == 1


def test_round_record_refuses_facts_that_are_not_an_object(table, njet_match):
    with pytest.raises(services.ValidationFailed) as caught:
        services.round_record(match=njet_match, facts=["not", "an", "object"], user=table.member)
    assert list(caught.value.problems) == ["facts"]


def test_the_match_finishes_itself_when_the_rules_say_so_and_takes_no_more_rounds(table, njet_match):
    assert Match.objects.get(pk=njet_match.pk).winners == []  # a new match has none yet
    record(njet_match, table.member, n=10)  # NJET with 5 players: 10 rounds

    match = Match.objects.get(pk=njet_match.pk)
    assert (match.state, match.finish_reason) == ("finished", "rules")
    assert match.finished_at is not None
    # the rules' winners are recorded for the statistics: NJET's are the best totals
    totals = Score.objects.filter(match=match).values("seat").annotate(total=Sum("points")).order_by("seat")
    best = max(row["total"] for row in totals)
    assert match.winners == [row["seat"] for row in totals if row["total"] == best]
    assert RoundEvent.objects.filter(match=match, action="finish").count() == 1
    with pytest.raises(services.Conflict):
        record(match, table.member)


def test_deleting_a_round_of_a_finished_match_reopens_it_and_undo_finishes_it_again(table, njet_match):
    rounds = record(njet_match, table.member, n=10)

    winners = Match.objects.get(pk=njet_match.pk).winners
    assert winners

    services.round_delete(round=rounds[-1], expected_version=1, user=table.member)
    assert Match.objects.get(pk=njet_match.pk).state == "open"
    assert Match.objects.get(pk=njet_match.pk).winners == []  # no winners while the end condition is not met

    services.round_undo(round=rounds[-1], user=table.member)
    assert Match.objects.get(pk=njet_match.pk).state == "finished"
    assert Match.objects.get(pk=njet_match.pk).winners == winners
    actions = list(RoundEvent.objects.filter(match=njet_match).values_list("action", flat=True))
    assert actions[-4:] == ["reopen", "delete", "finish", "undo"]


def test_a_round_write_updates_only_the_match_columns_it_changes_and_stores_every_change(table, njet_match):
    def match_update(write: Any) -> str:
        with CaptureQueriesContext(connection) as queries:
            write()
        # the UPDATE of the match, alone or as one part of the round write's statement (services/round_write.py)
        (sql,) = [
            m.group(0)
            for q in queries.captured_queries
            for m in re.finditer(r'UPDATE "scoring_match" SET .*? WHERE ', q["sql"])
        ]
        return sql

    rounds = record(njet_match, table.member, n=8)
    ninth = match_update(lambda: rounds.extend(record(njet_match, table.member)))
    assert '"next_number"' in ninth and '"version"' in ninth
    assert not any(col in ninth for col in ('"winners"', '"state"', '"finished_at"', '"options"', '"group_id"'))

    tenth = match_update(lambda: rounds.extend(record(njet_match, table.member)))  # the last round: finished
    assert '"state"' in tenth and '"winners"' in tenth and '"finished_at"' in tenth
    match = Match.objects.get(pk=njet_match.pk)
    assert (match.state, match.winners) == ("finished", [0, 1, 2])

    # seats 3 and 4 take the last round by far: still finished, other winners
    swing = njet_facts(tricks=[0, 0, 0, 6, 6], booty=[0, 0, 0, 2, 2])
    edit = match_update(
        lambda: services.round_edit(round=rounds[-1], facts=swing, expected_version=1, user=table.member)
    )
    assert '"winners"' in edit and '"state"' not in edit
    match = Match.objects.get(pk=njet_match.pk)
    assert (match.state, match.finish_reason, match.winners) == ("finished", "rules", [3, 4])


def test_round_edit_rescores_the_round_and_the_later_rounds_that_depend_on_it(table):
    match = ws_match(table.group, table.players, table.owner)
    first = services.round_record(match=match, facts=WS_ROUND_1, user=table.owner)
    second = services.round_record(match=match, facts=WS_ROUND_2, user=table.owner)
    assert second.explanation[-1]["params"]["task"] == "last-trick"

    services.round_edit(round=first, facts=WS_ROUND_1_EDITED, expected_version=1, user=table.member)

    first.refresh_from_db()
    second.refresh_from_db()
    ws = rules.get("was-sticht")
    history = ws.history([WS_ROUND_1_EDITED, WS_ROUND_2], players=4, options=match.options)
    assert first.points == list(history[0][1].scores) == [1, 0, 1, 1]
    assert second.points == list(history[1][1].scores)
    assert second.explanation[-1]["params"]["task"] == "exactly-2"  # he now returns a different task
    assert (first.version, second.version) == (2, 2)
    events = {e.action: e for e in RoundEvent.objects.filter(match=match, action__in=["edit", "rescore"])}
    assert events["edit"].before["facts"]["tricks"] == [2, 2, 0, 5]
    assert events["edit"].after["facts"]["tricks"] == [2, 3, 0, 4]
    assert events["rescore"].round_number == 2
    assert events["rescore"].actor == table.member
    totals = Score.objects.filter(match=match, seat=0).aggregate(total=Sum("points"))["total"]
    assert totals == first.points[0] + second.points[0]


def test_an_edit_that_makes_a_later_round_impossible_is_refused_naming_that_round(table):
    match = ws_match(table.group, table.players, table.owner)
    first = services.round_record(match=match, facts=WS_ROUND_1, user=table.owner)
    services.round_record(
        match=match, facts={**WS_ROUND_2, "chosen": ["betli", None, "exactly-3", "exactly-1"]}, user=table.owner
    )

    # after the edit seat 0 has returned "betli" in round 1, so he cannot choose it in round 2
    with pytest.raises(services.ValidationFailed) as caught:
        services.round_edit(round=first, facts=WS_ROUND_1_EDITED, expected_version=1, user=table.owner)

    assert any(field.startswith("rounds.2.") for field in caught.value.problems), caught.value.problems
    first.refresh_from_db()
    assert first.facts["tricks"] == [2, 2, 0, 5]
    assert first.version == 1


def test_deleting_an_earlier_round_keeps_the_later_rounds_start_players_valid(table):
    """Was sticht?'s start player moves left with each deal at the table: round 2 was the second deal, started by
    seat 1, and stays valid when round 1's record is deleted (its tasks are rescored without round 1)."""
    match = ws_match(table.group, table.players, table.owner)
    first = services.round_record(match=match, facts=WS_ROUND_1, user=table.owner)
    services.round_record(match=match, facts=WS_ROUND_2, user=table.owner)

    services.round_delete(round=first, expected_version=1, user=table.owner)

    board = selectors.match_scoreboard(match=match)
    assert [r["number"] for r in board["rounds"]] == [2] and board["problems"] == []
    assert board["next_starter"]["seat"] == 2  # the third deal


def test_an_edit_against_a_stale_version_is_refused(table, njet_match):
    (rnd,) = record(njet_match, table.member)
    services.round_edit(round=rnd, facts=njet_facts(points_per_trick=3), expected_version=1, user=table.owner)

    with pytest.raises(services.StaleVersion) as caught:
        services.round_edit(round=rnd, facts=njet_facts(points_per_trick=4), expected_version=1, user=table.member)

    assert (caught.value.expected, caught.value.current) == (1, 2)
    rnd.refresh_from_db()
    assert rnd.facts["points_per_trick"] == 3
    assert rnd.points == [30, 30, 30, 27, 27]


def test_an_edit_without_a_version_is_refused(table, njet_match):
    (rnd,) = record(njet_match, table.member)
    with pytest.raises(services.ValidationFailed) as caught:
        services.round_edit(round=rnd, facts=njet_facts(), expected_version=None, user=table.member)
    assert list(caught.value.problems) == ["version"]


def test_an_edit_that_changes_nothing_keeps_the_version(table, njet_match):
    (rnd,) = record(njet_match, table.member)
    services.round_edit(round=rnd, facts=njet_facts(), expected_version=1, user=table.member)
    rnd.refresh_from_db()
    assert rnd.version == 1
    assert not RoundEvent.objects.filter(action="edit").exists()


def test_delete_is_soft_removes_the_scores_and_undo_restores_everything(table, njet_match):
    first, second = record(njet_match, table.member, n=2)

    services.round_delete(round=first, expected_version=1, user=table.member)

    first.refresh_from_db()
    assert first.deleted_at is not None
    assert first.points == [20, 20, 20, 18, 18]  # kept for the undo and the export
    assert not Score.objects.filter(round=first).exists()
    assert Score.objects.filter(round=second).count() == 5
    with pytest.raises(services.Conflict):
        services.round_delete(round=first, expected_version=2, user=table.member)
    with pytest.raises(services.Conflict):
        services.round_edit(round=first, facts=njet_facts(), expected_version=2, user=table.member)

    services.round_undo(round=first, user=table.owner)

    first.refresh_from_db()
    assert first.deleted_at is None
    assert first.version == 3
    assert Score.objects.filter(round=first).count() == 5
    undo = RoundEvent.objects.filter(round=first).latest("id")
    assert (undo.action, undo.after["undid"], undo.actor) == ("undo", "delete", table.owner)


def test_repeated_undo_walks_back_through_a_rounds_history(table, njet_match):
    (rnd,) = record(njet_match, table.member)
    services.round_edit(round=rnd, facts=njet_facts(points_per_trick=3), expected_version=1, user=table.member)
    services.round_edit(round=rnd, facts=njet_facts(points_per_trick=4), expected_version=2, user=table.member)

    services.round_undo(round=rnd, user=table.member)
    rnd.refresh_from_db()
    assert rnd.facts["points_per_trick"] == 3

    services.round_undo(round=rnd, user=table.member)
    rnd.refresh_from_db()
    assert rnd.facts["points_per_trick"] == 2
    assert rnd.points == [20, 20, 20, 18, 18]

    services.round_undo(round=rnd, user=table.member)  # undoing the creation deletes the round
    rnd.refresh_from_db()
    assert rnd.deleted_at is not None
    with pytest.raises(services.Conflict):
        services.round_undo(round=rnd, user=table.member)


def test_match_undo_last_reverts_the_newest_change_in_the_match(table, njet_match):
    first, second = record(njet_match, table.member, n=2)
    services.round_delete(round=first, expected_version=1, user=table.member)

    restored = services.match_undo_last(match=njet_match, user=table.member)
    assert restored.pk == first.pk
    assert Round.objects.get(pk=first.pk).deleted_at is None

    removed = services.match_undo_last(match=njet_match, user=table.member)  # the newest live change: round 2 created
    assert removed.pk == second.pk
    assert Round.objects.get(pk=second.pk).deleted_at is not None


def test_match_rescore_recomputes_rounds_scored_by_an_older_ruleset_version(table, njet_match):
    first, second = record(njet_match, table.member, n=2)
    # as if round 1 had been scored by a buggy earlier version of the NJET module
    Round.objects.filter(pk=first.pk).update(points=[1, 1, 1, 1, 1], ruleset_version="0")
    Score.objects.filter(round=first).update(points=1)

    services.match_rescore(match=njet_match, user=table.owner)

    first.refresh_from_db()
    second.refresh_from_db()
    assert first.points == [20, 20, 20, 18, 18]
    assert first.ruleset_version == rules.get("njet").version
    assert first.version == 2
    assert second.version == 1  # unchanged rounds are left alone
    assert sorted(Score.objects.filter(round=first).values_list("points", flat=True)) == [18, 18, 20, 20, 20]
    event = RoundEvent.objects.get(action="rescore")
    assert (event.before["points"], event.after["points"]) == ([1, 1, 1, 1, 1], [20, 20, 20, 18, 18])


def test_the_same_idempotency_key_stores_one_round(table, njet_match):
    first = services.round_record(match=njet_match, facts=njet_facts(), user=table.member, idempotency_key="tap-1")
    again = services.round_record(match=njet_match, facts=njet_facts(), user=table.member, idempotency_key="tap-1")

    assert again.pk == first.pk
    assert (first.replayed, again.replayed) == (False, True)
    assert Round.objects.count() == 1
    assert IdempotencyKey.objects.get(key="tap-1").round_id == first.pk


def test_an_idempotency_key_reused_for_other_facts_is_refused(table, njet_match):
    services.round_record(match=njet_match, facts=njet_facts(), user=table.member, idempotency_key="tap-1")
    with pytest.raises(services.IdempotencyMismatch):
        services.round_record(
            match=njet_match, facts=njet_facts(points_per_trick=3), user=table.member, idempotency_key="tap-1"
        )
    assert Round.objects.count() == 1


def test_idempotency_keys_belong_to_one_user(table, njet_match):
    services.round_record(match=njet_match, facts=njet_facts(), user=table.member, idempotency_key="tap-1")
    services.round_record(match=njet_match, facts=njet_facts(), user=table.owner, idempotency_key="tap-1")
    assert Round.objects.count() == 2


def test_outsiders_cannot_record_rounds(table, njet_match):
    with pytest.raises(services.NotAllowed):
        record(njet_match, table.outsider)


@pytest.mark.parametrize("key", rules.KEYS)
def test_every_rulesets_worked_example_can_be_recorded(table, key):
    ex = example(key)
    match = services.match_create(
        group=table.group,
        ruleset=key,
        options=ex.get("options"),
        player_ids=[p.pk for p in table.players[: ex["players"]]],
        user=table.owner,
    )
    rnd = services.round_record(match=match, facts=ex["facts"], user=table.owner)
    assert rnd.points == list(
        rules.get(key).score(ex["facts"], players=ex["players"], options=ex.get("options")).scores
    )


def _count_scoring(monkeypatch: pytest.MonkeyPatch, key: str) -> list[Any]:
    """Every round the rules engine scores for ``key`` from now on (its facts, in order)."""
    module = rules.get(key).module
    scored: list[Any] = []
    score_round = module.score_round
    monkeypatch.setattr(module, "score_round", lambda facts, **kw: scored.append(facts) or score_round(facts, **kw))
    return scored


@pytest.mark.parametrize(
    ("key", "options", "rounds"),
    [
        ("was-sticht", None, None),  # each round depends on the ones before (tasks held, start player)
        ("abluxxen", {"mode": "base", "games": 30}, 30),  # a long match
    ],
)
def test_appending_rounds_scores_only_the_new_round_and_stores_what_a_full_replay_gives(
    table, monkeypatch, key, options, rounds
):
    played, match = played_match(table, key, "append", options=options, rounds=rounds)
    assert len(played.rounds) >= 5
    scored = _count_scoring(monkeypatch, key)

    for facts, _result in played.rounds:
        services.round_record(match=match, facts=facts, user=table.member)

    assert len(scored) == len(played.rounds)  # one per round entered, not 1 + 2 + … + n
    stored = list(Round.objects.filter(match=match).order_by("number"))
    assert [r.points for r in stored] == [list(result.scores) for _f, result in played.rounds]
    # a replay of the whole match from its facts finds nothing to change
    services.match_rescore(match=match, user=table.owner)
    assert not RoundEvent.objects.filter(match=match, action="rescore").exists()
    assert list(Round.objects.filter(match=match).order_by("number").values_list("version", flat=True)) == [1] * len(
        stored
    )
    assert Match.objects.get(pk=match.pk).state == ("finished" if played.finished_by_rules else "open")
    # the winners recorded round by round are the rules engine's over the whole match
    assert Match.objects.get(pk=match.pk).winners == played.winners


def test_after_a_round_scored_by_an_older_version_the_next_round_replays_the_match(table, njet_match, monkeypatch):
    record(njet_match, table.member, n=2)
    scored = _count_scoring(monkeypatch, "njet")
    record(njet_match, table.member)
    assert len(scored) == 1

    Round.objects.filter(match=njet_match, number=1).update(ruleset_version="0")
    record(njet_match, table.member)
    assert len(scored) == 1 + 4  # rounds 1-3 scored again (the stored points may be stale), then round 4


def test_an_impossible_round_after_stored_ones_is_refused_under_facts(table):
    match = ws_match(table.group, table.players, table.owner)
    services.round_record(match=match, facts=WS_ROUND_1, user=table.owner)

    with pytest.raises(services.ValidationFailed) as caught:
        services.round_record(match=match, facts={**WS_ROUND_2, "start_player": 0}, user=table.owner)

    assert "facts.start_player" in caught.value.problems, caught.value.problems
    assert Round.objects.filter(match=match).count() == 1


def test_entering_a_round_reads_no_earlier_explanation_and_the_same_queries_however_long_the_match(table, njet_match):
    def entered() -> list[str]:
        with CaptureQueriesContext(connection) as queries:
            record(njet_match, table.member)
        return [q["sql"] for q in queries.captured_queries]

    record(njet_match, table.member, n=2)
    third = entered()
    record(njet_match, table.member, n=4)
    eighth = entered()

    assert len(eighth) == len(third)  # no query per earlier round
    # one statement reads the seats and the earlier rounds, without their explanations
    live = [sql for sql in eighth if 'FROM "scoring_round"' in sql and "SELECT" in sql and "INSERT" not in sql]
    assert len(live) == 1, eighth
    assert 'r."facts"' in live[0] and 'FROM "scoring_seat"' in live[0]
    assert "explanation" not in live[0]
    assert Round.objects.get(match=njet_match, number=8).explanation  # the new round's own is stored


def test_deleting_the_last_round_checks_nothing_again_and_a_broken_stored_round_is_still_named(table, njet_match):
    first, second, third = record(njet_match, table.member, n=3)
    services.round_delete(round=third, expected_version=1, user=table.member)  # rounds 1-2 stay as stored
    assert Match.objects.get(pk=njet_match.pk).next_number == 3  # the deleted last round frees its number

    # every round before the change is stored; one whose facts no longer parse is still refused with a message
    Round.objects.filter(pk=first.pk).update(facts={"tricks": "garbled"})
    with pytest.raises(services.ValidationFailed) as caught:
        services.round_delete(round=second, expected_version=1, user=table.member)
    assert any(field.startswith("rounds.") for field in caught.value.problems), caught.value.problems
