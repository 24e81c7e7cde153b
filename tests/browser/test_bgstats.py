"""A BG Stats backup imported at 360 px, in Hungarian: upload it on the group page, read the review (what is
left out and why, who is proposed for whom), change one player, confirm, and find the matches in the group."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring.models import Match, Player
from tests.browser.helpers import shot
from tests.scoring.transfer.bgstats_sample import sample_backup, when

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_backup_is_reviewed_then_imported(new_context: Any, group: Any, players: Any) -> None:
    page = new_context(locale="hu-HU").new_page()
    js_errors: list[str] = []
    page.on("pageerror", lambda exc: js_errors.append(str(exc)))
    by_name = {p.name: p for p in players}
    page.goto(f"/groups/{group.pk}/")
    page.get_by_label("BG Stats mentés").set_input_files(
        {"name": "BGStatsExport.json", "mimeType": "application/json", "buffer": json.dumps(sample_backup()).encode()}
    )
    page.get_by_role("button", name="A BG Stats fájl beolvasása").click()

    expect(page.get_by_role("heading", name="Importálás a BG Statsból")).to_be_visible()
    summary = page.locator("#bgstats-summary")
    expect(summary).to_contain_text("6 mérkőzés a játékainkból")
    expect(summary).to_contain_text("2 kerül be csak végeredményes mérkőzésként")
    expect(summary).to_contain_text("1 más játékhoz tartozó mérkőzés kimarad")
    expect(summary).to_contain_text(f"Coloretto, {when(10, '19:30')}: Anna pontszáma hiányzik")
    expect(summary).to_contain_text("a BG Stats mellőzöttnek jelölte")
    # proposed: the same name whatever its case and accents, else a new player
    expect(page.get_by_label("bence")).to_have_value(str(by_name["Bence"].pk))
    expect(page.get_by_label("FLORA")).to_have_value(str(by_name["Flóra"].pk))
    expect(page.get_by_label("Zsófi")).to_have_value("new")
    assert not Match.objects.filter(group=group).exists()  # nothing written before the confirmation
    # in this group the one called FLORA in BG Stats is Cili
    page.get_by_label("FLORA").select_option(label="Cili")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "hu-bgstats-review")
    page.get_by_role("button", name="Mérkőzések importálása").click()

    expect(page.get_by_role("heading", name="Importálva a BG Statsból")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("2 mérkőzés került a csoportba, 1 új játékossal.")
    shot(page, "hu-bgstats-done")
    matches = list(Match.objects.filter(group=group).order_by("created_at"))
    assert [(m.ruleset, m.totals_only, m.totals, m.winners) for m in matches] == [
        ("meinz", True, [28, 41, 35], [1]),
        ("coloretto", True, [31, 35, 20], [1]),
    ]
    assert [s.player.name for s in matches[0].seats.order_by("number")] == ["Bence", "Anna", "Cili"]
    assert [s.player.name for s in matches[1].seats.order_by("number")] == ["Anna", "Zsófi", "Bence"]
    assert timezone.localtime(matches[0].created_at).strftime("%Y-%m-%d %H:%M") == when(0, "20:15")
    assert Player.objects.filter(group=group, name="Zsófi").count() == 1
    assert js_errors == []
