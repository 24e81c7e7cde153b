"""The group's scores as a spreadsheet: CSV with one row per player per round, in the active language.

The JSON export (``scoring.transfer.exporting``) is the complete, re-importable record; this file is for reading and
charting in a spreadsheet app, so it carries words (game names, options with their labels) rather than ids,
only live rounds, and every match: one recorded from its final scores alone (no rounds) has one row per player
with that final score and an empty round number.  It is written the way a spreadsheet of the language reads
it: where the decimal mark is a comma (Hungarian), cells are separated by semicolons; a number with decimals
takes the language's decimal mark.  UTF-8 with a byte order mark; text cells that a spreadsheet would run as a
formula get an apostrophe in front (``export_common.cell``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.utils import formats, timezone, translation
from django.utils.translation import gettext

from scoring.models import Group, Match
from scoring.services.common import ruleset_get
from scoring.transfer.export_common import cell, match_batches, snapshot

BOM = "\ufeff"


def _options_plain(match: Match) -> str:
    return "; ".join(f"{key}: {value}" for key, value in sorted(match.options.items()) if key != "tasks")


def csv_dialect() -> tuple[str, str]:
    """(cell separator, decimal mark) of the active language: a semicolon where the decimal mark is a comma."""
    decimal = str(formats.get_format("DECIMAL_SEPARATOR"))
    return (";" if decimal == "," else ","), decimal


def _number(value: Any, decimal: str) -> Any:
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".").replace(".", decimal)
    return value


def _match_rows(m: Match, game: str, options: str, decimal: str) -> Iterator[list[Any]]:
    seats = [s.player.name for s in m.seats.all()]
    if m.totals_only:
        day = timezone.localtime(m.finished_at or m.created_at).date().isoformat()
        for name, points in zip(seats, m.totals or [], strict=False):
            points = _number(points, decimal)
            yield [m.pk, cell(game), cell(options), day, "", cell(name), points, points]
        return
    totals = [0] * len(seats)
    for r in m.rounds.all():
        if r.deleted_at is not None:
            continue
        day = timezone.localtime(r.created_at).date().isoformat()
        for seat, points in enumerate(r.points[: len(seats)]):
            totals[seat] += points
            yield [
                m.pk,
                cell(game),
                cell(options),
                day,
                r.number,
                cell(seats[seat]),
                _number(points, decimal),
                _number(totals[seat], decimal),
            ]


def _text(rows: Iterable[list[Any]], delimiter: str) -> str:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter).writerows(rows)
    return out.getvalue()


def group_export_scores_stream(
    *,
    group: Group,
    game_name: Callable[[str], str] | None = None,
    options_text: Callable[[Match], str] | None = None,
) -> Iterator[bytes]:
    """The scores for a spreadsheet: one row per player per live round (per player for a match recorded from
    its final scores), headed in the active language, a batch of matches per chunk.

    Columns: match number, game, options in words (``options_text(match)``; the frontend passes its option
    labels and their values' words), the day the round was played (local time), round number, player, points
    and the player's running total in that match.  The language active at the call is the file's, however
    late the chunks are read (a streamed response is read after its view returned)."""
    return _stream(group, game_name, options_text, translation.get_language())


def _stream(
    group: Group,
    game_name: Callable[[str], str] | None,
    options_text: Callable[[Match], str] | None,
    language: str | None,
) -> Iterator[bytes]:
    with translation.override(language), snapshot():
        delimiter, decimal = csv_dialect()
        head = [
            gettext("Match"),
            gettext("Game"),
            gettext("Options"),
            gettext("Date"),
            gettext("Round"),
            gettext("Player"),
            gettext("Points"),
            gettext("Total"),
        ]
        name_of = game_name or (lambda key: ruleset_get(key).name)
        describe = options_text or _options_plain
        yield (BOM + _text([head], delimiter)).encode()
        for batch in match_batches(group):
            rows = [row for m in batch for row in _match_rows(m, name_of(m.ruleset), describe(m), decimal)]
            del batch  # one batch in memory at a time (export_common.match_batches)
            text = _text(rows, delimiter)
            del rows
            yield text.encode()


def group_export_scores_csv(
    *,
    group: Group,
    game_name: Callable[[str], str] | None = None,
    options_text: Callable[[Match], str] | None = None,
) -> str:
    """The same spreadsheet as one text (tests and tools), starting with the byte order mark."""
    chunks = group_export_scores_stream(group=group, game_name=game_name, options_text=options_text)
    return b"".join(chunks).decode("utf-8")
