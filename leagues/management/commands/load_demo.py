"""Load a demo league: four clubs, a team division, an individual Swiss, a team knock-out cup, and users to log
in with."""

import logging
import random
from datetime import date, timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.test.utils import override_settings
from django.utils import timezone

from leagues.models import (
    Club,
    ClubMembership,
    Cup,
    CupTie,
    Entry,
    Event,
    Game,
    League,
    Player,
    Prize,
    PrizeFund,
    Result,
    ResultChange,
    Role,
    Round,
    Season,
    Team,
    TeamMatch,
    TeamMember,
)
from leagues.page_cache import pages_changed
from leagues.recompute import standings_recompute_event
from leagues.services.cups import cup_draw
from leagues.services.match_cards import match_card_dispute, match_card_submit
from leagues.services.results import result_record

CLUBS = [
    (
        "Oslo Sjakkselskap",
        "oslo-sk",
        ["Hansen, Ingrid", "Berg, Magnus", "Johansen, Sigrid", "Lie, Henrik", "Dahl, Tone", "Moe, Eirik"],
    ),
    (
        "Athens Chess Club",
        "athens-cc",
        [
            "Papadopoulos, Nikos",
            "Georgiou, Eleni",
            "Dimitriou, Kostas",
            "Nikolaou, Maria",
            "Vlachos, Yannis",
            "Karalis, Sofia",
        ],
    ),
    (
        "Kadıköy Satranç Kulübü",
        "kadikoy-sk",
        ["Yılmaz, Elif", "Kaya, Mehmet", "Demir, Zeynep", "Şahin, Emre", "Çelik, Ayşe", "Aydın, Burak"],
    ),
    (
        "Haifa Chess Club",
        "haifa-cc",
        ["Cohen, Noa", "Levi, Itai", "Mizrahi, Tamar", "Peretz, Yonatan", "Biton, Shira", "Friedman, Avi"],
    ),
]
PASSWORD = "demo-chess-2026"  # noqa: S105 - the demo's published password
#: the demo cup's quarter-finals: the home team's points on boards 1 and 2
QUARTER_FINALS = [(1, 1), (0.5, 0), (1, 0), (1, 1)]


