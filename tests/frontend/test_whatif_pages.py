"""The "Change options" and "Rescore with the current rules" pages (issue 34, part 3): preview, then apply with
the match version the preview showed."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import services
from scoring.models import Match, Round, RoundEvent
from tests.scoring.helpers import njet_facts

pytestmark = pytest.mark.django_db

DIFFERENCE = {"opt_recording": "difference", "opt_tie_rule": "english"}


@pytest.fixture
def njet(make_match: Any, user: Any) -> Match:
    match = make_match("njet", 5)
    for _ in range(2):
        services.round_record(match=match, facts=njet_facts(), user=user)
    return Match.objects.get(pk=match.pk)


def _points(match: Match) -> list[list[int]]:
    return [list(p) for p in Round.objects.filter(match=match).order_by("number").values_list("points", flat=True)]


def test_the_match_page_links_to_the_options_page_set_to_the_current_options(client_in, njet):
    assert f'href="/matches/{njet.pk}/options"' in client_in.get(f"/matches/{njet.pk}/").content.decode()
    page = client_in.get(f"/matches/{njet.pk}/options")
    html = page.content.decode()
    assert page.status_code == 200
    assert "<h1>Change options</h1>" in html
    assert 'name="opt_recording" value="full" checked' in html
    assert 'name="opt_recording" value="difference">' in html
    assert "preview-rounds" not in html  # no preview before one is asked for


def test_preview_shows_every_round_by_player_name_and_writes_nothing(client_in, njet):
    stored = _points(njet)
    page = client_in.post(f"/matches/{njet.pk}/options", {**DIFFERENCE, "preview": "1"})
    html = page.content.decode()
    assert page.status_code == 200
    assert _points(njet) == stored
    assert Match.objects.get(pk=njet.pk).version == njet.version
    rows = page.context["rows"]
    assert [r["number"] for r in rows] == [1, 2]
    assert [c["name"] for c in rows[0]["cells"]] == ["Anna", "Bence", "Cili", "Dani", "Emil"]
    assert [(c["before"], c["after"]) for c in rows[0]["cells"]] == [(20, 2), (20, 2), (20, 2), (18, 0), (18, 0)]
    assert "20 → <strong>2</strong>" in html
    assert "changed</span>" in html  # marked in words, not by colour alone
    assert f'name="version" value="{njet.version}"' in html
    assert 'type="hidden" name="opt_recording" value="difference"' in html


def test_apply_stores_what_the_preview_showed(client_in, njet, user):
    preview = client_in.post(f"/matches/{njet.pk}/options", {**DIFFERENCE, "preview": "1"}).context["preview"]
    done = client_in.post(
        f"/matches/{njet.pk}/options", {**DIFFERENCE, "apply": "1", "version": preview.version}, follow=True
    )
    assert done.redirect_chain[-1][0] == f"/matches/{njet.pk}/"
    assert "The options were changed and every round was scored again." in done.content.decode()
    assert _points(njet) == [r.points_after for r in preview.rounds]
    assert RoundEvent.objects.filter(match=njet, action="options", actor=user).count() == 1


def test_a_stale_apply_changes_nothing_and_says_so(client_in, njet, user):
    services.round_record(match=njet, facts=njet_facts(), user=user)  # another phone, after the preview
    stored = _points(njet)
    page = client_in.post(f"/matches/{njet.pk}/options", {**DIFFERENCE, "apply": "1", "version": njet.version})
    assert page.status_code == 409
    assert "Someone changed this in the meantime" in page.content.decode()
    assert _points(njet) == stored
    assert Match.objects.get(pk=njet.pk).options["recording"] == "full"


def test_a_refused_preview_names_the_round(client_in, make_match, user):
    from tests.scoring.helpers import example

    match = make_match("abluxxen", 3, {"games": 2})
    for _ in range(2):
        services.round_record(match=match, facts=example("abluxxen")["facts"], user=user)
    page = client_in.post(f"/matches/{match.pk}/options", {"opt_mode": "base", "opt_games": "1", "preview": "1"})
    html = page.content.decode()
    assert page.status_code == 400
    assert "These options cannot be applied:" in html
    assert "Round 2:" in html


def test_the_rescore_page_previews_then_applies(client_in, njet):
    right = _points(njet)
    Round.objects.filter(match=njet, number=1).update(ruleset_version="0", points=[1, 1, 1, 1, 1])
    match_page = client_in.get(f"/matches/{njet.pk}/").content.decode()
    assert f'href="/matches/{njet.pk}/rescore"' in match_page
    page = client_in.get(f"/matches/{njet.pk}/rescore")
    assert page.status_code == 200
    assert [r.changed for r in page.context["preview"].rounds] == [True, False]
    assert "1 → <strong>20</strong>" in page.content.decode()
    assert _points(njet)[0] == [1, 1, 1, 1, 1]
    client_in.post(f"/matches/{njet.pk}/rescore", {"version": njet.version})
    assert _points(njet) == right


def test_outsiders_get_404(client, django_user_model, njet):
    client.force_login(django_user_model.objects.create_user("stranger", password="x-43-correct"))
    assert client.get(f"/matches/{njet.pk}/options").status_code == 404
    assert client.post(f"/matches/{njet.pk}/options", {**DIFFERENCE, "preview": "1"}).status_code == 404
    assert client.get(f"/matches/{njet.pk}/rescore").status_code == 404
