"""Finishing, reopening and undoing a match from its page: the version guards against a stale form."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from scoring import services
from scoring.models import Match
from tests.scoring.helpers import njet_facts

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after():
    """A Hungarian request activates Hungarian in this thread: put the language back for the next test."""
    with translation.override("en"):
        yield


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


def test_undo_the_last_change(client_in, make_match, user):
    match = make_match("njet", 5)
    services.round_record(match=match, facts=njet_facts(), user=user)
    response = client_in.post(f"/matches/{match.pk}/undo", follow=True)
    assert "The last change was undone." in _messages(response)
    assert not match.rounds.filter(deleted_at__isnull=True).exists()


def _form_values(html: str) -> dict[str, list[str]]:
    """What the entry form would send as rendered: text values, checked radios and checkboxes."""
    form = html[html.index('id="entry-form"') :]
    form = form[: form.index("</form>")]
    out: dict[str, list[str]] = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name, value = re.search(r'name="([^"]+)"', tag), re.search(r'value="([^"]*)"', tag)
        kind = re.search(r'type="([^"]+)"', tag)
        if not name or (kind and kind.group(1) in ("radio", "checkbox") and " checked" not in tag):
            continue
        out.setdefault(name.group(1), []).append(value.group(1) if value else "")
    return out


BAD = "This form did not say which version of the match it was made for, so nothing was changed."


@pytest.mark.parametrize("action", ["finish", "reopen"])
@pytest.mark.parametrize("version", ["x", "²", "١", ""])
def test_a_malformed_version_answers_the_match_page_and_changes_nothing(client_in, make_match, user, action, version):
    match = make_match("njet", 5)
    services.round_record(match=match, facts=njet_facts(), user=user)
    match.refresh_from_db()
    if action == "reopen":
        services.match_finish(match=match, expected_version=match.version, user=user)
    match.refresh_from_db()
    state, before = match.state, match.version
    response = client_in.post(f"/matches/{match.pk}/{action}", {"version": version}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert any(BAD in m for m in _messages(response))
    assert "Finish the match now" in response.content.decode() or "Reopen" in response.content.decode()
    match.refresh_from_db()
    assert (match.state, match.version) == (state, before)


def test_a_malformed_version_in_hungarian(client_in, make_match, user):
    match = make_match("njet", 5)
    response = client_in.post(f"/matches/{match.pk}/finish", {"version": "²"}, HTTP_ACCEPT_LANGUAGE="hu")
    assert response.status_code == 400
    assert any("nem derült ki, a meccs melyik állapotához" in m for m in _messages(response))


def test_a_malformed_version_deletes_no_round(client_in, make_match, user):
    match = make_match("njet", 5)
    services.round_record(match=match, facts=njet_facts(), user=user)
    response = client_in.post(f"/matches/{match.pk}/rounds/1/delete", {"version": "²"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert any(BAD in m for m in _messages(response))
    assert match.rounds.filter(deleted_at__isnull=True).count() == 1


def test_a_malformed_version_edits_nothing_and_keeps_the_form(client_in, make_match, user):
    match = make_match("njet", 5)
    rnd = services.round_record(match=match, facts=njet_facts(), user=user)
    before = (rnd.version, dict(rnd.facts))
    page = client_in.get(f"/matches/{match.pk}/rounds/1/edit")
    assert page.status_code == 200
    data = {**_form_values(page.content.decode()), "version": "x", "points_per_trick": "3"}
    response = client_in.post(f"/matches/{match.pk}/rounds/1/edit", data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    html = response.content.decode()
    assert "This form did not say which version of the round it was made for" in html
    assert 'name="points_per_trick" value="3" checked' in html  # the form keeps what was typed
    rnd.refresh_from_db()
    assert (rnd.version, rnd.facts) == before
