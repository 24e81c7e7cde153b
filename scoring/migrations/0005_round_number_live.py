"""Round numbers are unique among a match's live rounds only.

A new round takes the highest live number + 1, so deleting the last round and entering another reuses its
number; the deleted round keeps its data (it can still be restored while no live round holds its number).
The partial unique index (match, number) WHERE deleted_at IS NULL also takes over from round_live_idx (match)
over the same rows, and a plain (match, number) index serves the lookups that include deleted rounds, which
the old full unique index served: two indexes on the table, as before.  Works on SQLite and PostgreSQL
(both have partial indexes).

``Match.next_number`` is set to the highest live number + 1, which is what it now means.
"""

from django.db import migrations, models
from django.db.models import Max, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce


def next_numbers(apps, schema_editor):
    Match = apps.get_model("scoring", "Match")
    Round = apps.get_model("scoring", "Round")
    highest = (
        Round.objects.filter(match=OuterRef("pk"), deleted_at__isnull=True)
        .values("match")
        .annotate(top=Max("number"))
        .values("top")
    )
    Match.objects.update(next_number=Coalesce(Subquery(highest), Value(0)) + 1)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0004_match_winners"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="round", name="round_number_unique"),
        migrations.RemoveIndex(model_name="round", name="round_live_idx"),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.UniqueConstraint(
                condition=Q(deleted_at__isnull=True), fields=("match", "number"), name="round_live_number_unique"
            ),
        ),
        migrations.AddIndex(
            model_name="round",
            index=models.Index(fields=["match", "number"], name="round_match_number_idx"),
        ),
        migrations.RunPython(next_numbers, migrations.RunPython.noop, elidable=True),
    ]
