from django.core.management.base import BaseCommand

from leagues.tasks import standings_sweep


class Command(BaseCommand):
    help = "Enqueue a recompute for every event whose standings are older than its results."

    def handle(self, *args, **options):
        count = standings_sweep()
        self.stdout.write(f"{count} event(s) enqueued")
