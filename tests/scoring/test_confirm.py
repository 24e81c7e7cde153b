"""Rounds the other side confirms (issue 47 part 3): the services and where each round stands.

The NJET example round (5 players) has Anna, Bence and Csilla in the start player's team, Dani and Eszter in the
other: a round Anna (olga) saves is confirmed by Dani or Eszter, never by Bence."""

from __future__ import annotations

from typing import Any

import pytest
from django.http import Http404

from scoring import services
from scoring.models import Group, Match, RoundCheck, RoundEvent
from scoring.selectors.confirming import CONFIRMED, DISPUTED, TO_CONFIRM, UNCHECKED, match_checks
from scoring.services import Conflict, NotAllowed, StaleVersion, ValidationFailed
from tests.factories import MembershipFactory, UserFactory
from tests.scoring.helpers import njet_facts

pytestmark = pytest.mark.django_db


def _link(table: Any, user: Any, name: str) -> None:
    player = next(p for p in table.players if p.name == name)
    player.user = user
    player.save()


@pytest.fixture
def dani(table: Any) -> Any:
    _link(table, table.member, "Dani")
    return table.member


def _on(table: Any) -> None:
    services.group_confirm_rounds(group=table.group, on=True, user=table.owner)


def _states(match: Match, user: Any) -> list[tuple[int, str]]:
    rounds = list(match.rounds.filter(deleted_at__isnull=True).order_by("number"))
    return [(s.number, s.state) for s in match_checks(match=match, rounds=rounds, user=user)]


def test_off_by_default_nothing_to_confirm_and_a_confirm_is_refused(table, njet_match, dani) -> None:
    assert Group.objects.get(pk=table.group.pk).confirm_rounds_since is None
    services.round_record(match=njet_match, facts=njet_facts(), user=table.owner)
    assert _states(njet_match, dani) == [(1, UNCHECKED)]
    with pytest.raises(Conflict):
        services.round_confirm(match_id=njet_match.pk, number=1, user=dani, expected_version=1)
    assert not RoundCheck.objects.exists()
    assert not RoundEvent.objects.filter(action__in=["confirm", "dispute"]).exists()


def test_the_other_team_confirms_once_and_every_phone_hears_of_it(table, njet_match, dani) -> None:
    _on(table)
    rnd = services.round_record(match=njet_match, facts=njet_facts(), user=table.owner)
    version = Match.objects.get(pk=njet_match.pk).version
    [standing] = match_checks(match=njet_match, rounds=[rnd], user=dani)
    assert (standing.state, standing.saved_by, standing.can_act) == (TO_CONFIRM, "Anna", True)
    assert standing.confirmers == ["Dani"]  # Eszter has no account here: she cannot tap Confirm

    check = services.round_confirm(match_id=njet_match.pk, number=1, user=dani, expected_version=rnd.version)
    assert (check.state, check.version, check.player.name) == ("confirmed", rnd.version, "Dani")
    again = services.round_confirm(match_id=njet_match.pk, number=1, user=dani, expected_version=rnd.version)
    assert again.pk == check.pk
    events = list(RoundEvent.objects.filter(match=njet_match, action="confirm"))
    assert [(e.round_number, e.actor_id, e.after["player"], e.after["was"]) for e in events] == [
        (1, dani.pk, "Dani", TO_CONFIRM)
    ]
    # the match moved on once (the boards refresh), not for the repeated tap
    assert Match.objects.get(pk=njet_match.pk).version == version + 1
    assert _states(njet_match, table.owner) == [(1, CONFIRMED)]


