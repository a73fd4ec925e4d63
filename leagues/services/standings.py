"""Turn an event's stored results into the engine's input, and the engine's output into a snapshot."""

import threading
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from tiebreaks.engine import EngineError, compute_standings
from tiebreaks.engine.model import (
    ExternalValue,
    ManualOrder,
    Participant,
    Playoff,
    PlayoffGame,
    RoundEntry,
    Scoring,
    Team,
    Tournament,
    last_paired_round,
)
from tiebreaks.engine.ranking import Standings
from tiebreaks.engine.team import TeamStandings, compute_team_standings

from ..models import TRF_CODES, Entry, EntryRating, Event, Game, PairingSettings, Player, Result
from ..models.league import initials
from .ratings import TeamRatings
from .team_swiss import team_board_records, team_bye_records, team_pairing_records


def scoring_for(event: Event) -> Scoring:
    """The event's game scoring; the pairing-allocated bye is worth what the organiser set (default: a win)."""
    pab = PairingSettings.objects.filter(event_id=event.pk).values_list("pab_points", flat=True).first()
    return Scoring(
        win=Fraction(event.points_win),
        draw=Fraction(event.points_draw),
        loss=Fraction(event.points_loss),
        absence=Fraction(event.points_absence),
        pab=None if pab is None else Fraction(pab),
        unknown=None if event.points_unknown is None else Fraction(event.points_unknown),
    )


def tournament_for(event: Event, games: Iterable[Game], entries: Iterable[Entry]) -> Tournament:
    """Build the engine's crosstable from the event's games (pairings and byes)."""
    changes = ratings_from_rounds(event)
    return crosstable_for(
        event,
        map(_game_row, games),
        ((e.id, e.start_number, e.name, e.rating, changes.get(e.id, ())) for e in entries),
    )


def ratings_from_rounds(event: Event) -> dict[int, tuple[tuple[int, int | None], ...]]:
    """Each entry's newer ratings, (from round, rating) in round order, when a newer rating list applied during
    the event (entries without one are left out)."""
    out: dict[int, list[tuple[int, int | None]]] = defaultdict(list)
    for entry_id, from_round, rating in EntryRating.objects.filter(entry__event=event).values_list(
        "entry_id", "from_round", "rating"
    ):
        out[entry_id].append((from_round, rating))
    return {entry_id: tuple(sorted(changes)) for entry_id, changes in out.items()}


def ratings_by_round(
    first: int | None, changes: Sequence[tuple[int, int | None]], rounds: int
) -> tuple[int | None, ...]:
    """The rating in each of `rounds` rounds (index 0 = round 1): `first` until the first change, then each
    change from its round on; () when nothing changed."""
    if not changes:
        return ()
    out: list[int | None] = []
    current = first
    pending = list(changes)
    for number in range(1, rounds + 1):
        while pending and pending[0][0] <= number:
            current = pending.pop(0)[1]
        out.append(current)
    return tuple(out)


def _game_row(g: Game) -> tuple[Any, ...]:
    if g.white is None:
        raise RuntimeError("every game and bye of an individual event has white")
    return (g.round.number, g.result, g.white_id, g.black_id, g.white.start_number, g.black and g.black.start_number)


