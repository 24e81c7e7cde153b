"""``manage.py backup``: a consistent copy of the whole database, kept with the newest few.

PostgreSQL: ``pg_dump`` in its custom format, one consistent snapshot taken while the app keeps running (restore
with ``pg_restore``; see deploy/README.md). SQLite: SQLite's online backup API, likewise consistent while the app runs.

The copy is written under a temporary name, checked (``pg_restore --list`` must read it and find the rounds;
SQLite's ``integrity_check`` must pass) and only then renamed, so a file named ``scorekeeper-*.dump`` or
``scorekeeper-*.sqlite3`` is always a whole backup. Then all but the newest ``--keep`` backups in the directory
are deleted. Any failure is a non-zero exit that names the step, and leaves the earlier backups alone.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from scoring.models import Round

PREFIX = "scorekeeper-"
SUFFIXES = (".dump", ".sqlite3")
# libpq reads these from the environment; the password never appears on a command line
_LIBPQ_OPTIONS = {
    "sslmode": "PGSSLMODE",
    "sslrootcert": "PGSSLROOTCERT",
    "sslcert": "PGSSLCERT",
    "sslkey": "PGSSLKEY",
    "connect_timeout": "PGCONNECT_TIMEOUT",
}


def libpq_environment(db: dict[str, Any]) -> dict[str, str]:
    """The PG* variables that point libpq's tools (pg_dump, pg_restore, psql) at Django's database ``db``."""
    env = {
        "PGDATABASE": str(db["NAME"]),
        "PGHOST": str(db.get("HOST") or ""),
        "PGPORT": str(db.get("PORT") or ""),
        "PGUSER": str(db.get("USER") or ""),
        "PGPASSWORD": str(db.get("PASSWORD") or ""),
    }
    options = db.get("OPTIONS") or {}
    env.update({var: str(options[key]) for key, var in _LIBPQ_OPTIONS.items() if key in options})
    return {key: value for key, value in env.items() if value}


def backups(directory: Path) -> list[Path]:
    """The complete backups in ``directory``, oldest first (their names sort by the time they were taken)."""
    return sorted(path for path in directory.glob(f"{PREFIX}*") if path.suffix in SUFFIXES and path.is_file())


def prune(directory: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` backups (``keep`` 0: none); returns what was deleted."""
    found = backups(directory)
    doomed = found[:-keep] if keep > 0 else []
    for path in doomed:
        path.unlink()
    return doomed


def _run(argv: list[str], *, env: dict[str, str], step: str) -> str:
    tool = shutil.which(argv[0])
    if tool is None:
        raise CommandError(f"{step}: {argv[0]} is not installed (Debian: apt install postgresql-client)")
    done = subprocess.run([tool, *argv[1:]], env={**os.environ, **env}, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise CommandError(f"{step}: {argv[0]} exited with {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def dump_postgresql(db: dict[str, Any], target: Path) -> str:
    """pg_dump ``db`` into ``target`` and read the file back; returns what was checked."""
    env = libpq_environment(db)
    _run(["pg_dump", "--format=custom", f"--file={target}"], env=env, step="pg_dump")
    listing = _run(["pg_restore", "--list", str(target)], env={}, step="checking the dump")
    rounds = Round._meta.db_table
    data = [line.split()[-2] for line in listing.splitlines() if " TABLE DATA " in line]
    if rounds not in data:
        raise CommandError(f"checking the dump: pg_restore --list does not show the data of {rounds}")
    return f"pg_restore --list reads it: {len(data)} tables' data"


def dump_sqlite(db: dict[str, Any], target: Path) -> str:
    """Copy the SQLite database ``db`` into ``target`` with the online backup API and check the copy."""
    try:
        source = sqlite3.connect(f"file:{db['NAME']}?mode=ro", uri=True)
        try:
            copy = sqlite3.connect(target)
            try:
                source.backup(copy)
                (verdict,) = copy.execute("PRAGMA integrity_check").fetchone()
                (rounds,) = copy.execute(f'SELECT count(*) FROM "{Round._meta.db_table}"').fetchone()
            finally:
                copy.close()
        finally:
            source.close()
    except sqlite3.Error as exc:
        raise CommandError(f"copying {db['NAME']}: {exc}") from exc
    if verdict != "ok":
        raise CommandError(f"checking the copy: SQLite's integrity_check says {verdict!r}")
    return f"integrity_check ok, {rounds} rounds"


class Command(BaseCommand):
    help = "Back up the database (pg_dump, or SQLite's online backup) and keep the newest --keep backups."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dir",
            default=settings.BACKUP_DIR,
            help="where backups are kept (default: $BACKUP_DIR, else var/backups)",
        )
        parser.add_argument(
            "--keep",
            type=int,
            default=settings.BACKUP_KEEP,
            help="how many of the newest backups to keep, this one included; 0 keeps all (default: "
            "$BACKUP_KEEP, else 14)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        keep: int = options["keep"]
        if keep < 0:
            raise CommandError("--keep must be 0 (keep all) or more")
        db = connection.settings_dict
        vendor = connection.vendor
        if vendor not in ("postgresql", "sqlite"):
            raise CommandError(f"cannot back up a {vendor} database")
        directory = Path(options["dir"])
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
        final = directory / f"{PREFIX}{stamp}{'.dump' if vendor == 'postgresql' else '.sqlite3'}"
        partial = final.with_name(final.name + ".partial")
        try:
            checked = dump_postgresql(db, partial) if vendor == "postgresql" else dump_sqlite(db, partial)
            partial.chmod(0o600)  # it holds password hashes and e-mail addresses
            partial.replace(final)
        finally:
            partial.unlink(missing_ok=True)
        removed = prune(directory, keep)
        size = final.stat().st_size
        self.stdout.write(f"backup: {vendor} database {db['NAME']} -> {final} ({size / 1e6:.1f} MB; {checked})")
        self.stdout.write(
            f"backup: {len(backups(directory))} kept in {directory}"
            + (f", {len(removed)} older deleted: {', '.join(p.name for p in removed)}" if removed else "")
        )
