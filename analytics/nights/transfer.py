"""The game night corrections in a group export (``scoring.transfer.sections``): each split or merge a member
made, by the stable identifier of its match, so that an imported group has the nights its source had.  What is
exported is the stored corrections, not the nights computed from them: the importing group computes its nights
with its own rule."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from django.utils.translation import gettext

from analytics.models import NightBreak
from scoring.models import Group
from scoring.transfer.export_common import iso
from scoring.transfer.import_fields import Problems
from scoring.transfer.import_parts import uid
from scoring.transfer.sections import Section

KEY = "night_breaks"
MAX_BREAKS = 100_000


def breaks_export(group: Group) -> list[dict[str, Any]]:
    """The group's splits and merges, in the order of their matches."""
    rows = NightBreak.objects.filter(group=group).select_related("match").order_by("match__created_at", "match_id")
    return [
        {
            "match": str(b.match.uid),
            "kind": b.kind,
            "created_at": iso(b.created_at),
        }
        for b in rows
    ]


def breaks_check(value: Any, matches: Collection[str], c: Problems) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, raw in enumerate(c.items(value, KEY, limit=MAX_BREAKS)):
        path = f"{KEY}[{i}]"
        b = c.obj(raw, path)
        if b is None:
            continue
        match = uid(c, b.get("match"), f"{path}.match")
        if match is None or match not in matches:
            c.add(f"{path}.match", gettext("No match of the file has this identifier."))
        elif match in seen:
            c.add(f"{path}.match", gettext("A match begins or continues a night once."))
        kind = b.get("kind")
        if kind not in NightBreak.Kind.values:
            c.add(f"{path}.kind", gettext("Expected split or merge."))
        created = c.when(b.get("created_at"), f"{path}.created_at")
        if match is not None and match in matches and match not in seen and kind in NightBreak.Kind.values:
            seen.add(match)
            out.append({"match": match, "kind": kind, "created_at": created})
    return out


def breaks_write(group: Group, plan: list[dict[str, Any]], ids: Mapping[str, int], members: Mapping[str, Any]) -> None:
    """The corrections of the matches this import added (a match the group already held keeps its own)."""
    made = [NightBreak(group=group, match_id=ids[b["match"]], kind=b["kind"]) for b in plan if b["match"] in ids]
    NightBreak.objects.bulk_create(made)
    for row, b in zip(made, (b for b in plan if b["match"] in ids), strict=True):
        if b["created_at"] is not None:
            NightBreak.objects.filter(pk=row.pk).update(created_at=b["created_at"])


SECTION = Section(key=KEY, export=breaks_export, check=breaks_check, write=breaks_write)
