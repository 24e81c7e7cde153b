"""Security issue 32, the two group-import rows: an import is validation, never trust.

Row "group import, then every read of that match" (medium): a tampered explanation/version made every read 500;
points, round numbers and states were taken as given.  Row "group import" (medium): impossible dates, wide offsets
and points of 2^31 made 500s; large documents took one long request and were refused as an HTML 400.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from scoring import rules, services
from scoring.models import Group, Match, Player, Round, RoundEvent, Score
from scoring.text.names import name_clean
from scoring.transfer import exporting, importing
from tests.scoring.helpers import WS_ROUND_1, WS_ROUND_2, record, ws_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(table, njet_match):
    """A finished NJET match (ended by the rules) and an open Was sticht? match with a deleted round."""
    record(njet_match, table.member, n=10)
    ws = ws_match(table.group, table.players, table.owner)
    services.round_record(match=ws, facts=WS_ROUND_1, user=table.owner)
    second = services.round_record(match=ws, facts=WS_ROUND_2, user=table.member)
    services.round_delete(round=second, expected_version=1, user=table.member)
    return table


@pytest.fixture
def target(played):
    return services.group_create(name="Target", user=played.owner)


def _doc(played) -> dict[str, Any]:
    return copy.deepcopy(exporting.group_export(group=played.group))


def _points(group: Group) -> list[tuple[str, int, list[int], bool]]:
    rounds = Round.objects.filter(match__group=group).order_by("match__created_at", "match__ruleset", "number", "id")
    return [(r.match.ruleset, r.number, list(r.points), r.deleted_at is None) for r in rounds]


def _nothing_written(group: Group) -> None:
    assert not Player.objects.filter(group=group).exclude(name__in=["olga"]).exists()
    assert not Match.objects.filter(group=group).exists()
    assert not Round.objects.filter(match__group=group).exists()


# --- bad documents: 400 with every problem's path, nothing written ---------------------------------------


def _njet(doc):
    return doc["matches"][0]


def _ws(doc):
    return doc["matches"][1]


BAD = [
    # (change, paths that must be named)
    (lambda d: _njet(d)["rounds"][0].update(number=1_000_000), ["matches[0].rounds[0].number"]),
    (lambda d: _njet(d)["rounds"][3].update(number=3), ["matches[0].rounds[3].number"]),  # two live round 3s
    (lambda d: _njet(d).update(state="open", finish_reason="rules"), ["matches[0].finish_reason"]),
    (lambda d: _njet(d).update(state="open", finish_reason="", finished_at=None), ["matches[0].state"]),
    (
        lambda d: _ws(d).update(state="finished", finish_reason="rules", finished_at=_ws(d)["created_at"]),
        ["matches[1].finish_reason"],
    ),
    (
        lambda d: _ws(d).update(state="finished", finish_reason="", finished_at=_ws(d)["created_at"]),
        ["matches[1].finish_reason"],
    ),
    (lambda d: _njet(d)["rounds"][2].update(created_at="2026-13-45T00:00:00Z"), ["matches[0].rounds[2].created_at"]),
    (lambda d: _njet(d).update(created_at="2026-03-01T10:00:00-23:59"), ["matches[0].created_at"]),
    (lambda d: _njet(d).update(created_at="2026-03-01T10:00:00+14:30"), ["matches[0].created_at"]),
    (lambda d: _njet(d).update(created_at="２０２６-03-01T10:00:00Z"), ["matches[0].created_at"]),
    (lambda d: _njet(d)["rounds"][0]["points"].__setitem__(1, 2**31), ["matches[0].rounds[0].points[1]"]),
    (lambda d: _njet(d)["rounds"][4]["facts"].update(tricks=[0, 0, 0, 0, 0]), ["matches[0].rounds[4].facts.tricks"]),
    (lambda d: _ws(d)["rounds"][1].update(facts={"nonsense": True}), ["matches[1].rounds[1].facts"]),
    (lambda d: d["players"][2].update(name="Csil\u200bla"), ["players[2].name"]),
    (lambda d: d["players"][3].update(name="\u202eDani"), ["players[3].name"]),
    (lambda d: _njet(d)["players"].__setitem__(1, "Anna"), ["matches[0].players[1]"]),
    (lambda d: _njet(d).update(ruleset="poker"), ["matches[0].ruleset"]),
    (
        # every problem is listed, not only the first
        lambda d: (
            _njet(d)["rounds"][0].update(number=0),
            _ws(d).update(finished_at="yesterday"),
            d["players"][0].update(created_at=None),
        ),
        ["matches[0].rounds[0].number", "matches[1].finished_at", "players[0].created_at"],
    ),
]


@pytest.mark.parametrize(("change", "paths"), BAD)
def test_a_bad_document_is_refused_whole_with_every_path(played, target, client_for, change, paths):
    """Rows "group import, then every read" and "group import": bad numbers, states, dates, points, names and
    facts are a 400 naming each field, and nothing is written."""
    doc = _doc(played)
    change(doc)

    response = client_for(played.owner).post(f"/api/v1/groups/{target.pk}/import", doc, format="json")

    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    for path in paths:
        assert any(key == path or key.startswith(path + ".") for key in errors), (path, errors)
    _nothing_written(target)


def test_a_bad_new_group_import_creates_no_group(played, client_for):
    """Row "group import": a refused document does not leave an empty group behind either."""
    doc = _doc(played)
    _njet(doc)["rounds"][0]["created_at"] = "2026-02-30T12:00:00Z"
    before = Group.objects.count()

    response = client_for(played.member).post("/api/v1/groups/import", doc, format="json")

    assert response.status_code == 400
    assert "matches[0].rounds[0].created_at" in response.json()["errors"]
    assert Group.objects.count() == before


# --- nothing is trusted: points, explanation and version are the rules' ----------------------------------


def test_a_good_export_round_trips_with_identical_points(played, target):
    """Row "group import, then every read": re-scoring by the rules gives back exactly the exported points."""
    services.membership_add(group=target, user=played.member, by=played.owner)
    exporting.group_import(group=target, data=_doc(played), user=played.owner)

    assert _points(target) == _points(played.group)
    again = exporting.group_export(group=target)
    original = exporting.group_export(group=played.group)
    assert again["matches"] == original["matches"]


def test_tampered_points_explanation_and_version_are_recomputed(played, target, client_for):
    """Row "group import, then every read": the issue's document (version "0", explanation ["str", 1, null],
    points [999999, -999999, 0, 0]) is stored as the rules score it, and the match's pages then work."""
    doc = _doc(played)
    round_1 = _ws(doc)["rounds"][0]
    good = (list(round_1["points"]), copy.deepcopy(round_1["explanation"]))
    round_1.update(ruleset_version="0", explanation=["str", 1, None], points=[999999, -999999, 0, 0])

    response = client_for(played.owner).post(f"/api/v1/groups/{target.pk}/import", doc, format="json")

    assert response.status_code == 200, response.content
    match = Match.objects.get(group=target, ruleset="was-sticht")
    stored = Round.objects.get(match=match, number=1)
    assert (stored.points, stored.explanation) == good
    assert stored.ruleset_version == rules.get("was-sticht").version
    assert sorted(Score.objects.filter(round=stored).values_list("points", flat=True)) == sorted(good[0])
    api = client_for(played.owner)
    for url in (f"/api/v1/matches/{match.pk}/scoreboard", f"/api/v1/matches/{match.pk}/rounds"):
        assert api.get(url).status_code == 200, url
    browser = Client()
    browser.force_login(played.owner)
    assert browser.get(f"/matches/{match.pk}", follow=True).status_code == 200


