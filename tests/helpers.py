"""Helpers several test modules share: reading pages as a reader does, and small worlds to test in.

Test modules import these from here, never from one another."""

import html as html_lib
import re
from typing import TypeVar

from django.db import connection

from leagues.models import Event, Game, Prize, PrizeFund, Result, Role, StandingsSnapshot, TeamMatch
from leagues.recompute import store_snapshot
from leagues.services.match_cards import match_card_submit
from leagues.services.standings import event_engine_results, places_after_each_round, snapshot_fields
from tests.factories import (
    ClubFactory,
    ClubMembershipFactory,
    EntryFactory,
    EventFactory,
    GameFactory,
    PlayerFactory,
    RoleFactory,
    RoundFactory,
    SeasonFactory,
    StandingsSnapshotFactory,
    TeamFactory,
    TeamMatchFactory,
    TeamMemberFactory,
)

# ------------------------------------------------------------------------------------------- pages


def text_of(html):
    """The page as a reader sees it: tags dropped, entities decoded, spaces collapsed."""
    html = re.sub(r"(?s)<svg.*?</svg>", " ", html)
    html = re.sub(r"</?bdi[^>]*>", "", html)  # an isolate adds no space around a name or number
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", html)))


T = TypeVar("T")


def present(value: T | None) -> T:
    """`value`, which the test knows is there (for mypy: not None; the test fails when it is)."""
    assert value is not None
    return value


def search(pattern: str, text: str, flags: int = 0) -> re.Match[str]:
    """re.search for a test: what the pattern must find (the test fails when it is not there)."""
    found = re.search(pattern, text, flags)
    assert found is not None, f"{pattern!r} not found"
    return found


def another_connection_waits_for_a_lock() -> bool:
    """PostgreSQL shows another connection of this database waiting for a lock (a test's thread or server)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # inside a transaction the view keeps its first look
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        row = cursor.fetchone()
        return row is not None and row[0] > 0


def section(html, title):
    """The explanation block whose heading contains `title`."""
    for block in re.findall(r'<section class="explained".*?</section>', html, re.S):
        heading = re.search(r"<h3>(.*?)</h3>", block, re.S)
        assert heading is not None
        if title in text_of(heading.group(1)):
            return text_of(block)
    raise AssertionError(f"no explanation titled {title!r}")


# ------------------------------------------------------------------------------------------ events


def engine_snapshot(event, *, explain=True):
    """The event's standings computed now, as the recompute stores them once both its phases are done (snapshot
    fields; the rows' places after each round and the traces come with the second: explained_snapshot)."""
    result, tournament = event_engine_results(event)
    places = places_after_each_round(event, tournament) if tournament is not None else None
    return snapshot_fields(result.to_dict(explain=explain), places, tournament)


def explained_snapshot(event, version):
    """The event's snapshot of `version` once the recompute's second phase stored it (the explanation traces and
    each player's place after every round), else None (wait_until asks again)."""
    return StandingsSnapshot.objects.filter(event=event, version=version).exclude(explanations={}).first()


def team_match(boards=2):
    """A one-round team event: two clubs' teams, one match of `boards` games, a secretary per club."""
    home_club, away_club = ClubFactory(), ClubFactory()
    event = EventFactory(
        kind=Event.Kind.TEAM, system=Event.System.ROUND_ROBIN, rounds_count=1, boards=boards, tiebreak_criteria=["GPTS"]
    )
    sides = [
        EntryFactory(event=event, start_number=number, player=None, team=TeamFactory(event=event, club=club))
        for number, club in enumerate((home_club, away_club), start=1)
    ]
    rnd = RoundFactory(event=event)
    match = TeamMatchFactory(round=rnd, home=sides[0], away=sides[1])
    games = [
        GameFactory(
            round=rnd,
            match=match,
            board=b,
            white=sides[(b + 1) % 2],
            black=sides[b % 2],
            white_player=PlayerFactory(),
            black_player=PlayerFactory(),
        )
        for b in range(1, boards + 1)
    ]
    secretaries = [
        RoleFactory(kind=Role.Kind.SECRETARY, league=None, club=club).user for club in (home_club, away_club)
    ]
    return event, match, games, secretaries


def record_on_card(game, result, user, reason=""):
    """Record one board of a team match as results of team events are entered: on its match card (by
    `user`, who sees the current versions of the card and the game)."""
    match = TeamMatch.objects.get(pk=game.match_id)
    version = Game.objects.get(pk=game.pk).version
    return match_card_submit(
        match_id=match.pk,
        results={game.pk: (result, version)},
        user=user,
        expected_version=match.version,
        reason=reason,
    )


# ------------------------------------------------------------------------------------------- prizes


def player(name, points, values=None, **fields):
    """A standings line for `snapshot_event`: name, points, {criterion: value}, player fields."""
    return (name, points, values or {}, fields)


def snapshot_event(rows, criteria=("BH/C1",), version=1, **event_fields):
    """An event whose stored snapshot has `rows` (see `player`).

    Ranks are competition ranks: equal points and equal values share a rank, as the engine stores them.
    """
    event = EventFactory(tiebreak_criteria=list(criteria), results_version=version, **event_fields)
    snapshot_rows, previous = [], None
    for number, (name, points, values, player_fields) in enumerate(rows, start=1):
        rating = player_fields.pop("rating", 1800)
        club = player_fields.pop("club", None)
        person = PlayerFactory(name=name, rating=rating, **player_fields)
        if club is not None:
            ClubMembershipFactory(player=person, club=club)
        EntryFactory(event=event, start_number=number, player=person)
        key = (points, tuple(values.get(c) for c in criteria))
        rank = previous[1] if previous and previous[0] == key else number
        previous = (key, rank)
        snapshot_rows.append(
            {"rank": rank, "start_number": number, "name": name, "points": points, "values": dict(values)}
        )
    snapshot = StandingsSnapshotFactory(
        event=event, version=version, computed_at="2026-11-01T12:00Z", criteria=list(criteria), rows=snapshot_rows
    )
    return event, snapshot