class Command(BaseCommand):
    help = "Load the demo league (replaces an earlier demo league)."

    def handle(self, *args, **options):
        progress = logging.getLogger("leagues")
        level = progress.level
        progress.setLevel(logging.WARNING)  # the recomputes' progress lines: the summary at the end is what to read
        try:
            with override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"):
                self._load()  # the demo's own match cards email nobody
        finally:
            progress.setLevel(level)

    def _load(self):
        rng = random.Random(2026)  # noqa: S311 - a repeatable demo, not a secret
        with transaction.atomic():
            League.objects.filter(slug="demo-league").delete()
            Player.objects.filter(clubs__slug__in=[slug for _, slug, _ in CLUBS]).delete()
            organiser, secretaries = self._users()
            league = League.objects.create(name="Nordic–Aegean Chess League", slug="demo-league")
            season = Season.objects.create(league=league, name="2026", slug="2026", starts_on=date(2026, 9, 1))
            Role.objects.create(user=organiser, kind=Role.Kind.ORGANISER, league=league)
            clubs = []
            for (name, slug, players), secretary in zip(CLUBS, secretaries, strict=True):
                Club.objects.filter(slug=slug).delete()
                club = Club.objects.create(name=name, slug=slug)
                league.clubs.add(club)
                Role.objects.create(user=secretary, kind=Role.Kind.SECRETARY, club=club)
                members = []
                for index, player_name in enumerate(players):
                    player = Player.objects.create(
                        name=player_name,
                        rating=2150 - 60 * index - rng.randint(0, 80),
                        birth_year=rng.randint(1960, 2012),
                        sex=rng.choice("mw"),
                    )
                    ClubMembership.objects.create(player=player, club=club)
                    members.append(player)
                clubs.append((club, members))
            self._team_division(league, season, clubs, organiser, rng)
            self._club_swiss(league, season, clubs, organiser, rng)
            self._team_cup(league, season, clubs, organiser)
        for event in Event.objects.filter(league__slug="demo-league"):
            pages_changed(event_id=event.pk)  # the demo loaded again: no page of the one before stays
            standings_recompute_event(event.pk)
        site = "http://127.0.0.1:8000"
        self.stdout.write(self.style.SUCCESS(f"Demo league loaded: {site}/en/"))
        self.stdout.write(f"Log in at {site}/en/accounts/login/; organisers and secretaries work at {site}/en/manage/")
        self.stdout.write(f"  {'user':<21} password")
        for user in [organiser, *secretaries]:
            self.stdout.write(f"  {user.username:<21} {PASSWORD}")

    def _users(self):
        User = get_user_model()
        names = ["organiser"] + [f"secretary-{slug}" for _, slug, _ in CLUBS]
        users = []
        for username in names:
            User.objects.filter(username=username).delete()
            # nobody of the demo is site staff: organisers and secretaries work under /<lang>/manage/
            users.append(
                User.objects.create_user(username=username, password=PASSWORD, email=f"{username}@example.org")
            )
        return users[0], users[1:]

    def _team_division(self, league, season, clubs, organiser, rng):
        starts_on = date(2026, 9, 10)
        event = Event.objects.create(
            league=league,
            season=season,
            name="Division 1",
            slug="demo-division-1",
            kind=Event.Kind.TEAM,
            system=Event.System.ROUND_ROBIN,
            rounds_count=3,
            boards=4,
            status=Event.Status.PUBLISHED,
            starts_on=starts_on,
            tiebreak_criteria=["MPTS", "GPTS"],
        )
        entries = []
        for number, (club, members) in enumerate(clubs, start=1):
            team = Team.objects.create(event=event, club=club, name=f"{club.name} 1")
            for board, player in enumerate(members[:4], start=1):
                TeamMember.objects.create(team=team, player=player, board_order=board)
            entries.append(Entry.objects.create(event=event, start_number=number, team=team))
        # Berger table for four teams
        schedule = [[(0, 3), (1, 2)], [(3, 2), (0, 1)], [(1, 3), (2, 0)]]
        for number, pairs in enumerate(schedule, start=1):
            rnd = Round.objects.create(event=event, number=number, date=starts_on + timedelta(weeks=number - 1))
            for home, away in pairs:
                match = TeamMatch.objects.create(round=rnd, home=entries[home], away=entries[away])
                card: dict[int, tuple[str, int]] = {}
                home_team, away_team = entries[home].team, entries[away].team
                if not (home_team is not None and away_team is not None):
                    raise RuntimeError("a league match is between two teams")
                home_roster = list(home_team.members.select_related("player"))
                away_roster = list(away_team.members.select_related("player"))
                for board in range(1, 5):
                    h, a = home_roster[board - 1].player, away_roster[board - 1].player
                    home_white = board % 2 == 1
                    white_player, black_player = (h, a) if home_white else (a, h)
                    game = Game.objects.create(
                        round=rnd,
                        match=match,
                        board=board,
                        white=entries[home] if home_white else entries[away],
                        black=entries[away] if home_white else entries[home],
                        white_player=white_player,
                        black_player=black_player,
                    )
                    if number <= 2:
                        result = _draw_result(rng, white_player.rating, black_player.rating)
                        if number == 2 and board == 4 and home == 3:
                            result = Result.WHITE_WINS_FORFEIT
                        card[game.pk] = (result, game.version)
                if card:  # the organiser's card is confirmed at once
                    match_card_submit(
                        match_id=match.pk,
                        results=card,
                        user=organiser,
                        expected_version=0,
                        source=ResultChange.Source.DEMO,
                    )
        self._open_cards(event)
        # Haifa and Kadıköy both have 3 match points after two rounds: the money is pooled (£75 each),
        # the trophy goes by the published tiebreak, game points (5½ against 5)
        fund = PrizeFund.objects.create(event=event, currency="GBP", published=True)
        Prize.objects.create(fund=fund, place=1, amount=10000, item="Division trophy")
        Prize.objects.create(fund=fund, place=2, amount=5000)

    def _open_cards(self, event):
        """Round 3 is today: one card submitted and waiting for the other club, one disputed. Both cards say
        every board was drawn, so the standings after round 2 (and the prize split described below) stay
        as they are: every team gains one match point and two game points."""
        rnd = event.rounds.get(number=3)
        Round.objects.filter(pk=rnd.pk).update(date=timezone.localdate())
        waiting, disputed = rnd.matches.select_related("home__team__club", "away__team__club").order_by("pk")
        for match, reason in ((waiting, ""), (disputed, "Board 2 was a win for us, not a draw.")):
            home_secretary = Role.objects.get(kind=Role.Kind.SECRETARY, club=match.home.team.club).user
            away_secretary = Role.objects.get(kind=Role.Kind.SECRETARY, club=match.away.team.club).user
            card: dict[int, tuple[str, int]] = {g.pk: (Result.DRAW, g.version) for g in match.games.all()}
            submitted = match_card_submit(
                match_id=match.pk, results=card, user=home_secretary, expected_version=match.version
            )
            if reason:
                match_card_dispute(
                    match_id=match.pk, user=away_secretary, reason=reason, expected_version=submitted.version
                )

    def _club_swiss(self, league, season, clubs, organiser, rng):
        starts_on = date(2026, 10, 1)
        event = Event.objects.create(
            league=league,
            season=season,
            name="Autumn Open 2026",
            slug="demo-autumn-open",
            system=Event.System.SWISS,
            rounds_count=5,
            status=Event.Status.PUBLISHED,
            starts_on=starts_on,
            tiebreak_criteria=["BH/C1", "BH", "SB"],
        )
        players = sorted((p for _, members in clubs for p in members[:4]), key=lambda p: -p.rating)[:11]
        entries = [
            Entry.objects.create(event=event, start_number=n, player=p, rating=p.rating)
            for n, p in enumerate(players, start=1)
        ]
        points = {e.id: 0.0 for e in entries}
        met: set[tuple[int, int]] = set()
        had_bye: set[int] = set()
        for number in range(1, 4):
            rnd = Round.objects.create(event=event, number=number, date=starts_on + timedelta(weeks=number - 1))
            waiting = sorted(entries, key=lambda e: (-points[e.id], e.start_number))
            board = 1
            if number == 2:  # a requested half-point bye
                requested = waiting.pop(len(waiting) // 2)
                self._bye(rnd, board, requested, Result.HALF_POINT_BYE, organiser)
                points[requested.id] += 0.5
                board += 1
            if len(waiting) % 2:  # the lowest without a bye gets the pairing-allocated bye
                lowest = next(e for e in reversed(waiting) if e.id not in had_bye)
                waiting.remove(lowest)
                had_bye.add(lowest.id)
                self._bye(rnd, board, lowest, Result.PAIRING_BYE, organiser)
                points[lowest.id] += 1
                board += 1
            while waiting:
                first = waiting.pop(0)
                second = next((e for e in waiting if (first.id, e.id) not in met), waiting[0])
                waiting.remove(second)
                met |= {(first.id, second.id), (second.id, first.id)}
                white, black = (first, second) if (board + number) % 2 else (second, first)
                game = Game.objects.create(round=rnd, board=board, white=white, black=black)
                result = _draw_result(rng, white.rating, black.rating)
                if number == 3 and board == 6:
                    result = Result.BLACK_WINS_FORFEIT
                result_record(game_id=game.pk, result=result, user=organiser, source=ResultChange.Source.DEMO)
                white_points = {"1-0": 1, "1/2-1/2": 0.5, "0-1": 0, "-/+": 0}[result]
                points[white.id] += white_points
                points[black.id] += 1 - white_points
                board += 1
        # two players share first on 2½ (£200 + £100 pooled, £150 each); the best under 2000 keeps the larger
        # third prize, so the U2000 prize passes to the two tied on 1 point below (£20 each)
        fund = PrizeFund.objects.create(event=event, currency="GBP", published=True)
        for place, amount in ((1, 20000), (2, 10000), (3, 5000)):
            Prize.objects.create(fund=fund, place=place, amount=amount)
        Prize.objects.create(
            fund=fund,
            kind=Prize.Kind.CATEGORY,
            category="U2000",
            eligibility_kind="rating_below",
            eligibility_value="2000",
            amount=4000,
        )

    def _team_cup(self, league, season, clubs, organiser):
        """Eight teams of two boards (two a club), seeded by rating; the quarter-finals played through the organiser's
        match cards, one of them 1-1 and decided by board count, so the semi-finals are made and wait."""
        event = Event.objects.create(
            league=league,
            season=season,
            name="Nordic–Aegean Cup",
            slug="demo-cup",
            kind=Event.Kind.TEAM,
            system=Event.System.KNOCKOUT,
            rounds_count=3,
            boards=2,
            status=Event.Status.PUBLISHED,
            starts_on=date(2026, 10, 15),
            tiebreak_criteria=["GPTS"],
        )
        number = 0
        for club, members in clubs:
            for suffix, players in ((" Cup A", members[0:2]), (" Cup B", members[4:6])):
                number += 1
                team = Team.objects.create(event=event, club=club, name=f"{club.name}{suffix}")
                for board, player in enumerate(players, start=1):
                    TeamMember.objects.create(team=team, player=player, board_order=board)
                Entry.objects.create(event=event, start_number=number, team=team)
        cup_draw(event=event, user=organiser, seeding=Cup.Seeding.RATING, days_between=14)
        # the home team's points on boards 1 and 2 of each quarter-final: 2-0, ½-1½, 1-1 (board count: home), 2-0
        for tie, home_points in zip(
            CupTie.objects.filter(cup__event=event, round_number=1), QUARTER_FINALS, strict=True
        ):
            if tie.match_id is None:
                raise RuntimeError("the draw made each tie's match")
            match = TeamMatch.objects.get(pk=tie.match_id)
            card: dict[int, tuple[str, int]] = {}
            for game in match.games.order_by("board"):
                home, home_white = home_points[game.board - 1], game.white_id == match.home_id
                result = (
                    Result.DRAW
                    if home == 0.5
                    else Result.WHITE_WINS
                    if (home == 1) == home_white
                    else Result.BLACK_WINS
                )
                card[game.pk] = (result, game.version)
            match_card_submit(  # the organiser's card is confirmed at once, and the last one makes the semi-finals
                match_id=match.pk, results=card, user=organiser, expected_version=0, source=ResultChange.Source.DEMO
            )

    def _bye(self, rnd, board, entry, result, organiser):
        game = Game.objects.create(round=rnd, board=board, white=entry)
        result_record(game_id=game.pk, result=result, user=organiser, source=ResultChange.Source.DEMO)


def _draw_result(rng, white_rating, black_rating):
    expected = 1 / (1 + 10 ** ((black_rating - white_rating) / 400))
    roll = rng.random()
    if roll < expected - 0.15:
        return Result.WHITE_WINS
    if roll < expected + 0.15:
        return Result.DRAW
    return Result.BLACK_WINS
