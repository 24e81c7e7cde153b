"""Export a group's players, matches and rounds as JSON or CSV (the import is in ``scoring.importing``).

The JSON format round-trips without loss: exporting a group, importing the file
into another group with the same members and exporting that gives the same
document.  Players and seats are referred to by name (unique in a group), so the
file carries no database ids.  What it does not carry: the edit history
(RoundEvent), internal version counters, and account links of people who are not
members of the group imported into (those players become guests).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext

from scoring.models import Group, Match, Player, Round, Seat
from scoring.services.errors import ValidationFailed

FORMAT = "scorekeeper-group"
FORMAT_VERSION = 1
TABLES = ("players", "matches", "rounds")


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _matches(group: Group) -> list[Match]:
    return list(
        Match.objects.filter(group=group)
        .order_by("created_at", "id")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number")),
            Prefetch("rounds", queryset=Round.objects.select_related("entered_by").order_by("number")),
        )
    )


def _player_doc(player: Player) -> dict[str, Any]:
    doc = {
        "name": player.name,
        "user": player.user.get_username() if player.user else None,
        "created_at": _iso(player.created_at),
    }
    if player.archived_at is not None:  # only removed players carry the key: older files stay as they were
        doc["archived_at"] = _iso(player.archived_at)
    return doc


def group_export(*, group: Group) -> dict[str, Any]:
    """The whole group as one JSON document (a fixed number of queries)."""
    players = Player.objects.filter(group=group, merged_into__isnull=True).select_related("user").order_by("id")
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "group": {"name": group.name},
        "players": [_player_doc(p) for p in players],
        "matches": [
            {
                "ruleset": m.ruleset,
                "options": m.options,
                "state": m.state,
                "finish_reason": m.finish_reason,
                "created_at": _iso(m.created_at),
                "finished_at": _iso(m.finished_at),
                "players": [s.player.name for s in m.seats.all()],
                "rounds": [
                    {
                        "number": r.number,
                        "facts": r.facts,
                        "ruleset_version": r.ruleset_version,
                        "points": r.points,
                        "explanation": r.explanation,
                        "entered_by": r.entered_by.get_username() if r.entered_by else None,
                        "created_at": _iso(r.created_at),
                        "deleted_at": _iso(r.deleted_at),
                    }
                    for r in m.rounds.all()
                ],
                # only totals-only matches carry these keys: older files stay as they were
                **({"totals_only": True, "totals": m.totals} if m.totals_only else {}),
            }
            for m in _matches(group)
        ],
    }


def _cell(value: Any) -> Any:
    """Keep spreadsheets from executing text cells that look like formulas."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def group_export_csv(*, group: Group, table: str) -> str:
    """One table of the group as CSV: ``players``, ``matches`` or ``rounds`` (one row per seat per round)."""
    import json

    out = io.StringIO()
    writer = csv.writer(out)
    if table == "players":
        writer.writerow(["player_id", "name", "user", "guest", "created_at"])
        for p in Player.objects.filter(group=group, merged_into__isnull=True).select_related("user").order_by("id"):
            user = p.user.get_username() if p.user else ""
            writer.writerow([p.pk, _cell(p.name), _cell(user), int(p.user_id is None), _iso(p.created_at)])
    elif table == "matches":
        writer.writerow(
            [
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
            ]
        )
        for m in _matches(group):
            live = [r for r in m.rounds.all() if r.deleted_at is None]
            names = " | ".join(s.player.name for s in m.seats.all())
            writer.writerow(
                [
                    m.pk,
                    m.ruleset,
                    m.state,
                    _iso(m.created_at),
                    _iso(m.finished_at),
                    _cell(names),
                    json.dumps(m.options),
                    len(live),
                    int(m.totals_only),
                    " | ".join(str(v) for v in m.totals or []) if m.totals_only else "",
                ]
            )
    elif table == "rounds":
        writer.writerow(
            [
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
            ]
        )
        for m in _matches(group):
            seats = list(m.seats.all())
            for r in m.rounds.all():
                for seat, points in enumerate(r.points):
                    name = seats[seat].player.name if seat < len(seats) else ""
                    entered = r.entered_by.get_username() if r.entered_by else ""
                    writer.writerow(
                        [
                            m.pk,
                            m.ruleset,
                            r.number,
                            seat,
                            _cell(name),
                            points,
                            int(r.deleted_at is not None),
                            r.ruleset_version,
                            _cell(entered),
                            _iso(r.created_at),
                            json.dumps(r.facts, sort_keys=True),
                        ]
                    )
    else:
        raise ValidationFailed.single("table", gettext("Export one of: players, matches, rounds."))
    return out.getvalue()


# --- import (scoring.importing; kept here for the callers that import it from this module) -------------

from scoring.importing import group_import, group_import_new  # noqa: E402, F401


def rows(text: str) -> Iterator[list[str]]:
    """Parse CSV text (tests and tools)."""
    yield from csv.reader(io.StringIO(text))
