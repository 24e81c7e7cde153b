"""Security issue 32, row "group import" (large documents): from the group page a large export is imported by
the background job; while it runs the page shows a progress bar (English and Hungarian), then the result."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from scoring import services
from scoring.models import Group, Match, Player
from scoring.transfer import exporting, importing
from tests.browser.helpers import shot
from tests.scoring.helpers import record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_large_import_shows_its_progress_then_the_result(
    new_context: Any, group: Group, make_match: Any, user: Any, settings: Any, tmp_path: Any
) -> None:
    """Row "group import": a file above IMPORT_ASYNC_BYTES goes through the job and its progress page."""
    record(make_match("njet", 5), user, n=10)
    export = tmp_path / "export.json"
    export.write_text(json.dumps(exporting.group_export(group=group)), encoding="utf-8")
    other = services.group_create(name="Saturday", user=user)
    settings.IMPORT_ASYNC_BYTES = 100

    page = new_context().new_page()
    page.goto(f"/groups/{other.pk}/")
    page.get_by_label("A JSON export of Scorekeeper").set_input_files(str(export))
    page.get_by_role("button", name="Import the file").click()

    expect(page.get_by_role("status")).to_have_text("1 match was added to the group, with 6 new players.")
    assert "/import/" in page.url
    assert Match.objects.filter(group=other, state="finished", finish_reason="rules").count() == 1
    assert Player.objects.filter(group=other).count() == 6

    # the same page while a job runs (the job above ran at once: Celery is eager in tests)
    job_id = page.url.rstrip("/").rsplit("/", 1)[-1]
    key = importing._key(job_id)
    cache.set(key, {**cache.get(key), "state": "running", "phase": "saving", "percent": 70})
    hu = new_context(locale="hu-HU").new_page()
    hu.goto(page.url)
    expect(hu.get_by_role("heading", name="Importálás…")).to_be_visible()
    expect(hu.get_by_label("A mérkőzések és körök mentése")).to_have_attribute("value", "70")
    expect(hu.get_by_role("status")).to_contain_text("70 % kész.")
    shot(hu, "hu-import-progress")
