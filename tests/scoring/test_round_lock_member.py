"""Round writes check the membership in the SELECT that locks the match: outsiders still change nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from scoring import services
from scoring.models import Round, RoundEvent
from tests.scoring.helpers import njet_facts

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("who", ["outsider", "anonymous", "none"])
def test_only_members_write_rounds(table, njet_match, who):
    rnd = services.round_record(match=njet_match, facts=njet_facts(), user=table.member)
    user = {"outsider": table.outsider, "anonymous": AnonymousUser(), "none": None}[who]
    writes = [
        lambda: services.round_record(match=njet_match, facts=njet_facts(), user=user),
        lambda: services.round_edit(round=rnd, facts=njet_facts(start_player=1), expected_version=1, user=user),
        lambda: services.round_delete(round=rnd, expected_version=1, user=user),
        lambda: services.round_undo(round=rnd, user=user),
        lambda: services.match_undo_last(match=njet_match, user=user),
        lambda: services.match_rescore(match=njet_match, user=user),
    ]
    for write in writes:
        with pytest.raises(services.NotAllowed):
            write()
    assert list(Round.objects.values_list("number", "version", "deleted_at")) == [(1, 1, None)]
    assert RoundEvent.objects.count() == 1