def crosstable_for(event: Event, games: Iterable[Sequence[Any]], entries: Iterable[Sequence[Any]]) -> Tournament:
    """The engine's crosstable from plain values: games as (round number, result, white entry id, black entry id
    or None, white start number, black start number) in round order, entries as (id, start number, name, rating,
    newer ratings as (from round, rating)[, title, federation]) in start-number order."""
    blocks: dict[int, dict[int, RoundEntry]] = defaultdict(dict)
    last_round = 0
    for number, result, white_id, black_id, white_no, black_no in games:
        if result == Result.PENDING:
            continue
        last_round = max(last_round, number)
        white_code, black_code = TRF_CODES[result]
        if black_id is None:
            blocks[white_id][number] = RoundEntry(code=white_code)
            continue
        if black_code is None:
            raise RuntimeError("a game, not a bye: both sides have a code")
        blocks[white_id][number] = RoundEntry(code=white_code, opponent=black_no, colour="w")
        blocks[black_id][number] = RoundEntry(code=black_code, opponent=white_no, colour="b")
    unplayed = RoundEntry(code="Z")
    participants = []
    numbers: dict[int, int] = {}
    for entry_id, start_number, name, rating, changes, *registry in entries:
        numbers[entry_id] = start_number
        title, federation = registry or ("", "")
        played = blocks.get(entry_id, {})
        rounds = tuple(played.get(r, unplayed) for r in range(1, last_round + 1))
        participants.append(
            Participant(
                start_number=start_number,
                name=name,
                rating=rating,
                rounds=rounds,
                round_ratings=ratings_by_round(rating, changes, max(event.rounds_count, last_round)),
                title=title,
                federation=federation,
            )
        )
    return Tournament(
        participants=participants,
        total_rounds=event.rounds_count,
        scoring=scoring_for(event),
        name=event.name,
        round_robin=event.is_round_robin,
        manual_orders=manual_orders_of(event, numbers),
        playoffs=playoffs_of(event, numbers),
        external_values=tuple(
            ExternalValue(
                numbers[v["entry"]],
                v["criterion"],
                Fraction(v["value"]),
                v.get("reason", ""),
                v.get("by", ""),
                v.get("on", ""),
                v.get("who", ""),
            )
            for v in event.tiebreak_external or []
            if v["entry"] in numbers
        ),
    )


def manual_orders_of(event: Event, numbers: dict[int, int]) -> tuple[ManualOrder, ...]:
    """The event's orders of players still tied (entry ids become start numbers; a removed entry is left out)."""
    return tuple(
        ManualOrder(
            tuple(numbers[e] for e in decision["entries"] if e in numbers),
            decision.get("reason", ""),
            decision.get("by", ""),
            decision.get("on", ""),
            decision.get("who", ""),
        )
        for decision in event.tiebreak_decisions or []
    )


def playoffs_of(event: Event, numbers: dict[int, int]) -> tuple[Playoff, ...]:
    """The event's play-offs, in the engine's terms (start numbers)."""
    return tuple(
        Playoff(
            playoff["place"],
            tuple(
                PlayoffGame(numbers[g["white"]], numbers[g["black"]], g["result"], bool(g.get("armageddon")))
                for g in playoff["games"]
                if g["white"] in numbers and g["black"] in numbers
            ),
        )
        for playoff in event.playoffs or []
    )


def criteria_with_decisions(event: Event, criteria: Sequence[str]) -> list[str]:
    """The tie-break list as the standings apply it: a play-off (PO) first, before the tie-breaks, for the places
    it decides; the orders of players still tied (MAN) after the whole list."""
    codes = [code for code in criteria if code.strip().upper() not in ("PTS", "PO", "MAN")]
    if event.playoffs:
        codes.insert(0, "PO")
    if event.tiebreak_decisions:
        codes.append("MAN")
    return codes


def _compute(event: Event, tournament: Tournament) -> Standings:
    return compute_standings(
        tournament,
        criteria_with_decisions(event, event.tiebreak_criteria),
        rules=event.rule_set,
        unrated_rating=event.unrated_rating,
        ratings_per_round=event.tiebreak_ratings == Event.TiebreakRatings.ROUND,
    )


def rank_by_tiebreaks(event: Event, tournament: Tournament) -> list[Participant]:
    """The players with their place by points and the event's tie-break list (the rank column of a TRF
    export, so another program reads the site's ranking); unranked before any result or without a list."""
    if not event.tiebreak_criteria or not any(p.rounds for p in tournament.participants):
        return tournament.participants
    try:
        places = _compute(event, tournament).ranks()
    except EngineError:
        return tournament.participants
    return [replace(p, rank=places.get(p.start_number)) for p in tournament.participants]


