"""manage.py import_trf FILE --league SLUG --user NAME [--event SLUG] [--name NAME] [--system swiss|rr|drr] [--dry-run]

Without --event the new event's address comes from the file name. With --event SLUG of an existing
event, the file updates that event (same participants; new rounds and games are added, differing
results corrected with the reason "TRF import"); otherwise a new event gets that address.
--dry-run prints the preview (players, rounds, results, tiebreaks and every problem by line) and
saves nothing; it exits with an error when the file has problems.

A new event is played under the FIDE rule edition of the file's start date (record 042): FIDE's 2026
rules from 1 March 2026, the earlier edition before, chosen as the site and `python -m tiebreaks`
choose it (tiebreaks.trf.dates.file_edition). An ambiguous date (10.09.13) is read as the only reading
the end date and the round dates allow; when both readings stay possible and give the same edition,
that edition applies. When the file still cannot say (an ambiguous date across 1 March 2026, an
unreadable or missing one), the command warns and imports nothing until --start-date YYYY-MM-DD (a
reading of the date, or the date itself) or --rules fide-2026|fide-2023 says it."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.text import slugify

from leagues.errors import ServiceError
from leagues.models import Event, League
from leagues.services.trf import event_import_trf, import_preview, rule_edition_question
from tiebreaks.engine import FIDE_EDITIONS


class Command(BaseCommand):
    help = "Import a TRF file as a new event of a league, or update an event from it (all of it, or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--league", required=True, help="slug of the league")
        parser.add_argument("--user", required=True, help="username of the league's organiser (audit trail)")
        parser.add_argument(
            "--event",
            help="slug of the event to update, or of the new event (default: a new event named after the file)",
        )
        parser.add_argument("--name", help="name of the new event (default: the file's 012 record)")
        parser.add_argument("--system", choices=["swiss", "rr", "drr"], help="overrides what the file says")
        parser.add_argument(
            "--same-players",
            action="store_true",
            help="FIDE ids known from another league are the same players (the preview lists them)",
        )
        parser.add_argument(
            "--start-date",
            metavar="YYYY-MM-DD",
            help="the event's start date when the file's is ambiguous, unreadable or missing (decides the rules)",
        )
        parser.add_argument(
            "--rules",
            choices=list(FIDE_EDITIONS),
            help="the FIDE rule edition when the file's start date cannot decide it",
        )
        parser.add_argument("--dry-run", action="store_true", help="print the preview and every problem; save nothing")

    def handle(
        self,
        *args,
        file,
        league,
        user,
        event=None,
        name=None,
        system=None,
        dry_run=False,
        same_players=False,
        start_date=None,
        rules=None,
        **options,
    ):
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
        existing = Event.objects.filter(slug=event).first() if event else None
        if existing is not None and existing.league_id != league_obj.pk:
            raise CommandError(f"event “{event}” belongs to another league")
        data = path.read_bytes()
        preview = import_preview(
            data=data,
            system=system if existing is None else None,
            event=existing,
            league=league_obj,
            start_date=start_date,
            rule_set=rules,
        )
        question = preview.edition is not None and not preview.edition.rule_set
        if dry_run:
            self._print_preview(preview, existing)
            if preview.problems:
                raise CommandError(f"{len(preview.problems)} problem(s); nothing would be imported")
            return
        if preview.problems:
            self._print_problems(preview)
            raise CommandError(f"{_line(preview.problems[0])}; nothing imported")
        if question and preview.edition is not None:
            raise CommandError(f"{rule_edition_question(preview.edition)} {EDITION_FLAGS}; nothing imported")
        title = name or _tournament_name(data) or path.stem
        self._print_problems(preview)  # no problems here: the warnings
        try:
            saved = event_import_trf(
                league=league_obj,
                name=title,
                slug=event or slugify(path.stem),
                data=data,
                user=user_obj,
                system=system,
                event=existing,
                same_players_confirmed=same_players,
                start_date=start_date,
                rule_set=rules,
            )
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        verb = "updated" if existing is not None else "imported"
        self.stdout.write(f"{verb} {saved.slug}: {saved.entries.count()} players, {saved.rounds.count()} rounds")

    def _print_preview(self, preview, existing):
        target = f"updates {existing.slug}" if existing is not None else "creates a new event"
        self.stdout.write(
            f"preview ({target}): {len(preview.players)} players, {preview.rounds} rounds, {preview.results} results"
        )
        if preview.tiebreaks:
            self.stdout.write("tiebreaks: " + ", ".join(preview.tiebreaks))
        edition = preview.edition
        if edition is not None and edition.rule_set:
            if edition.chosen:
                source = "as chosen"
            elif edition.readings:
                source = f"the start date “{edition.text}” is {' or '.join(edition.readings)}: these rules either way"
            else:
                source = f"from the start date {edition.start_date}"
            self.stdout.write(f"rules: {edition.rule_set} ({source})")
        elif edition is not None:
            self.stderr.write(f"warning: {rule_edition_question(edition)} {EDITION_FLAGS}")
        for number, player_name, rating in preview.players:
            self.stdout.write(f"{number:4d}  {player_name}" + (f" ({rating})" if rating else ""))
        self._print_problems(preview)

    def _print_problems(self, preview):
        for problem in preview.problems:
            self.stderr.write(_line(problem))
        for warning in preview.warnings:  # imported all the same (a FIDE id given to two players)
            self.stderr.write("warning: " + _line(warning))


EDITION_FLAGS = "(--start-date YYYY-MM-DD or --rules " + "|".join(FIDE_EDITIONS) + ")"


def _line(problem) -> str:
    line, message = problem
    return message if line is None else f"line {line}: {message}"


def _tournament_name(data: bytes) -> str:
    for line in data.decode("utf-8", errors="replace").splitlines():
        if line.startswith("012 "):
            return line[4:].strip()
    return ""
