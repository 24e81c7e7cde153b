"""A group's tables as CSV for tools (the API's ``players``, ``matches`` and ``rounds`` tables): ids, keys and
JSON as they are stored, comma-separated, one header row.  The spreadsheet in the reader's language is
``scoring.transfer.spreadsheet``; the complete, re-importable record is the JSON export (``exporting``).

Written a batch of matches at a time (:func:`group_export_csv_stream`), so that a large group is sent with
the memory of one batch.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

from django.utils.translation import gettext

from scoring.models import Group, Match, Player
from scoring.services.errors import ValidationFailed
from scoring.transfer.export_common import cell, iso, match_batches, snapshot

TABLES = ("players", "matches", "rounds")

_HEADS = {
    "players": ["player_id", "name", "user", "guest", "created_at"],
    "matches": [
        "match_id",
        "ruleset",
        "state",
        "created_at",
        "finished_at",
        "players",
        "options",
        "rounds",
        "totals_only",
        "totals",
        "uid",
    ],
    "rounds": [
        "match_id",
        "ruleset",
        "round",
        "seat",
        "player",
        "points",
        "deleted",
        "ruleset_version",
        "entered_by",
        "created_at",
        "facts",
        "round_uid",
    ],
}


def _players_rows(group: Group) -> Iterator[list[list[Any]]]:
    players = Player.objects.filter(group=group, merged_into__isnull=True).select_related("user").order_by("id")
    out = []
    for p in players:
        user = p.user.get_username() if p.user else ""
        out.append([p.pk, cell(p.name), cell(user), int(p.user_id is None), iso(p.created_at)])
    yield out


def _match_row(m: Match) -> list[Any]:
    live = [r for r in m.rounds.all() if r.deleted_at is None]
    names = " | ".join(s.player.name for s in m.seats.all())
    return [
        m.pk,
        m.ruleset,
        m.state,
        iso(m.created_at),
        iso(m.finished_at),
        cell(names),
        json.dumps(m.options),
        len(live),
        int(m.totals_only),
        " | ".join(str(v) for v in m.totals or []) if m.totals_only else "",
        str(m.uid),
    ]


def _round_rows(m: Match) -> Iterator[list[Any]]:
    seats = list(m.seats.all())
    for r in m.rounds.all():
        entered = r.entered_by.get_username() if r.entered_by else ""
        for seat, points in enumerate(r.points):
            name = seats[seat].player.name if seat < len(seats) else ""
            yield [
                m.pk,
                m.ruleset,
                r.number,
                seat,
                cell(name),
                points,
                int(r.deleted_at is not None),
                r.ruleset_version,
                cell(entered),
                iso(r.created_at),
                json.dumps(r.facts, sort_keys=True),
                str(r.uid),
            ]


def _rows(group: Group, table: str) -> Iterator[list[list[Any]]]:
    if table == "players":
        yield from _players_rows(group)
    elif table == "matches":
        for batch in match_batches(group):
            rows = [_match_row(m) for m in batch]
            del batch  # one batch in memory at a time (export_common.match_batches)
            yield rows
    else:
        for batch in match_batches(group):
            rows = [row for m in batch for row in _round_rows(m)]
            del batch
            yield rows


def _text(rows: Iterable[list[Any]]) -> str:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


def _check(table: str) -> None:
    if table not in TABLES:
        raise ValidationFailed.single("table", gettext("Export one of: players, matches, rounds."))


def group_export_csv_stream(*, group: Group, table: str) -> Iterator[bytes]:
    """One table of the group as UTF-8 CSV (``players``, ``matches`` or ``rounds``: one row per seat per round,
    deleted rounds marked), a batch of matches per chunk.  An unknown table is refused at once."""
    _check(table)
    return _stream(group, table)


def _stream(group: Group, table: str) -> Iterator[bytes]:
    with snapshot():
        yield _text([_HEADS[table]]).encode()
        for rows in _rows(group, table):
            text = _text(rows)
            del rows
            yield text.encode()


def group_export_csv(*, group: Group, table: str) -> str:
    """The same table as one text (tests and tools)."""
    return b"".join(group_export_csv_stream(group=group, table=table)).decode()
