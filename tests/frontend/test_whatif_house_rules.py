"""Issue 43 §4 (its what-if part): after a change of options that leaves the house rules a match was started
from, the match page and the API no longer say "House rules: X (version 1)"; the preview says so before Apply.
A rescore (same options) keeps the label."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring import services
from scoring.models import Match, Round
from tests.scoring.helpers import njet_facts

pytestmark = pytest.mark.django_db

LABEL = "House rules: Our NJET (version 1)"


@pytest.fixture
def ours(group: Any, players: Any, user: Any) -> Match:
    """A NJET match of five started from the group's house rules (full team totals), with two rounds."""
    preset = services.preset_create(
        group=group, ruleset="njet", name="Our NJET", options={"recording": "full", "tie_rule": "english"}, user=user
    )
    match = services.match_create(
        group=group,
        ruleset="njet",
        options=None,
        player_ids=[p.pk for p in players[:5]],
        user=user,
        preset_id=preset.pk,
    )
    for _ in range(2):
        services.round_record(match=match, facts=njet_facts(), user=user)
    return Match.objects.get(pk=match.pk)


def _api(user: Any) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_the_preview_says_the_label_goes_and_applying_drops_it_on_the_page_and_the_api(client_in, user, ours):
    assert LABEL in client_in.get(f"/matches/{ours.pk}/").content.decode()
    assert _api(user).get(f"/api/v1/matches/{ours.pk}").json()["preset"]["name"] == "Our NJET"
    form = {"opt_recording": "difference", "opt_tie_rule": "english"}

    preview = client_in.post(f"/matches/{ours.pk}/options", {**form, "preview": "1"}).content.decode()
    assert "These options are no longer the house rules “Our NJET” (version 1)" in preview
    client_in.post(f"/matches/{ours.pk}/options", {**form, "apply": "1", "version": ours.version})

    page = client_in.get(f"/matches/{ours.pk}/").content.decode()
    assert "House rules:" not in page
    assert _api(user).get(f"/api/v1/matches/{ours.pk}").json()["preset"] is None
    assert Match.objects.get(pk=ours.pk).options["recording"] == "difference"


def test_the_api_preview_names_the_house_rules_before_and_after(user, ours):
    api = _api(user)
    url = f"/api/v1/matches/{ours.pk}/options/preview"

    leaving = api.post(url, {"options": {"recording": "difference"}}, format="json").json()
    staying = api.post(url, {"options": {"recording": "full", "tie_rule": "english"}}, format="json").json()

    assert leaving["house_rules_before"]["name"] == "Our NJET"
    assert leaving["house_rules_after"] is None
    assert staying["house_rules_after"] == staying["house_rules_before"]
    assert Match.objects.get(pk=ours.pk).preset_version is not None  # a preview writes nothing

    applied = api.patch(f"/api/v1/matches/{ours.pk}", {"options": {"recording": "difference"}}, format="json",
                        HTTP_IF_MATCH=str(ours.version))  # fmt: skip
    assert applied.status_code == 200, applied.json()
    assert applied.json()["preset"] is None


def test_a_rescore_keeps_the_label(client_in, user, ours):
    Round.objects.filter(match=ours).update(ruleset_version="0")
    services.match_rescore(match=ours, user=user, expected_version=ours.version)

    assert Match.objects.get(pk=ours.pk).preset_version is not None
    assert LABEL in client_in.get(f"/matches/{ours.pk}/").content.decode()
