"""Helpers for the statistics tests: a group with players, matches played through the services."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from django.db import connection

from analytics import services as analytics_services
from analytics import synthetic
from analytics.models import Snapshot
from scoring import services
from scoring.models import Group, Match, Membership, Player
from tests.factories import GroupFactory, MembershipFactory, PlayerFactory, UserFactory
from tests.workers import worker_ready, worker_spawn

NAMES = ("Anna", "Bence", "Csilla", "Dani", "Eszter", "Feri")


@dataclass
class Table:
    group: Group
    owner: Any
    member: Any
    outsider: Any
    players: list[Player]


def make_table(name: str = "Thursday table") -> Table:
    owner, member, outsider = UserFactory(), UserFactory(), UserFactory()
    group = GroupFactory(name=name)
    MembershipFactory(group=group, user=owner, role=Membership.Role.OWNER)
    MembershipFactory(group=group, user=member, role=Membership.Role.MEMBER)
    players = [PlayerFactory(group=group, name=n) for n in NAMES]
    return Table(group=group, owner=owner, member=member, outsider=outsider, players=players)


def abluxxen(table: Table, seats: Sequence[Player], fronts: Sequence[int], hands: Sequence[int]) -> Match:
    """A one-game Abluxxen match (points = front − hand); the rules finish it at once."""
    match = services.match_create(
        group=table.group, ruleset="abluxxen", options={"games": 1}, player_ids=[p.pk for p in seats], user=table.owner
    )
    end = "out" if 0 in hands else "exhausted"
    services.round_record(match=match, facts={"front": list(fronts), "hand": list(hands), "end": end}, user=table.owner)
    match.refresh_from_db()
    return match


def play(table: Table, ruleset: str, seats: Sequence[Player], rng: Random, *, rounds: int | None = None) -> Match:
    """A whole match of ``ruleset`` entered round by round through ``round_record`` (synthetic facts)."""
    played = synthetic.play_match(rng, ruleset, [1.0] * len(seats), rounds=rounds)
    match = services.match_create(
        group=table.group, ruleset=ruleset, options=played.options, player_ids=[p.pk for p in seats], user=table.owner
    )
    for facts, _result in played.rounds:
        services.round_record(match=match, facts=facts, user=table.owner)
    match.refresh_from_db()
    return match


def snapshots() -> dict[str, Any]:
    return dict(Snapshot.objects.order_by("key").values_list("key", "payload"))


def refresh(group: Group) -> int:
    return analytics_services.stats_group_refresh(group_id=group.pk)


def differences(left: Any, right: Any, path: str = "") -> list[str]:
    """Paths where two JSON values differ (for readable assertion messages)."""
    if isinstance(left, dict) and isinstance(right, dict):
        out = []
        for key in sorted(set(left) | set(right), key=str):
            if key not in left or key not in right:
                out.append(f"{path}/{key}: {'missing left' if key not in left else 'missing right'}")
            else:
                out += differences(left[key], right[key], f"{path}/{key}")
        return out
    if isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
        return [d for i, (a, b) in enumerate(zip(left, right, strict=True)) for d in differences(a, b, f"{path}[{i}]")]
    return [] if left == right else [f"{path}: {left!r} != {right!r}"]


def worker_start(queue: str) -> Any:
    """Start another real ``celery worker`` on ``queue`` (same database and broker as the fixture's)."""
    proc = worker_spawn(queue, f"worker-{queue}-again.log")
    worker_ready(proc)
    return proc


def worker_stop(proc: Any) -> None:
    proc.terminate()
    proc.wait(timeout=30)


def backend_waits_for_a_lock(pid: int, timeout: float = 10.0) -> bool:
    """True once the PostgreSQL backend ``pid`` waits for a lock (row, transaction or advisory)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
            row = cursor.fetchone()
        if row is not None and row[0] == "Lock":
            return True
        time.sleep(0.05)
    return False


def run_until_blocked(work: Callable[[], None], what: str) -> tuple[threading.Thread, dict[str, Any]]:
    """Run ``work`` in a thread on its own connection; return once its backend waits for a lock.

    The returned dict gets "done" or "error" when ``work`` ends (after the caller releases the lock).
    """
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                result["pid"] = cursor.fetchone()[0]
            work()
            result["done"] = True
        except Exception as exc:  # reported by the caller's assertions
            result["error"] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 10
    while "pid" not in result and "error" not in result and time.monotonic() < deadline:
        time.sleep(0.01)
    assert "error" not in result, result.get("error")
    assert backend_waits_for_a_lock(result["pid"]), f"{what} did not wait for the held lock"
    return thread, result
