"""A small season built through the organiser's services, for the workspace and email tests."""

from dataclasses import dataclass
from datetime import date

from django.contrib.auth.models import User

from leagues.models import Club, Event, League, Player, Role, Team, TeamMatch
from leagues.notifications import remember_language
from leagues.services.clubs import club_save
from leagues.services.events import event_save, event_status_set
from leagues.services.players import player_save
from leagues.services.schedule import fixtures_generate
from leagues.services.teams import roster_set, team_save
from tests.factories import UserFactory


@dataclass
class Division:
    league: League
    organiser: User
    event: Event
    clubs: list[Club]
    secretaries: list[User]
    teams: list[Team]
    players: dict[str, list[Player]]  # club slug -> [Player]

    def match(self, number: int = 1) -> TeamMatch:
        match = TeamMatch.objects.filter(round__event=self.event, round__number=number).order_by("pk").first()
        assert match is not None
        return match


def division(boards: int = 2, players_per_club: int = 3, email_languages=("en", "en")) -> Division:
    """Two clubs (Fjord, Bosporus) with a secretary each, a team division of one team each, drawn."""
    league = League.objects.create(name="Test League", slug="test-league")
    organiser = UserFactory(username="org", email="org@example.org")
    Role.objects.create(user=organiser, kind=Role.Kind.ORGANISER, league=league)
    clubs, secretaries, players = [], [], {}
    for (name, slug), language in zip(
        (("Fjord SK", "fjord"), ("Bosporus SK", "bosporus")), email_languages, strict=True
    ):
        club = club_save(league=league, user=organiser, fields={"name": name, "slug": slug})
        secretary = UserFactory(username=f"sec-{slug}", email=f"sec-{slug}@example.org")
        Role.objects.create(user=secretary, kind=Role.Kind.SECRETARY, club=club)
        remember_language(secretary, language)
        clubs.append(club)
        secretaries.append(secretary)
        players[slug] = [
            player_save(
                league=league,
                user=organiser,
                fields={"name": f"{name.split()[0]}, Player{i}", "rating": 2000 - 50 * i},
                club=club,
            )
            for i in range(1, players_per_club + 1)
        ]
    event = event_save(
        league=league,
        user=organiser,
        fields={
            "name": "Division One",
            "slug": "division-one",
            "kind": "team",
            "system": "rr",
            "rounds_count": 1,
            "boards": boards,
            "starts_on": date(2026, 1, 5),
        },
    )
    teams = []
    for club in clubs:
        team = team_save(event=event, user=organiser, club=club, name=f"{club.name} 1")
        roster_set(team=team, user=organiser, players=players[club.slug])
        teams.append(team)
    fixtures_generate(event=event, user=organiser, starts_on=date(2026, 1, 5))
    event.refresh_from_db()
    event = event_status_set(event=event, user=organiser, status="published")
    return Division(league, organiser, event, clubs, secretaries, teams, players)


def card_post(match, results: dict[int, str], lineup: dict | None = None, **extra) -> dict:
    """The match card form as a browser posts it: results by board (the home side's view is the codes')."""
    data = {"card_version": match.version, "reason": extra.pop("reason", "")}
    for game in match.games.order_by("board"):
        home_white = game.white_id == match.home_id
        home, away = (
            (game.white_player_id, game.black_player_id) if home_white else (game.black_player_id, game.white_player_id)
        )
        if lineup and game.board in lineup:
            home, away = lineup[game.board]
        data[f"home_{game.pk}"] = home or ""
        data[f"away_{game.pk}"] = away or ""
        data[f"result_{game.pk}"] = results.get(game.board, game.result)
        data[f"version_{game.pk}"] = game.version
    data.update(extra)
    return data