def snapshot_fields(
    data: dict[str, Any],
    places: dict[int, list[int | None]] | None = None,
    tournament: Tournament | None = None,
) -> dict[str, Any]:
    """The engine's output as a snapshot; with `tournament` (an individual event's crosstable, as plain_rows reads
    it), each row also carries the player's title, federation and rating at the start, as the standings show them,
    and with `places` the player's place after each round (with_round_places)."""
    fields = {
        key: data.get(key, default)
        for key, default in (("rules", ""), ("criteria", []), ("rows", []), ("notes", []), ("explanations", {}))
    }
    if tournament is not None:
        fields["rows"] = with_registry(fields["rows"], tournament)
    if places:
        fields["rows"] = with_round_places(fields["rows"], places)
    return fields


def with_round_places(rows: list[dict[str, Any]], places: dict[int, list[int | None]]) -> list[dict[str, Any]]:
    """The standings' rows, each with the player's place after each round (``round_places``,
    places_after_each_round), as a player's page reads them."""
    return [{**row, "round_places": places.get(row["start_number"], [])} for row in rows]


def with_registry(rows: list[dict[str, Any]], tournament: Tournament) -> list[dict[str, Any]]:
    registry: dict[int | None, dict[str, Any]] = {
        p.start_number: {"title": p.title, "federation": p.federation, "rating": p.rating}
        for p in tournament.participants
    }
    return [{**row, **registry.get(row.get("start_number"), {})} for row in rows]


def team_player_numbers(games: list[Game], entries: list[Entry]) -> tuple[dict[int, list[int]], dict[int, int]]:
    """Each team entry's players (its roster in board order, then who played for it off the roster) and each
    player's number in the event's TRF (entries in start-number order, their players in that order)."""
    members: dict[int, list[int]] = {}
    for e in entries:
        if e.team is None:
            raise RuntimeError("a team event's entries are teams")
        members[e.id] = [m.player_id for m in e.team.members.all()]
    player_team: dict[int, int] = {p: entry_id for entry_id, ps in members.items() for p in ps}
    for game in games:  # players who played without being on the roster still belong to their side
        for player_id, entry_id in ((game.white_player_id, game.white_id), (game.black_player_id, game.black_id)):
            if player_id and player_id not in player_team:
                if entry_id is None:
                    raise RuntimeError("a board's player plays for one of the two teams")
                members[entry_id].append(player_id)
                player_team[player_id] = entry_id
    number = {p: n for n, p in enumerate((p for e in entries for p in members[e.id]), start=1)}
    return members, number


