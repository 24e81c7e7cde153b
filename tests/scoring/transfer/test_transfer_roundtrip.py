"""Issue 43 §1: a group export carries everything the group has, exactly.  Random groups (every game, open and
finished matches, rounds deleted and restored, options changed, totals-only matches, house rules with versions
and removed ones, nights split and merged, archived and linked players, the other side confirming rounds from
some match on, or no longer, with rounds confirmed, disputed and waiting) are exported, imported into an empty
group and exported again: the same document, and every round stands where it stood.  Importing the same
document again, or into the group it came from, adds nothing; the streamed document is the same document, and
the CSV tables list every match."""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import io
import json
from dataclasses import dataclass, field
from random import Random
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone, translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analytics import synthetic
from analytics.models import NightBreak
from analytics.nights.service import night_merge, night_split
from scoring import rules, services
from scoring.models import Group, Match, Player, Preset, PresetVersion, Round, RoundCheck, RoundEvent
from scoring.selectors.confirming import CONFIRMED, DISPUTED, TO_CONFIRM, UNCHECKED
from scoring.services.presets import preset_option_keys
from scoring.transfer import exporting, importing, spreadsheet
from tests.factories import UserFactory
from tests.scoring.helpers import standings

pytestmark = pytest.mark.django_db

GAMES = list(rules.KEYS)
GROUP_SIZE = 6


@dataclass
class MatchSpec:
    game: str
    seed: int
    kind: str  # "open", "finished", "totals" or "abandoned" (no rounds)
    rounds: int
    delete_last: bool
    restore: bool
    change_options: bool
    preset: int | None  # an index into the group's presets of this game
    gap_hours: float  # after the previous match began
    # what the other side says of each round as it is saved ("confirm", "dispute" with a note, or "leave" it
    # waiting); said only where the group confirms rounds and a player of the other side has an account
    checks: list[str] = field(default_factory=list)


@dataclass
class GroupSpec:
    matches: list[MatchSpec]
    presets: list[tuple[str, int, bool, bool]]  # (game, versions, removed, default)
    archive: list[int]  # players (by index) removed after playing
    breaks: list[tuple[int, str]]  # (match index, "split" or "merge")
    link_member: bool
    extra: list[str] = field(default_factory=list)
    confirm_from: int | None = None  # the match from which on the other side confirms rounds (None: never)
    confirm_off: bool = False  # switched off again after the last match (the confirmations stay)


match_specs = st.builds(
    MatchSpec,
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 10_000),
    kind=st.sampled_from(["open", "finished", "finished", "totals", "abandoned"]),
    rounds=st.integers(1, 4),
    delete_last=st.booleans(),
    restore=st.booleans(),
    change_options=st.booleans(),
    preset=st.one_of(st.none(), st.integers(0, 2)),
    gap_hours=st.sampled_from([0.5, 1.5, 5.0, 30.0]),
    checks=st.lists(st.sampled_from(["confirm", "dispute", "leave"]), min_size=1, max_size=4),
)
group_specs = st.builds(
    GroupSpec,
    matches=st.lists(match_specs, min_size=1, max_size=5),
    presets=st.lists(st.tuples(st.sampled_from(GAMES), st.integers(1, 3), st.booleans(), st.booleans()), max_size=3),
    archive=st.lists(st.integers(0, GROUP_SIZE - 1), max_size=2, unique=True),
    breaks=st.lists(st.tuples(st.integers(0, 4), st.sampled_from(["split", "merge"])), max_size=3),
    link_member=st.booleans(),
    extra=st.lists(st.sampled_from(["Zsófi", "=SUM(A1)", "Ödön"]), max_size=2, unique=True),
    confirm_from=st.sampled_from([None, 0, 0, 1, 3]),  # mostly on: the confirmations are the rarer data
    confirm_off=st.sampled_from([False, False, True]),
)
NOTES = ["", "Nem 3 ütés volt, hanem 4", "=1+1 (a képlet marad)"]


@dataclass
class People:
    owner: Any
    member: Any