def test_the_history_of_an_older_file_starts_with_the_import(played, target):
    """Row "group import, then every read": a file written before exports carried the history (no "history"
    key) gets one: the importer's events, one per round (plus the deletion of a deleted round, so that it can be
    undone).  A file with its history keeps it (issue 43: tests/scoring/transfer/test_transfer_roundtrip.py)."""
    doc = _doc(played)
    for match in doc["matches"]:
        del match["history"]
    exporting.group_import(group=target, data=doc, user=played.owner)

    events = RoundEvent.objects.filter(match__group=target)
    assert events.filter(action="create").count() == Round.objects.filter(match__group=target).count()
    assert events.filter(action="delete").count() == 1
    assert set(events.values_list("actor", flat=True)) == {played.owner.pk}
    assert all(e.after["imported"] for e in events)


def test_imported_names_are_cleaned(played, target):
    """Row "group import" (names): compatibility forms are normalised (NFKC) and spaces tidied."""
    doc = _doc(played)
    doc["players"][1]["name"] = "  Ｂence  "  # a full-width B
    _njet(doc)["players"][1] = "Bence"
    _ws(doc)["players"][1] = "Bence"

    exporting.group_import(group=target, data=doc, user=played.owner)

    assert Player.objects.filter(group=target, name="Bence").exists()


