"""A bye's or an absence's board moves from 1000 + start number to 10000 + start number: a round of more than 1,000
boards (an open of over 2,000 players) had real boards at 1001 and up, where the byes were stored."""

from django.db import migrations
from django.db.models import F

OLD, NEW = 1000, 10000


def byes_moved_up(apps, schema_editor):
    Game = apps.get_model("leagues", "Game")
    Game.objects.filter(black__isnull=True, board__gt=OLD, board__lt=NEW).update(board=F("board") + (NEW - OLD))


def byes_moved_down(apps, schema_editor):
    Game = apps.get_model("leagues", "Game")
    Game.objects.filter(black__isnull=True, board__gt=NEW).update(board=F("board") - (NEW - OLD))


class Migration(migrations.Migration):
    dependencies = [("leagues", "0041_ranking_lists_licences")]

    operations = [migrations.RunPython(byes_moved_up, byes_moved_down)]
