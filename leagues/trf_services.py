"""TRF import and export of an event: the import is one transaction, audited as source "import"."""

from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext as _

from tiebreaks.engine import EngineError, recommended_criteria
from tiebreaks.trf import TRFError, read_trf, write_trf

from .errors import PermissionDenied, ServiceError
from .models import Entry, Event, Game, League, Player, Result, ResultChange, Role, Round
from .services import result_record
from .standings import team_tournament_for, tournament_for

PAIR_RESULTS = {
    ("1", "0"): Result.WHITE_WINS, ("W", "L"): Result.WHITE_WINS,
    ("=", "="): Result.DRAW, ("D", "D"): Result.DRAW,
    ("0", "1"): Result.BLACK_WINS, ("L", "W"): Result.BLACK_WINS,
    ("+", "-"): Result.WHITE_WINS_FORFEIT, ("-", "+"): Result.BLACK_WINS_FORFEIT, ("-", "-"): Result.DOUBLE_FORFEIT,
    ("?", "?"): Result.UNKNOWN, ("X", "X"): Result.UNKNOWN,
}
BYE_RESULTS = {"U": Result.PAIRING_BYE, "F": Result.FULL_POINT_BYE, "H": Result.HALF_POINT_BYE,
               "Z": Result.ZERO_POINT_BYE, "A": Result.ABSENT, " ": Result.ABSENT, "": Result.ABSENT}


def event_import_trf(*, league: League, name: str, slug: str, data: bytes, user, season=None,
                     system: str | None = None) -> Event:
    """Create an individual event with its players, pairings and results from a TRF file.

    `system` (Event.System) overrides what the file says: many files do not record a round robin."""
    if not (user and user.is_authenticated and (
            user.is_superuser or Role.objects.filter(user=user, kind=Role.Kind.ORGANISER, league=league).exists())):
        raise PermissionDenied(_("Only the league's organiser may import events."))
    try:
        tournament = read_trf(data)
    except TRFError as exc:
        raise ServiceError(_("The file cannot be read: %(problem)s") % {"problem": exc}, code="bad_trf") from None
    if tournament.teams:
        raise ServiceError(_("Team tournaments cannot be imported from TRF yet; enter the division instead."),
                           code="team_trf")
    if Event.objects.filter(slug=slug).exists():
        raise ServiceError(_("An event with the address “%(slug)s” exists already.") % {"slug": slug},
                           code="slug_taken")
    if system is None:
        system = Event.System.ROUND_ROBIN if tournament.round_robin else Event.System.SWISS
    if system not in Event.System.values:
        raise ServiceError(_("Unknown pairing system “%(system)s”.") % {"system": system}, code="bad_system")
    kind = "swiss" if system == Event.System.SWISS else "round_robin"
    criteria = [c for c in (tournament.tiebreaks or recommended_criteria(kind)) if c.upper() != "PTS"]
    scoring = tournament.scoring
    with transaction.atomic():
        event = Event.objects.create(
            league=league, season=season, name=name, slug=slug, status=Event.Status.PUBLISHED,
            system=system,
            rounds_count=tournament.total_rounds, points_win=_decimal(scoring.win),
            points_draw=_decimal(scoring.draw), points_loss=_decimal(scoring.loss), tiebreak_criteria=criteria,
        )
        entries = {}
        for p in tournament.participants:
            player = Player.objects.filter(fide_id=int(p.fide_id)).first() if p.fide_id.strip("0 ") else None
            if player is None:
                player = Player.objects.create(name=p.name, rating=p.rating, sex=p.sex if p.sex in "mw" else "",
                                               fide_id=int(p.fide_id) if p.fide_id.strip("0 ") else None)
            entries[p.start_number] = Entry.objects.create(event=event, start_number=p.start_number, player=player,
                                                           rating=p.rating)
        played_rounds = max((len(p.rounds) for p in tournament.participants), default=0)
        for number in range(1, played_rounds + 1):
            rnd = Round.objects.create(event=event, number=number)
            board = 1
            for p in tournament.participants:
                if number > len(p.rounds):
                    continue
                block = p.rounds[number - 1]
                if block.opponent is None:
                    game = Game.objects.create(round=rnd, board=1000 + p.start_number, white=entries[p.start_number])
                    _record(game, BYE_RESULTS.get(block.code.strip(), Result.ABSENT), user)
                elif block.colour == "w" or (block.colour != "b" and p.start_number < block.opponent):
                    other = tournament.participants[block.opponent - 1].rounds[number - 1]
                    result = PAIR_RESULTS.get((block.code, other.code))
                    if result is None:
                        raise ServiceError(_("Round %(round)s, player %(player)s: result %(code)s cannot be stored.")
                                           % {"round": number, "player": p.start_number, "code": block.code},
                                           code="bad_trf")
                    game = Game.objects.create(round=rnd, board=board, white=entries[p.start_number],
                                               black=entries[block.opponent])
                    board += 1
                    _record(game, result, user)
        try:
            from .entry_services import compute_standings_check

            compute_standings_check(event, event.rule_set, criteria)
        except EngineError as exc:
            raise ServiceError(_("The file's tiebreak list is not valid: %(problem)s") % {"problem": exc},
                               code="bad_tiebreak_policy") from None
        return event


def _record(game: Game, result: str, user) -> None:
    result_record(game_id=game.pk, result=result, user=user, source=ResultChange.Source.IMPORT)


def _decimal(value: Fraction):
    from decimal import Decimal

    return Decimal(value.numerator) / Decimal(value.denominator)


def event_export_trf(*, event: Event) -> str:
    entries = list(event.entries.select_related("player", "team").prefetch_related("team__members")
                   .order_by("start_number"))
    games = list(Game.objects.filter(round__event=event).select_related("round", "match", "white", "black")
                 .order_by("round__number", "board"))
    build = team_tournament_for if event.is_team else tournament_for
    tournament = build(event, games, entries)
    tournament.tiebreaks = list(event.tiebreak_criteria)
    return write_trf(tournament)
