"""House rules on the pages: the group page's section in words, the forms, the new-match page's choice (the
default preselected, its options in the controls) and the match page's header line."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest

from scoring import services
from scoring.models import Match, Preset

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _njet(group: Any, user: Any, **kwargs: Any) -> Preset:
    values = {"name": "Our NJET", "options": {"tie_rule": "hungarian", "recording": "difference"}, **kwargs}
    return services.preset_create(group=group, ruleset="njet", user=user, **values)


def test_the_group_page_lists_house_rules_in_words_in_both_languages(client_in, group, user):
    _njet(group, user, is_default=True)
    services.preset_create(group=group, ruleset="meinz", name="Plain", options={}, user=user)
    text = _text(client_in.get(f"/groups/{group.pk}/").content.decode())
    assert "House rules" in text
    assert "Our NJET default difference recording · Hungarian tie rule · version 1" in text
    assert "Plain the rulebook's defaults · version 1" in text
    hu = _text(client_in.get(f"/groups/{group.pk}/", HTTP_ACCEPT_LANGUAGE="hu").content.decode())
    assert "Házszabályok" in hu
    assert "Our NJET alapértelmezett" in hu
    assert "1. változat" in hu


def test_adding_editing_defaulting_and_removing_through_the_forms(client_in, group, user):
    form = client_in.get(f"/groups/{group.pk}/house-rules/new?game=njet").content.decode()
    assert 'name="opt_tie_rule"' in form and 'name="opt_recording"' in form
    answer = client_in.post(
        f"/groups/{group.pk}/house-rules/new",
        {"game": "njet", "name": "Our NJET", "opt_tie_rule": "hungarian", "opt_recording": "difference"},
    )
    assert answer.status_code == 302
    preset = Preset.objects.get(group=group)
    assert (preset.name, preset.is_default) == ("Our NJET", False)
    assert services.preset_current_version(preset=preset).options == {
        "recording": "difference",
        "tie_rule": "hungarian",
    }

    edit = client_in.get(f"/groups/{group.pk}/house-rules/{preset.pk}/").content.decode()
    assert re.search(r'name="opt_recording" value="difference" checked', edit)
    client_in.post(
        f"/groups/{group.pk}/house-rules/{preset.pk}/",
        {"name": "NJET (HU)", "opt_tie_rule": "hungarian", "opt_recording": "full"},
    )
    assert services.preset_current_version(preset=preset).number == 2

    client_in.post(f"/groups/{group.pk}/house-rules/{preset.pk}/default")
    preset.refresh_from_db()
    assert preset.is_default and preset.name == "NJET (HU)"
    client_in.post(f"/groups/{group.pk}/house-rules/{preset.pk}/remove")
    preset.refresh_from_db()
    assert preset.archived_at is not None


def test_a_refused_option_is_named_next_to_its_control(client_in, group):
    answer = client_in.post(
        f"/groups/{group.pk}/house-rules/new", {"game": "njet", "name": "Bad", "opt_tie_rule": "swiss"}
    )
    assert answer.status_code == 400
    html = answer.content.decode()
    assert html.count('<fieldset aria-invalid="true">') == 1
    fieldset = html.split('<fieldset aria-invalid="true">')[1].split("</fieldset>")[0]
    assert 'name="opt_tie_rule"' in fieldset and '<p class="err">' in fieldset
    assert not Preset.objects.exists()


def test_the_new_match_page_preselects_the_default_and_fills_its_options(client_in, group, user, players):
    default = _njet(group, user, is_default=True)
    _njet(group, user, name="English", options={})
    html = client_in.get(f"/groups/{group.pk}/matches/new?game=njet").content.decode()
    assert re.search(rf'name="preset" value="{default.pk}"[^>]*checked', html)
    assert re.search(r'name="opt_recording" value="difference" checked', html)
    assert re.search(r'name="opt_tie_rule" value="hungarian" checked', html)

    post = {
        "game": "njet",
        "order": ",".join(str(p.pk) for p in players[:4]),
        "players": [p.pk for p in players[:4]],
        "preset": str(default.pk),
        "opt_recording": "difference",
        "opt_tie_rule": "hungarian",
    }
    answer = client_in.post(f"/groups/{group.pk}/matches/new", post)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    match = Match.objects.get(group=group)
    assert match.options == {"recording": "difference", "tie_rule": "hungarian"}
    assert match.preset_version.preset == default

    page = _text(client_in.get(f"/matches/{match.pk}/").content.decode())
    assert "House rules: Our NJET (version 1)" in page
    hu = _text(client_in.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="hu").content.decode())
    assert "Házszabályok: Our NJET (1. változat)" in hu

    # options changed from the house rules: no house rules recorded, and the header says none
    client_in.post(f"/groups/{group.pk}/matches/new", {**post, "opt_recording": "full"})
    changed = Match.objects.filter(group=group).order_by("-id").first()
    assert changed.options["recording"] == "full" and changed.preset_version is None
    assert "House rules:" not in _text(client_in.get(f"/matches/{changed.pk}/").content.decode())


def test_without_script_use_these_house_rules_redraws_with_their_options(client_in, group, user):
    english = _njet(group, user, name="English", options={"recording": "difference"})
    html = client_in.post(
        f"/groups/{group.pk}/matches/new",
        {"game": "njet", "preset": str(english.pk), "preset_apply": "1", "opt_recording": "full"},
    ).content.decode()
    assert re.search(r'name="opt_recording" value="difference" checked', html)
    assert re.search(r'name="opt_tie_rule" value="english" checked', html)
    assert not Match.objects.exists()


def test_another_groups_preset_pages_are_not_found(client_in, group, django_user_model):
    stranger = django_user_model.objects.create_user("zoe", password="x-very-long-pass-1")
    other = services.group_create(name="Elsewhere", user=stranger)
    theirs = services.preset_create(group=other, ruleset="njet", name="Theirs", options={}, user=stranger)
    assert client_in.get(f"/groups/{other.pk}/house-rules/{theirs.pk}/").status_code == 404
    assert client_in.get(f"/groups/{group.pk}/house-rules/{theirs.pk}/").status_code == 404
    assert client_in.post(f"/groups/{group.pk}/house-rules/{theirs.pk}/remove").status_code == 404
    theirs.refresh_from_db()
    assert theirs.archived_at is None
