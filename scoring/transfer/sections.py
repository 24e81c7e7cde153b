"""Parts of a group export that other apps own: each is a top-level key of the document that the owning app
writes and reads back (the analytics app's night splits and merges).  ``scoring`` may not import the apps above
it, so they register here from their ``AppConfig.ready``; the exporter and the importer call what is registered.

A section refers to matches by their stable identifier (``Match.uid``, as a string): ``export`` lists the
group's entries, ``check`` turns the document's value into a plan (adding problems under the section's key, and
given the identifiers of the document's matches), and ``write`` stores the plan for the matches this import
added (identifier -> the new match's id); entries of matches the group already held are left alone.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from scoring.models import Group
from scoring.transfer.import_fields import Problems


@dataclass(frozen=True)
class Section:
    key: str
    export: Callable[[Group], list[Any]]
    check: Callable[[Any, Collection[str], Problems], Any]
    write: Callable[[Group, Any, Mapping[str, int], Mapping[str, Any]], None]  # (group, plan, ids, members)


SECTIONS: dict[str, Section] = {}


def section_register(section: Section) -> None:
    SECTIONS[section.key] = section