def test_the_saver_and_the_saver_s_own_team_cannot_confirm(table, njet_match) -> None:
    _on(table)
    _link(table, table.member, "Bence")  # in Anna's team
    services.round_record(match=njet_match, facts=njet_facts(), user=table.owner)
    with pytest.raises(NotAllowed, match="You saved this round"):
        services.round_confirm(match_id=njet_match.pk, number=1, user=table.owner, expected_version=1)
    with pytest.raises(NotAllowed, match="Bence played on the same side as Anna"):
        services.round_confirm(match_id=njet_match.pk, number=1, user=table.member, expected_version=1)
    [standing] = match_checks(match=njet_match, rounds=list(njet_match.rounds.all()), user=table.member)
    assert (standing.can_act, standing.reason) == (False, "same_side")
    assert not RoundCheck.objects.exists()


def test_a_member_who_did_not_play_and_an_outsider_cannot_confirm(table, njet_match) -> None:
    _on(table)
    services.round_record(match=njet_match, facts=njet_facts(), user=table.owner)
    with pytest.raises(NotAllowed, match="not linked to any of its players"):
        services.round_confirm(match_id=njet_match.pk, number=1, user=table.member, expected_version=1)
    with pytest.raises(Http404):
        services.round_confirm(match_id=njet_match.pk, number=1, user=table.outsider, expected_version=1)
    with pytest.raises(Http404):
        services.round_confirm(match_id=njet_match.pk, number=2, user=table.owner, expected_version=1)


def test_a_round_saved_by_someone_at_no_seat_is_confirmed_by_any_player(table, njet_match) -> None:
    _on(table)
    keeper = UserFactory(username="keeper")
    MembershipFactory(group=table.group, user=keeper)
    _link(table, table.member, "Bence")
    services.round_record(match=njet_match, facts=njet_facts(), user=keeper)
    [standing] = match_checks(match=njet_match, rounds=list(njet_match.rounds.all()), user=table.member)
    assert (standing.saved_by, standing.can_act, sorted(standing.confirmers)) == ("", True, ["Anna", "Bence"])
    check = services.round_confirm(match_id=njet_match.pk, number=1, user=table.member, expected_version=1)
    assert check.player.name == "Bence"


def test_a_confirm_for_a_version_the_phone_did_not_show_is_refused(table, njet_match, dani) -> None:
    _on(table)
    rnd = services.round_record(match=njet_match, facts=njet_facts(), user=table.owner)
    services.round_edit(round=rnd, facts=njet_facts(points_per_trick=3), expected_version=1, user=table.owner)
    with pytest.raises(StaleVersion):
        services.round_confirm(match_id=njet_match.pk, number=1, user=dani, expected_version=1)
    with pytest.raises(ValidationFailed):
        services.round_confirm(match_id=njet_match.pk, number=1, user=dani, expected_version=None)


def test_a_dispute_keeps_the_round_an_edit_needs_confirming_again_then_it_is_confirmed(table, njet_match, dani) -> None:
    _on(table)
    rnd = services.round_record(match=njet_match, facts=njet_facts(), user=table.owner)
    points = list(rnd.points)
    check = services.round_dispute(
        match_id=njet_match.pk, number=1, user=dani, expected_version=1, note="  Dani had  3 tricks,\nnot 2 "
    )
    assert (check.state, check.note) == ("disputed", "Dani had 3 tricks, not 2")
    rnd.refresh_from_db()
    assert (rnd.points, rnd.deleted_at) == (points, None)  # the round stays as it was
    assert _states(njet_match, dani) == [(1, DISPUTED)]
    [standing] = match_checks(match=njet_match, rounds=[rnd], user=table.owner)
    assert (standing.by, standing.note, standing.can_act, standing.reason) == (
        "Dani",
        "Dani had 3 tricks, not 2",
        False,
        "saved_it",
    )

    # Anna settles it by editing the round: the new version waits for the other side again
    services.round_edit(round=rnd, facts=njet_facts(points_per_trick=3), expected_version=1, user=table.owner)
    assert _states(njet_match, dani) == [(1, TO_CONFIRM)]
    services.round_confirm(match_id=njet_match.pk, number=1, user=dani, expected_version=2)
    assert _states(njet_match, dani) == [(1, CONFIRMED)]
    history = [
        (e.action, (e.after or {}).get("note"))
        for e in RoundEvent.objects.filter(match=njet_match, round_number=1).order_by("id")
    ]
    assert history == [
        ("create", None),
        ("dispute", "Dani had 3 tricks, not 2"),
        ("edit", None),
        ("confirm", ""),
    ]


