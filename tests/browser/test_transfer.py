"""Issue 43 at 360 px, as a member does it: download the group's JSON from the group page and import it twice
into another group (the second time nothing is added, and the page says so, in English and Hungarian);
download the Hungarian spreadsheet (semicolons, the paper-pad match's final scores); change a match's options
away from its house rules (the preview says the label goes; the match page no longer names them)."""

from __future__ import annotations

import csv
import datetime as dt
import io
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring import services
from scoring.models import Group, Match
from tests.browser.helpers import shot
from tests.scoring.helpers import njet_facts

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _import(page: Any, group: Group, path: str, label: str, button: str) -> None:
    page.goto(f"/groups/{group.pk}/")
    page.get_by_label(label).set_input_files(path)
    page.get_by_role("button", name=button).click()


def test_the_same_export_imported_twice_adds_nothing_the_second_time(
    new_context: Any, group: Group, players: Any, make_match: Any, user: Any
) -> None:
    match = make_match("njet", 5)
    for _ in range(2):
        services.round_record(match=match, facts=njet_facts(), user=user)
    other = services.group_create(name="Saturday", user=user)
    page = new_context().new_page()
    page.goto(f"/groups/{group.pk}/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Everything (JSON)").click()
    path = download.value.path()

    _import(page, other, str(path), "A JSON export of Scorekeeper", "Import the file")
    expect(page.get_by_role("status")).to_have_text("1 match was added to the group, with 6 new players.")
    _import(page, other, str(path), "A JSON export of Scorekeeper", "Import the file")
    expect(page.get_by_role("heading", level=1)).to_have_text("Nothing new")
    expect(page.get_by_role("status")).to_have_text(
        "The group already holds the 1 match of this file: nothing was added."
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "import-nothing-new")
    assert Match.objects.filter(group=other).count() == 1

    hu = new_context(locale="hu-HU").new_page()
    _import(hu, other, str(path), "Scorekeeper JSON-exportja", "A fájl importálása")
    expect(hu.get_by_role("heading", level=1)).to_have_text("Nincs semmi új")
    expect(hu.get_by_role("status")).to_have_text("A csoportban már megvan a fájl 1 mérkőzése: semmi sem került be.")
    assert Match.objects.filter(group=other).count() == 1


def test_the_hungarian_spreadsheet_has_semicolons_and_the_paper_pad_match(
    new_context: Any, group: Group, players: Any, make_match: Any, user: Any
) -> None:
    match = make_match("njet", 5)
    services.round_record(match=match, facts=njet_facts(), user=user)
    pad = services.match_record_totals(
        group=group,
        ruleset="sticheln",
        options={"variant": "heavy"},
        player_ids=[p.pk for p in players[:3]],
        points=[12, -4, 30],
        played_at=timezone.now() - dt.timedelta(days=1),
        user=user,
    )
    page = new_context(locale="hu-HU").new_page()
    page.goto(f"/groups/{group.pk}/")
    expect(page.locator("#csv-help")).to_contain_text("aposztróf kerül elé")
    with page.expect_download() as download:
        page.get_by_role("link", name="Pontok táblázatkezelőhöz (CSV)").click()
    text = Path(download.value.path()).read_text(encoding="utf-8-sig")

    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert rows[0] == ["Mérkőzés", "Játék", "Beállítások", "Dátum", "Kör", "Játékos", "Pontok", "Összesen"]
    assert [(r[4], r[5], r[6]) for r in rows if r[0] == str(pad.pk)] == [
        ("", "Anna", "12"),
        ("", "Bence", "-4"),
        ("", "Cili", "30"),
    ]
    assert len([r for r in rows if r[0] == str(match.pk)]) == 5


def test_options_that_leave_the_house_rules_drop_their_label(
    new_context: Any, group: Group, players: Any, user: Any
) -> None:
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
    services.round_record(match=match, facts=njet_facts(), user=user)
    page = new_context().new_page()
    page.goto(f"/matches/{match.pk}/")
    expect(page.get_by_text("House rules: Our NJET (version 1)")).to_be_visible()
    page.get_by_role("link", name="Change options").click()
    page.get_by_role("radio", name="only the difference", exact=True).check(force=True)
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("#preview-house-rules")).to_have_text(
        "These options are no longer the house rules “Our NJET” (version 1): after applying, the match no longer "
        "names them."
    )
    shot(page, "whatif-house-rules")
    page.get_by_role("button", name="Apply").click()

    expect(page.locator(".msgs")).to_contain_text("The options were changed")
    expect(page.get_by_text("House rules:")).to_have_count(0)
    assert Match.objects.get(pk=match.pk).preset_version is None