def fund_with(event, places=(), categories=(), clubs=(), **options):
    """places: (place, amount[, item]); categories: (name, kind, value, amount[, rank[, item]]);
    clubs (best club team): (rank, amount, players counted[, item]).
    The organiser's order: the places, then the categories, then the club prizes, each as given."""
    fund = PrizeFund.objects.create(event=event, published=True, **options)
    for place, amount, *item in places:
        Prize.objects.create(fund=fund, place=place, amount=amount, item=item[0] if item else "", position=place)
    for position, (name, kind, value, amount, *rest) in enumerate(categories, start=1000):
        Prize.objects.create(
            fund=fund,
            kind=Prize.Kind.CATEGORY,
            category=name,
            eligibility_kind=kind,
            eligibility_value=value,
            amount=amount,
            rank=rest[0] if rest else 1,
            item=rest[1] if len(rest) > 1 else "",
            position=position,
        )
    for rank, amount, size, *item in clubs:
        Prize.objects.create(
            fund=fund,
            kind=Prize.Kind.CLUB_TEAM,
            rank=rank,
            amount=amount,
            team_size=size,
            item=item[0] if item else "",
            position=2000 + rank,
        )
    return fund


def played_swiss(players, rounds=3, **kwargs):
    """A running individual event of `players` (even) entries, `rounds` rounds played by the circle method
    (white wins on odd boards, draws on even ones) and its standings snapshot stored."""
    season = SeasonFactory()
    event = EventFactory(
        league=season.league,
        season=season,
        rounds_count=rounds + 2,
        status=Event.Status.RUNNING,
        results_version=1,
        **kwargs,
    )
    club = ClubFactory()
    entries = []
    for number in range(1, players + 1):
        player = PlayerFactory()
        ClubMembershipFactory(player=player, club=club)
        entries.append(EntryFactory(event=event, start_number=number, player=player))
    circle = entries[:]
    for number in range(1, rounds + 1):
        rnd = RoundFactory(event=event, number=number)
        for board in range(1, players // 2 + 1):
            white, black = circle[board - 1], circle[-board]
            result = Result.WHITE_WINS if board % 2 else Result.DRAW
            GameFactory(round=rnd, board=board, white=white, black=black, result=result)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    store_snapshot(event.pk, 1, engine_snapshot(event), 0)
    return event, entries


def played_division(teams, boards=2):
    """A team division of `teams` (even) teams, round 1 played and confirmed on `boards` boards, each
    team with a roster of `boards` players, and its standings snapshot stored."""
    event = EventFactory(
        kind=Event.Kind.TEAM,
        system=Event.System.ROUND_ROBIN,
        rounds_count=teams - 1,
        boards=boards,
        tiebreak_criteria=["GPTS"],
        status=Event.Status.RUNNING,
        results_version=1,
    )
    sides = []
    for number in range(1, teams + 1):
        team = TeamFactory(event=event)
        for board in range(1, boards + 1):
            TeamMemberFactory(team=team, board_order=board)
        sides.append(EntryFactory(event=event, start_number=number, player=None, team=team))
    rnd = RoundFactory(event=event)
    for home, away in zip(sides[: teams // 2], sides[teams // 2 :], strict=True):
        match = TeamMatchFactory(round=rnd, home=home, away=away, status=TeamMatch.Status.CONFIRMED)
        assert home.team is not None and away.team is not None
        for board, (white_member, black_member) in enumerate(
            zip(home.team.members.order_by("board_order"), away.team.members.order_by("board_order"), strict=True),
            start=1,
        ):
            pieces = [(home, white_member.player), (away, black_member.player)]
            (white, white_player), (black, black_player) = pieces if board % 2 else pieces[::-1]
            GameFactory(
                round=rnd,
                match=match,
                board=board,
                white=white,
                black=black,
                white_player=white_player,
                black_player=black_player,
                result=Result.WHITE_WINS,
            )
    store_snapshot(event.pk, 1, engine_snapshot(event), 0)
    return event, sides


# ------------------------------------------------------------------------------------------ FIDE's tools


def gacrux_team_pairing(event, number, folder, unpaired=()):
    """gacrux's C.04.6 pairing of round `number` (its pairing checker, ``-m fideteam``) from the site's TRF-26
    export of the event as it is stored: [(team with White on board 1, the other team), ...], (PAB team, 0) last.
    `unpaired`: the teams withdrawn for the round (not in the file: the checker is told with -u)."""
    import json
    import subprocess
    import sys

    from leagues.services.trf import event_export_trf

    path = folder / f"round-{number}.trf"
    path.write_text(event_export_trf(event=event), encoding="utf-8")
    args = ["-m", "fideteam", "-p", "-n", str(number), "-i", str(path), "-o", "-", "-F", "JSON", "-b", "utf-8"]
    if unpaired:
        args += ["-u", *map(str, unpaired)]
    run = subprocess.run([sys.executable, "-m", "gacrux.pairingchecker", *args], capture_output=True, text=True)
    answer = json.loads(run.stdout)
    assert answer["status"]["code"] == 0, answer["status"]
    return [tuple(pair) for pair in answer["pairingResult"]["pairs"]]
