from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0034_league_rules"),
    ]

    operations = [
        migrations.AddField(
            model_name="league",
            name="federation",
            field=models.CharField(
                blank=True,
                help_text="The national federation the league plays under (FIDE's three-letter code, e.g. USA or NOR).",
                max_length=3,
                verbose_name="federation",
            ),
        ),
    ]
