"""The migrations describe the models exactly: a model change without its migration fails here, not in deploy."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_model_change_lacks_its_migration() -> None:
    out = io.StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exc:  # --check exits 1 when a migration would be written
        pytest.fail(f"makemigrations would write a migration (exit {exc.code}):\n{out.getvalue()}")
