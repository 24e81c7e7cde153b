"""Fault-test helpers: real gunicorn and Celery processes on a private Redis server, against the test database.

Nothing here replaces our own code: the app runs as in production (gunicorn with ``deploy/gunicorn.conf.py``,
``celery worker``), the test only starts, kills and restarts processes and reads the database.

``FAULTS_SCALE`` (default 1) multiplies the amount of work; ``make faults`` runs with a larger scale.
The private Redis (``FAULTS_REDIS_PORT``, default 6390) is ours to stop and restart: the shared server on
6379 is never touched.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from tests.conftest import wait_for

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "var" / "faults"
SCALE = max(1, int(os.environ.get("FAULTS_SCALE", "1")))
REDIS_PORT = int(os.environ.get("FAULTS_REDIS_PORT", "6390"))
VISIBILITY_TIMEOUT = 5  # seconds before a killed worker's unacknowledged task is handed out again


REPORTS: list[str] = []  # repeated in pytest's terminal summary when output is captured (make test)


def report(line: str) -> None:
    """Print what the fault test did and found."""
    REPORTS.append(line)
    sys.stdout.write(f"\n[faults] {line}")
    sys.stdout.flush()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def collect_static(env: dict[str, str]) -> None:
    """What a deployment does before starting gunicorn with DEBUG=0: without the manifest, or with one older than
    the static files, it refuses to start (collectstatic copies only what changed, so a repeat is quick)."""
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True, timeout=300
    )


# --- a Redis server of our own ------------------------------------------------------------------------------


class OwnRedis:
    """``redis-server`` on a private port, stopped the way an operator would (``shutdown nosave``)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def ping(self) -> bool:
        found = subprocess.run(
            ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True, timeout=5, check=False
        )
        return found.stdout.strip() == "PONG"

    def start(self) -> None:
        LOGS.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(LOGS),
                "--logfile",
                str(LOGS / f"redis-{self.port}.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if not wait_for(self.ping, timeout=10, interval=0.1):
            raise RuntimeError(f"redis-server on port {self.port} did not start")

    def stop(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.port), "shutdown", "nosave"], capture_output=True, check=False)
        if self.proc is not None:
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def flush(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.port), "flushall"], capture_output=True, check=True)


# --- the app's processes ----------------------------------------------------------------------------------


