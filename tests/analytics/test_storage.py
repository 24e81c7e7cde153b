"""How the statistics tables are stored on PostgreSQL."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps as django_apps
from django.db import connection

from analytics.models import Snapshot

pytestmark = pytest.mark.django_db

lz4 = importlib.import_module("analytics.migrations.0004_snapshot_payload_lz4")


def _payload_compression() -> str:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attcompression FROM pg_attribute WHERE attrelid = %s::regclass AND attname = 'payload'",
            [Snapshot._meta.db_table],
        )
        return str(cursor.fetchone()[0])


class _Editor:
    connection = connection


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a PostgreSQL column setting")
def test_snapshot_payloads_are_compressed_with_lz4_and_an_unknown_method_changes_nothing() -> None:
    assert _payload_compression() == "l"  # as the migration left it
    lz4._compression("no_such_method")(django_apps, _Editor())  # refused by the server: kept as it was
    assert _payload_compression() == "l"
    lz4._compression("DEFAULT")(django_apps, _Editor())  # the migration's reverse
    assert _payload_compression() == ""  # the server's default (pglz)
    lz4._compression("lz4")(django_apps, _Editor())
    assert _payload_compression() == "l"
