"""BG Stats on the group page: the export link downloads a backup, the upload goes to a review kept on the
server (only for its uploader and group), English and Hungarian; a re-import says everything is there already."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings

from scoring import services
from scoring.models import Group, Match, Player
from scoring.transfer import bgstats_import
from tests.scoring.transfer.bgstats_sample import sample_backup

pytestmark = pytest.mark.django_db


def _upload(client: Any, group: Group, data: Any, name: str = "BGStatsExport.json") -> Any:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    return client.post(f"/groups/{group.pk}/import/bgstats", {"file": SimpleUploadedFile(name, raw)})


def test_the_group_page_offers_the_bgstats_export_and_import(client_in: Any, group: Group) -> None:
    html = client_in.get(f"/groups/{group.pk}/").content.decode()

    assert f'href="/groups/{group.pk}/export-bgstats.json"' in html
    assert f'action="/groups/{group.pk}/import/bgstats"' in html
    assert "A BG Stats backup" in html


def test_upload_review_confirm_and_again_nothing(client_in: Any, group: Group, players: list[Player]) -> None:
    answer = _upload(client_in, group, sample_backup())

    assert answer.status_code == 302
    review = client_in.get(answer["Location"])
    html = review.content.decode()
    assert "6 plays of our games" in html
    assert "2 will be added as matches with final scores only" in html
    assert "Anna has no score" in html
    flora = next(p for p in players if p.name == "Flóra")
    assert f'<option value="{flora.pk}" selected>Flóra</option>' in html
    assert not Match.objects.filter(group=group).exists()

    done = client_in.post(
        answer["Location"],
        {"player_1": players[0].pk, "player_2": players[1].pk, "player_3": flora.pk, "player_4": "new"},
    )

    assert done.status_code == 200
    assert "2 matches were added to the group" in done.content.decode()
    assert Match.objects.filter(group=group, totals_only=True).count() == 2
    assert client_in.get(answer["Location"]).status_code == 404  # the upload is gone once imported
    again = client_in.get(_upload(client_in, group, sample_backup())["Location"])
    assert "2 plays already imported" in again.content.decode()
    assert "There is nothing to import from this file." in again.content.decode()


def test_hungarian_review(client_in: Any, group: Group, players: list[Player]) -> None:
    location = _upload(client_in, group, sample_backup())["Location"]

    html = client_in.get(location, HTTP_ACCEPT_LANGUAGE="hu").content.decode()

    assert "Importálás a BG Statsból" in html
    assert "6 mérkőzés a játékainkból" in html
    assert "A játékos mérkőzéseinek kihagyása" in html


def test_a_file_that_is_not_a_backup_is_refused_naming_why(client_in: Any, group: Group) -> None:
    assert "This file is not a BG Stats backup." in _upload(client_in, group, b"{nope").content.decode()
    answer = _upload(client_in, group, {"players": [], "games": []})
    assert answer.status_code == 400
    assert "A BG Stats backup has a list of plays." in answer.content.decode()


@override_settings(IMPORT_MAX_BYTES=100)
def test_a_file_over_the_limit_is_refused(client_in: Any, group: Group) -> None:
    answer = _upload(client_in, group, sample_backup())

    assert answer.status_code == 413
    assert not Match.objects.filter(group=group).exists()


def test_the_review_belongs_to_its_uploader_and_outsiders_get_404(
    client_in: Any, group: Group, django_user_model: Any
) -> None:
    location = _upload(client_in, group, sample_backup())["Location"]
    mate = django_user_model.objects.create_user("mate", password="x-secret-12")
    services.membership_add(group=group, user=mate)
    member, outsider = Client(), Client()
    member.force_login(mate)
    outsider.force_login(django_user_model.objects.create_user("xavi", password="x-secret-12"))

    assert member.get(location).status_code == 404  # another member cannot read someone's upload
    assert _upload(member, group, sample_backup()).status_code == 403  # owners import
    assert member.get(f"/groups/{group.pk}/export-bgstats.json").status_code == 200
    assert outsider.get(location).status_code == 404
    assert outsider.get(f"/groups/{group.pk}/export-bgstats.json").status_code == 404
    assert _upload(outsider, group, sample_backup()).status_code == 404
    assert not Match.objects.filter(group=group).exists()


def test_the_export_download_is_a_backup_file(client_in: Any, group: Group, players: list[Player], user: Any) -> None:
    bgstats_import.bgstats_import(group=group, data=sample_backup(), user=user)

    answer = client_in.get(f"/groups/{group.pk}/export-bgstats.json")

    assert "attachment" in answer["Content-Disposition"]
    document = json.loads(answer.content)
    assert sorted(p["uuid"] for p in document["plays"]) == ["play-col-1", "play-meinz-1"]
