"""Issue 43 §1 for the rounds the other side confirms (issue 47 part 3): the group export carries the group's
"the other side confirms rounds" moment, every round's version and last save, every confirmation and dispute
(of which round, which version, by whom, the note, when) and their lines in the history; the import restores
them exactly, refuses a malformed one naming its field, and adds nothing the second time.

The NJET example round (5 players) has Anna, Bence and Csilla in the start player's team, Dani and Eszter in the
other: a round Anna (olga) saves is confirmed or disputed by Dani (mate)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scoring import services
from scoring.models import Group, Match, Player, Round, RoundCheck, RoundEvent
from scoring.selectors.confirming import CONFIRMED, DISPUTED, TO_CONFIRM, UNCHECKED
from scoring.transfer import exporting
from tests.scoring.helpers import njet_facts, record, standings

pytestmark = pytest.mark.django_db

NOTE = "Nem 3 ütés volt, hanem 4 — Dani"


def _link(table: Any, name: str) -> None:
    Player.objects.filter(group=table.group, name=name).update(user=table.member)


def _confirm(match: Match, number: int, user: Any) -> None:
    rnd = Round.objects.get(match=match, number=number, deleted_at__isnull=True)
    services.round_confirm(match_id=match.pk, number=number, user=user, expected_version=rnd.version)


def _checks(group: Group) -> list[tuple[Any, ...]]:
    rows = RoundCheck.objects.filter(match__group=group).select_related("round", "by", "player")
    return sorted(
        (str(c.round.uid), c.state, c.version, c.by_id, c.player.name if c.player else None, c.note, c.at) for c in rows
    )


def _copy(table: Any) -> Group:
    group = services.group_create(name="Copy", user=table.owner)
    services.membership_add(group=group, user=table.member, by=table.owner)
    return group


@pytest.fixture
def checked(table: Any, njet_match: Match) -> Match:
    """Round 1 saved before the group began confirming rounds; round 2 confirmed, round 3 disputed with a note,
    round 4 waiting; round 5 confirmed, then edited (its new version waits again)."""
    _link(table, "Dani")
    record(njet_match, table.owner)
    services.group_confirm_rounds(group=table.group, on=True, user=table.owner)
    record(njet_match, table.owner, n=3)
    _confirm(njet_match, 2, table.member)
    services.round_dispute(match_id=njet_match.pk, number=3, user=table.member, expected_version=1, note=NOTE)
    record(njet_match, table.owner)
    _confirm(njet_match, 5, table.member)
    fifth = Round.objects.get(match=njet_match, number=5)
    services.round_edit(round=fifth, facts=njet_facts(tricks=[2, 3, 2, 3, 2]), expected_version=1, user=table.owner)
    return Match.objects.get(pk=njet_match.pk)


def test_confirmed_disputed_and_waiting_rounds_come_back_as_they_were(table, checked):
    doc = exporting.group_export(group=table.group)
    [match] = doc["matches"]
    assert doc["group"]["confirm_rounds_since"]
    assert [(c["state"], c["version"], c["by"], c["player"], c["note"]) for c in match["checks"]] == [
        ("confirmed", 1, "mate", "Dani", ""),
        ("disputed", 1, "mate", "Dani", NOTE),
        ("confirmed", 1, "mate", "Dani", ""),
    ]
    assert [e["action"] for e in match["history"]].count("confirm") == 2
    assert [r["version"] for r in match["rounds"]] == [1, 1, 1, 1, 2]
    original = standings(table.group, table.member)
    assert [s[2] for s in original[match["uid"]]] == [UNCHECKED, CONFIRMED, DISPUTED, TO_CONFIRM, TO_CONFIRM]

    copy = _copy(table)
    exporting.group_import(group=copy, data=json.loads(json.dumps(doc)), user=table.owner)

    since = Group.objects.get(pk=table.group.pk).confirm_rounds_since
    assert Group.objects.get(pk=copy.pk).confirm_rounds_since == since
    assert standings(copy, table.member) == original
    assert standings(copy, table.owner) == standings(table.group, table.owner)
    assert _checks(copy) == _checks(table.group)
    assert exporting.group_export(group=copy)["matches"] == doc["matches"]
    # the copy goes on as the original would: the waiting round is confirmed, the disputed one settled
    restored = Match.objects.get(group=copy)
    _confirm(restored, 4, table.member)
    _confirm(restored, 3, table.member)
    assert [s[2] for s in standings(copy, table.member)[match["uid"]]] == [
        UNCHECKED, CONFIRMED, CONFIRMED, CONFIRMED, TO_CONFIRM
    ]  # fmt: skip


def test_importing_the_same_document_again_adds_no_confirmation_and_no_history_line(table, checked):
    doc = exporting.group_export(group=table.group)
    copy = _copy(table)
    exporting.group_import(group=copy, data=doc, user=table.owner)
    before = (RoundCheck.objects.count(), RoundEvent.objects.count())

    again = exporting.group_import(group=copy, data=doc, user=table.owner)
    home = exporting.group_import(group=table.group, data=doc, user=table.owner)

    assert (again.matches, again.already, home.matches, home.already) == (0, 1, 0, 1)
    assert (RoundCheck.objects.count(), RoundEvent.objects.count()) == before
    assert exporting.group_export(group=copy)["matches"] == doc["matches"]


def test_a_group_with_matches_of_its_own_keeps_its_setting(table, checked):
    """Only a group that holds no match yet takes the file's setting; one with its own matches (or one that
    confirms rounds since its own moment) keeps its own, and the imported rounds keep their confirmations."""
    doc = exporting.group_export(group=table.group)
    busy = _copy(table)
    own = [services.player_create(group=busy, name=name, user=table.owner) for name in ("Zsófi", "Ödön", "Pali")]
    services.match_record_totals(
        group=busy, ruleset="sticheln", options={}, player_ids=[p.pk for p in own], points=[3, 1, 2],
        played_at=checked.created_at, user=table.owner,
    )  # fmt: skip
    exporting.group_import(group=busy, data=doc, user=table.owner)
    assert Group.objects.get(pk=busy.pk).confirm_rounds_since is None
    assert _checks(busy) == _checks(table.group)
    assert Match.objects.filter(group=busy).count() == 2

    early = _copy(table)
    services.group_confirm_rounds(group=early, on=True, user=table.owner)
    moment = Group.objects.get(pk=early.pk).confirm_rounds_since
    exporting.group_import(group=early, data=doc, user=table.owner)
    assert Group.objects.get(pk=early.pk).confirm_rounds_since == moment


def test_a_new_group_from_the_file_confirms_rounds_as_its_source_did(table, checked, client_for):
    doc = exporting.group_export(group=table.group)

    response = client_for(table.member).post("/api/v1/groups/import", doc, format="json")

    assert response.status_code == 201, response.json()
    group = Group.objects.get(pk=response.json()["id"])
    assert group.confirm_rounds_since == Group.objects.get(pk=table.group.pk).confirm_rounds_since
    # mate imported it, so his account is a member and stays the one who confirmed; olga's saves are unknown
    assert {c.by for c in RoundCheck.objects.filter(match__group=group)} == {table.member}
    states = [s[2] for s in next(iter(standings(group, table.member).values()))]
    assert states == [UNCHECKED, CONFIRMED, DISPUTED, TO_CONFIRM, TO_CONFIRM]


def test_a_check_by_a_player_merged_since_is_named_as_the_player_they_became(table, njet_match):
    """A confirmation keeps the player who gave it; one merged into another player since is exported as that
    player (the one the document lists, seated in their place), and the copy exports the same again."""
    services.group_confirm_rounds(group=table.group, on=True, user=table.owner)
    twin = services.player_create(group=table.group, name="Dani B", user=table.owner)
    twin.user = table.member
    twin.save()
    seated = [table.players[0], table.players[1], table.players[2], twin, table.players[4]]
    other = services.match_create(
        group=table.group, ruleset="njet", options=None, player_ids=[p.pk for p in seated], user=table.owner
    )
    record(other, table.owner)
    _confirm(other, 1, table.member)
    services.player_merge(source=twin, target=table.players[3], user=table.owner)

    doc = exporting.group_export(group=table.group)
    [check] = next(m["checks"] for m in doc["matches"] if m["uid"] == str(other.uid))
    assert (check["player"], check["by"]) == ("Dani", "mate")
    copy = _copy(table)
    exporting.group_import(group=copy, data=doc, user=table.owner)
    assert RoundCheck.objects.get(match__group=copy).player.name == "Dani"
    assert exporting.group_export(group=copy)["matches"] == doc["matches"]


def test_rounds_of_an_older_file_do_not_wait_in_a_group_that_confirms_rounds(table, njet_match):
    """A file written before rounds carried their version and last save: its rounds were saved when they were
    created, before the importing group began confirming rounds, so none waits for a confirmation."""
    record(njet_match, table.owner, n=2)
    doc = exporting.group_export(group=table.group)
    for rnd in doc["matches"][0]["rounds"]:
        del rnd["version"], rnd["updated_at"]
    copy = _copy(table)
    services.group_confirm_rounds(group=copy, on=True, user=table.owner)

    exporting.group_import(group=copy, data=doc, user=table.owner)

    assert [s[2] for s in next(iter(standings(copy, table.member).values()))] == [UNCHECKED, UNCHECKED]
    assert list(Round.objects.filter(match__group=copy).values_list("version", flat=True)) == [1, 1]


def _check(doc: dict[str, Any]) -> dict[str, Any]:
    return doc["matches"][0]["checks"][0]


def _event(doc: dict[str, Any], action: str) -> dict[str, Any]:
    return next(e for e in doc["matches"][0]["history"] if e["action"] == action)


def _two(doc: dict[str, Any]) -> None:
    doc["matches"][0]["checks"][1]["round"] = _check(doc)["round"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["group"].update(confirm_rounds_since="since Tuesday"), "group.confirm_rounds_since"),
        (lambda d: d["matches"][0]["rounds"][4].update(version=0), "matches[0].rounds[4].version"),
        (lambda d: d["matches"][0]["rounds"][4].update(version="2"), "matches[0].rounds[4].version"),
        (lambda d: d["matches"][0]["rounds"][4].update(updated_at="later"), "matches[0].rounds[4].updated_at"),
        (lambda d: d["matches"][0].update(checks={"round": 1}), "matches[0].checks"),
        (lambda d: _check(d).update(round=None), "matches[0].checks[0].round"),
        (lambda d: _check(d).update(round="0f8fad5b-d9cb-469f-a165-70867728950e"), "matches[0].checks[0].round"),
        (lambda d: _check(d).update(round="round 2"), "matches[0].checks[0].round"),
        (_two, "matches[0].checks[1].round"),
        (lambda d: _check(d).update(state="agreed"), "matches[0].checks[0].state"),
        (lambda d: _check(d).update(version=2), "matches[0].checks[0].version"),
        (lambda d: _check(d).update(version=None), "matches[0].checks[0].version"),
        (lambda d: _check(d).update(player="Zsófi"), "matches[0].checks[0].player"),
        (lambda d: _check(d).update(player=""), "matches[0].checks[0].player"),
        (lambda d: _check(d).update(by=7), "matches[0].checks[0].by"),
        (lambda d: _check(d).update(note="x" * 281), "matches[0].checks[0].note"),
        (lambda d: _check(d).update(note="fine\u202eenif"), "matches[0].checks[0].note"),
        (lambda d: _check(d).update(note=["no"]), "matches[0].checks[0].note"),
        (lambda d: _check(d).update(at=None), "matches[0].checks[0].at"),
        (lambda d: _event(d, "dispute").update(round=None), "matches[0].history[5].round"),
        (lambda d: _event(d, "dispute").update(after=None), "matches[0].history[5].after"),
        (lambda d: _event(d, "dispute")["after"].update(state="confirmed"), "matches[0].history[5].after.state"),
        (lambda d: _event(d, "confirm")["after"].update(version=-1), "matches[0].history[4].after.version"),
        (lambda d: _event(d, "confirm")["after"].update(note=5), "matches[0].history[4].after.note"),
    ],
)
def test_a_malformed_confirmation_is_refused_naming_its_field_and_nothing_is_added(table, checked, change, field):
    doc = exporting.group_export(group=table.group)
    assert [e["action"] for e in doc["matches"][0]["history"]][4:6] == ["confirm", "dispute"]
    change(doc)
    copy = _copy(table)

    with pytest.raises(services.ValidationFailed) as caught:
        exporting.group_import(group=copy, data=doc, user=table.owner)

    assert field in caught.value.problems, caught.value.problems
    assert not Match.objects.filter(group=copy).exists()
    assert not Player.objects.filter(group=copy).exists()
    assert Group.objects.get(pk=copy.pk).confirm_rounds_since is None


def test_an_abandon_line_names_no_round(table, njet_match):
    """A match is abandoned whole, once its rounds are deleted: the file's abandon line naming one is refused."""
    [rnd] = record(njet_match, table.owner)
    services.round_delete(round=rnd, expected_version=rnd.version, user=table.owner)
    match = Match.objects.get(pk=njet_match.pk)
    services.match_abandon(match=match, expected_version=match.version, user=table.owner)
    doc = exporting.group_export(group=table.group)
    [abandoned] = doc["matches"]
    assert [e["action"] for e in abandoned["history"]] == ["create", "delete", "abandon"]
    exporting.group_import(group=_copy(table), data=doc, user=table.owner)  # as it is: imported
    abandoned["history"][2]["round"] = abandoned["rounds"][0]["uid"]

    with pytest.raises(services.ValidationFailed) as caught:
        exporting.group_import(group=_copy(table), data=doc, user=table.owner)

    assert "matches[0].history[2].round" in caught.value.problems
