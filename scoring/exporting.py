"""Export a group's players, matches and rounds as JSON or CSV; import the JSON format.

The JSON format round-trips without loss: exporting a group, importing the file
into another group with the same members and exporting that gives the same
document.  Players and seats are referred to by name (unique in a group), so the
file carries no database ids.  What it does not carry: the edit history
(RoundEvent), internal version counters, and account links of people who are not
members of the group imported into (those players become guests).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Prefetch
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext

from scoring.models import Group, Match, Membership, Player, Round, RoundEvent, Score, Seat
from scoring.services.common import (
    explanation_store,
    history_or_fail,
    normalise_or_fail,
    options_or_fail,
    round_snapshot,
    ruleset_get,
    stats_group_after_commit,
)
from scoring.services.errors import ValidationFailed
from scoring.services.groups import owner_require

FORMAT = "scorekeeper-group"
FORMAT_VERSION = 1
TABLES = ("players", "matches", "rounds")


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _matches(group: Group) -> list[Match]:
    return list(
        Match.objects.filter(group=group)
        .order_by("created_at", "id")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number")),
            Prefetch("rounds", queryset=Round.objects.select_related("entered_by").order_by("number")),
        )
    )


def group_export(*, group: Group) -> dict[str, Any]:
    """The whole group as one JSON document (a fixed number of queries)."""
    players = Player.objects.filter(group=group, merged_into__isnull=True).select_related("user").order_by("id")
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "group": {"name": group.name},
        "players": [
            {"name": p.name, "user": p.user.get_username() if p.user else None, "created_at": _iso(p.created_at)}
            for p in players
        ],
        "matches": [
            {
                "ruleset": m.ruleset,
                "options": m.options,
                "state": m.state,
                "finish_reason": m.finish_reason,
                "created_at": _iso(m.created_at),
                "finished_at": _iso(m.finished_at),
                "players": [s.player.name for s in m.seats.all()],
                "rounds": [
                    {
                        "number": r.number,
                        "facts": r.facts,
                        "ruleset_version": r.ruleset_version,
                        "points": r.points,
                        "explanation": r.explanation,
                        "entered_by": r.entered_by.get_username() if r.entered_by else None,
                        "created_at": _iso(r.created_at),
                        "deleted_at": _iso(r.deleted_at),
                    }
                    for r in m.rounds.all()
                ],
            }
            for m in _matches(group)
        ],
    }


def _cell(value: Any) -> Any:
    """Keep spreadsheets from executing text cells that look like formulas."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def group_export_csv(*, group: Group, table: str) -> str:
    """One table of the group as CSV: ``players``, ``matches`` or ``rounds`` (one row per seat per round)."""
    import json

    out = io.StringIO()
    writer = csv.writer(out)
    if table == "players":
        writer.writerow(["player_id", "name", "user", "guest", "created_at"])
        for p in Player.objects.filter(group=group, merged_into__isnull=True).select_related("user").order_by("id"):
            user = p.user.get_username() if p.user else ""
            writer.writerow([p.pk, _cell(p.name), _cell(user), int(p.user_id is None), _iso(p.created_at)])
    elif table == "matches":
        writer.writerow(["match_id", "ruleset", "state", "created_at", "finished_at", "players", "options", "rounds"])
        for m in _matches(group):
            live = [r for r in m.rounds.all() if r.deleted_at is None]
            names = " | ".join(s.player.name for s in m.seats.all())
            writer.writerow(
                [
                    m.pk,
                    m.ruleset,
                    m.state,
                    _iso(m.created_at),
                    _iso(m.finished_at),
                    _cell(names),
                    json.dumps(m.options),
                    len(live),
                ]
            )
    elif table == "rounds":
        writer.writerow(
            [
                "match_id",
                "ruleset",
                "round",
                "seat",
                "player",
                "points",
                "deleted",
                "ruleset_version",
                "entered_by",
                "created_at",
                "facts",
            ]
        )
        for m in _matches(group):
            seats = list(m.seats.all())
            for r in m.rounds.all():
                for seat, points in enumerate(r.points):
                    name = seats[seat].player.name if seat < len(seats) else ""
                    entered = r.entered_by.get_username() if r.entered_by else ""
                    writer.writerow(
                        [
                            m.pk,
                            m.ruleset,
                            r.number,
                            seat,
                            _cell(name),
                            points,
                            int(r.deleted_at is not None),
                            r.ruleset_version,
                            _cell(entered),
                            _iso(r.created_at),
                            json.dumps(r.facts, sort_keys=True),
                        ]
                    )
    else:
        raise ValidationFailed.single("table", gettext("Export one of: players, matches, rounds."))
    return out.getvalue()


