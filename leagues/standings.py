"""Turn an event's stored results into the engine's input, and the engine's output into a snapshot."""

from collections import defaultdict
from fractions import Fraction

from tiebreaks.engine import compute_standings
from tiebreaks.engine.model import Participant, RoundEntry, Scoring, Tournament

from .models import TRF_CODES, Event, Game, Result


def scoring_for(event: Event) -> Scoring:
    return Scoring(win=Fraction(event.points_win), draw=Fraction(event.points_draw),
                   loss=Fraction(event.points_loss))


def tournament_for(event: Event, games, entries) -> Tournament:
    """Build the engine's crosstable from the event's games (pairings and byes)."""
    blocks: dict[int, dict[int, RoundEntry]] = defaultdict(dict)
    last_round = 0
    for game in games:
        if game.result == Result.PENDING:
            continue
        number = game.round.number
        last_round = max(last_round, number)
        white_code, black_code = TRF_CODES[game.result]
        if game.black_id is None:
            blocks[game.white_id][number] = RoundEntry(code=white_code)
            continue
        white_no, black_no = game.white.start_number, game.black.start_number
        blocks[game.white_id][number] = RoundEntry(code=white_code, opponent=black_no, colour="w")
        blocks[game.black_id][number] = RoundEntry(code=black_code, opponent=white_no, colour="b")
    participants = []
    for entry in entries:
        rounds = tuple(blocks[entry.id].get(r, RoundEntry(code="Z")) for r in range(1, last_round + 1))
        participants.append(
            Participant(start_number=entry.start_number, name=entry.name, rating=entry.rating, rounds=rounds)
        )
    return Tournament(
        participants=participants,
        total_rounds=event.rounds_count,
        scoring=scoring_for(event),
        name=event.name,
        round_robin=event.is_round_robin,
    )


def individual_standings(event: Event, games, entries) -> dict:
    tournament = tournament_for(event, games, entries)
    result = compute_standings(
        tournament, list(event.tiebreak_criteria), rules=event.rule_set,
        unrated_rating=event.unrated_rating, explain=True,
    )
    data = result.to_dict(explain=True)
    return {
        "rules": data["rules"],
        "criteria": data["criteria"],
        "rows": data["rows"],
        "notes": data.get("notes", []),
        "explanations": data.get("explanations", {}),
    }


def team_standings(event: Event, games, entries) -> dict:
    """Match points and game points of each team (team tiebreaks come with the team engine)."""
    scoring = scoring_for(event)
    match_points = {"win": Fraction(event.match_points_win), "draw": Fraction(event.match_points_draw),
                    "loss": Fraction(event.match_points_loss)}
    game_points: dict[int, dict[int, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
    finished: dict[int, bool] = {}
    for game in games:
        if game.match_id is None:
            continue
        match = game.match
        finished.setdefault(match.id, True)
        if game.result == Result.PENDING:
            finished[match.id] = False
            continue
        white_code, black_code = TRF_CODES[game.result]
        white_team, black_team = game.white_id, game.black_id
        game_points[match.id][white_team] += _code_points(white_code, scoring)
        game_points[match.id][black_team] += _code_points(black_code, scoring)
    totals = {e.id: {"mp": Fraction(0), "gp": Fraction(0), "played": 0} for e in entries}
    matches = {g.match_id: g.match for g in games if g.match_id}
    for match_id, done in finished.items():
        if not done:
            continue
        match = matches[match_id]
        home, away = match.home_id, match.away_id
        home_gp, away_gp = game_points[match_id][home], game_points[match_id][away]
        for team, own, other in ((home, home_gp, away_gp), (away, away_gp, home_gp)):
            totals[team]["gp"] += own
            totals[team]["played"] += 1
            outcome = "win" if own > other else "draw" if own == other else "loss"
            totals[team]["mp"] += match_points[outcome]
    primary, secondary = ("mp", "gp") if event.primary_score == Event.PrimaryScore.MATCH_POINTS else ("gp", "mp")
    ordered = sorted(entries, key=lambda e: (-totals[e.id][primary], -totals[e.id][secondary], e.start_number))
    rows, rank, previous = [], 0, None
    for index, entry in enumerate(ordered, start=1):
        key = (totals[entry.id][primary], totals[entry.id][secondary])
        if key != previous:
            rank, previous = index, key
        rows.append({
            "rank": rank, "team_number": entry.start_number, "name": entry.name,
            "points": float(totals[entry.id][primary]),
            "values": {"MPTS": float(totals[entry.id]["mp"]), "GPTS": float(totals[entry.id]["gp"])},
        })
    return {"rules": event.rule_set, "criteria": ["MPTS", "GPTS"] if primary == "mp" else ["GPTS", "MPTS"],
            "rows": rows, "notes": [], "explanations": {}}


def _code_points(code: str, scoring: Scoring) -> Fraction:
    if code in ("1", "+"):
        return scoring.win
    if code == "=":
        return scoring.draw
    if code == "?":
        return scoring.unknown_points
    return scoring.loss if code == "0" else scoring.absence


def compute_event_standings(event: Event) -> dict:
    entries = list(event.entries.select_related("player", "team").order_by("start_number"))
    games = list(
        Game.objects.filter(round__event=event).select_related("round", "match", "white", "black")
        .order_by("round__number", "board")
    )
    if event.is_team:
        return team_standings(event, games, entries)
    return individual_standings(event, games, entries)
