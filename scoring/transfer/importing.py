"""Importing a group export: check the whole document (``import_check``), then write it in one transaction
with bulk inserts.  Documents larger than ``settings.IMPORT_ASYNC_BYTES`` are imported by a Celery task
(``scoring.tasks.group_import_job``) whose progress and outcome are kept in the cache under a job id that
only the person who started it can read.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext

from scoring.models import BgStatsPlay, Group, Match, Membership, Player, Seat
from scoring.services.access import owner_require
from scoring.services.common import stats_group_after_commit
from scoring.services.errors import ValidationFailed
from scoring.transfer.import_check import document_check
from scoring.transfer.import_plan import MatchPlan, Plan
from scoring.transfer.import_write import BATCH, insert, players_write, presets_write, rounds_write
from scoring.transfer.sections import SECTIONS

logger = logging.getLogger(__name__)
JOB_TASK = "scoring.group_import_job"
_BATCH = 2000
_JOB_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
Report = Callable[[str, int, int], None]  # (phase, done, total)


def _quiet(_phase: str, _done: int, _total: int) -> None:
    return None


def _member_users(group: Group) -> dict[str, Any]:
    return {m.user.get_username(): m.user for m in Membership.objects.filter(group=group).select_related("user")}


@dataclass
class ImportSummary:
    """What an import did: what it added, and how many of the file's matches the group already held."""

    group: Group
    players: int = 0
    matches: int = 0
    already: int = 0  # matches of the file the group already held: left as they are
    presets: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"players": self.players, "matches": self.matches, "already": self.already, "presets": self.presets}


def _natural_key(ruleset: str, created_at: Any, names: list[str]) -> tuple[Any, ...]:
    return (ruleset, created_at, tuple(n.casefold() for n in names))


def _held(group: Group, plan: Plan) -> list[bool]:
    """For each match of the plan, whether ``group`` already holds it: the same identifier, or the same BG Stats
    play; a match of an older file (no identifier) by the same game, start time and players."""
    from scoring.transfer.bgstats_import import bgstats_known_uuids

    uids = {str(u) for u in Match.objects.filter(group=group).values_list("uid", flat=True)}
    plays = bgstats_known_uuids(group=group) if any(m.bgstats_uuid for m in plan.matches) else set()
    natural: set[tuple[Any, ...]] = set()
    if any(m.uid is None for m in plan.matches):
        seats: dict[int, list[str]] = {}
        rows = Seat.objects.filter(match__group=group).order_by("match_id", "number")
        for match_id, name in rows.values_list("match_id", "player__name"):
            seats.setdefault(match_id, []).append(name)
        for pk, ruleset, created in Match.objects.filter(group=group).values_list("pk", "ruleset", "created_at"):
            natural.add(_natural_key(ruleset, created, seats.get(pk, [])))
    out = []
    for m in plan.matches:
        names = [plan.players[key].name for key in m.players]
        out.append(
            (m.uid is not None and m.uid in uids)
            or (m.bgstats_uuid is not None and m.bgstats_uuid in plays)
            or (m.uid is None and _natural_key(m.ruleset, m.created_at, names) in natural)
        )
    return out


def _confirming_take(group: Group, plan: Plan) -> None:
    """A group that holds no match yet and does not confirm rounds takes the file's "the other side confirms
    rounds" with its moment (a group restored from its export is as it was: which rounds wait for a confirmation
    depends on it); a group with matches of its own, or one that confirms rounds already, keeps its setting."""
    since = plan.confirm_rounds_since
    if since is None or Match.objects.filter(group=group).exists():
        return
    if Group.objects.filter(pk=group.pk, confirm_rounds_since__isnull=True).update(confirm_rounds_since=since):
        group.confirm_rounds_since = since


def plan_write(*, group: Group, plan: Plan, user: Any, report: Report = _quiet) -> ImportSummary:
    """Write a checked plan into ``group`` (inside the caller's transaction): a few statements per table.  The
    matches the group already holds are left alone, and so are the players seated only in them."""
    _confirming_take(group, plan)
    members = _member_users(group)
    held = _held(group, plan)
    new = [m for m, here in zip(plan.matches, held, strict=True) if not here]
    seated_anywhere = {key for m in plan.matches for key in m.players}
    needed = {key for m in new for key in m.players} | (set(plan.players) - seated_anywhere)
    players, players_added = players_write(group, plan, members, needed)
    versions, presets_added = presets_write(group, plan)
    matches = []
    for m in new:
        match = Match(
            group=group,
            ruleset=m.ruleset,
            options=m.options,
            state=m.state,
            finish_reason=m.finish_reason,
            finished_at=m.finished_at,
            next_number=m.next_number,
            winners=m.winners,
            created_at=m.created_at,
            totals_only=m.totals_only,
            totals=m.totals,
            preset_version=versions.get(m.house_rules) if m.house_rules else None,
        )
        if m.uid is not None:
            match.uid = m.uid
        matches.append(match)
    insert(Match, matches, ids=True)
    insert(Seat, [Seat(match=match, player=players[key], number=n) for match, m in zip(matches, new, strict=True)
                  for n, key in enumerate(m.players)])  # fmt: skip
    insert(
        BgStatsPlay,
        [
            BgStatsPlay(group=group, uuid=m.bgstats_uuid, match=match)
            for match, m in zip(matches, new, strict=True)
            if m.bgstats_uuid is not None
        ],
    )
    total, done = sum(len(m.rounds) for m in new), 0
    report("saving", 0, total)
    batch: list[tuple[Match, MatchPlan, list[Player]]] = []
    for match, m in zip(matches, new, strict=True):
        batch.append((match, m, [players[key] for key in m.players]))
        if sum(len(b[1].rounds) for b in batch) >= BATCH:
            done += rounds_write(batch, user, members)
            batch = []
            report("saving", done, total)
    done += rounds_write(batch, user, members)
    report("saving", done, total)
    ids = {str(match.uid): match.pk for match in matches}
    for key, section_plan in plan.sections.items():
        SECTIONS[key].write(group, section_plan, ids, members)
    if matches:
        stats_group_after_commit(group_id=group.pk)
    return ImportSummary(group, players=players_added, matches=len(matches), already=len(plan.matches) - len(new),
                         presets=presets_added)  # fmt: skip


