"""Stable identifiers for matches, rounds and house rules (issue 43): what a group export names them by, kept by
an import so that a document imported twice is recognised.

Existing rows get random identifiers in one statement per table on PostgreSQL (``gen_random_uuid()``, built in
since PostgreSQL 13); elsewhere in batches from Python.  A plain ``AddField`` with ``default=uuid4`` would give
every existing row the same value.
"""

import uuid

from django.db import migrations, models

TABLES = ("Match", "Round", "Preset")


def fill(apps, schema_editor):
    connection = schema_editor.connection
    for name in TABLES:
        model = apps.get_model("scoring", name)
        table = connection.ops.quote_name(model._meta.db_table)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"UPDATE {table} SET uid = gen_random_uuid() WHERE uid IS NULL")
            continue
        pending = model.objects.filter(uid__isnull=True).only("pk")
        while batch := list(pending[:2000]):
            for row in batch:
                row.uid = uuid.uuid4()
            model.objects.bulk_update(batch, ["uid"])


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0011_match_abandoned"),
    ]

    operations = [
        migrations.AddField(model_name="match", name="uid", field=models.UUIDField(null=True, editable=False)),
        migrations.AddField(model_name="round", name="uid", field=models.UUIDField(null=True, editable=False)),
        migrations.AddField(model_name="preset", name="uid", field=models.UUIDField(null=True, editable=False)),
        migrations.RunPython(fill, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="match", name="uid", field=models.UUIDField(default=uuid.uuid4, editable=False)
        ),
        migrations.AlterField(
            model_name="round", name="uid", field=models.UUIDField(default=uuid.uuid4, editable=False)
        ),
        migrations.AlterField(
            model_name="preset", name="uid", field=models.UUIDField(default=uuid.uuid4, editable=False)
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.UniqueConstraint(fields=("group", "uid"), name="match_uid_unique_in_group"),
        ),
        migrations.AddConstraint(
            model_name="preset",
            constraint=models.UniqueConstraint(fields=("group", "uid"), name="preset_uid_unique_in_group"),
        ),
    ]
