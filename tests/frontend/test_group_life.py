"""Group life from the group page (issue 30, item 9): rename and remove players (history kept), rename the
group, leave it, export (CSV and JSON) and import, names in the active language's alphabetical order, and
adding players without a reload."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation

from scoring import selectors, services
from scoring.models import Group, Match, Membership, Player, Score
from scoring.transfer import exporting
from tests.scoring.helpers import njet_facts, streamed

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(group: Group, players: list[Player], user: Any, make_match: Any) -> Match:
    """A NJET match of the first five players with two rounds (Flóra never played)."""
    match = make_match("njet", 5)
    for _ in range(2):
        services.round_record(match=match, facts=njet_facts(), user=user)
    return match


@pytest.fixture
def member(django_user_model: Any, group: Group) -> Any:
    mate = django_user_model.objects.create_user("mate", password="x-secret-12")
    services.membership_add(group=group, user=mate)
    return mate


def client_for(user: Any, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def names_in(html: str, start: str, end: str) -> list[str]:
    part = html[html.index(start) : html.index(end, html.index(start))]
    return re.findall(r'<li><span class="grow">([^<]+)<', part)


# --- players ------------------------------------------------------------------------------------


def test_renaming_a_player_keeps_their_matches_under_the_new_name(client_in, group, players, played):
    bence = players[1]
    page = client_in.get(f"/groups/{group.pk}/players/{bence.pk}/")
    assert page.status_code == 200
    assert 'value="Bence"' in page.content.decode()

    response = client_in.post(f"/groups/{group.pk}/players/{bence.pk}/", {"name": "  Bence  Kiss "})

    assert response.status_code == 302
    bence.refresh_from_db()
    assert bence.name == "Bence Kiss"
    board = client_in.get(f"/matches/{played.pk}/").content.decode()
    assert "Bence Kiss" in board
    assert Score.objects.filter(player=bence).count() == 2


def test_renaming_to_a_taken_name_is_refused_next_to_the_field(client_in, group, players):
    response = client_in.post(f"/groups/{group.pk}/players/{players[1].pk}/", {"name": "cili"})

    assert response.status_code == 400
    html = response.content.decode()
    assert 'aria-invalid="true"' in html
    assert re.search(r'<p id="pl-name-err" class="err">There is already a player called cili\.</p>', html)
    players[1].refresh_from_db()
    assert players[1].name == "Bence"


def test_removing_a_player_who_never_played_deletes_them(client_in, group, players, played):
    flora = players[5]
    confirm = client_in.get(f"/groups/{group.pk}/players/{flora.pk}/remove").content.decode()
    assert "Flóra has not played a match yet, so they will be deleted." in confirm
    assert Player.objects.filter(pk=flora.pk).exists()  # asking is not doing

    response = client_in.post(f"/groups/{group.pk}/players/{flora.pk}/remove")

    assert response.status_code == 302
    assert not Player.objects.filter(pk=flora.pk).exists()


def test_removing_a_player_with_history_archives_them_and_keeps_their_matches(client_in, group, players, played):
    anna = players[0]
    before = selectors.match_scoreboard(match=played)
    confirm = client_in.get(f"/groups/{group.pk}/players/{anna.pk}/remove").content.decode()
    assert "Anna played 1 match." in confirm

    client_in.post(f"/groups/{group.pk}/players/{anna.pk}/remove")

    anna.refresh_from_db()
    assert anna.archived_at is not None
    home = client_in.get(f"/groups/{group.pk}/").content.decode()
    assert "Anna" not in names_in(home, 'id="player-list"', "</ul>")
    assert names_in(home, 'id="removed-players"', "</details>") == ["Anna"]
    new_match = client_in.get(f"/groups/{group.pk}/matches/new?game=njet").content.decode()
    assert f'name="players" value="{anna.pk}"' not in new_match
    assert f'name="players" value="{players[1].pk}"' in new_match
    # the match still shows her with the same points; the statistics still see her scores
    after = selectors.match_scoreboard(match=played)
    assert (after["players"], after["totals"]) == (before["players"], before["totals"])
    assert after["players"][0]["name"] == "Anna"
    assert "Anna" in client_in.get(f"/matches/{played.pk}/board").content.decode()
    assert Score.objects.filter(player=anna).count() == 2
    with pytest.raises(services.ValidationFailed, match="not in the group"):
        services.match_create(
            group=group, ruleset="njet", options={}, player_ids=[p.pk for p in players[:3]], user=group.created_by
        )


def test_a_removed_player_is_restored_and_their_name_is_not_taken_twice(client_in, group, players, played):
    anna = players[0]
    services.player_remove(player=anna, user=group.created_by)

    refused = client_in.post(f"/groups/{group.pk}/players", {"name": "anna"})
    assert refused.status_code == 400
    assert "Anna was removed from the group earlier: restore them from the removed players." in refused.content.decode()

    client_in.post(f"/groups/{group.pk}/players/{anna.pk}/restore")

    anna.refresh_from_db()
    assert anna.archived_at is None
    assert "Anna" in names_in(client_in.get(f"/groups/{group.pk}/").content.decode(), 'id="player-list"', "</ul>")


def test_removing_a_player_stops_the_invites_naming_them_and_the_counts_leave_them_out(client_in, user, group, players):
    invite = services.invite_create(group=group, user=user, player=players[2])
    assert services.invite_is_valid(invite=invite)

    assert services.player_remove(player=players[2], user=user) == "deleted"

    invite.refresh_from_db()
    assert not services.invite_is_valid(invite=invite)
    assert "5 players" in client_in.get("/").content.decode()


def test_a_merged_player_cannot_be_removed_and_an_archived_one_is_still_found_by_the_api(user, group, players, played):
    twin = services.player_create(group=group, name="Flóra B", user=user)
    services.player_merge(source=twin, target=players[5], user=user)
    with pytest.raises(services.Conflict):
        services.player_remove(player=twin, user=user)

    services.player_remove(player=players[0], user=user)
    api = client_for(user)
    listed = api.get(f"/api/v1/groups/{group.pk}/players").json()
    assert "Anna" not in [p["name"] for p in listed["results"]]
    shown = api.get(f"/api/v1/groups/{group.pk}/players/{players[0].pk}")
    assert shown.status_code == 200 and shown.json()["name"] == "Anna"


def test_adding_a_player_through_htmx_answers_with_the_list_and_no_reload(client_in, group):
    response = client_in.post(f"/groups/{group.pk}/players", {"name": "Vera"}, HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<ul id="player-list"')
    assert "Vera" in names_in(html, 'id="player-list"', "</ul>")
    assert re.search(r'<p id="p-add-status" hx-swap-oob="innerHTML">Vera joined the table\.</p>', html)
    assert re.search(r'<p id="p-name-err" hx-swap-oob="innerHTML"></p>', html)
    assert Player.objects.filter(group=group, name="Vera").exists()

    again = client_in.post(f"/groups/{group.pk}/players", {"name": "vera"}, HTTP_HX_REQUEST="true")
    refused = r'<p id="p-name-err" hx-swap-oob="innerHTML">There is already a player called vera\.</p>'
    assert re.search(refused, again.content.decode())
    assert Player.objects.filter(group=group, name__iexact="vera").count() == 1


def test_without_javascript_a_refused_name_is_shown_next_to_the_field(client_in, group):
    response = client_in.post(f"/groups/{group.pk}/players", {"name": "Bence"})

    assert response.status_code == 400
    html = response.content.decode()
    field = re.search(r'<input id="p-name"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in field and 'value="Bence"' in field
    assert "There is already a player called Bence." in html


# --- the group and its members --------------------------------------------------------------------


def test_the_owner_renames_the_group_and_a_member_cannot(client_in, group, member):
    client_in.post(f"/groups/{group.pk}/rename", {"name": "Péntek esti kör"})
    group.refresh_from_db()
    assert group.name == "Péntek esti kör"

    refused = client_for(member).post(f"/groups/{group.pk}/rename", {"name": "Mine now"}, follow=True)
    group.refresh_from_db()
    assert group.name == "Péntek esti kör"
    assert "Only an owner of the group can do this." in refused.content.decode()


def test_a_member_leaves_and_their_player_stays(group, member, players):
    services.player_link(player=players[1], linked_user=member, user=group.created_by)
    mate = client_for(member)
    confirm = mate.get(f"/groups/{group.pk}/leave").content.decode()
    assert "Your player and their scores stay in the group" in confirm

    response = mate.post(f"/groups/{group.pk}/leave")

    assert response.status_code == 302 and response["Location"] == "/"
    assert not Membership.objects.filter(group=group, user=member).exists()
    assert Player.objects.get(pk=players[1].pk).user == member
    assert mate.get(f"/groups/{group.pk}/").status_code == 404


def test_the_last_owner_cannot_leave_while_others_remain_until_someone_else_owns_it(client_in, user, group, member):
    confirm = client_in.get(f"/groups/{group.pk}/leave").content.decode()
    assert "You are the last owner of this group" in confirm
    assert "Leave the group</button>" not in confirm

    refused = client_in.post(f"/groups/{group.pk}/leave", follow=True)
    assert "make another member an owner first, then you can leave." in refused.content.decode()
    assert Membership.objects.filter(group=group, user=user).exists()

    mate = Membership.objects.get(group=group, user=member)
    client_in.post(f"/groups/{group.pk}/members/{mate.pk}/owner")
    mate.refresh_from_db()
    assert mate.role == Membership.Role.OWNER
    client_in.post(f"/groups/{group.pk}/leave")
    assert list(Membership.objects.filter(group=group).values_list("user__username", flat=True)) == ["mate"]


def test_an_owner_alone_leaves_only_by_confirming_that_the_group_is_deleted(client_in, group, played):
    confirm = client_in.get(f"/groups/{group.pk}/leave").content.decode()
    assert "leaving deletes the group with all its players and its 1 match, for good." in confirm

    client_in.post(f"/groups/{group.pk}/leave")  # without the confirmation
    assert Group.objects.filter(pk=group.pk).exists()

    client_in.post(f"/groups/{group.pk}/leave", {"delete": "1"})
    assert not Group.objects.filter(pk=group.pk).exists()
    assert not Match.objects.filter(pk=played.pk).exists()


# --- export and import ----------------------------------------------------------------------------


def test_the_csv_download_has_one_row_per_player_per_round(client_in, group, players, played, user):
    third = services.round_record(match=played, facts=njet_facts(), user=user)
    services.round_delete(round=third, expected_version=third.version, user=user)

    response = client_in.get(f"/groups/{group.pk}/export.csv")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="friday-table.csv"'
    body = streamed(response)
    assert body.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows[0] == ["Match", "Game", "Options", "Date", "Round", "Player", "Points", "Total"]
    assert len(rows) == 1 + 2 * 5  # the deleted third round is not there
    first = rows[1]
    assert first[:2] == [str(played.pk), "NJET"]
    # every option in words that say what it is about (issue 43: "full team totals" alone says nothing)
    assert first[2] == "full totals recorded; English tie rule"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", first[3])
    assert [r[4:6] for r in rows[1:6]] == [["1", n] for n in ("Anna", "Bence", "Cili", "Dani", "Emil")]
    points = {(r[4], r[5]): (int(r[6]), int(r[7])) for r in rows[1:]}
    stored = played.rounds.get(number=1).points
    assert points["1", "Anna"] == (stored[0], stored[0])
    assert points["2", "Anna"] == (stored[0], 2 * stored[0])


def test_the_csv_speaks_hungarian_and_names_the_file_after_the_group(user, group, played):
    services.group_rename(group=group, name="Péntek esti kör", user=user)
    response = client_for(user, "hu").get(f"/groups/{group.pk}/export.csv")

    assert response["Content-Disposition"] == "attachment; filename*=utf-8''p%C3%A9ntek-esti-k%C3%B6r.csv"
    # a Hungarian spreadsheet reads semicolons (its decimal mark is the comma): issue 43
    rows = list(csv.reader(io.StringIO(streamed(response).decode("utf-8-sig")), delimiter=";"))
    assert rows[0] == ["Mérkőzés", "Játék", "Beállítások", "Dátum", "Kör", "Játékos", "Pontok", "Összesen"]
    with translation.override("hu"):
        from frontend.entry import labels

        assert rows[1][2].startswith(str(labels.OPTION_WORDS["recording"]["full"]))


def test_the_json_download_is_the_export_document(client_in, group, played):
    response = client_in.get(f"/groups/{group.pk}/export.json")

    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="friday-table.json"'
    assert json.loads(streamed(response)) == exporting.group_export(group=group)


def test_an_archived_player_round_trips_through_the_json_export(user, group, players, played):
    services.player_remove(player=players[0], user=user)
    doc = exporting.group_export(group=group)
    assert [p["name"] for p in doc["players"] if "archived_at" in p] == ["Anna"]
    copy = services.group_create(name="Copy", user=user)

    exporting.group_import(group=copy, data=doc, user=user)

    assert Player.objects.get(group=copy, name="Anna").archived_at is not None
    again = exporting.group_export(group=copy)
    assert again["players"] == doc["players"]


def _upload(doc: Any, name: str = "export.json") -> SimpleUploadedFile:
    body = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
    return SimpleUploadedFile(name, body, content_type="application/json")


def test_importing_an_export_from_the_group_page(client_in, user, group, played):
    doc = exporting.group_export(group=group)
    other = services.group_create(name="Saturday", user=user, player_name="Zsófi")

    response = client_in.post(f"/groups/{other.pk}/import", {"file": _upload(doc)})

    assert response.status_code == 200
    html = response.content.decode()
    assert "1 match was added to the group, with 6 new players." in html
    assert Match.objects.filter(group=other, ruleset="njet").count() == 1
    assert Score.objects.filter(match__group=other).count() == Score.objects.filter(match__group=group).count()


def test_a_broken_import_names_the_problem_and_changes_nothing(client_in, user, group, played):
    doc = exporting.group_export(group=group)
    doc["matches"][0]["rounds"][1]["facts"]["tricks"] = [0] * len(doc["matches"][0]["players"])
    other = services.group_create(name="Saturday", user=user)

    response = client_in.post(f"/groups/{other.pk}/import", {"file": _upload(doc)})

    assert response.status_code == 400
    html = response.content.decode()
    assert "Nothing was imported" in html
    assert "<code>matches[0].rounds[1].facts.tricks</code>: " in html
    assert not Match.objects.filter(group=other).exists()
    assert not Player.objects.filter(group=other).exists()

    not_json = client_in.post(f"/groups/{other.pk}/import", {"file": _upload(b"\x89PNG not json", "a.png")})
    assert not_json.status_code == 400
    assert "This file is not a JSON export of Scorekeeper." in not_json.content.decode()


def test_only_an_owner_imports(group, member, played):
    doc = exporting.group_export(group=group)
    response = client_for(member).post(f"/groups/{group.pk}/import", {"file": _upload(doc)})

    assert response.status_code == 400
    assert "Only an owner of the group can do this." in response.content.decode()
    assert Match.objects.filter(group=group).count() == 1


def test_the_group_page_offers_export_and_import(client_in, group, member):
    owner_page = client_in.get(f"/groups/{group.pk}/").content.decode()
    for text in (f'href="/groups/{group.pk}/export.csv"', f'href="/groups/{group.pk}/export.json"', 'name="file"'):
        assert text in owner_page
    member_page = client_for(member).get(f"/groups/{group.pk}/").content.decode()
    assert f'href="/groups/{group.pk}/export.csv"' in member_page
    assert 'name="file"' not in member_page  # importing is for owners


# --- alphabetical order in the active language -------------------------------------------------------

HUNGARIAN_ORDER = ["Eszter", "Éva Ősz", "Gábor", "Oszkár", "Ödön", "Zoltán", "Zuzana", "Zsófi"]
ENGLISH_ORDER = ["Eszter", "Éva Ősz", "Gábor", "Ödön", "Oszkár", "Zoltán", "Zsófi", "Zuzana"]


@pytest.fixture
def table_of_names(user: Any) -> Group:
    group = services.group_create(name="Names", user=user)
    for name in ("Zsófi", "Ödön", "Gábor", "Zuzana", "Éva Ősz", "Oszkár", "Zoltán", "Eszter"):
        services.player_create(group=group, name=name, user=user)
    return group


@pytest.mark.parametrize(("language", "order"), [("hu", HUNGARIAN_ORDER), ("en", ENGLISH_ORDER)])
def test_players_sort_in_the_alphabet_of_the_active_language(user, table_of_names, language, order):
    with translation.override(language):
        assert [p.name for p in selectors.player_list_sorted(group=table_of_names)] == order
    html = client_for(user, language).get(f"/groups/{table_of_names.pk}/").content.decode()
    assert names_in(html, 'id="player-list"', "</ul>") == order
    new_match = client_for(user, language).get(f"/groups/{table_of_names.pk}/matches/new?game=njet").content.decode()
    chips = r'name="players" value="\d+"[^>]*><span>(?:<b [^>]*>[^<]*</b>)?([^<]+)</span>'
    assert re.findall(chips, new_match) == order


def test_groups_sort_in_the_alphabet_of_the_active_language(user):
    for name in ("Ödön asztala", "Oroszlán", "Éjjeli bagoly", "Fecske"):
        services.group_create(name=name, user=user)
    html = client_for(user, "hu").get("/").content.decode()
    assert re.findall(r"<strong>([^<]+)</strong>", html) == ["Éjjeli bagoly", "Fecske", "Oroszlán", "Ödön asztala"]
    html = client_for(user, "en").get("/").content.decode()
    assert re.findall(r"<strong>([^<]+)</strong>", html) == ["Éjjeli bagoly", "Fecske", "Ödön asztala", "Oroszlán"]
