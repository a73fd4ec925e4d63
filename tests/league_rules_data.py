"""A season of two divisions for the league-rules tests, built through the organiser's services.

Division One (tests.workspace.division): Fjord SK 1 – Bosporus SK 1, round 1 on 2026-01-05, its card played:
Fjord's Player1 (1950) and Player2 (1900) appeared for Fjord SK 1. Division Two, same season and date: Fjord SK 2
(roster F4 1800, F5 1750, F6 1700; F6 the reserve and without a licence) – Bosporus SK 2 (B4 1500 and B5 1450,
B4 a woman, both licensed). Licences run until 31 December 2026, F6's until 31 December 2025; the ranking
lists: Fjord SK 1 Player1, Player2; Fjord SK 2 F4, F5 (F6 not nominated); Bosporus SK 2 B4, B5. The card under
test is Division Two's; the Fjord side names the players of each case below, Bosporus its roster.

Each case: the rule, its number, the Fjord line-up (board 1, board 2), the board the rule is broken at (None:
the whole card) and the sentence the secretary reads (English), worked out by hand from the figures above.
"""

from dataclasses import dataclass
from datetime import date

from leagues.models import Event, Player, Season, TeamMatch
from leagues.services.events import event_save, event_status_set
from leagues.services.match_cards import match_card_submit
from leagues.services.players import player_save
from leagues.services.ranking_lists import ranking_list_set
from leagues.services.schedule import fixtures_generate
from leagues.services.teams import roster_set, team_save
from tests.workspace import Division, division

P1, F4, F5, F6 = "Fjord, Player1", "Fjord, Four", "Fjord, Five", "Fjord, Six"
LICENCE_UNTIL = date(2026, 12, 31)

# kind: (value, (board 1, board 2) by name, broken at board, the sentence)
CASES = {
    "board_order": (
        30,
        (F5, F4),
        2,
        f"Board 2: {F4} is rated 50 points above {F5} on board 1; the league allows 30.",
    ),
    "fixed_order": (
        None,
        (F5, F4),
        2,
        f"Board 2: {F4} sits below {F5} (board 1), who comes after them in the team's board order.",
    ),
    "rating_cap": (3500, (F4, F5), None, "Fjord SK 2: the ratings on the card add up to 3550, above the cap of 3500."),
    "higher_team": (
        1,
        (P1, F5),
        1,
        f"Board 1: {P1} has played 1 time for a higher team of the club, so may no longer play for Fjord SK 2.",
    ),
    "max_apps": (
        1,
        (P1, F5),
        1,
        f"Board 1: {P1} has already played 1 match this season; the league allows 1.",
    ),
    "one_team": (None, (P1, F5), 1, f"Board 1: {P1} has already played for Fjord SK 1 this season."),
    "one_team_rd": (None, (P1, F5), 1, f"Board 1: {P1} is also named for Fjord SK 1 in this round."),
    "reserves": (0, (F4, F6), 2, f"Board 2: {F6} is a reserve beyond the 0 the league allows on a card."),
    "women": (1, (F4, F5), None, "Fjord SK 2: women on the card: 0; the league asks for at least 1."),
    "licence": (None, (F4, F6), 2, f"Board 2: {F6} has no licence (national federation ID) on record."),
    "licence_date": (
        None,
        (F4, F6),
        2,
        f"Board 2: the licence of {F6} ran out on 31 Dec 2025, before the match on 5 Jan 2026.",
    ),
    # Bosporus keeps both: B4 (board 1) is a woman, B5 the one man
    "woman_board": (1, (F4, F5), 1, f"Board 1 is reserved for a woman; {F4} is not on record as one."),
    "max_men": (1, (F4, F5), None, "Fjord SK 2: men on the card: 2; the league allows at most 1."),
    "ranking_list": (None, (F4, F6), 2, f"Board 2: {F6} is not on the club's ranking lists."),
}
# the rules CLEAN breaks too: a cap of 3500, and no woman on Fjord's side
BROKEN_BY_CLEAN = ("rating_cap", "women", "woman_board", "max_men")
# a line-up of the Fjord side that breaks none of the rules (with the Bosporus roster): F4, F5 licensed, in order,
# 3550 (under no cap but rating_cap's), no reserve
CLEAN = (F4, F5)