def group_import(*, group: Group, data: Any, user: Any, report: Report = _quiet) -> ImportSummary:
    """Add what an export document holds to ``group`` (owners only); returns what was added and how many of the
    file's matches the group already held (those are left as they are: importing a file twice adds nothing).

    Players are matched by name (a new one is created when missing); an account link is restored when that
    account is a member of ``group``.  The whole document is checked first and every round scored again by
    the rules; a document with any problem is refused whole, listing them (``ValidationFailed``).
    """
    owner_require(group=group, user=user)
    plan = document_check(data, progress=lambda done, total: report("checking", done, total))
    with transaction.atomic():
        return plan_write(group=group, plan=plan, user=user, report=report)


def _import_new(*, data: Any, user: Any, report: Report = _quiet) -> ImportSummary:
    from scoring.services.groups import group_create

    plan = document_check(data, progress=lambda done, total: report("checking", done, total))
    with transaction.atomic():
        try:
            group = group_create(name=plan.group_name or "", user=user)
        except ValidationFailed as exc:
            raise ValidationFailed({f"group.{k}": v for k, v in exc.problems.items()}) from None
        return plan_write(group=group, plan=plan, user=user, report=report)


def group_import_new(*, data: Any, user: Any, report: Report = _quiet) -> Group:
    """Create a group owned by ``user`` from an export document."""
    return _import_new(data=data, user=user, report=report).group


# --- large documents: a Celery job ---------------------------------------------------------------------


def _key(job_id: str) -> str:
    return f"import-job:{job_id}"


def _status_set(job_id: str, status: dict[str, Any]) -> None:
    cache.set(_key(job_id), status, timeout=settings.IMPORT_JOB_TTL)


def job_start(*, raw: bytes, user: Any, group: Group | None) -> str:
    """Queue the import of ``raw`` (the JSON text) into ``group`` (None: a new group); returns the job id."""
    if group is not None:
        owner_require(group=group, user=user)
    job_id = secrets.token_urlsafe(18)
    cache.set(f"{_key(job_id)}:doc", raw, timeout=settings.IMPORT_JOB_TTL)
    _status_set(
        job_id,
        {"state": "queued", "user": user.pk, "group": group.pk if group else None, "phase": "", "percent": 0},
    )
    from celery import current_app
    from celery.exceptions import CeleryError
    from kombu.exceptions import KombuError

    try:
        # by name: scoring.tasks calls this module, so this module does not import it (ScoringConfig.ready and
        # the worker's autodiscovery register the task)
        current_app.tasks[JOB_TASK].delay(job_id)
    except (CeleryError, KombuError, OSError):  # no broker: import now rather than leave the job queued forever
        logger.exception("import job %s could not be queued; running it in the request", job_id)
        job_run(job_id=job_id)
    return job_id


def job_status(*, job_id: str, user: Any) -> dict[str, Any] | None:
    """The job's state as its starter may see it, or None (unknown, expired, or someone else's)."""
    status = cache.get(_key(job_id)) if _JOB_ID.fullmatch(job_id) else None
    if not isinstance(status, dict) or status.get("user") != getattr(user, "pk", None):
        return None
    return status


def job_run(*, job_id: str) -> str:
    """Run a queued import (the Celery task's body); returns its final state. Safe to run twice: a job that
    is no longer queued is left alone."""
    from django.contrib.auth import get_user_model

    status = cache.get(_key(job_id))
    raw = cache.get(f"{_key(job_id)}:doc")
    if not isinstance(status, dict) or status.get("state") != "queued" or raw is None:
        return str((status or {}).get("state", "missing"))
    _status_set(job_id, {**status, "state": "running"})
    last = [-1]

    def report(phase: str, done: int, total: int) -> None:
        # checking is the first half of the bar, saving the second
        share = done / total if total else 1.0
        percent = int((share if phase == "checking" else 1 + share) * 50)
        if percent != last[0]:
            last[0] = percent
            _status_set(job_id, {**status, "state": "running", "phase": phase, "percent": percent})

    try:
        user = get_user_model().objects.get(pk=status["user"])
        try:
            data = json.loads(raw.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise ValidationFailed.single("file", gettext("This file is not a JSON export of Scorekeeper.")) from None
        if status["group"] is None:
            summary = _import_new(data=data, user=user, report=report)
        else:
            group = Group.objects.get(pk=status["group"])
            summary = group_import(group=group, data=data, user=user, report=report)
    except ValidationFailed as exc:
        _status_set(job_id, {**status, "state": "failed", "percent": 100, "errors": exc.problems})
        return "failed"
    except Exception:  # the starter must learn that it failed; the worker log keeps the trace
        failed = {"non_field_errors": [gettext("The import failed; nothing was added. Please try again.")]}
        _status_set(job_id, {**status, "state": "failed", "percent": 100, "errors": failed})
        raise
    finally:
        cache.delete(f"{_key(job_id)}:doc")
    done = {**status, "state": "done", "percent": 100, "group": summary.group.pk, "added": summary.as_dict()}
    _status_set(job_id, done)
    return "done"
