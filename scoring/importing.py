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
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.import_check import Plan, document_check
from scoring.models import Group, Match, Membership, Player, Round, RoundEvent, Score, Seat
from scoring.services.access import owner_require
from scoring.services.common import round_snapshot, stats_group_after_commit
from scoring.services.errors import ValidationFailed

logger = logging.getLogger(__name__)
JOB_TASK = "scoring.group_import_job"
_BATCH = 2000
_JOB_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
Report = Callable[[str, int, int], None]  # (phase, done, total)


def _quiet(_phase: str, _done: int, _total: int) -> None:
    return None


def _member_users(group: Group) -> dict[str, Any]:
    return {m.user.get_username(): m.user for m in Membership.objects.filter(group=group).select_related("user")}


def _players_write(group: Group, plan: Plan, members: dict[str, Any]) -> dict[str, Player]:
    """The group's player for every name in the file: matched by name, or created (an account link is
    restored only for a member of ``group`` not yet linked to another player)."""
    existing = {p.name.casefold(): p for p in Player.objects.filter(group=group, merged_into__isnull=True)}
    linked = {p.user_id for p in existing.values() if p.user_id}
    out: dict[str, Player] = {}
    new: list[Player] = []
    for key, p in plan.players.items():
        player = existing.get(key)
        account = members.get(p.user or "")
        if account is not None and account.pk in linked:
            account = None
        if player is None:
            player = Player(group=group, name=p.name, user=account, archived_at=p.archived_at)
            new.append(player)
        elif player.user_id is None and account is not None:
            player.user = account
            player.save(update_fields=["user"])
        if account is not None:
            linked.add(account.pk)
        out[key] = player
    for player in new:
        player.created_at = plan.players[player.name.casefold()].created_at
    _insert(Player, new, ids=True)
    return out


def plan_write(*, group: Group, plan: Plan, user: Any, report: Report = _quiet) -> None:
    """Write a checked plan into ``group`` (inside the caller's transaction): a few statements per table."""
    members = _member_users(group)
    players = _players_write(group, plan, members)
    matches = [
        Match(
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
        )
        for m in plan.matches
    ]
    _insert(Match, matches, ids=True)
    _insert(
        Seat,
        [
            Seat(match=match, player=players[key], number=n)
            for match, m in zip(matches, plan.matches, strict=True)
            for n, key in enumerate(m.players)
        ],
    )
    total, done = plan.round_count, 0
    report("saving", 0, total)
    batch: list[tuple[Match, list[Player], Round]] = []
    for match, m in zip(matches, plan.matches, strict=True):
        seated = [players[key] for key in m.players]
        for r in m.rounds:
            rnd = Round(
                match=match,
                number=r.number,
                facts=r.facts,
                ruleset_version=r.ruleset_version,
                points=r.points,
                explanation=r.explanation,
                entered_by=members.get(r.entered_by or ""),
                deleted_at=r.deleted_at,
            )
            rnd.created_at = r.created_at  # (the constructor fills auto_now_add fields only on save)
            batch.append((match, seated, rnd))
        if len(batch) >= _BATCH:
            done += _rounds_write(batch, user)
            batch = []
            report("saving", done, total)
    done += _rounds_write(batch, user)
    report("saving", done, total)
    stats_group_after_commit(group_id=group.pk)


def _insert(model: type[models.Model], objs: list[Any], *, ids: bool = False) -> None:
    """Insert ``objs`` keeping the dates they carry (``auto_now_add`` would put "now"). On PostgreSQL one COPY
    (with ids taken from the table's sequence first when ``ids``), elsewhere ``bulk_create`` then the dates."""
    if not objs:
        return
    meta = model._meta
    if connection.vendor != "postgresql":
        dated = [f.attname for f in meta.concrete_fields if getattr(f, "auto_now_add", False)]
        kept = [{name: getattr(obj, name) for name in dated} for obj in objs]
        model.objects.bulk_create(objs, batch_size=_BATCH)
        for obj, values in zip(objs, kept, strict=True):
            for name, value in values.items():
                if value is not None:
                    setattr(obj, name, value)
        if dated:
            model.objects.bulk_update(objs, dated, batch_size=_BATCH)
        return
    fields = [f for f in meta.concrete_fields if ids or not f.primary_key]
    now = timezone.now()
    with connection.cursor() as cursor:
        if ids:
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                [meta.db_table, meta.pk.column, len(objs)],
            )
            for obj, (pk,) in zip(objs, cursor.fetchall(), strict=True):
                obj.pk = pk
        columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
        sql = f"COPY {connection.ops.quote_name(meta.db_table)} ({columns}) FROM STDIN"
        with cursor.cursor.copy(sql) as copy:
            for obj in objs:
                row = []
                for f in fields:
                    value = getattr(obj, f.attname)
                    if value is None and (getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)):
                        value = now
                        setattr(obj, f.attname, now)
                    elif isinstance(f, models.JSONField) and not (value is None and f.null):
                        value = json.dumps(value, ensure_ascii=False)
                    row.append(value)
                copy.write_row(row)