def _presets(group: Group, owner: Any, spec: GroupSpec) -> dict[str, list[Preset]]:
    """House rules per game: a first version with the game's defaults, later ones from the generator's options."""
    made: dict[str, list[Preset]] = {}
    for n, (game, versions, removed, default) in enumerate(spec.presets):
        ruleset = rules.get(game)
        if not preset_option_keys(ruleset):
            continue
        preset = services.preset_create(
            group=group, ruleset=game, name=f"Ours {n}", options={}, user=owner, is_default=default
        )
        rng = Random(n)
        for v in range(1, versions):
            count = rng.choice(synthetic.GAMES[game].players)
            options = synthetic.GAMES[game].options(rng, count)
            with contextlib.suppress(services.ServiceError):  # options that suit no table size of the game
                services.preset_update(preset=preset, user=owner, name=f"Ours {n}.{v}", options=options)
        if removed:
            services.preset_delete(preset=preset, user=owner)
        made.setdefault(game, []).append(preset)
    return made


def _play(group: Group, people: People, players: list[Player], spec: MatchSpec, presets: list[Preset]) -> Match:
    rng = Random(spec.seed)
    game = synthetic.GAMES[spec.game]
    count = rng.choice([n for n in game.players if n <= len(players)])
    seated = rng.sample(players, count)
    if spec.kind == "totals":
        points = [rng.randint(-20, 200) for _ in seated]
        for tries in range(2):  # partners (NJET's fixed teams) share their score: then everybody's is equal
            try:
                return services.match_record_totals(
                    group=group,
                    ruleset=spec.game,
                    options=game.options(rng, count),
                    player_ids=[p.pk for p in seated],
                    points=points if not tries else [points[0]] * count,
                    played_at=timezone.now() - dt.timedelta(days=1),
                    user=people.member,
                )
            except services.ValidationFailed:
                if tries:
                    raise
    if spec.kind == "abandoned":  # a rematch tapped by mistake: given up before its first round
        match = services.match_create(
            group=group,
            ruleset=spec.game,
            options=game.options(rng, count),
            player_ids=[p.pk for p in seated],
            user=people.owner,
        )
        return services.match_abandon(match=match, expected_version=match.version, user=people.member)
    played = synthetic.play_match(rng, spec.game, [1.0] * count, rounds=spec.rounds)
    match = None
    if spec.preset is not None and spec.preset < len(presets) and presets[spec.preset].archived_at is None:
        try:
            match = services.match_create(
                group=group,
                ruleset=spec.game,
                options={k: v for k, v in played.options.items() if k == "tasks"},
                player_ids=[p.pk for p in seated],
                user=people.owner,
                preset_id=presets[spec.preset].pk,
            )
        except services.ServiceError:
            match = None
    if match is None or match.options != played.options:
        if match is not None:
            match.delete()
        match = services.match_create(
            group=group, ruleset=spec.game, options=played.options, player_ids=[p.pk for p in seated], user=people.owner
        )
    for n, (facts, _result) in enumerate(played.rounds):
        services.round_record(match=match, facts=facts, user=people.owner if n % 2 else people.member)
    _say(match, people, spec)
    live = list(Round.objects.filter(match=match, deleted_at__isnull=True).order_by("number"))
    if spec.delete_last and live:
        last = live[-1]
        services.round_delete(round=last, expected_version=last.version, user=people.member)
        if spec.restore:
            services.round_undo(round=Round.objects.get(pk=last.pk), user=people.owner)
    if spec.change_options:
        match.refresh_from_db()
        changed = {**match.options, **synthetic.GAMES[spec.game].options(Random(spec.seed + 1), count)}
        with contextlib.suppress(services.ServiceError):  # a round the new options break: nothing changes
            services.match_options_change(
                match=match, options=changed, expected_version=match.version, user=people.owner
            )
    match.refresh_from_db()
    if spec.kind == "finished" and match.state == Match.State.OPEN:
        services.match_finish(match=match, expected_version=match.version, user=people.member)
    return match


def _say(match: Match, people: People, spec: MatchSpec) -> None:
    """The other side's word on each round as it is saved: the account that did not save it confirms it or
    disputes it, where it may (a player of the other side, in a group that confirms rounds)."""
    notes = Random(spec.seed + 2)
    for rnd, said in zip(Round.objects.filter(match=match).order_by("number"), spec.checks, strict=False):
        other = people.member if rnd.entered_by_id == people.owner.pk else people.owner
        with contextlib.suppress(services.NotAllowed, services.Conflict):
            if said == "confirm":
                services.round_confirm(match_id=match.pk, number=rnd.number, user=other, expected_version=rnd.version)
            elif said == "dispute":
                services.round_dispute(match_id=match.pk, number=rnd.number, user=other,
                                       expected_version=rnd.version, note=notes.choice(NOTES))  # fmt: skip