# --- import -------------------------------------------------------------------------------------


class _Checker:
    """Collects shape problems of an import document with dotted paths."""

    def __init__(self) -> None:
        self.problems: dict[str, list[str]] = {}

    def fail(self, path: str, message: str) -> None:
        self.problems.setdefault(path, []).append(message)

    def obj(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(path, gettext("Expected a JSON object."))
            return {}
        return value

    def items(self, value: Any, path: str, limit: int) -> list[Any]:
        if not isinstance(value, list):
            self.fail(path, gettext("Expected a list."))
            return []
        if len(value) > limit:
            self.fail(path, gettext("At most %(n)d entries.") % {"n": limit})
            return []
        return value

    def text(self, value: Any, path: str, *, null: bool = False, max_length: int = 150) -> str | None:
        if value is None and null:
            return None
        if not isinstance(value, str) or not value.strip() or len(value) > max_length:
            self.fail(path, gettext("Expected a text of 1 to %(n)d characters.") % {"n": max_length})
            return None
        return value

    def when(self, value: Any, path: str, *, null: bool = False) -> datetime | None:
        if value is None and null:
            return None
        parsed = parse_datetime(value) if isinstance(value, str) else None
        if parsed is None:
            self.fail(path, gettext("Expected an ISO 8601 date and time."))
        return parsed

    def int_(self, value: Any, path: str, low: int = 1, high: int = 10**6) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            self.fail(path, gettext("Expected a whole number from %(low)d to %(high)d.") % {"low": low, "high": high})
            return 0
        return value

    def raise_if_any(self) -> None:
        if self.problems:
            raise ValidationFailed(self.problems)


def _document_check(data: Any) -> dict[str, Any]:
    c = _Checker()
    doc = c.obj(data, "non_field_errors")
    c.raise_if_any()
    if doc.get("format") != FORMAT or doc.get("version") != FORMAT_VERSION:
        c.fail("format", gettext("This is not a Scorekeeper group export (format version 1)."))
    c.obj(doc.get("group"), "group")
    names: set[str] = set()
    for i, p in enumerate(c.items(doc.get("players"), "players", 1000)):
        p = c.obj(p, f"players.{i}")
        name = c.text(p.get("name"), f"players.{i}.name", max_length=60)
        if name is not None and name.casefold() in names:
            c.fail(f"players.{i}.name", gettext("Two players have the same name."))
        names.add((name or "").casefold())
        c.text(p.get("user"), f"players.{i}.user", null=True)
        c.when(p.get("created_at"), f"players.{i}.created_at")
    for i, m in enumerate(c.items(doc.get("matches"), "matches", 10000)):
        path = f"matches.{i}"
        m = c.obj(m, path)
        c.text(m.get("ruleset"), f"{path}.ruleset", max_length=20)
        c.obj(m.get("options"), f"{path}.options")
        if m.get("state") not in Match.State.values:
            c.fail(f"{path}.state", gettext("Expected open or finished."))
        if m.get("finish_reason") not in Match.FinishReason.values:
            c.fail(f"{path}.finish_reason", gettext("Expected '', rules or manual."))
        c.when(m.get("created_at"), f"{path}.created_at")
        c.when(m.get("finished_at"), f"{path}.finished_at", null=True)
        seated = [
            c.text(n, f"{path}.players.{k}", max_length=60)
            for k, n in enumerate(c.items(m.get("players"), f"{path}.players", 12))
        ]
        for k, name in enumerate(seated):
            if name is not None and name.casefold() not in names:
                c.fail(f"{path}.players.{k}", gettext("No player of this name in the file."))
        if len({(n or "").casefold() for n in seated}) != len(seated):
            c.fail(f"{path}.players", gettext("A player can take only one seat."))
        numbers = set()
        for k, r in enumerate(c.items(m.get("rounds"), f"{path}.rounds", 1000)):
            rpath = f"{path}.rounds.{k}"
            r = c.obj(r, rpath)
            number = c.int_(r.get("number"), f"{rpath}.number")
            if number in numbers:
                c.fail(f"{rpath}.number", gettext("Two rounds have the same number."))
            numbers.add(number)
            c.obj(r.get("facts"), f"{rpath}.facts")
            c.text(r.get("ruleset_version"), f"{rpath}.ruleset_version", max_length=20)
            points = c.items(r.get("points"), f"{rpath}.points", 12)
            if len(points) != len(seated) or any(not isinstance(x, int) or isinstance(x, bool) for x in points):
                c.fail(f"{rpath}.points", gettext("Expected one whole number per seat."))
            if not isinstance(r.get("explanation"), list):
                c.fail(f"{rpath}.explanation", gettext("Expected a list."))
            c.text(r.get("entered_by"), f"{rpath}.entered_by", null=True)
            c.when(r.get("created_at"), f"{rpath}.created_at")
            c.when(r.get("deleted_at"), f"{rpath}.deleted_at", null=True)
    c.raise_if_any()
    return doc


def _member_users(group: Group) -> dict[str, Any]:
    return {m.user.get_username(): m.user for m in Membership.objects.filter(group=group).select_related("user")}


def _import_match(
    *, group: Group, m: dict[str, Any], path: str, players: dict[str, Player], members: dict[str, Any], user: Any
) -> None:
    rules = ruleset_get(m["ruleset"], field=f"{path}.ruleset")
    seated = [players[name.casefold()] for name in m["players"]]
    try:
        options = options_or_fail(rules, m["options"], players=len(seated))
    except ValidationFailed as exc:
        raise ValidationFailed({f"{path}.{k}": v for k, v in exc.problems.items()}) from None
    rounds = sorted(m["rounds"], key=lambda r: r["number"])
    live = [r for r in rounds if r.get("deleted_at") is None]
    history = history_or_fail(
        rules,
        [r["facts"] for r in live],
        players=len(seated),
        options=options,
        labels=[f"{path}.rounds.{r['number']}.facts" for r in live],
    )
    computed = {r["number"]: result for r, (_f, result) in zip(live, history, strict=True)}
    match = Match.objects.create(
        group=group,
        ruleset=rules.key,
        options=options,
        state=m["state"],
        finish_reason=m["finish_reason"],
        next_number=max((r["number"] for r in rounds), default=0) + 1,
        winners=rules.module.match_state(history, players=len(seated), options=options).final_winners(),
    )
    Match.objects.filter(pk=match.pk).update(
        created_at=parse_datetime(m["created_at"]), finished_at=_dt(m["finished_at"])
    )
    Seat.objects.bulk_create(Seat(match=match, player=p, number=n) for n, p in enumerate(seated))
    for r in rounds:
        try:
            facts = normalise_or_fail(rules, r["facts"], players=len(seated), options=options)
        except ValidationFailed as exc:
            raise ValidationFailed({f"{path}.rounds.{r['number']}.{k}": v for k, v in exc.problems.items()}) from None
        result = computed.get(r["number"])
        explanation = r["explanation"]
        if result is not None and r["ruleset_version"] == rules.version:
            if list(result.scores) != r["points"]:
                raise ValidationFailed.single(
                    f"{path}.rounds.{r['number']}.points",
                    gettext("These points are not what the rules give for these facts (%(points)s).")
                    % {"points": ", ".join(map(str, result.scores))},
                )
            explanation = explanation_store(rules, result)
        rnd = Round.objects.create(
            match=match,
            number=r["number"],
            facts=facts,
            ruleset_version=r["ruleset_version"],
            points=r["points"],
            explanation=explanation,
            entered_by=members.get(r["entered_by"] or ""),
            deleted_at=_dt(r.get("deleted_at")),
        )
        Round.objects.filter(pk=rnd.pk).update(created_at=parse_datetime(r["created_at"]))
        # The history starts with the import: a "create" (and a "delete" for a deleted round, so it can be undone).
        alive = {**round_snapshot(rnd), "deleted": False, "imported": True}
        RoundEvent.objects.create(
            match=match, round=rnd, round_number=rnd.number, action="create", actor=user, after=alive
        )
        if rnd.deleted_at is not None:
            RoundEvent.objects.create(
                match=match,
                round=rnd,
                round_number=rnd.number,
                action="delete",
                actor=user,
                before=alive,
                after={**round_snapshot(rnd), "imported": True},
            )
        if rnd.deleted_at is None:
            Score.objects.bulk_create(
                Score(round=rnd, match=match, player=p, seat=n, points=pts)
                for n, (p, pts) in enumerate(zip(seated, r["points"], strict=True))
            )


def _dt(value: str | None) -> datetime | None:
    return parse_datetime(value) if value else None


@transaction.atomic
def group_import(*, group: Group, data: Any, user: Any) -> Group:
    """Add the players, matches and rounds of an export document to ``group`` (owners only).

    Players are matched by name (a new one is created when missing); an account
    link is restored when that account is a member of ``group``.  Every live
    round is validated by the ruleset; rounds scored by the current ruleset
    version must carry the points the rules give.  All or nothing.
    """
    owner_require(group=group, user=user)
    doc = _document_check(data)
    members = _member_users(group)
    existing = {p.name.casefold(): p for p in Player.objects.filter(group=group, merged_into__isnull=True)}
    linked = {p.user_id for p in existing.values() if p.user_id}
    players: dict[str, Player] = {}
    for p in doc["players"]:
        player = existing.get(p["name"].casefold())
        account = members.get(p["user"] or "")
        if player is None:
            if account is not None and account.pk in linked:
                account = None
            player = Player.objects.create(group=group, name=p["name"], user=account)
            Player.objects.filter(pk=player.pk).update(created_at=parse_datetime(p["created_at"]))
        elif player.user_id is None and account is not None and account.pk not in linked:
            player.user = account
            player.save(update_fields=["user"])
        if player.user_id:
            linked.add(player.user_id)
        players[p["name"].casefold()] = player
    for i, m in enumerate(doc["matches"]):
        _import_match(group=group, m=m, path=f"matches.{i}", players=players, members=members, user=user)
    stats_group_after_commit(group_id=group.pk)
    return group


def group_import_new(*, data: Any, user: Any) -> Group:
    """Create a group owned by ``user`` from an export document."""
    from scoring.services.groups import group_create

    name = data.get("group", {}).get("name") if isinstance(data, dict) and isinstance(data.get("group"), dict) else None
    with transaction.atomic():
        try:
            group = group_create(name=name if isinstance(name, str) else "", user=user)
        except ValidationFailed as exc:
            raise ValidationFailed({f"group.{k}": v for k, v in exc.problems.items()}) from None
        return group_import(group=group, data=data, user=user)


def rows(text: str) -> Iterator[list[str]]:
    """Parse CSV text (tests and tools)."""
    yield from csv.reader(io.StringIO(text))