def _rounds_write(batch: list[tuple[Match, list[Player], Round]], user: Any) -> int:
    """Rounds, their scores and their history (a "create", and a "delete" for a deleted round so that it can
    be undone), each table in one statement."""
    if not batch:
        return 0
    rounds = [rnd for _m, _s, rnd in batch]
    _insert(Round, rounds, ids=True)
    scores, events = [], []
    for match, seated, rnd in batch:
        alive = {**round_snapshot(rnd), "deleted": False, "imported": True}
        events.append(
            RoundEvent(match=match, round=rnd, round_number=rnd.number, action="create", actor=user, after=alive)
        )
        if rnd.deleted_at is not None:
            after = {**round_snapshot(rnd), "imported": True}
            events.append(
                RoundEvent(
                    match=match,
                    round=rnd,
                    round_number=rnd.number,
                    action="delete",
                    actor=user,
                    before=alive,
                    after=after,
                )
            )
            continue
        scores += [
            Score(round=rnd, match=match, player=p, seat=n, points=pts)
            for n, (p, pts) in enumerate(zip(seated, rnd.points, strict=True))
        ]
    _insert(Score, scores)
    _insert(RoundEvent, events)
    return len(rounds)


def group_import(*, group: Group, data: Any, user: Any, report: Report = _quiet) -> Group:
    """Add the players, matches and rounds of an export document to ``group`` (owners only).

    Players are matched by name (a new one is created when missing); an account link is restored when that
    account is a member of ``group``.  The whole document is checked first and every round scored again by
    the rules; a document with any problem is refused whole, listing them (``ValidationFailed``).
    """
    owner_require(group=group, user=user)
    plan = document_check(data, progress=lambda done, total: report("checking", done, total))
    with transaction.atomic():
        plan_write(group=group, plan=plan, user=user, report=report)
    return group


def group_import_new(*, data: Any, user: Any, report: Report = _quiet) -> Group:
    """Create a group owned by ``user`` from an export document."""
    from scoring.services.groups import group_create

    plan = document_check(data, progress=lambda done, total: report("checking", done, total))
    with transaction.atomic():
        try:
            group = group_create(name=plan.group_name or "", user=user)
        except ValidationFailed as exc:
            raise ValidationFailed({f"group.{k}": v for k, v in exc.problems.items()}) from None
        plan_write(group=group, plan=plan, user=user, report=report)
    return group


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

    before = _counts(status["group"])
    try:
        user = get_user_model().objects.get(pk=status["user"])
        try:
            data = json.loads(raw.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise ValidationFailed.single("file", gettext("This file is not a JSON export of Scorekeeper.")) from None
        if status["group"] is None:
            group = group_import_new(data=data, user=user, report=report)
        else:
            group = group_import(group=Group.objects.get(pk=status["group"]), data=data, user=user, report=report)
    except ValidationFailed as exc:
        _status_set(job_id, {**status, "state": "failed", "percent": 100, "errors": exc.problems})
        return "failed"
    except Exception:  # the starter must learn that it failed; the worker log keeps the trace
        failed = {"non_field_errors": [gettext("The import failed; nothing was added. Please try again.")]}
        _status_set(job_id, {**status, "state": "failed", "percent": 100, "errors": failed})
        raise
    finally:
        cache.delete(f"{_key(job_id)}:doc")
    after = _counts(group.pk)
    added = {"players": after[0] - before[0], "matches": after[1] - before[1]}
    _status_set(job_id, {**status, "state": "done", "percent": 100, "group": group.pk, "added": added})
    return "done"


def _counts(group_id: int | None) -> tuple[int, int]:
    if group_id is None:
        return (0, 0)
    players = Player.objects.filter(group_id=group_id, merged_into__isnull=True, archived_at__isnull=True).count()
    return players, Match.objects.filter(group_id=group_id).count()
