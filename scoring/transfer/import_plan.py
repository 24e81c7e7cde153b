"""The plan an import document is checked into (``import_check``) and written from (``importing``): plain data,
every value already checked and cleaned."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass
class VersionPlan:
    number: int
    name: str
    options: dict[str, Any]
    created_at: datetime


@dataclass
class PresetPlan:
    uid: str
    ruleset: str
    name: str
    is_default: bool
    created_at: datetime
    archived_at: datetime | None
    versions: list[VersionPlan] = field(default_factory=list)


@dataclass
class EventPlan:
    action: str
    round: str | None  # the uid of a round of the match
    round_number: int | None
    actor: str | None
    at: datetime
    before: dict[str, Any] | None
    after: dict[str, Any] | None  # an undo's "undoes" is the place of the undone event in the match's history


@dataclass
class PlayerPlan:
    name: str
    user: str | None
    created_at: datetime
    archived_at: datetime | None


@dataclass
class RoundPlan:
    number: int
    facts: Any
    points: list[int]
    explanation: list[dict[str, Any]]
    ruleset_version: str
    entered_by: str | None
    created_at: datetime
    deleted_at: datetime | None
    uid: str | None = None  # None in an older file: the import gives the round one
    # which version of its content the round is at, and when it was last saved: a confirmation speaks for one
    # version, and a round saved before its group began confirming waits for none (``scoring.selectors.confirming``)
    version: int = 1
    updated_at: datetime | None = None  # None: when it was created, or deleted (an older file)


@dataclass
class CheckPlan:
    """The other side's word on one version of a round (a ``RoundCheck``)."""

    round: str  # the uid of a round of the match
    state: str
    version: int
    by: str | None  # the account's username
    player: str | None  # the player's key (casefolded name), seated in the match
    note: str
    at: datetime


@dataclass
class MatchPlan:
    ruleset: str
    options: dict[str, Any]
    state: str
    finish_reason: str
    created_at: datetime
    finished_at: datetime | None
    players: list[str]  # seat order, keys of Plan.players (casefolded names)
    winners: list[int]
    next_number: int
    rounds: list[RoundPlan] = field(default_factory=list)
    totals_only: bool = False  # recorded from its final scores alone: ``totals`` per seat, no rounds
    totals: list[int] | None = None
    uid: str | None = None  # None in an older file: recognised by game, start time and players instead
    house_rules: tuple[str, int] | None = None  # (the preset's uid, the version's number)
    bgstats_uuid: str | None = None
    history: list[EventPlan] | None = None  # None in an older file: the import starts the history
    checks: list[CheckPlan] = field(default_factory=list)


@dataclass
class Plan:
    group_name: str | None
    players: dict[str, PlayerPlan]  # casefolded name -> player
    matches: list[MatchPlan]
    presets: list[PresetPlan] = field(default_factory=list)
    sections: dict[str, Any] = field(default_factory=dict)  # key -> the owning app's plan (transfer_sections)
    confirm_rounds_since: datetime | None = None  # the group had the other side confirm rounds since then

    @property
    def round_count(self) -> int:
        return sum(len(m.rounds) for m in self.matches)