def _build(spec: GroupSpec, people: People) -> Group:
    group = services.group_create(name="Thursday table", user=people.owner)
    services.membership_add(group=group, user=people.member, by=people.owner)
    players = [
        services.player_create(group=group, name=name, user=people.owner)
        for name in ("Anna", "Bence", "Csilla", "Dani", "Eszter", "Flóra")
    ]
    if spec.link_member or spec.confirm_from is not None:
        services.player_link(player=players[1], linked_user=people.member, user=people.owner)
    if spec.confirm_from is not None:  # both accounts at the table: each can confirm the other's rounds
        services.player_link(player=players[0], linked_user=people.owner, user=people.owner)
    presets = _presets(group, people.owner, spec)
    start = timezone.now() - dt.timedelta(days=60)
    matches = []
    for n, match_spec in enumerate(spec.matches):
        if n == spec.confirm_from:
            services.group_confirm_rounds(group=group, on=True, user=people.owner)
        match = _play(group, people, players, match_spec, presets.get(match_spec.game, []))
        match.refresh_from_db()
        start += dt.timedelta(hours=match_spec.gap_hours)
        if not match.totals_only:  # spread over evenings: the nights depend on the gaps
            finished = start + dt.timedelta(minutes=40) if match.finished_at else None
            Match.objects.filter(pk=match.pk).update(created_at=start, finished_at=finished)
        else:
            Match.objects.filter(pk=match.pk).update(created_at=start, finished_at=start)
        matches.append((n, match))
    for index, kind in spec.breaks:
        if index < len(matches):
            match = Match.objects.get(pk=matches[index][1].pk)
            if match.state == Match.State.FINISHED:
                (night_split if kind == "split" else night_merge)(match=match, user=people.member)
    for index in spec.archive:
        services.player_remove(player=Player.objects.get(pk=players[index].pk), user=people.owner)
    for name in spec.extra:  # players who never played
        services.player_create(group=group, name=name, user=people.owner)
    if spec.confirm_off:
        services.group_confirm_rounds(group=group, on=False, user=people.owner)
    return Group.objects.get(pk=group.pk)


def _empty_copy(people: People) -> Group:
    group = services.group_create(name="Thursday table", user=people.owner)
    services.membership_add(group=group, user=people.member, by=people.owner)
    return group


def _counts(group: Group) -> tuple[int, ...]:
    return (
        Player.objects.filter(group=group).count(),
        Match.objects.filter(group=group).count(),
        Round.objects.filter(match__group=group).count(),
        RoundEvent.objects.filter(match__group=group).count(),
        Preset.objects.filter(group=group).count(),
        PresetVersion.objects.filter(preset__group=group).count(),
        NightBreak.objects.filter(group=group).count(),
        RoundCheck.objects.filter(match__group=group).count(),
    )


def _csv_lists_every_match(group: Group, doc: dict[str, Any]) -> None:
    """The tools' matches table lists every match of the document; the spreadsheet (Hungarian: semicolons)
    every match with a live round or final scores (an empty or abandoned match has no score to list)."""
    table = list(exporting.rows(exporting.group_export_csv(group=group, table="matches")))
    assert sorted(row[-1] for row in table[1:]) == sorted(m["uid"] for m in doc["matches"])
    with translation.override("hu"):
        sheet = spreadsheet.group_export_scores_csv(group=group)
    listed = {row[0] for row in list(csv.reader(io.StringIO(sheet.lstrip(spreadsheet.BOM)), delimiter=";"))[1:]}
    live = Round.objects.filter(match__group=group, deleted_at__isnull=True).values_list("match_id", flat=True)
    totals = Match.objects.filter(group=group, totals_only=True).values_list("pk", flat=True)
    assert listed == {str(pk) for pk in [*live, *totals]}