def team_tournament_for(event: Event, games: list[Game], entries: list[Entry]) -> Tournament:
    """Board games as a crosstable of players, plus each team's members in board order (TRF 310)."""
    members, number = team_player_numbers(games, entries)
    blocks: dict[int, dict[int, RoundEntry]] = defaultdict(dict)
    last_round = 0
    for game in games:
        if game.result == Result.PENDING or (game.match_id is None and game.black_id is None):
            continue  # a team's bye (team Swiss) is a record of its own: team_bye_records
        r = game.round.number
        last_round = max(last_round, r)
        white_code, black_code = TRF_CODES[game.result]
        if black_code is None:
            raise RuntimeError("a board is a game, never a bye")
        white, black = game.white_player_id, game.black_player_id
        opponent_of_white = number[black] if black else None  # a board the other team left empty: no opponent,
        opponent_of_black = number[white] if white else None  # so no colour (as TRF writes "0000 - +")
        if white:
            blocks[white][r] = RoundEntry(code=white_code, opponent=opponent_of_white, colour="w" if black else None)
        if black:
            blocks[black][r] = RoundEntry(code=black_code, opponent=opponent_of_black, colour="b" if white else None)
    people = Player.objects.in_bulk(list(number))
    ratings = TeamRatings(event, set(number))  # each player's rating of the event, round by round
    rounds = max(event.rounds_count, last_round)
    participants = [
        Participant(
            start_number=n,
            name=people[p].public_name,
            rating=ratings.in_round(people[p], 1),
            rounds=tuple(blocks[p].get(r, RoundEntry(code="Z")) for r in range(1, last_round + 1)),
            round_ratings=ratings_by_round(ratings.in_round(people[p], 1), ratings.newer(people[p]), rounds),
        )
        for p, n in number.items()
    ]
    match_points = Scoring(
        win=Fraction(event.match_points_win),
        draw=Fraction(event.match_points_draw),
        loss=Fraction(event.match_points_loss),
    )
    return Tournament(
        participants=participants,
        total_rounds=event.rounds_count,
        scoring=scoring_for(event),
        name=event.name,
        round_robin=event.is_round_robin,
        match_scoring=match_points,
        teams=[
            Team(number=e.start_number, name=e.name, members=tuple(number[p] for p in members[e.id])) for e in entries
        ],
        extra_records=(
            *team_pairing_records(event),
            *team_bye_records(event, games),
            *team_board_records(games, number, members, {e.id: e.start_number for e in entries}, event.boards),
            *(  # a newer rating of a board's player from a round on, as an individual event's file writes it
                f"### rating from round {from_round}: {n:4d} {rating or 0:4d}"
                for p, n in number.items()
                for from_round, rating in ratings.newer(people[p])
            ),
        ),
    )


def team_standings(event: Event, games: list[Game], entries: list[Entry]) -> TeamStandings:
    tournament = team_tournament_for(event, games, entries)
    primary = "MP" if event.primary_score == Event.PrimaryScore.MATCH_POINTS else "GP"
    return compute_team_standings(tournament, list(event.tiebreak_criteria), rules=event.rule_set, primary=primary)


def event_engine_result(event: Event) -> Standings | TeamStandings:
    """The engine's standings of the event; explanations are computed when asked for."""
    if not event.is_team:
        return _compute(event, crosstable_for(event, *plain_rows(event)))
    entries = list(
        event.entries.select_related("player", "team").prefetch_related("team__members").order_by("start_number")
    )
    games = list(
        Game.objects.filter(round__event=event)
        .select_related("round", "match", "white", "black")
        .order_by("round__number", "board")
    )
    return team_standings(event, games, entries)


def event_engine_results(event: Event) -> tuple[Standings | TeamStandings, Tournament | None]:
    """The engine's standings of the event and, for an individual event, the crosstable they are computed from
    (places_after_each_round reads it; a team event's: None)."""
    if event.is_team:
        return event_engine_result(event), None
    tournament = crosstable_for(event, *plain_rows(event))
    return _compute(event, tournament), tournament


def places_after_each_round(
    event: Event, tournament: Tournament, standings: Standings | None = None
) -> dict[int, list[int | None]]:
    """Each player's place (start number -> [place after round 1, after round 2, ...]) after rounds 1..the last
    with a result, as a player's page plots them: the standings' rank (tied players share the first of their places)
    with the event's tie-breaks as they stood after that round alone (``--after-round``: later results, and the
    tie-break values they change, unknown then); None after a round the engine cannot rank. One standings per round:
    the recompute stores them with the explanation traces, after the standings (leagues/recompute.py), taking those
    it computed before where nothing they depend on changed (places_remembered). `standings`: the event's standings
    computed from `tournament`, which are those after its last paired round (not computed again)."""
    return _places_by_number(tournament, _ranks_after_rounds(event, tournament, standings, []))


