"""Abandoning an empty match (issue 42): only a match without live rounds; it keeps no round and takes none until
it is reopened; its history says who abandoned it."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.models import Match, RoundEvent
from scoring.services.errors import Conflict, StaleVersion
from tests.scoring.helpers import njet_facts, record

pytestmark = pytest.mark.django_db


def _fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def test_an_empty_match_is_abandoned_and_can_be_reopened(table, njet_match):
    services.match_abandon(match=njet_match, expected_version=1, user=table.member)
    match = _fresh(njet_match)
    assert (match.state, match.version) == (Match.State.ABANDONED, 2)
    event = RoundEvent.objects.get(match=match, action=RoundEvent.Action.ABANDON)
    assert event.actor == table.member and event.after["state"] == "abandoned"
    with pytest.raises(Conflict, match="abandoned; reopen it to add rounds"):
        services.round_record(match=match, facts=njet_facts(), user=table.owner)
    with pytest.raises(Conflict, match="already abandoned"):
        services.match_abandon(match=match, expected_version=2, user=table.owner)
    with pytest.raises(Conflict, match="abandoned; reopen it first"):
        services.match_finish(match=match, expected_version=2, user=table.owner)
    with pytest.raises(StaleVersion):  # a second tap on an older page
        services.match_reopen(match=match, expected_version=1, user=table.owner)
    services.match_reopen(match=match, expected_version=2, user=table.owner)
    assert _fresh(match).state == Match.State.OPEN
    assert services.round_record(match=_fresh(match), facts=njet_facts(), user=table.owner).number == 1


def test_a_match_with_rounds_cannot_be_abandoned(table, njet_match):
    (first,) = record(njet_match, table.owner)
    with pytest.raises(Conflict, match="Only a match without rounds can be abandoned"):
        services.match_abandon(match=njet_match, expected_version=2, user=table.owner)
    services.round_delete(round=first, expected_version=1, user=table.owner)
    services.match_abandon(match=njet_match, expected_version=3, user=table.owner)  # its only round deleted
    match = _fresh(njet_match)
    first.refresh_from_db()
    with pytest.raises(Conflict, match="abandoned; reopen it first"):  # nothing comes back while abandoned
        services.round_undo(round=first, user=table.owner)
    with pytest.raises(Conflict, match="abandoned; reopen it first"):
        services.match_undo_last(match=match, user=table.owner)
    assert _fresh(njet_match).state == Match.State.ABANDONED


def test_outsiders_cannot_abandon(table, njet_match):
    from django.http import Http404

    with pytest.raises((services.NotAllowed, Http404)):
        services.match_abandon(match=njet_match, expected_version=1, user=table.outsider)
    assert _fresh(njet_match).state == Match.State.OPEN
