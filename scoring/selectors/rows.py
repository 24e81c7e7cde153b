"""Rows of fixed SQL as the ORM would hand them over: the hot reads of a round write, without building queries.

A round write reads three things that were QuerySets: the caller's token with its user, the locked match, and the
match's standings in the statistics.  Each cost about half a millisecond of CPU building the same SQL anew on every
request, four times what sending it costs (issue 48).  Their callers write the SQL once per
process from the models' own table and column names; this module names the columns (:func:`columns`) and turns
a row back into what the ORM would have made of it: the values through the converters the ORM's compiler applies
(the backend's, then the field's ``from_db_value``), then a model instance by ``Model.from_db`` (:func:`instance`,
so ``_state`` is as after a QuerySet) or a dict as ``values()`` gives (:func:`values`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Model

Converter = Callable[[Any, Any, Any], Any]


@cache
def _fields(model: type[Model], names: tuple[str, ...] | None) -> tuple[Any, ...]:
    """The fields read: ``names`` (attribute names such as ``player_id``), or every concrete field in order."""
    if names is None:
        return tuple(model._meta.concrete_fields)
    by_attname = {field.attname: field for field in model._meta.concrete_fields}
    return tuple(by_attname[name] for name in names)


@cache
def _attnames(model: type[Model], names: tuple[str, ...] | None) -> list[str]:
    return [field.attname for field in _fields(model, names)]


def columns(model: type[Model], alias: str, names: Sequence[str] | None = None) -> str:
    """The select list ``alias."column", …`` of ``names`` (attribute names), or of every concrete field of
    ``model`` in field order: the columns :func:`instance` and :func:`values` read."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(field.column)}" for field in _fields(model, _key(names)))


def width(model: type[Model], names: Sequence[str] | None = None) -> int:
    """How many values :func:`columns` selects."""
    return len(_fields(model, _key(names)))


def _key(names: Sequence[str] | None) -> tuple[str, ...] | None:
    return None if names is None else tuple(names)


@cache
def _converters(
    model: type[Model], names: tuple[str, ...] | None, vendor: str
) -> tuple[tuple[int, Any, tuple[Converter, ...]], ...]:
    """Per column that needs one, its expression and the converters the ORM's compiler would apply to it (the
    backend's, then the field's own ``from_db_value``), as ``SQLCompiler.get_converters`` collects them."""
    found = []
    for index, field in enumerate(_fields(model, names)):
        col = field.get_col(model._meta.db_table)
        chain = tuple(connection.ops.get_db_converters(col)) + tuple(field.get_db_converters(connection))
        if chain:
            found.append((index, col, chain))
    return tuple(found)


def _converted(model: type[Model], names: tuple[str, ...] | None, values: Sequence[Any]) -> list[Any]:
    row = list(values)
    for index, col, chain in _converters(model, names, connection.vendor):
        value = row[index]
        for convert in chain:
            value = convert(value, col, connection)
        row[index] = value
    return row


def instance(model: type[Model], values: Sequence[Any]) -> Any:
    """``model`` as the ORM would build it from a row of its :func:`columns` (the values as the driver gave them)."""
    return model.from_db(connection.alias, _attnames(model, None), _converted(model, None, values))


def values(model: type[Model], names: Sequence[str], row: Sequence[Any]) -> dict[str, Any]:
    """A row of ``columns(model, alias, names)`` as ``QuerySet.values(*names)`` gives it."""
    key = tuple(names)
    return dict(zip(key, _converted(model, key, row), strict=True))
