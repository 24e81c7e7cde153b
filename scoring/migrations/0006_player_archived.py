from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0005_round_number_live"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="archived_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
