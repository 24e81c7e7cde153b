"""The group's scores as a spreadsheet: CSV with one row per player per round, in the active language.

The JSON export (``scoring.exporting``) is the complete, re-importable record; this file is for reading and
charting in a spreadsheet app, so it carries words (game names, options) rather than ids, and only live rounds.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

from django.utils import timezone
from django.utils.translation import gettext

from scoring.exporting import _cell, _matches
from scoring.models import Group, Match
from scoring.services.common import ruleset_get


def _options_plain(match: Match) -> str:
    return "; ".join(f"{key}: {value}" for key, value in sorted(match.options.items()) if key != "tasks")


def group_export_scores_csv(
    *,
    group: Group,
    game_name: Callable[[str], str] | None = None,
    options_text: Callable[[Match], str] | None = None,
) -> str:
    """The scores for a spreadsheet: one row per player per live round, headed in the active language.

    Columns: match number, game, options in words (``options_text(match)``; the frontend passes the words of
    its option labels), the day the round was played (local time), round number, player, points and the
    player's running total in that match.  Starts with a byte order mark so that spreadsheet apps read UTF-8.
    """
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    writer.writerow(
        [
            gettext("Match"),
            gettext("Game"),
            gettext("Options"),
            gettext("Date"),
            gettext("Round"),
            gettext("Player"),
            gettext("Points"),
            gettext("Total"),
        ]
    )
    name_of = game_name or (lambda key: ruleset_get(key).name)
    describe = options_text or _options_plain
    for m in _matches(group):
        seats = [s.player.name for s in m.seats.all()]
        game, options = name_of(m.ruleset), describe(m)
        totals = [0] * len(seats)
        for r in m.rounds.all():
            if r.deleted_at is not None:
                continue
            day = timezone.localtime(r.created_at).date().isoformat()
            for seat, points in enumerate(r.points[: len(seats)]):
                totals[seat] += points
                writer.writerow(
                    [m.pk, _cell(game), _cell(options), day, r.number, _cell(seats[seat]), points, totals[seat]]
                )
    return out.getvalue()