def _check_round_trip(group: Group, people: People) -> None:
    doc = exporting.group_export(group=group)
    assert json.loads(b"".join(exporting.group_export_stream(group=group))) == doc

    copy = _empty_copy(people)
    summary = exporting.group_import(group=copy, data=json.loads(json.dumps(doc)), user=people.owner)

    assert (summary.matches, summary.already) == (len(doc["matches"]), 0)
    assert summary.presets == len(doc["presets"])
    again = exporting.group_export(group=copy)
    assert again == doc
    assert _counts(copy) == _counts(group)
    # every round stands where it stood (unchecked, to confirm, confirmed or disputed), on either phone
    for person in (people.owner, people.member):
        assert standings(copy, person) == standings(group, person)
    _csv_lists_every_match(group, doc)
    _csv_lists_every_match(copy, doc)

    # the same document again, into the copy and into the group it came from: nothing is added, and it says so
    before = _counts(copy)
    second = exporting.group_import(group=copy, data=doc, user=people.owner)
    assert (second.players, second.matches, second.presets, second.already) == (0, 0, 0, len(doc["matches"]))
    assert _counts(copy) == before
    assert exporting.group_export(group=copy) == doc
    home = exporting.group_import(group=group, data=doc, user=people.owner)
    assert (home.players, home.matches, home.presets, home.already) == (0, 0, 0, len(doc["matches"]))


@given(spec=group_specs)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_export_import_export_gives_the_same_document_and_a_second_import_adds_nothing(spec: GroupSpec) -> None:
    with transaction.atomic():
        people = People(owner=UserFactory(), member=UserFactory())
        _check_round_trip(_build(spec, people), people)
        transaction.set_rollback(True)


def test_every_game_round_trips_with_its_history_house_rules_and_nights() -> None:
    """One match of every game, each with a deleted and restored round, options changed where the rules allow,
    totals-only matches, house rules with versions (one removed), a split and a merge of nights; from the third
    match on the other side confirms rounds: some are confirmed, some disputed, some left waiting."""
    people = People(owner=UserFactory(), member=UserFactory())
    said = ["confirm", "dispute", "leave"]
    spec = GroupSpec(
        matches=[
            MatchSpec(game, seed, kind, 3, True, seed % 2 == 0, seed % 3 == 0, 0, gap, said[seed % 3 :] + said)
            for seed, (game, kind, gap) in enumerate(
                zip(GAMES, ["finished", "open", "finished", "totals"] * 2, [1.5, 5.0, 30.0, 0.5] * 2, strict=False)
            )
        ]
        + [MatchSpec("njet", 99, "abandoned", 0, False, False, False, None, 1.0)],
        presets=[("njet", 3, False, True), ("coloretto", 2, True, False), ("muzicando", 2, False, True)],
        archive=[5],
        breaks=[(4, "split"), (6, "merge")],
        link_member=True,
        extra=["Zsófi"],
        confirm_from=2,
    )
    group = _build(spec, people)
    doc = exporting.group_export(group=group)
    # the parts the issue lists are all there
    assert {m["ruleset"] for m in doc["matches"]} == set(GAMES)
    assert any(m.get("totals_only") for m in doc["matches"])
    assert any(m["state"] == "abandoned" for m in doc["matches"])
    assert any(any(e["action"] == "undo" for e in m["history"]) for m in doc["matches"])
    assert sum(len(p["versions"]) for p in doc["presets"]) >= 4
    assert any("archived_at" in p for p in doc["presets"])
    assert any("archived_at" in p for p in doc["players"])
    assert doc["night_breaks"]
    assert any(p["user"] for p in doc["players"])
    assert all(m["uid"] and all(r["uid"] for r in m["rounds"]) for m in doc["matches"])
    assert doc["group"]["confirm_rounds_since"]
    assert {c["state"] for m in doc["matches"] for c in m.get("checks", [])} == {"confirmed", "disputed"}
    assert any(c["note"] for m in doc["matches"] for c in m.get("checks", []))
    assert {"confirm", "dispute"} <= {e["action"] for m in doc["matches"] for e in m["history"]}
    states = {row[2] for rows in standings(group, people.member).values() for row in rows}
    assert states == {UNCHECKED, TO_CONFIRM, CONFIRMED, DISPUTED}
    _check_round_trip(group, people)


