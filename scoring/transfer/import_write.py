"""Writing a checked import plan (``importing`` decides what to write): players, house rules, rounds with
their scores, history and the other side's confirmations, each table in a few statements (COPY on PostgreSQL),
keeping the dates the document carries."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from django.db import connection, models
from django.utils import timezone

from scoring.models import Group, Match, Player, Preset, PresetVersion, Round, RoundCheck, RoundEvent, Score
from scoring.services.common import round_snapshot
from scoring.transfer.import_plan import EventPlan, MatchPlan, Plan

BATCH = 2000


def insert(model: type[models.Model], objs: list[Any], *, ids: bool = False) -> None:
    """Insert ``objs`` keeping the dates they carry (``auto_now_add`` and ``auto_now`` would put "now"; a date
    left None gets it). On PostgreSQL one COPY (with ids taken from the table's sequence first when ``ids``),
    elsewhere ``bulk_create`` then the dates."""
    if not objs:
        return
    meta = model._meta
    if connection.vendor != "postgresql":
        stamped = ("auto_now_add", "auto_now")
        dated = [f.attname for f in meta.concrete_fields if any(getattr(f, name, False) for name in stamped)]
        kept = [{name: getattr(obj, name) for name in dated} for obj in objs]
        model.objects.bulk_create(objs, batch_size=BATCH)
        for obj, values in zip(objs, kept, strict=True):
            for name, value in values.items():
                if value is not None:
                    setattr(obj, name, value)
        if dated:
            model.objects.bulk_update(objs, dated, batch_size=BATCH)
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


def players_write(
    group: Group, plan: Plan, members: dict[str, Any], needed: Collection[str]
) -> tuple[dict[str, Player], int]:
    """The group's player for every ``needed`` name of the file, and how many were created: matched by name, or
    created (an account link is restored only for a member of ``group`` not yet linked to another player).
    Names not needed (seated only in matches the group already holds) are neither created nor changed."""
    existing = {p.name.casefold(): p for p in Player.objects.filter(group=group, merged_into__isnull=True)}
    linked = {p.user_id for p in existing.values() if p.user_id}
    out: dict[str, Player] = {}
    new: list[Player] = []
    for key, p in plan.players.items():
        if key not in needed:
            continue
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
    insert(Player, new, ids=True)
    return out, len(new)


def presets_write(group: Group, plan: Plan) -> tuple[dict[tuple[str, int], Any], int]:
    """The file's house rules in ``group``: (preset uid, version number) -> its version, and how many presets
    were added.  House rules the group already holds (the same uid) are kept as they are, with the versions
    they lack added; a new preset whose name the group's own house rules for that game already use is added
    as "Name (2)", and the default of a game that has one already stays."""
    held = {str(p.uid): p for p in Preset.objects.filter(group=group)}
    taken = {
        (p.ruleset, p.name.casefold()) for p in held.values() if p.archived_at is None
    }  # (the names in use: unique among a game's current house rules)
    defaults = {p.ruleset for p in held.values() if p.is_default}
    versions: dict[tuple[str, int], Any] = {}
    have = {(v.preset_id, v.number): v for v in PresetVersion.objects.filter(preset__group=group)}
    added = 0
    for p in plan.presets:
        preset = held.get(p.uid)
        if preset is None:
            name, n = p.name, 1
            while p.archived_at is None and (p.ruleset, name.casefold()) in taken:
                n += 1
                name = f"{p.name} ({n})"[:60]
            default = p.is_default and p.archived_at is None and p.ruleset not in defaults
            preset = Preset(group=group, ruleset=p.ruleset, name=name, is_default=default, uid=p.uid)
            preset.archived_at = p.archived_at
            preset.save()
            Preset.objects.filter(pk=preset.pk).update(created_at=p.created_at)
            if p.archived_at is None:
                taken.add((p.ruleset, name.casefold()))
            if default:
                defaults.add(p.ruleset)
            added += 1
        for v in p.versions:
            version = have.get((preset.pk, v.number))
            if version is None:
                version = PresetVersion(preset=preset, number=v.number, name=v.name, options=v.options)
                version.save()
                PresetVersion.objects.filter(pk=version.pk).update(created_at=v.created_at)
            versions[(p.uid, v.number)] = version
    return versions, added


def _events_restored(match: Match, events: list[EventPlan], rounds: dict[str, Round], members: dict[str, Any]) -> Any:
    """The match's history as the file has it; an undo's "undoes" (the place of the event it reverts) becomes
    that event's new id once the events have theirs."""
    made = []
    for e in events:
        event = RoundEvent(
            match=match,
            round=rounds.get(e.round) if e.round is not None else None,
            round_number=e.round_number,
            action=e.action,
            actor=members.get(e.actor or ""),
            before=e.before,
            after=e.after,
        )
        event.at = e.at
        made.append(event)
    return made


def _undo_links(events: list[RoundEvent]) -> list[RoundEvent]:
    fixed = []
    for event in events:
        after = event.after
        if isinstance(after, dict) and isinstance(after.get("undoes"), int):
            event.after = {**after, "undoes": events[after["undoes"]].pk}
            fixed.append(event)
    return fixed


def _checks_restored(
    match: Match, m: MatchPlan, seated: list[Player], made: list[Round], members: dict[str, Any]
) -> list[RoundCheck]:
    """The other side's word on the match's rounds as the file has it: the player by their seat, the account
    when it is a member of the group."""
    rounds = {str(r.uid): r for r in made}
    players = dict(zip(m.players, seated, strict=True))
    return [
        RoundCheck(
            round=rounds[c.round],
            match=match,
            state=c.state,
            version=c.version,
            by=members.get(c.by or ""),
            player=players.get(c.player or ""),
            note=c.note,
            at=c.at,
        )
        for c in m.checks
    ]


def rounds_write(batch: list[tuple[Match, MatchPlan, list[Player]]], user: Any, members: dict[str, Any]) -> int:
    """The rounds of a batch of new matches, their scores and their history: the file's history where it has
    one, otherwise a "create" by the importer for every round (and a "delete" for a deleted round, so that it can
    be undone).  Each table in one statement."""
    rounds: list[Round] = []
    per_match: list[tuple[Match, MatchPlan, list[Player], list[Round]]] = []
    for match, m, seated in batch:
        made = []
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
                version=r.version,
            )
            if r.uid is not None:
                rnd.uid = r.uid
            rnd.created_at = r.created_at  # (the constructor fills auto_now_add fields only on save)
            rnd.updated_at = r.updated_at  # (None: now)
            made.append(rnd)
        rounds += made
        per_match.append((match, m, seated, made))
    insert(Round, rounds, ids=True)
    scores, events, restored, checks = [], [], [], []
    for match, m, seated, made in per_match:
        checks += _checks_restored(match, m, seated, made, members)
        scores += [
            Score(round=rnd, match=match, player=p, seat=n, points=pts)
            for rnd in made
            if rnd.deleted_at is None
            for n, (p, pts) in enumerate(zip(seated, rnd.points, strict=True))
        ]
        if m.history is not None:
            own = _events_restored(match, m.history, {str(r.uid): r for r in made}, members)
            restored.append(own)
            events += own
            continue
        for rnd in made:
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
    insert(Score, scores)
    RoundCheck.objects.bulk_create(checks, batch_size=BATCH)  # (keyed by its round: no id of its own to take)
    insert(RoundEvent, events, ids=True)
    fixed = [event for own in restored for event in _undo_links(own)]
    if fixed:
        RoundEvent.objects.bulk_update(fixed, ["after"], batch_size=BATCH)
    return len(rounds)
