"""The round write's one statement (``scoring.services.round_write``) writes every column of the rows it inserts:
a column added to Round, Score, RoundEvent or IdempotencyKey must be added there too (a NOT NULL one would
otherwise fail every round entered on PostgreSQL, as the stable identifiers' ``uid`` did)."""

from __future__ import annotations

import pytest

from scoring.models import IdempotencyKey, Round, RoundEvent, Score
from scoring.services import round_write


@pytest.mark.parametrize(
    ("model", "written"),
    [
        (Round, round_write.ROUND_FIELDS),
        (Score, round_write.SCORE_FIELDS),
        (RoundEvent, round_write.EVENT_FIELDS),
        (IdempotencyKey, round_write.KEY_FIELDS),
    ],
)
def test_the_statement_writes_every_column_but_the_id(model, written) -> None:
    columns = {f.name for f in model._meta.concrete_fields if not f.primary_key}
    assert set(written) == columns
    assert len(written) == len(set(written))


@pytest.mark.django_db(transaction=True)
def test_a_round_written_in_one_statement_keeps_its_stable_identifier(table, njet_match) -> None:
    from scoring import services
    from tests.scoring.helpers import njet_facts

    rnd = services.round_record(match=njet_match, facts=njet_facts(), user=table.member)
    stored = Round.objects.get(pk=rnd.pk)
    assert stored.uid == rnd.uid and stored.uid is not None
    assert Score.objects.filter(round=stored).count() == 5