def test_a_restored_undo_still_undoes_the_same_change(table, njet_match):
    """The history is not only shown: an undo after the import walks back the imported history (an undo names
    the event it reverted, by its new id)."""
    from tests.scoring.helpers import record

    _first, second = record(njet_match, table.member, n=2)
    services.round_delete(round=second, expected_version=second.version, user=table.member)
    services.round_undo(round=Round.objects.get(pk=second.pk), user=table.member)  # second is back
    doc = exporting.group_export(group=table.group)
    copy = services.group_create(name="Copy", user=table.owner)
    services.membership_add(group=copy, user=table.member, by=table.owner)
    exporting.group_import(group=copy, data=doc, user=table.owner)
    match = Match.objects.get(group=copy)

    # the deletion of round 2 was undone already, so the newest change left to undo is round 2's creation:
    # undoing it deletes round 2, in the copy as in the original (with the undo's link to the deletion lost, the
    # copy would undo the deletion again instead)
    undone = services.match_undo_last(match=match, user=table.owner, expected_version=match.version)
    original = services.match_undo_last(
        match=Match.objects.get(pk=njet_match.pk),
        user=table.owner,
        expected_version=Match.objects.get(pk=njet_match.pk).version,
    )
    assert (
        (undone.number, undone.deleted_at is not None)
        == (original.number, original.deleted_at is not None)
        == (
            2,
            True,
        )
    )


def test_an_older_file_imported_twice_adds_nothing(table, njet_match):
    """A file written before matches had identifiers: its matches are recognised by game, start time and
    players, so importing it twice (or back into its group) adds nothing."""
    from tests.scoring.helpers import record

    record(njet_match, table.member, n=2)
    doc = exporting.group_export(group=table.group)
    for key in ("presets", "night_breaks"):
        doc.pop(key)
    for match in doc["matches"]:
        for key in ("uid", "history"):
            match.pop(key)
        for rnd in match["rounds"]:
            rnd.pop("uid")
    copy = services.group_create(name="Copy", user=table.owner)

    first = exporting.group_import(group=copy, data=doc, user=table.owner)
    second = exporting.group_import(group=copy, data=doc, user=table.owner)
    home = exporting.group_import(group=table.group, data=doc, user=table.owner)

    assert (first.matches, first.players) == (1, 5)
    assert (second.matches, second.players, second.already) == (0, 0, 1)
    assert (home.matches, home.players, home.already) == (0, 0, 1)
    assert Match.objects.filter(group=copy).count() == 1


def test_part_of_a_document_already_here_adds_only_the_rest(table, njet_match):
    """A document of which the group holds some matches: those are left alone (and their players are not
    created again), the others are added."""
    from tests.scoring.helpers import record, ws_match

    record(njet_match, table.member, n=1)
    doc = exporting.group_export(group=table.group)
    other = ws_match(table.group, table.players, table.owner)
    fuller = exporting.group_export(group=table.group)
    copy = services.group_create(name="Copy", user=table.owner)
    exporting.group_import(group=copy, data=doc, user=table.owner)
    Player.objects.filter(group=copy, name="Anna").update(name="Anna K")  # renamed since

    summary = exporting.group_import(group=copy, data=fuller, user=table.owner)

    assert (summary.matches, summary.already) == (1, 1)
    assert Match.objects.filter(group=copy, ruleset="was-sticht").get().uid == other.uid
    # Anna sits in the was-sticht match too: she comes back under her exported name for it
    assert sorted(Player.objects.filter(group=copy).values_list("name", flat=True)) == [
        "Anna",
        "Anna K",
        "Bence",
        "Csilla",
        "Dani",
        "Eszter",
    ]


def test_the_api_and_the_page_say_what_was_already_there(table, client_for, njet_match):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from tests.scoring.helpers import record

    record(njet_match, table.member, n=1)
    doc = exporting.group_export(group=table.group)
    api = client_for(table.owner)
    copy = api.post("/api/v1/groups", {"name": "Copy"}, format="json").json()

    first = api.post(f"/api/v1/groups/{copy['id']}/import", doc, format="json").json()
    second = api.post(f"/api/v1/groups/{copy['id']}/import", doc, format="json").json()

    assert first["imported"] == {"players": 5, "matches": 1, "already": 0, "presets": 0}
    assert second["imported"] == {"players": 0, "matches": 0, "already": 1, "presets": 0}
    browser = Client()
    browser.force_login(table.owner)
    upload = SimpleUploadedFile("export.json", json.dumps(doc).encode(), content_type="application/json")
    page = browser.post(f"/groups/{copy['id']}/import", {"file": upload})
    assert page.status_code == 200
    assert "The group already holds the 1 match of this file: nothing was added." in page.content.decode()
    assert Match.objects.filter(group_id=copy["id"]).count() == 1


