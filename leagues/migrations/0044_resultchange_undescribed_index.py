"""A partial index of the result changes a recompute still has to describe (corrections without their effect on the
standings yet), which it looks for after every result: a seek among a handful of rows instead of a scan of every
change ever made (issue #37)."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('leagues', '0043_snapshot_columns_lz4'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name='resultchange',
            index=models.Index(condition=models.Q(('standings_impact__isnull', True), models.Q(('before', ''), _negated=True)), fields=['game'], name='resultchange_undescribed'),
        ),
    ]
