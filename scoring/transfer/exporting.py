"""Export a group as one JSON document that an import reads back (the import is in ``scoring.transfer.importing``).

The document carries everything the group has: whether the other side confirms its rounds, its players (archived
ones too) with their account links, its house rules with every version, its matches of every kind (with their
rounds and each round's history, the other side's confirmations and disputes, the house rules they were started
from and their BG Stats link) and the sections other apps own (the night splits and merges,
``scoring.transfer.sections``).  Matches, rounds and house rules carry stable identifiers
(``uid``): an import keeps them, so that importing a document into an empty group and exporting it again gives
the same document, and importing it again adds nothing.  Players and seats are referred to by name (unique in
a group).  What it does not carry: database ids, a match's version counter, who created a match or house rules
(shown nowhere), and account links of people who are not members of the group imported into (those players
become guests; a round's author, a history line's actor and who confirmed a round become unknown).

``group_export_stream`` yields the document as UTF-8 JSON a batch of matches at a time, so that a large group
is sent with the memory of one batch; ``group_export`` builds the same document as a dict.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

from django.db.models import Prefetch

from scoring.models import BgStatsPlay, Group, Match, Player, Preset, PresetVersion, Round, RoundCheck
from scoring.transfer.export_common import cell, iso, match_batches, snapshot, username
from scoring.transfer.sections import SECTIONS

FORMAT = "scorekeeper-group"
FORMAT_VERSION = 1
_cell = cell  # (the name the spreadsheet code used to import)


def _group_doc(group: Group) -> dict[str, Any]:
    doc: dict[str, Any] = {"name": group.name}
    if group.confirm_rounds_since is not None:  # only a group that confirms rounds carries the key
        doc["confirm_rounds_since"] = iso(group.confirm_rounds_since)
    return doc


def _player_doc(player: Player) -> dict[str, Any]:
    doc = {"name": player.name, "user": username(player.user), "created_at": iso(player.created_at)}
    if player.archived_at is not None:  # only removed players carry the key: older files stay as they were
        doc["archived_at"] = iso(player.archived_at)
    return doc


def _players(group: Group) -> list[dict[str, Any]]:
    players = Player.objects.filter(group=group, merged_into__isnull=True).select_related("user").order_by("id")
    return [_player_doc(p) for p in players]


def _presets(group: Group) -> list[dict[str, Any]]:
    """Every house rule of the group, removed ones too (matches started from them still name them)."""
    versions = PresetVersion.objects.order_by("number")
    presets = (
        Preset.objects.filter(group=group)
        .prefetch_related(Prefetch("versions", queryset=versions))
        .order_by("created_at", "id")
    )
    out = []
    for p in presets:
        doc: dict[str, Any] = {
            "uid": str(p.uid),
            "ruleset": p.ruleset,
            "name": p.name,
            "is_default": p.is_default,
            "created_at": iso(p.created_at),
            "versions": [
                {
                    "number": v.number,
                    "name": v.name,
                    "options": v.options,
                    "created_at": iso(v.created_at),
                }
                for v in p.versions.all()
            ],
        }
        if p.archived_at is not None:
            doc["archived_at"] = iso(p.archived_at)
        out.append(doc)
    return out


def _round_doc(r: Round) -> dict[str, Any]:
    return {
        "uid": str(r.uid),
        "number": r.number,
        "facts": r.facts,
        "ruleset_version": r.ruleset_version,
        "points": r.points,
        "explanation": r.explanation,
        "entered_by": username(r.entered_by),
        "created_at": iso(r.created_at),
        "deleted_at": iso(r.deleted_at),
        # a confirmation speaks for one version of the round; one saved before its group began confirming rounds
        # waits for none (``scoring.selectors.confirming.state_of``)
        "version": r.version,
        "updated_at": iso(r.updated_at),
    }


def _person(player: Player | None) -> str | None:
    """A player by name; one merged into another since is named as the player they became (the one the document
    lists, seated in their place)."""
    seen: set[int] = set()
    while player is not None and player.merged_into_id is not None and player.pk not in seen:
        seen.add(player.pk)
        player = player.merged_into
    return player.name if player is not None else None


def _checks(checks: list[RoundCheck], rounds: list[Round]) -> list[dict[str, Any]]:
    """The other side's word on the match's rounds (one per round at most), in the order of the rounds."""
    place = {r.pk: (n, str(r.uid)) for n, r in enumerate(rounds)}
    return [
        {
            "round": place[c.round_id][1],
            "state": c.state,
            "version": c.version,
            "by": username(c.by),
            "player": _person(c.player),
            "note": c.note,
            "at": iso(c.at),
        }
        for c in sorted(checks, key=lambda c: place[c.round_id][0])
    ]


def _history(m: Match, rounds: dict[int, str]) -> list[dict[str, Any]]:
    """The match's events, oldest first.  An undo names the event it reverts by that event's place in this
    list (database ids do not survive an import)."""
    events = list(m.events.all())
    place = {e.pk: n for n, e in enumerate(events)}
    out = []
    for e in events:
        after = e.after
        if isinstance(after, dict) and "undoes" in after:
            after = {**after, "undoes": place.get(after["undoes"])}
        out.append(
            {
                "action": e.action,
                "round": rounds.get(e.round_id) if e.round_id is not None else None,
                "round_number": e.round_number,
                "actor": username(e.actor),
                "at": iso(e.at),
                "before": e.before,
                "after": after,
            }
        )
    return out


def _match_doc(m: Match, bgstats: dict[int, str], checks: dict[int, list[RoundCheck]]) -> dict[str, Any]:
    rounds = list(m.rounds.all())
    doc: dict[str, Any] = {
        "uid": str(m.uid),
        "ruleset": m.ruleset,
        "options": m.options,
        "state": m.state,
        "finish_reason": m.finish_reason,
        "created_at": iso(m.created_at),
        "finished_at": iso(m.finished_at),
        "players": [s.player.name for s in m.seats.all()],
        "rounds": [_round_doc(r) for r in rounds],
        "history": _history(m, {r.pk: str(r.uid) for r in rounds}),
    }
    if m.preset_version is not None:
        doc["house_rules"] = {"preset": str(m.preset_version.preset.uid), "version": m.preset_version.number}
    if m.pk in bgstats:
        doc["bgstats_uuid"] = bgstats[m.pk]
    if m.pk in checks:  # only a match with confirmed or disputed rounds carries the key
        doc["checks"] = _checks(checks[m.pk], rounds)
    if m.totals_only:  # only totals-only matches carry these keys: older files stay as they were
        # the winners as recorded (BG Stats names its own); the rules name those of a match with rounds
        doc.update(totals_only=True, totals=m.totals, winners=m.winners)
    return doc


def _match_docs(group: Group) -> Iterator[list[dict[str, Any]]]:
    for batch in match_batches(group, history=True):
        links = dict(BgStatsPlay.objects.filter(match__in=batch).values_list("match_id", "uuid"))
        checks: dict[int, list[RoundCheck]] = {}
        for check in RoundCheck.objects.filter(match__in=batch).select_related("by", "player"):
            checks.setdefault(check.match_id, []).append(check)
        docs = [_match_doc(m, links, checks) for m in batch]
        del checks
        del batch
        yield docs
        del docs


def group_export(*, group: Group) -> dict[str, Any]:
    """The whole group as one JSON document (as a dict; a few queries per batch of matches)."""
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "group": _group_doc(group),
        "players": _players(group),
        "presets": _presets(group),
        "matches": [m for batch in _match_docs(group) for m in batch],
    }
    for key, section in SECTIONS.items():
        doc[key] = section.export(group)
    return doc


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def group_export_stream(*, group: Group) -> Iterator[bytes]:
    """The document of :func:`group_export` as UTF-8 JSON, a batch of matches per chunk."""
    with snapshot():
        head = {"format": FORMAT, "version": FORMAT_VERSION, "group": _group_doc(group)}
        yield (_dumps(head)[:-1] + ',"players":' + _dumps(_players(group))).encode()
        yield (',"presets":' + _dumps(_presets(group)) + ',"matches":[').encode()
        first = True
        for docs in _match_docs(group):
            text = ",".join(_dumps(d) for d in docs)
            del docs
            yield (text if first else "," + text).encode()
            del text
            first = False
        tail = "]"
        for key, section in SECTIONS.items():
            tail += f",{_dumps(key)}:{_dumps(section.export(group))}"
        yield (tail + "}").encode()


# --- the CSV tables and the import (kept here for the callers that import them from this module) --------------

from scoring.transfer.export_tables import TABLES, group_export_csv, group_export_csv_stream  # noqa: E402, F401
from scoring.transfer.importing import group_import, group_import_new  # noqa: E402, F401


def rows(text: str) -> Iterator[list[str]]:
    """Parse CSV text (tests and tools)."""
    yield from csv.reader(io.StringIO(text))