def test_a_disputed_round_confirmed_as_it_stands(table, njet_match, dani) -> None:
    _on(table)
    services.round_record(match=njet_match, facts=njet_facts(), user=table.owner)
    services.round_dispute(match_id=njet_match.pk, number=1, user=dani, expected_version=1, note="")
    services.round_confirm(match_id=njet_match.pk, number=1, user=dani, expected_version=1)
    event = RoundEvent.objects.filter(match=njet_match, action="confirm").get()
    assert (event.before["state"], event.after["was"]) == ("disputed", DISPUTED)
    assert _states(njet_match, dani) == [(1, CONFIRMED)]


@pytest.mark.parametrize(
    ("note", "message"),
    [("x" * 281, "At most 280"), ("a\u202eb", r"U\+202E"), ("a\x00b", r"U\+0000"), (7, "Must be text")],
)
def test_a_note_the_other_phone_could_not_show_is_refused(table, njet_match, dani, note, message) -> None:
    _on(table)
    services.round_record(match=njet_match, facts=njet_facts(), user=table.owner)
    with pytest.raises(ValidationFailed, match=message):
        services.round_dispute(match_id=njet_match.pk, number=1, user=dani, expected_version=1, note=note)
    assert not RoundCheck.objects.exists()


def test_rounds_saved_before_the_check_was_switched_on_stay_unchecked(table, njet_match, dani) -> None:
    services.round_record(match=njet_match, facts=njet_facts(), user=table.owner)
    _on(table)
    services.round_record(match=njet_match, facts=njet_facts(), user=table.owner)
    assert _states(njet_match, dani) == [(1, UNCHECKED), (2, TO_CONFIRM)]
    with pytest.raises(Conflict, match="before the group began"):
        services.round_confirm(match_id=njet_match.pk, number=1, user=dani, expected_version=1)
    # switched off: nothing shows, and a confirmation kept from before stands again once it is back on
    services.round_confirm(match_id=njet_match.pk, number=2, user=dani, expected_version=1)
    services.group_confirm_rounds(group=table.group, on=False, user=table.owner)
    assert _states(njet_match, dani) == [(1, UNCHECKED), (2, UNCHECKED)]
    _on(table)
    assert _states(njet_match, dani) == [(1, UNCHECKED), (2, CONFIRMED)]


def test_only_an_owner_switches_the_check(table) -> None:
    with pytest.raises(NotAllowed):
        services.group_confirm_rounds(group=table.group, on=True, user=table.member)
    _on(table)
    first = Group.objects.get(pk=table.group.pk).confirm_rounds_since
    _on(table)  # on again: the moment it was switched on stays
    assert Group.objects.get(pk=table.group.pk).confirm_rounds_since == first


def test_mue_the_vice_confirms_the_chief_s_round_the_partner_does_not(table) -> None:
    from scoring import rules

    _on(table)
    example = rules.get("mue").example  # Márk (seat 3) chief, Anita (seat 0) partner, Éva (seat 2) vice
    match = services.match_create(
        group=table.group,
        ruleset="mue",
        options=example["options"],
        player_ids=[p.pk for p in table.players],
        user=table.owner,
    )
    chief = UserFactory(username="chief")
    MembershipFactory(group=table.group, user=chief)
    _link(table, chief, "Dani")  # seat 3: the chief
    _link(table, table.member, "Csilla")  # seat 2: the vice
    services.round_record(match=match, facts=example["facts"], user=chief)
    with pytest.raises(NotAllowed):
        services.round_confirm(match_id=match.pk, number=1, user=table.owner, expected_version=1)  # partner
    check = services.round_confirm(match_id=match.pk, number=1, user=table.member, expected_version=1)
    assert check.player.name == "Csilla"
