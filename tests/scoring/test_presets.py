"""House rules: option presets per game, versioned, one default per game; matches keep what they started with."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from scoring import services
from scoring.models import Match, Preset, PresetVersion
from tests.scoring.helpers import record

HU_DIFF = {"tie_rule": "hungarian", "recording": "difference"}


def _preset(table: Any, **kwargs: Any) -> Preset:
    values = {"ruleset": "njet", "name": "Our NJET", "options": HU_DIFF, "user": table.member, **kwargs}
    return services.preset_create(group=table.group, **values)


def _start(table: Any, preset: Preset | None, options: dict[str, Any] | None = None, **kwargs: Any) -> Match:
    return services.match_create(
        group=table.group,
        ruleset=kwargs.pop("ruleset", "njet"),
        options=options,
        player_ids=[p.pk for p in table.players],
        user=table.owner,
        preset_id=preset.pk if preset is not None else None,
        **kwargs,
    )


def test_a_match_started_from_house_rules_takes_their_options_and_records_the_version(table: Any) -> None:
    preset = _preset(table)
    match = _start(table, preset)
    assert match.options == {"recording": "difference", "tie_rule": "hungarian"}
    assert match.preset_version is not None
    assert (match.preset_version.preset_id, match.preset_version.number) == (preset.pk, 1)


def test_options_stored_are_the_rulesets_parse_with_defaults_filled_in(table: Any) -> None:
    preset = _preset(table, options={"recording": "difference"})
    assert services.preset_current_version(preset=preset).options == {"recording": "difference", "tie_rule": "english"}


def test_hungarian_preset_without_an_edition_gets_the_hungarian_edition(table: Any) -> None:
    preset = _preset(table, options={}, language="hu")
    assert services.preset_current_version(preset=preset).options["tie_rule"] == "hungarian"


def test_editing_a_preset_adds_a_version_and_leaves_started_matches_alone(table: Any) -> None:
    preset = _preset(table)
    match = _start(table, preset)
    record(match, table.owner)
    version = services.preset_update(
        preset=preset, user=table.member, name="NJET, full totals", options={"tie_rule": "hungarian"}
    )
    assert version.number == 2
    assert version.options == {"recording": "full", "tie_rule": "hungarian"}
    match.refresh_from_db()
    assert match.options == {"recording": "difference", "tie_rule": "hungarian"}
    assert (match.preset_version.number, match.preset_version.name) == (1, "Our NJET")
    # the first version is still there, unchanged
    first = PresetVersion.objects.get(preset=preset, number=1)
    assert (first.name, first.options) == ("Our NJET", {"recording": "difference", "tie_rule": "hungarian"})
    # a match started now takes version 2
    later = _start(table, preset)
    assert later.options["recording"] == "full"
    assert later.preset_version.number == 2


def test_an_edit_changing_nothing_adds_no_version(table: Any) -> None:
    preset = _preset(table)
    version = services.preset_update(preset=preset, user=table.member, name=" Our  NJET ", options=HU_DIFF)
    assert version.number == 1
    assert PresetVersion.objects.filter(preset=preset).count() == 1


def test_options_given_over_the_preset_record_no_house_rules(table: Any) -> None:
    """Documented choice: changed options mean the match was not played under those house rules."""
    preset = _preset(table)
    match = _start(table, preset, options={"recording": "full"})
    assert match.options == {"recording": "full", "tie_rule": "hungarian"}
    assert match.preset_version is None
    # the same options as the preset, given explicitly: still the house rules
    same = _start(table, preset, options={"recording": "difference"})
    assert same.preset_version is not None


def test_one_default_per_game(table: Any) -> None:
    first = _preset(table, is_default=True)
    second = _preset(table, name="English NJET", options={}, is_default=True)
    meinz = _preset(table, ruleset="meinz", name="Monster", options={"monster": "fixed"}, is_default=True)
    defaults = set(Preset.objects.filter(group=table.group, is_default=True).values_list("pk", flat=True))
    assert defaults == {second.pk, meinz.pk}
    services.preset_set_default(preset=first, user=table.owner)
    assert services.preset_default(group=table.group, ruleset="njet") == first
    assert services.preset_default(group=table.group, ruleset="meinz") == meinz
    # the database refuses a second default for a game however it is written
    with pytest.raises(IntegrityError), transaction.atomic():
        Preset.objects.filter(pk=second.pk).update(is_default=True)
    services.preset_set_default(preset=first, user=table.owner, is_default=False)
    assert services.preset_default(group=table.group, ruleset="njet") is None


@pytest.mark.parametrize(
    ("ruleset", "options", "field"),
    [
        ("njet", {"tie_rule": "swiss"}, "options.tie_rule"),
        ("njet", {"colour": "red"}, "options.colour"),
        ("mue", {"target": "lots"}, "options.target"),
        ("muzicando", {"mode": "team", "deals": 3}, "options.deals"),
    ],
)
def test_validation_errors_name_the_option(table: Any, ruleset: str, options: dict[str, Any], field: str) -> None:
    with pytest.raises(services.ValidationFailed) as caught:
        _preset(table, ruleset=ruleset, options=options)
    assert list(caught.value.problems) == [field]
    assert not Preset.objects.exists()


def test_options_that_suit_some_table_are_accepted(table: Any) -> None:
    """Abluxxen's duel is for 2 players only: still a valid house rule."""
    preset = _preset(table, ruleset="abluxxen", name="Duel", options={"mode": "duel"})
    assert services.preset_current_version(preset=preset).options["mode"] == "duel"


