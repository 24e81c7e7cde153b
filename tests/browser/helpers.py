"""Helpers for the browser tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def shot(page: Page, name: str, *, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    if full:  # the sticky save bar would float mid-page in a full-page capture
        page.add_style_tag(content=".save{position:static}")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def tap(page: Page, name: str, value: Any) -> None:
    """Tap the chip for ``value`` of the radio/checkbox group ``name`` (the visible label of the input)."""
    page.locator(f'#entry-form input[name="{name}"][value="{value}"] + span').click()
