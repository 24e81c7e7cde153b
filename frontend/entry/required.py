"""Required inputs a round form still leaves blank, for the live preview's "still missing" line.

The rules engine stops at its first problem (Muzicando: with only the contract tapped it asks for the finishing
order and nothing else), so the preview also asks the form: each game lists its required inputs still blank, as
fact fields ("order", "contract.declarer"), in form order.  Inputs that default to 0 when blank are not listed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy as _

from frontend.entry.base import EntryContext


def _filled(post: Any, name: str) -> bool:
    return str(post.get(name, "")).strip() != ""


def _muzicando(post: Any, c: EntryContext) -> list[str]:
    blank = [] if all(_filled(post, f"order.{place}") for place in range(c.n)) else ["order"]
    kind = post.get("contract_type")
    if kind is None:  # nothing tapped ("" is "four passes: no contract")
        return [*blank, "contract"]
    levels = c.options.get("mode", "team") == "team" or bool(c.options.get("bidding"))
    if kind and not _filled(post, "declarer"):
        blank.append("contract.declarer")
    if kind and levels and not _filled(post, "level"):
        blank.append("contract.level")
    return blank


BLANK_REQUIRED: dict[str, Callable[[Any, EntryContext], list[str]]] = {"muzicando": _muzicando}


def blank_required(post: Any, c: EntryContext) -> list[str]:
    found = BLANK_REQUIRED.get(c.key)
    return found(post, c) if found is not None else []


def field_labels(c: EntryContext) -> dict[str, Any]:
    """Labels a game's form uses instead of the generic ones (Muzicando individual play: the "chooser")."""
    if c.key == "muzicando" and c.options.get("mode", "team") != "team":
        return {"declarer": _("chooser")}
    return {}
