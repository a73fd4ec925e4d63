"""Make an API token for a user from the command line (operators, scripts, the end-to-end tests)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from leagues.errors import ServiceError
from leagues.models.tokens import Scope
from leagues.services.tokens import api_token_create


class Command(BaseCommand):
    help = "Make an API token for USERNAME and print it once (it is stored hashed)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--name", default="command line")
        parser.add_argument(
            "--scope", action="append", choices=Scope.values, help="repeat for several; default: read and results"
        )

    def handle(self, *args, username, name, scope, **options):
        try:
            user = get_user_model().objects.get(username=username)
        except get_user_model().DoesNotExist:
            raise CommandError(f"there is no user {username!r}") from None
        try:
            _, key = api_token_create(user=user, name=name, scopes=scope or [Scope.READ, Scope.RESULTS])
        except ServiceError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(key)
