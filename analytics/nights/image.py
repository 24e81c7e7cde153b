"""A game night as a PNG, drawn with Pillow from the texts of its page (``nightreport.night_report``).

The font is Source Sans Pro from the pinned ``font-source-sans-pro`` package (it covers every Hungarian letter and
the signs used here: − → μ σ ·), found through the package itself, so every host draws the same image whatever
fonts its system has.

The image is bounded like the page: the first ``TOP`` rows of each list, then a line saying how many more the night
page shows; each text wraps to at most a few lines.  So it always fits within ``MAX_HEIGHT`` and nothing is cut off
unannounced.
"""

from __future__ import annotations

import io
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext
from PIL import Image, ImageDraw, ImageFont

from analytics.nights.report import NightReport

WIDTH = 1080
MARGIN = 56
# Every block at its most lines (the story's four sentences, ten matches, eight lines and eight ratings, each with its
# "more" line) comes to 4 429 px: the cap is a last guard, above that.
MAX_HEIGHT = 4600
TOP = {"matches": 10, "lines": 8, "ratings": 8, "players": 12}
FONT_PACKAGE = "font_source_sans_pro"
FONT_FILES = {False: "SourceSansPro-Regular.ttf", True: "SourceSansPro-Bold.ttf"}
BACKGROUND = (22, 27, 34)
TEXT = (230, 237, 243)
MUTED = (150, 160, 172)
ACCENT = (88, 166, 255)

STYLES: dict[str, tuple[int, bool, tuple[int, int, int], int, int]] = {
    # size, bold, colour, space before, at most this many lines
    "title": (56, True, TEXT, 0, 1),
    "head": (34, True, ACCENT, 28, 1),
    "text": (30, False, TEXT, 6, 3),
    "story": (30, False, TEXT, 6, 6),  # a sentence of the story: room for its longest wording with long names
    "row": (30, False, TEXT, 6, 2),
    "muted": (26, False, MUTED, 4, 3),
    "line": (26, False, MUTED, 4, 2),
}


def font_path(*, bold: bool = False) -> Path:
    """The font file the image is drawn with, inside the installed font package."""
    return Path(str(resources.files(FONT_PACKAGE).joinpath("files", FONT_FILES[bold])))


@cache
def _font(size: int, bold: bool) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(font_path(bold=bold)), size)


def _wrap(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: int, most: int) -> list[str]:
    """``text`` in lines of at most ``width`` pixels, at most ``most`` of them (the last one ending in "…" when the
    text goes on)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and draw.textlength(trial, font=font) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    if len(lines) > most:
        last = lines[most - 1]
        while last and draw.textlength(last + " …", font=font) > width:
            last = last[:-1]
        lines = [*lines[: most - 1], last.rstrip() + " …"]
    return lines or [""]


def _more(count: int) -> tuple[str, str]:
    return (
        "muted",
        ngettext("… and %(count)s more on the night's page", "… and %(count)s more on the night's page", count)
        % {"count": count},
    )


def night_blocks(report: NightReport) -> list[tuple[str, str]]:
    """(style, text) in drawing order: what the image shows, every figure as the page words it."""
    night = report.night
    when = timezone.localtime(night.started_at)
    players = report.players
    shown = ", ".join(players[: TOP["players"]])
    if len(players) > TOP["players"]:
        shown += " " + ngettext("and %(count)s more", "and %(count)s more", len(players) - TOP["players"]) % {
            "count": len(players) - TOP["players"]
        }
    out = [
        ("title", gettext("Game night")),
        ("muted", f"{formats.date_format(when, 'DATE_FORMAT')} · {shown}"),
    ]
    if report.story:
        out.append(("head", gettext("How the evening went")))
        out += [("story", event["text"]) for event in report.story]
    out.append(("head", gettext("Matches")))
    for match in report.matches[: TOP["matches"]]:
        winners = ", ".join(match["winners"]) or "—"  # as the page lists them
        won = ngettext("%(game)s: won by %(winners)s", "%(game)s: won by %(winners)s", max(1, len(match["winners"])))
        out.append(("row", won % {"game": match["game"], "winners": winners}))
    if len(report.matches) > TOP["matches"]:
        out.append(_more(len(report.matches) - TOP["matches"]))
    if report.upset:
        out += [("head", gettext("Upset of the night")), ("text", report.upset["text"])]
    if report.biggest:
        lines = report.biggest["lines"]
        out += [("head", gettext("Biggest round")), ("text", report.biggest["text"])]
        out += [("line", line["label"]) for line in lines[: TOP["lines"]]]
        if len(lines) > TOP["lines"]:
            out.append(_more(len(lines) - TOP["lines"]))
    if report.partners:
        out += [("head", gettext("Partnered best")), ("text", report.partners["text"])]
    if report.ratings:
        out.append(("head", gettext("Rating changes")))
        for row in report.ratings[: TOP["ratings"]]:
            out.append(("row", f"{row['player']} ({row['game']}): {row['change_text']}"))
        if len(report.ratings) > TOP["ratings"]:
            out.append(_more(len(report.ratings) - TOP["ratings"]))
    return out


def night_png(report: NightReport) -> bytes:
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    laid: list[tuple[int, Any, tuple[int, int, int], str]] = []
    y = MARGIN
    for style, text in night_blocks(report):
        size, bold, colour, before, most = STYLES[style]
        font = _font(size, bold)
        y += before
        for line in _wrap(probe, text, font, WIDTH - 2 * MARGIN, most):
            laid.append((y, font, colour, line))
            y += int(size * 1.3)
    height = min(MAX_HEIGHT, y + MARGIN)  # the bounds above keep y well inside; the cap is a last guard
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for top, font, colour, line in laid:
        if top < height - MARGIN:
            draw.text((MARGIN, top), line, font=font, fill=colour)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