@dataclass
class Proc:
    name: str
    popen: subprocess.Popen[bytes]
    log: Path

    @property
    def pid(self) -> int:
        return self.popen.pid

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@dataclass
class Stack:
    """Starts gunicorn and Celery workers for this test; everything is stopped at teardown."""

    db_url: str
    redis: OwnRedis
    procs: list[Proc] = field(default_factory=list)
    base_url: str = ""
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex[:6])

    def env(self, **extra: str) -> dict[str, str]:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": self.db_url,
            "REDIS_URL": self.redis.url,
            "CELERY_EAGER": "0",
            "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "SECURE_SSL_REDIRECT": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "THROTTLE_WRITES": "1000000/min",
            "LOG_LEVEL": "WARNING",
        }
        env.pop("PYTEST_CURRENT_TEST", None)
        env.update(extra)
        return env

    def _spawn(self, name: str, argv: list[str], env: dict[str, str]) -> Proc:
        LOGS.mkdir(parents=True, exist_ok=True)
        log = LOGS / f"{self.run_id}-{name}.log"
        with open(log, "ab") as out:
            popen = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        proc = Proc(name, popen, log)
        self.procs.append(proc)
        return proc

    def web(self, *, workers: int = 2, threads: int = 8) -> Proc:
        """gunicorn with the production config (gthread workers), DEBUG=0, on a free loopback port."""
        port = free_port()
        env = self.env(
            GUNICORN_BIND=f"127.0.0.1:{port}",
            GUNICORN_WORKERS=str(workers),
            GUNICORN_THREADS=str(threads),
            GUNICORN_ACCESSLOG=str(LOGS / f"{self.run_id}-access.log"),
        )
        collect_static(env)
        proc = self._spawn("web", [str(Path(sys.executable).parent / "gunicorn"), "-c", "deploy/gunicorn.conf.py"], env)
        self.base_url = f"http://127.0.0.1:{port}"

        def up() -> bool:
            if proc.popen.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {proc.popen.returncode}:\n{proc.log_text()[-3000:]}")
            try:
                return requests.get(f"{self.base_url}/healthz", timeout=2).status_code == 200
            except requests.RequestException:
                return False

        if not wait_for(up, timeout=60, interval=0.25):
            raise RuntimeError(f"gunicorn did not answer:\n{proc.log_text()[-3000:]}")
        return proc

    def worker(self, name: str, *, pool: str = "solo", **extra_env: str) -> Proc:
        """A ``celery worker`` on the private Redis: the solo pool runs the task in the process we may kill; the
        prefork pool (one child) as in production, where a killed child is noticed by the worker's main process."""
        argv = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-n",
            f"{name}-{self.run_id}@%h",
            "--pool",
            pool,
            *(["--concurrency", "1"] if pool == "prefork" else []),
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-l",
            "INFO",
        ]
        proc = self._spawn(name, argv, self.env(**extra_env))

        def ready() -> bool:
            if proc.popen.poll() is not None:
                raise RuntimeError(f"celery worker exited with {proc.popen.returncode}:\n{proc.log_text()[-3000:]}")
            return " ready." in proc.log_text()

        if not wait_for(ready, timeout=60, interval=0.25):
            raise RuntimeError(f"celery worker did not come up:\n{proc.log_text()[-3000:]}")
        return proc

    def send_task(self, name: str, *args: Any) -> str:
        """Queue a task on the private Redis exactly as beat (or the web process) would."""
        from celery import Celery

        producer = Celery("faults", broker=self.redis.url, set_as_current=False)
        producer.conf.broker_connection_retry_on_startup = True
        try:
            return str(producer.send_task(name, args=list(args)).id)
        finally:
            producer.close()

    def kill9(self, proc: Proc) -> None:
        proc.popen.send_signal(signal.SIGKILL)
        proc.popen.wait(timeout=10)

    def web_workers(self, proc: Proc) -> set[int]:
        """The pids of gunicorn's worker processes (children of the master)."""
        found = subprocess.run(
            ["ps", "-o", "pid=", "--ppid", str(proc.pid)], capture_output=True, text=True, check=False
        )
        return {int(p) for p in found.stdout.split()}

    def stop_all(self) -> None:
        for proc in reversed(self.procs):
            if proc.popen.poll() is None:
                proc.popen.terminate()
        for proc in reversed(self.procs):
            try:
                proc.popen.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.popen.kill()
                proc.popen.wait()
        self.procs.clear()


def tests_database_url() -> str:
    """The URL of the database this pytest run uses (``test_<name>``), for the processes we start."""
    from django.db import connection

    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


# --- a table of players and their matches, made through the services ------------------------------------------


@dataclass
class Table:
    token: str
    group_id: int
    match_ids: list[int]
    seats: int

    def headers(self, key: str) -> dict[str, str]:
        return {"Authorization": f"Token {self.token}", "Idempotency-Key": key, "Content-Type": "application/json"}


def abluxxen_facts(n: int) -> dict[str, Any]:
    """A valid game of Abluxxen for three players (someone went out); varies with ``n``."""
    return {"front": [8 + n % 7, 5 + n % 3, 4], "hand": [0, 1 + n % 4, 2 + n % 5], "end": "out"}


# --- submitting rounds like a phone does ------------------------------------------------------------------------


@dataclass
class Submission:
    key: str
    match_id: int
    attempts: int = 0
    statuses: list[int] = field(default_factory=list)  # 0 = no answer (connection refused or reset)

    @property
    def saved(self) -> bool:
        return bool(self.statuses) and self.statuses[-1] == 201


_local = threading.local()


def _session() -> requests.Session:
    if not hasattr(_local, "session"):
        _local.session = requests.Session()
    return _local.session


def submit(
    base_url: str, table: Table, match_id: int, facts: dict[str, Any], *, key: str | None = None, retries: int = 0
) -> Submission:
    """POST one round with an Idempotency-Key; retry (same key, as the phone does) on no answer or a 5xx."""
    sub = Submission(key=key or uuid.uuid4().hex, match_id=match_id)
    for attempt in range(retries + 1):
        sub.attempts += 1
        try:
            response = _session().post(
                f"{base_url}/api/v1/matches/{match_id}/rounds",
                json={"facts": facts},
                headers=table.headers(sub.key),
                timeout=30,
            )
            sub.statuses.append(response.status_code)
            if response.status_code < 500:
                return sub
        except requests.RequestException:
            _local.__dict__.pop("session", None)
            sub.statuses.append(0)
        if attempt < retries:
            time.sleep(min(0.1 * 2**attempt, 2.0))
    return sub