def test_a_large_import_job_reports_what_was_already_there(table, njet_match, settings):
    from tests.scoring.helpers import record

    record(njet_match, table.member, n=1)
    doc = exporting.group_export(group=table.group)
    settings.IMPORT_ASYNC_BYTES = 10  # every document is "large": the job runs (eagerly, in tests)
    raw = json.dumps(doc).encode()
    job = importing.job_start(raw=raw, user=table.owner, group=table.group)

    status = importing.job_status(job_id=job, user=table.owner)
    assert status is not None
    assert (status["state"], status["added"]) == ("done", {"players": 0, "matches": 0, "already": 1, "presets": 0})


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["matches"][0].update(uid="not-a-uuid"), "matches[0].uid"),
        (lambda d: d["matches"][1].update(uid=d["matches"][0]["uid"]), "matches[1].uid"),
        (lambda d: d["matches"][0]["history"][0].update(action="explode"), "matches[0].history[0].action"),
        (
            lambda d: d["matches"][0]["history"][0].update(round=d["matches"][1]["rounds"][0]["uid"]),
            "matches[0].history[0].round",
        ),
        (lambda d: d["matches"][0]["history"][0].update(after={"undoes": 5}), "matches[0].history[0].after.undoes"),
        (
            lambda d: d["matches"][0].update(house_rules={"preset": d["matches"][0]["uid"], "version": 1}),
            "matches[0].house_rules",
        ),
        (lambda d: d.update(presets=[{"uid": None}]), "presets[0].uid"),
        (lambda d: d.update(night_breaks=[{"match": d["matches"][0]["uid"], "kind": "later"}]), "night_breaks[0]"),
    ],
)
def test_a_document_with_broken_identifiers_or_history_is_refused_whole(table, njet_match, change, field):
    from tests.scoring.helpers import WS_ROUND_1, record, ws_match

    record(njet_match, table.member, n=1)
    services.round_record(match=ws_match(table.group, table.players, table.owner), facts=WS_ROUND_1, user=table.owner)
    doc = exporting.group_export(group=table.group)
    change(doc)
    copy = services.group_create(name="Copy", user=table.owner)

    with pytest.raises(services.ValidationFailed) as caught:
        exporting.group_import(group=copy, data=doc, user=table.owner)

    assert any(key.startswith(field) for key in caught.value.problems), caught.value.problems
    assert not Match.objects.filter(group=copy).exists()
    assert not Player.objects.filter(group=copy).exists()


def test_house_rules_imported_beside_the_groups_own_keep_both(table):
    """A group that already has house rules of the same name for the game (and a default) gets the file's as
    "Name (2)", not the default, and the file's matches name that one."""
    theirs = services.preset_create(
        group=table.group, ruleset="njet", name="Ours", options={"recording": "difference"}, user=table.owner,
        is_default=True,
    )  # fmt: skip
    started = services.match_create(
        group=table.group, ruleset="njet", options=None, player_ids=[p.pk for p in table.players], user=table.owner,
        preset_id=theirs.pk,
    )  # fmt: skip
    doc = exporting.group_export(group=table.group)
    other = services.group_create(name="Other", user=table.owner)
    own = services.preset_create(
        group=other, ruleset="njet", name="Ours", options={}, user=table.owner, is_default=True
    )

    summary = exporting.group_import(group=other, data=doc, user=table.owner)

    assert summary.presets == 1
    added = Preset.objects.get(group=other, uid=theirs.uid)
    assert (added.name, added.is_default) == ("Ours (2)", False)
    assert Preset.objects.get(pk=own.pk).is_default
    copy = Match.objects.get(group=other, uid=started.uid)
    assert copy.preset_version is not None and copy.preset_version.preset_id == added.pk
    assert copy.preset_version.options == {
        "recording": "difference",
        "tie_rule": theirs.versions.get().options["tie_rule"],
    }