@pytest.mark.parametrize(
    ("name", "field"),
    [("", "name"), ("Our\u200bNJET", "name"), ("x" * 61, "name")],
)
def test_names_are_cleaned_like_other_names(table: Any, name: str, field: str) -> None:
    with pytest.raises(services.ValidationFailed) as caught:
        _preset(table, name=name)
    assert list(caught.value.problems) == [field]


def test_names_are_nfkc_normalised_and_unique_per_game(table: Any) -> None:
    preset = _preset(table, name="Ｏｕｒ  NJET")  # fullwidth letters, two spaces
    assert preset.name == "Our NJET"
    with pytest.raises(services.ValidationFailed) as caught:
        _preset(table, name="Our NJET", options={})
    assert list(caught.value.problems) == ["name"]
    # the same name for another game is fine
    _preset(table, ruleset="meinz", name="Our NJET", options={})


def test_removing_keeps_the_name_on_the_matches_started_from_it(table: Any) -> None:
    preset = _preset(table, is_default=True)
    match = _start(table, preset)
    services.preset_delete(preset=preset, user=table.member)
    preset.refresh_from_db()
    assert preset.archived_at is not None and not preset.is_default
    assert list(services.preset_list(group=table.group, user=table.member)) == []
    match.refresh_from_db()
    assert match.preset_version.name == "Our NJET"
    # a removed preset cannot start a match, and its name is free again
    with pytest.raises(services.ValidationFailed) as caught:
        _start(table, preset)
    assert list(caught.value.problems) == ["preset"]
    _preset(table)


def test_a_preset_of_another_game_or_group_is_refused(table: Any) -> None:
    meinz = _preset(table, ruleset="meinz", name="Monster", options={"monster": "fixed"})
    with pytest.raises(services.ValidationFailed) as caught:
        _start(table, meinz)
    assert list(caught.value.problems) == ["preset"]
    other = services.group_create(name="Elsewhere", user=table.outsider)
    theirs = services.preset_create(group=other, ruleset="njet", name="Theirs", options={}, user=table.outsider)
    with pytest.raises(services.ValidationFailed):
        _start(table, theirs)


def test_only_members_write_or_list_presets(table: Any) -> None:
    preset = _preset(table)
    with pytest.raises(services.NotAllowed):
        services.preset_create(group=table.group, ruleset="njet", name="Mine", options={}, user=table.outsider)
    with pytest.raises(services.NotAllowed):
        services.preset_update(preset=preset, user=table.outsider, name="Mine")
    with pytest.raises(services.NotAllowed):
        services.preset_set_default(preset=preset, user=table.outsider)
    with pytest.raises(services.NotAllowed):
        services.preset_delete(preset=preset, user=table.outsider)
    with pytest.raises(services.NotAllowed):
        services.preset_list(group=table.group, user=table.outsider)
    preset.refresh_from_db()
    assert (preset.name, preset.is_default, preset.archived_at) == ("Our NJET", False, None)


