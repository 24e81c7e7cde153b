"""A game night as a PNG, drawn with Pillow from the figures of its page (``night_report``).

DejaVu Sans (Debian's fonts-dejavu-core, covering every Hungarian letter) when it is installed, else Pillow's
own default font at the same size.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext
from PIL import Image, ImageDraw, ImageFont

from .nightfigures import NightReport

WIDTH = 1080
MARGIN = 56
MAX_HEIGHT = 4000
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))
BACKGROUND = (22, 27, 34)
TEXT = (230, 237, 243)
MUTED = (150, 160, 172)
ACCENT = (88, 166, 255)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _font(size: int, *, bold: bool = False) -> Font:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        if (folder / name).exists():
            return ImageFont.truetype(str(folder / name), size)
    return ImageFont.load_default(size)


def _wrap(draw: ImageDraw.ImageDraw, text: str, font: Font, width: int) -> list[str]:
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
    return lines or [""]


def _blocks(report: NightReport) -> list[tuple[str, str]]:
    """(style, text) in drawing order: "title", "head" (a section), "text", "muted"."""
    night = report.night
    when = timezone.localtime(night.started_at)
    out = [
        ("title", gettext("Game night")),
        ("muted", f"{formats.date_format(when, 'DATE_FORMAT')} · {', '.join(report.players)}"),
        ("head", gettext("Matches")),
    ]
    for match in report.matches:
        winners = ", ".join(match["winners"]) or "—"
        won = ngettext("%(game)s: won by %(winners)s", "%(game)s: won by %(winners)s", max(1, len(match["winners"])))
        out.append(("text", won % {"game": match["game"], "winners": winners}))
    if report.upset:
        out += [("head", gettext("Upset of the night")), ("text", report.upset["text"])]
    if report.biggest:
        out += [("head", gettext("Biggest round")), ("text", report.biggest["text"])]
        out += [("muted", line["label"]) for line in report.biggest["lines"][:6]]
    if report.partners:
        out += [("head", gettext("Partnered best")), ("text", report.partners["text"])]
    if report.ratings:
        out.append(("head", gettext("Rating changes")))
        for row in report.ratings[:8]:
            change = formats.number_format(abs(row["change"]), 1, use_l10n=True)
            out.append(("text", f"{row['player']} ({row['game']}): {'+' if row['change'] >= 0 else '−'}{change}"))
    return out


STYLES: dict[str, tuple[int, bool, tuple[int, int, int], int]] = {
    # size, bold, colour, space before
    "title": (56, True, TEXT, 0),
    "head": (34, True, ACCENT, 28),
    "text": (30, False, TEXT, 6),
    "muted": (26, False, MUTED, 4),
}


def night_png(report: NightReport) -> bytes:
    blocks = _blocks(report)
    fonts = {style: _font(size, bold=bold) for style, (size, bold, _c, _s) in STYLES.items()}
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    laid: list[tuple[int, Any, tuple[int, int, int], str]] = []
    y = MARGIN
    for style, text in blocks:
        size, _bold, colour, before = STYLES[style]
        y += before
        for line in _wrap(probe, text, fonts[style], WIDTH - 2 * MARGIN):
            laid.append((y, fonts[style], colour, line))
            y += int(size * 1.3)
    height = min(MAX_HEIGHT, y + MARGIN)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for top, font, colour, line in laid:
        if top < height - MARGIN:
            draw.text((MARGIN, top), line, font=font, fill=colour)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