@pytest.mark.parametrize("bad", ["a\u200bb", "\u202eabc", "x\u2066y", "a\x00b", "", "   ", 5, "x" * 61])
def test_name_clean_refuses_invisible_and_bidi_characters(bad):
    """Row "names": zero-width, bidi overrides and isolates, NUL, empty and too long names are refused."""
    with pytest.raises(ValueError, match=r"."):
        name_clean(bad)


# --- large documents --------------------------------------------------------------------------------------


def test_an_oversize_document_is_a_json_413_under_the_api(played, target, client_for, settings):
    """Row "group import": above the limit the API answers 413 in JSON (it was Django's HTML 400)."""
    doc = _doc(played)
    settings.IMPORT_MAX_BYTES = len(json.dumps(doc)) // 2

    response = client_for(played.owner).post(f"/api/v1/groups/{target.pk}/import", doc, format="json")

    assert response.status_code == 413
    assert response["Content-Type"].startswith("application/json")
    assert "at most" in response.json()["detail"]
    _nothing_written(target)


def test_an_oversize_file_is_a_page_error_on_the_group_page(played, target, settings):
    """Row "group import": the group page says the file is too large, and imports nothing."""
    doc = _doc(played)
    settings.IMPORT_MAX_BYTES = 1024 * 1024
    body = json.dumps(doc).encode() + b" " * (1024 * 1024)
    browser = Client()
    browser.force_login(played.owner)

    response = browser.post(f"/groups/{target.pk}/import", {"file": SimpleUploadedFile("big.json", body)})

    assert response.status_code == 413
    assert "The file is larger than 1 MB." in response.content.decode()
    _nothing_written(target)


def test_a_large_document_runs_as_a_job_with_progress_and_a_status_url(played, target, client_for, settings):
    """Row "group import": a large document is imported by the Celery task (eager here): 202, a status URL
    that reports progress, then the group."""
    settings.IMPORT_ASYNC_BYTES = 100
    seen: list[dict[str, Any]] = []
    real = importing._status_set

    def spy(job_id: str, status: dict[str, Any]) -> None:
        seen.append(dict(status))
        real(job_id, status)

    api = client_for(played.owner)
    try:
        importing._status_set = spy  # type: ignore[assignment]
        response = api.post(f"/api/v1/groups/{target.pk}/import", _doc(played), format="json")
    finally:
        importing._status_set = real  # type: ignore[assignment]

    assert response.status_code == 202, response.content
    status_url = response.json()["status_url"]
    assert response["Location"] == status_url
    states = [s["state"] for s in seen]
    assert states[0] == "queued" and states[-1] == "done" and "running" in states
    percents = [s["percent"] for s in seen]
    assert percents == sorted(percents) and percents[-1] == 100
    assert {s.get("phase") for s in seen} >= {"checking", "saving"}
    status = api.get(status_url)
    assert status.status_code == 200
    assert (status.json()["state"], status.json()["group"]["id"]) == ("done", target.pk)
    assert _points(target) == _points(played.group)
    # only the person who started it sees it
    assert client_for(played.member).get(status_url).status_code == 404