def test_rematch_keeps_the_house_rules_while_they_are_unchanged(table: Any) -> None:
    preset = _preset(table)
    match = _start(table, preset)
    again = services.match_rematch(match=match, user=table.owner)
    assert again.preset_version == match.preset_version
    services.preset_update(preset=preset, user=table.member, options={})
    third = services.match_rematch(match=match, user=table.owner)
    assert third.options == match.options
    assert third.preset_version is None


# --- the API ----------------------------------------------------------------------------------------------


def test_api_create_list_edit_and_start_a_match(table: Any, client_for: Any) -> None:
    api = client_for(table.member)
    url = f"/api/v1/groups/{table.group.pk}/presets"
    made = api.post(url, {"ruleset": "njet", "name": "Our NJET", "options": HU_DIFF, "is_default": True}, format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["name"], body["is_default"], body["current"]["number"]) == ("Our NJET", True, 1)
    assert body["current"]["options"] == HU_DIFF
    listed = api.get(url).json()["results"]
    assert [p["id"] for p in listed] == [body["id"]]

    players = [p.pk for p in table.players]
    started = api.post(
        f"/api/v1/groups/{table.group.pk}/matches",
        {"ruleset": "njet", "players": players, "preset": body["id"]},
        format="json",
    )
    assert started.status_code == 201, started.content
    assert started.json()["options"] == HU_DIFF
    assert started.json()["preset"] == {"id": body["id"], "name": "Our NJET", "version": 1}

    patched = api.patch(f"{url}/{body['id']}", {"name": "NJET (HU)", "options": {}}, format="json")
    assert patched.status_code == 200, patched.content
    assert (patched.json()["current"]["number"], patched.json()["name"]) == (2, "NJET (HU)")
    again = api.get(f"/api/v1/matches/{started.json()['id']}").json()
    assert again["preset"] == {"id": body["id"], "name": "Our NJET", "version": 1}
    assert again["options"] == HU_DIFF

    assert api.delete(f"{url}/{body['id']}").status_code == 204
    assert api.get(url).json()["results"] == []
    assert api.get(f"{url}/{body['id']}").status_code == 404
    assert api.get(f"/api/v1/matches/{started.json()['id']}").json()["preset"]["name"] == "Our NJET"


def test_api_validation_error_names_the_option(table: Any, client_for: Any) -> None:
    answer = client_for(table.member).post(
        f"/api/v1/groups/{table.group.pk}/presets",
        {"ruleset": "njet", "name": "Bad", "options": {"tie_rule": "swiss"}},
        format="json",
    )
    assert answer.status_code == 400
    assert list(answer.json()["errors"]) == ["options.tie_rule"]


def test_api_is_404_outside_the_group(table: Any, client_for: Any) -> None:
    preset = _preset(table)
    outsider = client_for(table.outsider)
    base = f"/api/v1/groups/{table.group.pk}/presets"
    assert outsider.get(base).status_code == 404
    assert outsider.post(base, {"ruleset": "njet", "name": "X"}, format="json").status_code == 404
    for method in ("get", "patch", "delete"):
        answer = getattr(outsider, method)(f"{base}/{preset.pk}", {"name": "X"}, format="json")
        assert answer.status_code == 404
        assert "detail" in answer.json()
    # a preset id of another group is not found through this group
    other = services.group_create(name="Elsewhere", user=table.outsider)
    assert client_for(table.member).get(f"/api/v1/groups/{other.pk}/presets/{preset.pk}").status_code == 404
    preset.refresh_from_db()
    assert preset.name == "Our NJET" and preset.archived_at is None


def test_was_sticht_house_rules_keep_their_option_without_a_task_draft(table: Any) -> None:
    """The drafted task cards are per match, no part of a house rule: a Was sticht? preset is saved with the rest of
    its options checked (it used to be refused for the missing draft, whatever it held)."""
    preset = services.preset_create(
        group=table.group, ruleset="was-sticht", name="Ours", options={"exactly_split": "even"}, user=table.owner
    )
    assert preset.versions.get().options == {"exactly_split": "even"}
    with pytest.raises(services.ValidationFailed) as caught:
        services.preset_create(
            group=table.group,
            ruleset="was-sticht",
            name="Other",
            options={"exactly_split": "nonsense"},
            user=table.owner,
        )
    assert "options.exactly_split" in caught.value.problems
