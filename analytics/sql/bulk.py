"""Fast bulk inserts with explicit ids and timestamps: COPY on PostgreSQL, executemany on SQLite.

Used by ``generate_history``: unlike ``bulk_create`` it keeps the given ``created_at``/``updated_at`` values
(``auto_now`` fields would overwrite them) and it needs no round trip per batch to learn the new ids.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.db import connection, models


class BulkWriter:
    """Buffer rows per model and write them on :meth:`flush`; ``reserve`` hands out primary keys up front.

    Call :meth:`flush` inside a transaction: PostgreSQL checks the (deferred) foreign keys at commit.
    """

    def __init__(self) -> None:
        self.rows: dict[type[models.Model], list[tuple[Any, ...]]] = {}
        self.fields: dict[type[models.Model], list[Any]] = {}  # per model: (field, attname, convert, default)
        self.written: dict[str, int] = {}
        self._next_id: dict[type[models.Model], int] = {}

    def reserve(self, model: type[models.Model], count: int) -> list[int]:
        """``count`` fresh primary keys for ``model`` (taken from the sequence on PostgreSQL)."""
        table = model._meta.db_table
        pk = model._meta.pk.column
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute(
                    "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)", [table, pk, count]
                )
                return [row[0] for row in cursor.fetchall()]
            if model not in self._next_id:
                cursor.execute(f"SELECT COALESCE(MAX({pk}), 0) FROM {table}")
                self._next_id[model] = cursor.fetchone()[0] + 1
        start = self._next_id[model]
        self._next_id[model] = start + count
        return list(range(start, start + count))

    def add(self, model: type[models.Model], values: Mapping[str, Any]) -> None:
        """Queue one row of plain Python values (ints, strings, datetimes, JSON data …).

        The first row of a model fixes its columns: the fields it names (a primary key not named is left to
        the database) plus every other field at its default.
        """
        plan = self.fields.get(model)
        if plan is None:
            plan = self.fields[model] = self._plan(model, values)
        self.rows.setdefault(model, []).append(
            tuple(
                convert(values[name]) if name in values else default(convert) if callable(default) else default
                for _f, name, convert, default in plan  # type: ignore[misc]
            )
        )

    @staticmethod
    def _plan(model: type[models.Model], values: Mapping[str, Any]) -> list[Any]:
        sqlite = connection.vendor != "postgresql"
        plan = []
        for field in model._meta.concrete_fields:
            if field.primary_key and field.attname not in values:
                continue
            if isinstance(field, models.JSONField):
                convert = _json
            elif sqlite and isinstance(field, models.DateTimeField):
                convert = connection.ops.adapt_datetimefield_value
            else:
                convert = _same
            if field.attname in values:
                default: Any = None
            elif callable(field.default) and field.default not in (dict, list):
                # a fresh value per row (a uuid4 identifier), not one value shared by every row
                default = _fresh(field)
            else:
                default = convert(field.get_default())
            plan.append((field, field.attname, convert, default))
        return plan

    @property
    def pending(self) -> int:
        return sum(len(rows) for rows in self.rows.values())

    def _flush(self, model: type[models.Model]) -> None:
        rows = self.rows.get(model)
        if not rows:
            return
        table = model._meta.db_table
        columns = [field.column for field, *_rest in self.fields[model]]
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                with cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
            else:
                marks = ", ".join(["%s"] * len(columns))
                cursor.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)
        self.written[table] = self.written.get(table, 0) + len(rows)
        self.rows[model] = []

    def flush(self, *models_in_order: type[models.Model]) -> None:
        """Write everything queued, parents before children."""
        for model in models_in_order:
            self._flush(model)
        for model in list(self.rows):
            self._flush(model)


def _fresh(field: Any) -> Any:
    def make(convert: Any) -> Any:
        return convert(field.get_default())

    return make


def _same(value: Any) -> Any:
    return value


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))
