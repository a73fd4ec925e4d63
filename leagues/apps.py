from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self):
        # importing models-dependent modules is possible only once the app registry is ready
        from . import tasks  # noqa: F401  (registers the tasks, which run in-process without a broker)
        from .manage import login  # noqa: F401  (counts failed logins at every login door)
