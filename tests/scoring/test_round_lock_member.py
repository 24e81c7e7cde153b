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


def test_the_reads_under_the_lock_give_what_the_orm_gives(table, njet_match):
    """``live_rounds(explained=False)`` and ``seating`` are fixed SQL: the same rows and values as the ORM, the
    JSON columns decoded, deleted rounds left out, in round and seat order; unread columns are read on use."""
    from scoring.services.locking import live_rounds, match_lock_member, seating

    _first, second, third = (
        services.round_record(match=njet_match, facts=njet_facts(), user=table.member) for _ in "123"
    )
    services.round_delete(round=second, expected_version=1, user=table.member)

    fast = live_rounds(njet_match, explained=False)
    orm = list(Round.objects.filter(match=njet_match, deleted_at__isnull=True).order_by("number"))
    columns = ["pk", "match_id", "number", "facts", "points", "ruleset_version", "version", "entered_by_id"]
    assert [[getattr(r, c) for c in columns] for r in fast] == [[getattr(r, c) for c in columns] for r in orm]
    assert [r.number for r in fast] == [1, 3] and isinstance(fast[0].facts, dict) and fast[0].points == third.points
    assert all(r.deleted_at is None for r in fast)
    assert fast[1].created_at == orm[1].created_at and fast[1].explanation == orm[1].explanation  # read on use

    seats = list(njet_match.seats.order_by("number").values_list("player_id", "player__name"))
    assert seating(njet_match) == ([p for p, _ in seats], [n for _, n in seats])
    locked = match_lock_member(match_id=njet_match.pk, user=table.member)
    assert (locked.pk, locked.group_id, locked.next_number, locked.options) == (
        njet_match.pk,
        table.group.pk,
        4,
        njet_match.options,
    )
