"""Round writes check the membership in the SELECT that locks the match: outsiders still change nothing."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import AnonymousUser

from scoring import services
from scoring.models import Round, RoundEvent
from scoring.rules import FactsText
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
    """``table`` and ``seating`` are fixed SQL: the same rows and values as the ORM, the JSON columns decoded,
    deleted rounds left out, in round and seat order."""
    from scoring.services.locking import match_lock_member, seating
    from scoring.services.locking import table as table_read

    _first, second, third = (
        services.round_record(match=njet_match, facts=njet_facts(), user=table.member) for _ in "123"
    )
    services.round_delete(round=second, expected_version=1, user=table.member)
    services.player_rename(player=njet_match.seats.get(number=2).player, name="Zoé", user=table.member)

    seat_ids, names, played = table_read(njet_match)
    orm = list(Round.objects.filter(match=njet_match, deleted_at__isnull=True).order_by("number"))
    columns = ["pk", "number", "points", "ruleset_version"]
    assert [[getattr(r, c) for c in columns] for r in played] == [[getattr(r, c) for c in columns] for r in orm]
    # the facts as their stored JSON text, for the replay to parse once per process
    assert [json.loads(r.facts) for r in played] == [r.facts for r in orm]
    assert all(isinstance(r.facts, FactsText) for r in played) and [r.number for r in played] == [1, 3]
    assert played[1].points == third.points and isinstance(played[1].points, list)

    seats = list(njet_match.seats.order_by("number").values_list("player_id", "player__name"))
    assert seating(njet_match) == (seat_ids, names) == ([p for p, _ in seats], [n for _, n in seats])
    assert names[2] == "Zoé"
    locked = match_lock_member(match_id=njet_match.pk, user=table.member)
    assert (locked.pk, locked.group_id, locked.next_number, locked.options) == (
        njet_match.pk,
        table.group.pk,
        4,
        njet_match.options,
    )