@dataclass
class Season2:
    d: Division  # Division One, its league, organiser and secretaries
    two: Event  # Division Two
    match: TeamMatch  # Division Two's card
    fjord_home: bool
    players: dict[str, Player]  # name -> Player

    def lineup(self, fjord: tuple[str, str]) -> dict[int, tuple[int, int]]:
        """{board: (home player id, away player id)}: the Fjord names given, Bosporus its roster."""
        bosporus = (self.players["Bosporus, Four"].pk, self.players["Bosporus, Five"].pk)
        lineup = {}
        for board in (1, 2):
            ours, theirs = self.players[fjord[board - 1]].pk, bosporus[board - 1]
            lineup[board] = (ours, theirs) if self.fjord_home else (theirs, ours)
        return lineup

    @property
    def fjord_side(self) -> str:
        return "home" if self.fjord_home else "away"


def season_of_two_divisions() -> Season2:
    d = division(boards=2)
    org = d.organiser
    season = Season.objects.create(league=d.league, name="2026", slug="2026", starts_on=date(2026, 1, 1))
    type(d.event).objects.filter(pk=d.event.pk).update(season=season)
    fjord, bosporus = d.clubs
    players = {p.name: p for club in d.clubs for p in d.players[club.slug]}
    for name, rating, club, extra in (
        (F4, 1800, fjord, {"national_id": "N-4", "licence_until": LICENCE_UNTIL}),
        (F5, 1750, fjord, {"national_id": "N-5", "licence_until": LICENCE_UNTIL}),
        (F6, 1700, fjord, {"licence_until": date(2025, 12, 31)}),
        ("Bosporus, Four", 1500, bosporus, {"national_id": "T-4", "sex": "w", "licence_until": LICENCE_UNTIL}),
        ("Bosporus, Five", 1450, bosporus, {"national_id": "T-5", "licence_until": LICENCE_UNTIL}),
    ):
        players[name] = player_save(
            league=d.league, user=org, fields={"name": name, "rating": rating, **extra}, club=club
        )
    two = event_save(
        league=d.league,
        user=org,
        fields={
            "name": "Division Two",
            "slug": "division-two",
            "kind": "team",
            "system": "rr",
            "rounds_count": 1,
            "boards": 2,
            "starts_on": date(2026, 1, 5),
        },
    )
    for club, name, roster, listed in (
        (fjord, "Fjord SK 2", [F4, F5, F6], [F4, F5]),
        (bosporus, "Bosporus SK 2", ["Bosporus, Four", "Bosporus, Five"], ["Bosporus, Four", "Bosporus, Five"]),
    ):
        team = team_save(event=two, user=org, club=club, name=name)
        roster_set(team=team, user=org, players=[players[n] for n in roster])
        ranking_list_set(team=team, user=org, players=[players[n] for n in listed])
    ranking_list_set(team=d.teams[0], user=org, players=d.players[fjord.slug][:2])
    fixtures_generate(event=two, user=org, starts_on=date(2026, 1, 5))
    two = event_status_set(event=type(two).objects.get(pk=two.pk), user=org, status="published")
    type(two).objects.filter(pk=two.pk).update(season=season)
    # Division One's card played: Fjord SK 1 with Player1 and Player2 (its roster's first two)
    one = d.match()
    games = {g.pk: ("1/2-1/2", g.version) for g in one.games.all()}
    match_card_submit(match_id=one.pk, results=games, user=org, expected_version=one.version)
    match = TeamMatch.objects.select_related("home__team").get(round__event=two)
    assert match.home.team is not None
    return Season2(d, two, match, match.home.team.club_id == fjord.pk, players)