def _ranks_after_rounds(
    event: Event, tournament: Tournament, standings: Standings | None, known: list[dict[int, int | None]]
) -> list[dict[int, int | None]]:
    """Each round's ranks (start number -> rank), those of the first rounds as `known`."""
    played = max((len(p.rounds) for p in tournament.participants), default=0)
    last = last_paired_round(p.rounds for p in tournament.participants) if tournament.rounds_computed is None else 0
    ranks = known[:played]
    for number in range(len(ranks) + 1, played + 1):
        try:
            if standings is not None and number == last:
                after = standings
            else:
                after = _compute(event, replace(tournament, rounds_computed=number))
            ranks.append(after.ranks())
        except EngineError:
            ranks.append({})
    return ranks


def _places_by_number(tournament: Tournament, ranks: list[dict[int, int | None]]) -> dict[int, list[int | None]]:
    return {p.start_number: [after.get(p.start_number) for after in ranks] for p in tournament.participants}


#: each event's ranks after each round as this process last computed them, with what they depend on: the event's
#: ranking settings and players, and each round's results (the engine reads a round's standings from the rounds
#: up to it only, tiebreaks/engine/crosstable.py)
_ranks_known: dict[int, tuple[tuple[Any, ...], list[tuple[Any, ...]], list[dict[int, int | None]]]] = {}
_ranks_known_lock = threading.Lock()
RANKS_KNOWN_EVENTS = 64


def places_remembered(event: Event, tournament: Tournament, standings: Standings) -> dict[int, list[int | None]]:
    """places_after_each_round, computing again only the rounds from the first whose results differ from those of
    this process's last computation for the event (a result of the round under way: none but that round's, which
    `standings` are). A change of the ranking settings or of a player computes every round again."""
    ranking = (
        criteria_with_decisions(event, event.tiebreak_criteria),
        event.rule_set,
        event.unrated_rating,
        event.tiebreak_ratings,
        replace(tournament, participants=[replace(p, rounds=()) for p in tournament.participants]),
    )
    played = max((len(p.rounds) for p in tournament.participants), default=0)
    people = tournament.participants
    results = [tuple(p.rounds[r] if r < len(p.rounds) else None for p in people) for r in range(played)]
    with _ranks_known_lock:
        known_ranking, known_results, known = _ranks_known.get(event.pk, ((), [], []))
    same = 0
    if known_ranking == ranking:
        while same < min(len(known), played) and known_results[same] == results[same]:
            same += 1
    ranks = _ranks_after_rounds(event, tournament, standings, known[:same])
    with _ranks_known_lock:
        _ranks_known.pop(event.pk, None)
        _ranks_known[event.pk] = (ranking, results, ranks)
        while len(_ranks_known) > RANKS_KNOWN_EVENTS:
            del _ranks_known[next(iter(_ranks_known))]
    return _places_by_number(tournament, ranks)


def plain_rows(event: Event, before_round: int | None = None) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """An individual event's games (of the rounds before `before_round`, if given) and entries as crosstable_for
    takes them, read as plain values (a big open's thousands of rows cost more to build as model objects than to
    read). The games' start numbers come from the entries read here, not from a join of the games to the entries,
    which PostgreSQL reads whole for a big event: every entry of the site, a recompute slowing as the site's history
    grows."""
    changes = ratings_from_rounds(event)
    entries = [
        (entry_id, number, initials(name) if anonymised else name, rating, changes.get(entry_id, ()), title, federation)
        for entry_id, number, name, anonymised, rating, title, federation in event.entries.order_by(
            "start_number"
        ).values_list(
            "id", "start_number", "player__name", "player__anonymised", "rating", "player__title", "player__federation"
        )
    ]
    number_of = {entry[0]: entry[1] for entry in entries}
    played = Game.objects.filter(round__event=event)
    if before_round is not None:
        played = played.filter(round__number__lt=before_round)
    games = [
        (rnd, result, white, black, number_of.get(white), number_of.get(black))
        for rnd, result, white, black in played.order_by("round__number", "board").values_list(
            "round__number", "result", "white_id", "black_id"
        )
    ]
    return games, entries
