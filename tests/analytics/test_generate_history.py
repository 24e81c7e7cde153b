"""generate_history: a synthetic history where every round is valid under its game's rules."""

from __future__ import annotations

import io
from collections import defaultdict
from random import Random

import pytest
from django.core.management import call_command

from analytics import synthetic
from analytics.models import Snapshot
from scoring import rules
from scoring.models import Match, Round, Score, Seat


@pytest.mark.parametrize("key", list(synthetic.GAMES))
def test_generators_play_whole_matches_the_rules_accept(key: str) -> None:
    rng = Random(key)
    for _ in range(25):
        n = rng.choice(synthetic.GAMES[key].players)
        played = synthetic.play_match(rng, key, synthetic.player_skills(rng, n))
        assert played.rejected == 0, "the generator produced a round the rules refuse"
        assert played.rounds and played.finished_by_rules


@pytest.mark.django_db
def test_generate_history_writes_valid_rounds_with_a_progress_bar() -> None:
    out, err = io.StringIO(), io.StringIO()
    call_command("generate_history", rounds=700, players=30, groups=3, seed=4, years=2, stdout=out, stderr=err)
    assert "generated 700 rounds" in out.getvalue()
    assert "rounds [" in err.getvalue() and "100.0%" in err.getvalue()
    assert Round.objects.count() == 700
    assert set(Match.objects.values_list("ruleset", flat=True)) == set(rules.KEYS)

    facts_by_match: dict[int, list[Round]] = defaultdict(list)
    for rnd in Round.objects.order_by("match_id", "number"):
        facts_by_match[rnd.match_id].append(rnd)
    scores = defaultdict(list)
    for s in Score.objects.order_by("round_id", "seat"):
        scores[s.round_id].append(s.points)
    for match in Match.objects.all():
        seats = Seat.objects.filter(match=match).count()
        game = rules.get(match.ruleset)
        history = game.history([r.facts for r in facts_by_match[match.pk]], players=seats, options=match.options)
        state = game.module.match_state(history, players=seats, options=match.options)
        assert state.finished == (match.finish_reason == Match.FinishReason.RULES)
        for rnd, (_facts, result) in zip(facts_by_match[match.pk], history, strict=True):
            assert rnd.points == list(result.scores) == scores[rnd.pk]
        if match.state == Match.State.FINISHED:
            assert match.finished_at is not None and match.finished_at >= facts_by_match[match.pk][-1].created_at


@pytest.mark.django_db
def test_generate_history_rebuilds_the_statistics_when_asked() -> None:
    call_command(
        "generate_history", rounds=150, players=8, groups=1, seed=9, rebuild=True, stdout=io.StringIO(),
        stderr=io.StringIO(),
    )  # fmt: skip
    group = Snapshot.objects.get(scope="group")
    assert not group.stale and group.payload["summary"]["rounds"] > 0


@pytest.mark.django_db
def test_without_rebuild_the_history_is_left_for_the_catch_up() -> None:
    """Bulk-written rounds bypass the services, so the command itself marks the groups for the workers."""
    from analytics import services
    from analytics.models import MatchStanding, StatsDirty
    from config.celery import app

    eager, app.conf.task_always_eager = app.conf.task_always_eager, False  # as with a real worker
    out = io.StringIO()
    try:
        call_command("generate_history", rounds=150, players=8, groups=2, seed=9, stdout=out, stderr=io.StringIO())
    finally:
        app.conf.task_always_eager = eager
    assert "marked out of date" in out.getvalue()
    dirty = set(StatsDirty.objects.values_list("group_id", "match_id"))
    assert dirty == {(g, StatsDirty.WHOLE_GROUP) for g in Match.objects.values_list("group_id", flat=True)}
    assert not MatchStanding.objects.exists()
    services.stats_catch_up()
    finished = Match.objects.filter(state=Match.State.FINISHED).count()
    assert MatchStanding.objects.values("match_id").distinct().count() == finished > 0
    assert not StatsDirty.objects.exists()


def _all_visible_share(table: str) -> float:
    """The share of the table's pages its visibility map marks all-visible (as the last VACUUM left it)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT relpages, relallvisible FROM pg_class WHERE oid = %s::regclass", [table])
        pages, visible = cursor.fetchone()
    return visible / pages if pages else 0.0


@pytest.mark.django_db(transaction=True)
def test_the_generated_history_is_vacuumed_as_autovacuum_would_leave_it() -> None:
    """The dashboards' live figures come from index-only scans, which read the table for every row on a page the
    visibility map does not mark all-visible: a bulk-loaded history must be vacuumed to be measured fairly."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("VACUUM and the visibility map are PostgreSQL's")
    out = io.StringIO()
    call_command("generate_history", rounds=400, players=8, groups=2, seed=3, stdout=out, stderr=io.StringIO())
    for model in (Round, Score, Match, Seat):
        assert _all_visible_share(model._meta.db_table) == 1.0, model.__name__


@pytest.mark.django_db
def test_vacuum_runs_only_outside_a_transaction_and_on_known_table_names() -> None:
    from analytics.sql.builder import vacuum_analyze

    assert vacuum_analyze([Round._meta.db_table]) is False  # inside the test's transaction: left to the caller
    with pytest.raises(ValueError, match="unsafe table name"):
        vacuum_analyze(["scoring_round; DROP TABLE scoring_round"])