# --- what the database holds --------------------------------------------------------------------------------


def integrity(match_ids: list[int]) -> dict[str, int]:
    """Rounds stored for these matches, and every way a round could be half-written."""
    from django.db.models import Count, Q

    from scoring.models import Match, Round, RoundEvent, Seat

    seats = dict(
        Seat.objects.filter(match_id__in=match_ids)
        .values("match_id")
        .annotate(n=Count("id"))
        .values_list("match_id", "n")
    )
    rounds = list(
        Round.objects.filter(match_id__in=match_ids)
        .annotate(
            n_scores=Count("scores", distinct=True),
            n_created=Count("events", filter=Q(events__action=RoundEvent.Action.CREATE), distinct=True),
        )
        .values("match_id", "number", "points", "n_scores", "n_created", "deleted_at")
    )
    half = [
        r
        for r in rounds
        if r["deleted_at"] is None
        and (r["n_scores"] != seats[r["match_id"]] or r["n_created"] != 1 or len(r["points"]) != seats[r["match_id"]])
    ]
    gaps = 0
    for match in Match.objects.filter(pk__in=match_ids).values("id", "next_number"):
        numbers = sorted(r["number"] for r in rounds if r["match_id"] == match["id"])
        gaps += int(numbers != list(range(1, match["next_number"])))
    return {"stored": len(rounds), "half_written": len(half), "numbering_gaps": gaps}


def stream(
    base_url: str,
    table: Table,
    plan: list[tuple[int, dict[str, Any]]],
    *,
    clients: int = 4,
    retries: int = 0,
    done: Callable[[int], None] | None = None,
) -> list[Submission]:
    """Submit ``plan`` (match id, facts) from ``clients`` parallel phones, each round with its own key."""
    from concurrent.futures import ThreadPoolExecutor

    lock = threading.Lock()
    finished = 0

    def one(item: tuple[int, dict[str, Any]]) -> Submission:
        nonlocal finished
        sub = submit(base_url, table, item[0], item[1], retries=retries)
        with lock:
            finished += 1
            count = finished
        if done is not None:
            done(count)
        return sub

    with ThreadPoolExecutor(clients) as pool:
        return list(pool.map(one, plan))


def round_plan(table: Table, rounds_per_match: int, total: int, *, start: int = 0) -> list[tuple[int, dict[str, Any]]]:
    """``total`` rounds spread over the table's matches, at most ``rounds_per_match`` each, matches interleaved."""
    slots = [m for _ in range(rounds_per_match) for m in table.match_ids]
    if total > len(slots):
        raise ValueError(f"{total} rounds do not fit in {len(table.match_ids)} matches of {rounds_per_match}")
    return [(match_id, abluxxen_facts(start + i)) for i, match_id in enumerate(slots[:total])]


def group_stats_fresh(group_id: int) -> dict[str, Any]:
    """Whether the group's statistics have caught up, and what its group snapshot says."""
    from analytics.models import Snapshot, StatsDirty
    from analytics.stats import ALL

    snap = Snapshot.objects.filter(scope="group", group_id=group_id, filter_key=ALL.key).first()
    return {
        "stale": Snapshot.objects.filter(group_id=group_id, stale=True).count(),
        "computing": Snapshot.objects.filter(group_id=group_id, computing=True).count(),
        "dirty": StatsDirty.objects.filter(group_id=group_id).count(),
        "rounds_entered": (snap.payload.get("summary", {}).get("rounds_entered") if snap and snap.payload else None),
        "matches": (snap.payload.get("summary", {}).get("matches") if snap and snap.payload else None),
    }


def table_make(*, matches: int, games: int = 100, n: int = 1) -> Table:
    """A user with an API token, a group of three players and ``matches`` open Abluxxen matches (services only)."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from scoring import services

    user = get_user_model().objects.create_user(f"faults-{n}-{uuid.uuid4().hex[:6]}", password=None)
    token = Token.objects.create(user=user)
    group = services.group_create(name=f"Faults {n}", user=user, player_name="Anna")
    players = [group.players.get().pk]
    players += [services.player_create(group=group, name=name, user=user).pk for name in ("Béla", "Cili")]
    ids = [
        services.match_create(
            group=group, ruleset="abluxxen", options={"games": games}, player_ids=players, user=user
        ).pk
        for _ in range(matches)
    ]
    return Table(token=token.key, group_id=group.pk, match_ids=ids, seats=len(players))
