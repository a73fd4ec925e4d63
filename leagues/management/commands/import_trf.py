"""manage.py import_trf FILE --league SLUG --user NAME [--event SLUG] [--name NAME] [--system swiss|rr|drr]"""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.text import slugify

from leagues.errors import ServiceError
from leagues.models import League
from leagues.trf_services import event_import_trf


class Command(BaseCommand):
    help = "Import a TRF file as a new event of a league (all of it, or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--league", required=True, help="slug of the league")
        parser.add_argument("--user", required=True, help="username of the league's organiser (audit trail)")
        parser.add_argument("--event", help="slug of the new event (default: from the file name)")
        parser.add_argument("--name", help="name of the new event (default: the file's 012 record)")
        parser.add_argument("--system", choices=["swiss", "rr", "drr"], help="overrides what the file says")

    def handle(self, *args, file, league, user, event=None, name=None, system=None, **options):
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"{file}: no such file")
        try:
            league_obj = League.objects.get(slug=league)
        except League.DoesNotExist:
            raise CommandError(f"no league “{league}”") from None
        try:
            user_obj = get_user_model().objects.get(username=user)
        except get_user_model().DoesNotExist:
            raise CommandError(f"no user “{user}”") from None
        data = path.read_bytes()
        title = name or _tournament_name(data) or path.stem
        try:
            created = event_import_trf(league=league_obj, name=title, slug=event or slugify(path.stem),
                                       data=data, user=user_obj, system=system)
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(f"imported {created.slug}: {created.entries.count()} players, "
                          f"{created.rounds.count()} rounds")


def _tournament_name(data: bytes) -> str:
    for line in data.decode("utf-8", errors="replace").splitlines():
        if line.startswith("012 "):
            return line[4:].strip()
    return ""
