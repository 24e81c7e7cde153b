"""``manage.py backup``: a whole, checked copy that deploy/README.md's restore commands bring back; old ones pruned."""

from __future__ import annotations

import io
import sqlite3
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from scoring.management.commands.backup import backups, dump_sqlite, libpq_environment, prune
from tests.faults import helpers as fault_helpers  # its tests_database_url would be collected as a test

COUNTED = ("scoring_round", "scoring_score", "scoring_match", "scoring_seat", "scoring_roundevent", "auth_user")


def _counts(dsn: str) -> dict[str, int]:
    with psycopg.connect(dsn) as conn:
        return {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in COUNTED}


def _dsn(name: str) -> str:
    """The URL of database ``name`` on the server of this run's test database."""
    return f"{fault_helpers.tests_database_url().rsplit('/', 1)[0]}/{name}"


@pytest.fixture
def scratch_database() -> Iterator[str]:
    """An empty PostgreSQL database to restore into, dropped afterwards."""
    name = f"sk_restore_{uuid.uuid4().hex[:10]}"
    admin = _dsn("postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _dsn(name)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _restore(*args: str) -> None:
    """deploy/README.md's restore command (``--dbname`` last)."""
    subprocess.run(["pg_restore", "--no-owner", "--single-transaction", *args], check=True, capture_output=True)


@pytest.mark.django_db(transaction=True)
def test_a_postgresql_backup_restores_to_the_same_rows_also_over_changed_data(
    tmp_path: Path, scratch_database: str
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("pg_dump backs up PostgreSQL; make test runs on PostgreSQL")
    call_command("generate_history", rounds=300, players=6, groups=2, seed=11, stdout=io.StringIO())
    before = _counts(fault_helpers.tests_database_url())
    assert before["scoring_round"] == 300

    out = io.StringIO()
    call_command("backup", dir=str(tmp_path), keep=3, stdout=out)
    (dump,) = backups(tmp_path)
    assert dump.suffix == ".dump" and str(dump) in out.getvalue() and "pg_restore --list reads it" in out.getvalue()
    assert dump.stat().st_mode & 0o077 == 0, "a backup holds password hashes: owner-only"
    assert not list(tmp_path.glob("*.partial"))

    _restore(f"--dbname={scratch_database}", str(dump))
    assert _counts(scratch_database) == before
    # rows changed after the backup are put back by the restore over the existing tables (--clean --if-exists)
    with psycopg.connect(scratch_database) as conn:
        conn.execute("DELETE FROM scoring_score WHERE id IN (SELECT id FROM scoring_score LIMIT 50)")
    assert _counts(scratch_database)["scoring_score"] == before["scoring_score"] - 50
    _restore("--clean", "--if-exists", f"--dbname={scratch_database}", str(dump))
    assert _counts(scratch_database) == before


@pytest.mark.django_db(transaction=True)
def test_a_failed_dump_leaves_no_file_and_the_earlier_backups_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("pg_dump backs up PostgreSQL; make test runs on PostgreSQL")
    earlier = tmp_path / "scorekeeper-20260101T000000.000000Z.dump"
    earlier.write_bytes(b"an earlier backup")
    monkeypatch.setitem(connection.settings_dict, "NAME", "sk_no_such_database_for_backup")
    with pytest.raises(CommandError, match=r"pg_dump: pg_dump exited with 1: .*sk_no_such_database_for_backup"):
        call_command("backup", dir=str(tmp_path), keep=1, stdout=io.StringIO())
    assert sorted(p.name for p in tmp_path.iterdir()) == [earlier.name]


def test_an_sqlite_copy_is_taken_online_and_checked(tmp_path: Path) -> None:
    live = tmp_path / "db.sqlite3"
    with sqlite3.connect(live) as conn:
        conn.execute("CREATE TABLE scoring_round (id INTEGER PRIMARY KEY, facts TEXT)")
        conn.executemany("INSERT INTO scoring_round (facts) VALUES (?)", [("{}",)] * 3)
    reader = sqlite3.connect(live)  # the app may hold the database open meanwhile
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM scoring_round").fetchone()
    copy = tmp_path / "copy.sqlite3"
    try:
        assert dump_sqlite({"NAME": str(live)}, copy) == "integrity_check ok, 3 rounds"
    finally:
        reader.close()
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT count(*) FROM scoring_round").fetchone() == (3,)


def test_an_sqlite_database_that_cannot_be_opened_is_a_command_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match=r"copying .*missing\.sqlite3: unable to open database file"):
        dump_sqlite({"NAME": str(tmp_path / "missing.sqlite3")}, tmp_path / "copy.sqlite3")


def test_only_the_newest_backups_are_kept(tmp_path: Path) -> None:
    names = [f"scorekeeper-2026110{day}T040000.000000Z.dump" for day in range(1, 6)]
    for name in names:
        (tmp_path / name).write_bytes(b"x")
    other = ["notes.txt", "scorekeeper-20261109T040000.000000Z.dump.partial"]
    for name in other:
        (tmp_path / name).write_bytes(b"x")
    assert [p.name for p in prune(tmp_path, 2)] == names[:3]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names[3:] + other)
    assert prune(tmp_path, 0) == [] and len(backups(tmp_path)) == 2


def test_keep_must_not_be_negative(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="--keep"):
        call_command("backup", dir=str(tmp_path), keep=-1)


def test_pg_dump_is_pointed_at_djangos_database_through_the_environment() -> None:
    env = libpq_environment(
        {
            "NAME": "scores",
            "HOST": "db.example.org",
            "PORT": 5433,
            "USER": "keeper",
            "PASSWORD": "s3cret",
            "OPTIONS": {"sslmode": "require", "connect_timeout": 5, "application_name": "x"},
        }
    )
    assert env == {
        "PGDATABASE": "scores",
        "PGHOST": "db.example.org",
        "PGPORT": "5433",
        "PGUSER": "keeper",
        "PGPASSWORD": "s3cret",
        "PGSSLMODE": "require",
        "PGCONNECT_TIMEOUT": "5",
    }
    assert libpq_environment({"NAME": "scores", "HOST": "", "PASSWORD": None}) == {"PGDATABASE": "scores"}
