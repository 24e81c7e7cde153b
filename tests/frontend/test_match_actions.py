"""Finishing, reopening and undoing a match from its page: the version guards against a stale form."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.models import Match
from tests.scoring.helpers import njet_facts

pytestmark = pytest.mark.django_db


def _messages(response) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(m) for m in response.context["messages"]]


def test_finish_then_reopen_with_the_current_version(client_in, make_match, user):
    match = make_match("njet", 5)
    services.round_record(match=match, facts=njet_facts(), user=user)
    match.refresh_from_db()

    finished = client_in.post(f"/matches/{match.pk}/finish", {"version": match.version}, follow=True)
    match.refresh_from_db()
    assert match.state == Match.State.FINISHED
    assert "The match is finished." in _messages(finished)

    reopened = client_in.post(f"/matches/{match.pk}/reopen", {"version": match.version}, follow=True)
    match.refresh_from_db()
    assert match.state == Match.State.OPEN
    assert "The match is open again." in _messages(reopened)


def test_a_stale_form_does_not_finish_the_match(client_in, make_match, user):
    match = make_match("njet", 5)
    services.round_record(match=match, facts=njet_facts(), user=user)
    match.refresh_from_db()
    stale = match.version - 1
    response = client_in.post(f"/matches/{match.pk}/finish", {"version": stale}, follow=True)
    match.refresh_from_db()
    assert match.state == Match.State.OPEN
    assert f"Someone changed this in the meantime (you had version {stale}, it is now {match.version})." in _messages(
        response
    )
    assert client_in.post(f"/matches/{match.pk}/finish", {"version": "x"}).status_code == 404


def test_undo_the_last_change(client_in, make_match, user):
    match = make_match("njet", 5)
    services.round_record(match=match, facts=njet_facts(), user=user)
    response = client_in.post(f"/matches/{match.pk}/undo", follow=True)
    assert "The last change was undone." in _messages(response)
    assert not match.rounds.filter(deleted_at__isnull=True).exists()