def test_a_large_bad_document_fails_its_job_with_the_paths(played, target, client_for, settings):
    """Row "group import": a large document is validated whole too; the status lists the problems."""
    settings.IMPORT_ASYNC_BYTES = 100
    doc = _doc(played)
    _njet(doc)["rounds"][0]["number"] = 1_000_000
    api = client_for(played.owner)

    response = api.post("/api/v1/groups/import", doc, format="json")

    assert response.status_code == 202
    body = api.get(response.json()["status_url"]).json()
    assert body["state"] == "failed"
    assert "matches[0].rounds[0].number" in body["errors"]
    assert not Group.objects.filter(name="Thursday table").exclude(pk=played.group.pk).exists()


def test_the_group_page_shows_a_large_import_progress_and_result(played, target, settings):
    """Row "group import": from the group page a large file goes to its progress page, which ends with the
    usual result."""
    settings.IMPORT_ASYNC_BYTES = 100
    browser = Client()
    browser.force_login(played.owner)
    upload = SimpleUploadedFile("export.json", json.dumps(_doc(played)).encode(), content_type="application/json")

    response = browser.post(f"/groups/{target.pk}/import", {"file": upload}, follow=True)

    assert response.status_code == 200
    html = response.content.decode()
    assert "2 matches were added to the group" in html
    job_url = response.redirect_chain[-1][0]
    # while it runs, the page shows a progress bar and reloads itself
    job_id = job_url.rstrip("/").rsplit("/", 1)[-1]
    key = importing._key(job_id)
    cache.set(key, {**cache.get(key), "state": "running", "phase": "checking", "percent": 30})
    running = browser.get(job_url).content.decode()
    assert '<progress id="imp-progress" class="import-progress" max="100" value="30">' in running
    assert 'http-equiv="refresh"' in running


def test_a_document_above_django_s_upload_limit_is_imported(played, target, client_for):
    """Row "group import": above 2.5 MB the API answered Django's HTML 400; now it takes the job route."""
    body = json.dumps(_doc(played)).encode() + b" " * (3 * 1024 * 1024)

    response = client_for(played.owner).post(
        f"/api/v1/groups/{target.pk}/import", body, content_type="application/json"
    )

    assert response.status_code == 202, response.content[:300]
    assert response.json()["state"] == "done"
    assert _points(target) == _points(played.group)


@pytest.mark.parametrize("text", ["bad\ud800", "nul\u0000"])
@pytest.mark.parametrize("large", [False, True])
def test_text_the_database_cannot_store_is_refused(played, target, client_for, settings, text, large):
    """Row "group import": a lone surrogate or a NUL anywhere (even in a field the import ignores) is a 400,
    or a failed job for a large document, never a 500."""
    if large:
        settings.IMPORT_ASYNC_BYTES = 100
    doc = _doc(played)
    doc["group"]["note"] = text
    _njet(doc)["rounds"][0]["facts"]["remark"] = text
    body = json.dumps(doc).encode()  # (ASCII: the surrogate travels as a \\ud800 escape)
    api = client_for(played.owner)

    response = api.post(f"/api/v1/groups/{target.pk}/import", body, content_type="application/json")

    if large and "\ud800" in text:  # (the API refuses a NUL before it queues anything)
        assert response.status_code == 202
        assert response.json()["state"] == "failed"
        assert "non_field_errors" in response.json()["errors"]
    else:
        assert response.status_code == 400
    _nothing_written(target)


def test_a_large_import_without_a_broker_runs_in_the_request(played, target, client_for, settings, monkeypatch):
    """Row "group import": when the job cannot be queued (broker down), the import still happens, once."""
    from kombu.exceptions import OperationalError

    from scoring import tasks

    def down(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("connection refused")

    settings.IMPORT_ASYNC_BYTES = 100
    monkeypatch.setattr(tasks.group_import_job, "delay", down)

    response = client_for(played.owner).post(f"/api/v1/groups/{target.pk}/import", _doc(played), format="json")

    assert response.status_code == 202
    assert response.json()["state"] == "done"
    assert _points(target) == _points(played.group)
