"""The documents a player or a host reads: the README stays short and every relative link in the documents leads
somewhere (a file, a folder or a picture of the repository)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = ["README.md", "deploy/README.md", "docs/ARCHITECTURE.md"]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def test_the_readme_is_for_players_and_hosts_and_short() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.encode()) <= 8 * 1024
    assert "make run" in text and "make test" in text  # the two commands
    assert text.count("![") >= 3  # the pictures: a round entered, the board, a dashboard


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_relative_link_leads_somewhere(document: str) -> None:
    path = ROOT / document
    links = [m.group(1) for m in LINK.finditer(path.read_text(encoding="utf-8"))]
    relative = [link.split("#", 1)[0] for link in links if not re.match(r"[a-z]+:|#|/", link)]
    assert relative, f"{document} links nowhere relative (the test would check nothing)"
    missing = [link for link in relative if link and not (path.parent / link).exists()]
    assert missing == []
