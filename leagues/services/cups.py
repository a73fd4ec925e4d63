"""Knock-out cups (single elimination) of team events and of individual events: the draw, the advance from round to
round, and the decider game of a level tie. Every write is one transaction under the event's lock.

Decisions (documented for the pages and the organisers):

* The bracket has the next power of two places (12 teams: 16); the places left over are byes in round 1, given to
  the best seeds (12 teams: seeds 1-4). Seeds meet in the standard order (16 places: 1-16, 8-9, 4-13, 5-12,
  2-15, 7-10, 3-14, 6-11), so seeds 1 and 2 can meet only in the final. :func:`bracket_order` is pure.
* Seeding by rating: the team's rating at the start (its entry's) or else the average rating of the first players
  of its roster, one per board; then the start number. Seeding in the organiser's order: the start numbers in the
  order given (all of them), else the start numbers' order.
* An individual cup is drawn and advanced as a team cup, its players in the teams' places: seeded by rating (the
  entry's, else the player's) or in the organiser's order, byes to the top seeds. Its tie is one game, or a mini-match
  of the cup's ``games_per_tie`` games (the player higher in the bracket has White in the odd games), entered as any
  individual result (services/results.py calls :func:`cup_game_recorded`); no card to confirm. A level tie is decided
  by the cup's tie resolution among rating (the lower-rated player goes through) and the decider game, recorded as
  in a team cup. A tie's games are the games of its round between its two players (two players meet once a round).
* A tie is a team match with a card as in the divisions (services/match_cards.py); the team higher in the bracket
  is at home. A tie is decided once its card is confirmed with every board's result: by the game points; when
  level, by the cup's tie resolution, tried in its order: board count (board 1 weighs as many points as there are
  boards, the last board one), elimination from the bottom board (the bottom board's result is left out, then the
  next, until the teams differ), rating (the team whose players on the card have the lower average rating goes
  through) and the decider: a play-off or Armageddon game recorded on the card (an Armageddon draw sends Black's
  team through). When nothing in the list separates the teams the decider game decides.
* :func:`cup_advance` decides the ties of the current round it can; when all are decided it makes the next round's
  matches (winner of tie 2p-1 at home against the winner of tie 2p). A confirmed card (:func:`cup_card_confirmed`,
  called by services/match_cards.py) and a recorded decider advance the cup the same way, so the organiser clicks
  only for a decider game. A round's ties are looked at again at each advance until the next round is made: a
  corrected card counts until then.
* A card of an earlier round corrected after that (by the organiser, or a board defaulted under the league's rules)
  that changes who goes through: :func:`cup_card_corrected` makes the next round's match again with the new team
  while it has no result (its card reset, a CupTieChange audits it); once it has results, or when the correction
  leaves the match level, it is refused (409 ``later_round_paired``) unless the organiser keeps the bracket.
* The TRF export (services.trf) writes a cup as TRF-26 192 ``CUSTOM_TEAM_KNOCKOUT``; :func:`cup_trf_lines` gives
  the bracket TRF cannot hold as ``###`` lines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from fractions import Fraction

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import ConfirmationNeeded, PermissionDenied, ServiceError
from ..models import (
    Cup,
    CupTie,
    CupTieChange,
    Entry,
    Event,
    Game,
    Player,
    Result,
    ResultChange,
    Round,
    TeamMatch,
    TeamMember,
)
from ..page_cache import event_pages_changed_after_commit
from ..permissions import AnyUser, acting_user, can_manage_event, is_league_organiser
from ..selectors import cup_board_points
from .locking import event_lock
from .schedule import board_games

RESOLUTIONS = [choice.value for choice in Cup.Resolution]
#: what can decide a level tie of an individual cup (a game has no boards to count)
INDIVIDUAL_RESOLUTIONS = [Cup.Resolution.RATING.value, Cup.Resolution.DECIDER.value]


def bracket_size(teams: int) -> int:
    size = 1
    while size < teams:
        size *= 2
    return size


def bracket_rounds(teams: int) -> int:
    return max(bracket_size(teams).bit_length() - 1, 1)


def bracket_order(size: int) -> list[int]:
    """The seeds of a bracket of ``size`` places (a power of two) in bracket order: consecutive pairs meet in
    round 1 (8 places: 1, 8, 4, 5, 2, 7, 3, 6)."""
    order = [1]
    while len(order) < size:
        places = 2 * len(order)
        order = [seed for top in order for seed in (top, places + 1 - top)]
    return order


# --- the draw ---------------------------------------------------------------------------------------------------


def _seed_rating(entry: Entry, boards: int) -> float | None:
    """A team's or a player's rating for the seeding (the entry's, else the player's or the roster's average)."""
    if entry.rating:
        return float(entry.rating)
    if entry.team_id is None:
        return float(entry.player.rating) if entry.player and entry.player.rating else None
    ratings = [
        r
        for r in TeamMember.objects.filter(team__entry=entry)
        .order_by("board_order")
        .values_list("player__rating", flat=True)[:boards]
        if r
    ]
    return sum(ratings) / len(ratings) if ratings else None


def _seeded(event: Event, entries: list[Entry], seeding: str, order: list[int] | None) -> list[Entry]:
    if seeding == Cup.Seeding.RATING:
        ratings = {e.pk: _seed_rating(e, event.boards) for e in entries}
        return sorted(entries, key=lambda e: (-(ratings[e.pk] or 0), e.start_number))
    if not order:
        return sorted(entries, key=lambda e: e.start_number)
    by_number = {e.start_number: e for e in entries}
    if sorted(order) != sorted(by_number):
        raise ServiceError(
            _("The seeding order must name every team or player once, by start number."),
            code="bad_order",
        )
    return [by_number[number] for number in order]


def _cup_is_played(event: Event) -> bool:
    if Game.objects.filter(round__event=event).exclude(result=Result.PENDING).exists():
        return True
    if ResultChange.objects.filter(game__round__event=event).exists():
        return True
    return TeamMatch.objects.filter(round__event=event).exclude(status=TeamMatch.Status.SCHEDULED).exists()


def _rosters(entries: list[Entry]) -> dict[int, list[Player]]:
    """The teams' players in board order (nothing for players: an individual cup's entries have no roster)."""
    return {
        entry.pk: [
            m.player
            for m in TeamMember.objects.filter(team__entry=entry).select_related("player").order_by("board_order")
        ]
        for entry in entries
        if entry.team_id is not None
    }


def _tie_games(event: Event, rnd: Round, tie: CupTie, rosters: dict[int, list[Player]]) -> list[Game]:
    """A tie's games, not saved: a team cup's boards of its match; an individual cup's ``games_per_tie`` games, the
    player higher in the bracket with White in the odd ones (boards numbered on from the ties before)."""
    home, away = tie.home, tie.away
    if away is None:
        raise RuntimeError("a bye has no games")
    if tie.match is not None:
        return board_games(event, rnd, tie.match, home, away, rosters)
    count = tie.cup.games_per_tie
    return [
        Game(
            round=rnd,
            board=(tie.position - 1) * count + number,
            white=home if number % 2 else away,
            black=away if number % 2 else home,
        )
        for number in range(1, count + 1)
    ]


def _tie_made(event: Event, rnd: Round, tie: CupTie, rosters: dict[int, list[Player]]) -> list[Game]:
    """Save a tie of two teams or players (a team cup's with its match card) and answer its games, not saved."""
    if tie.away is None:
        raise RuntimeError("a bye is saved as it is drawn")
    if event.is_team:
        tie.match = TeamMatch.objects.create(round=rnd, home=tie.home, away=tie.away)
    tie.save()
    return _tie_games(event, rnd, tie, rosters)


def tie_games(event: Event, tie: CupTie) -> list[Game]:
    """The games of a tie, in board order: its match's boards, or the games of its round between its two players."""
    games = Game.objects.filter(round__event=event, round__number=tie.round_number)
    if tie.match_id is not None:
        games = games.filter(match_id=tie.match_id)
    else:
        games = games.filter(match__isnull=True, white_id__in=(tie.home_id, tie.away_id)).filter(
            black_id__in=(tie.home_id, tie.away_id)
        )
    return list(
        games.select_related("white_player", "black_player", "white__player", "black__player").order_by("board")
    )


def _knockout_event(event_id: int) -> Event:
    event_lock(event_id)
    event: Event = Event.objects.select_for_update().get(pk=event_id)
    if not event.is_knockout:
        raise ServiceError(_("This event is not a knock-out cup."), code="not_knockout")
    if event.status == Event.Status.FINISHED:
        raise ServiceError(_("The event is finished; its cup can no longer change."), code="event_finished")
    return event


def cup_draw(
    *,
    event: Event,
    user: AnyUser,
    seeding: str = Cup.Seeding.RATING,
    tie_resolution: list[str] | None = None,
    order: list[int] | None = None,
    starts_on: date | None = None,
    days_between: int = 7,
    games_per_tie: int = 1,
) -> Cup:
    """Draw the cup: seeds, round 1's matches and byes, and every round with its date. An unplayed draw is drawn
    again. ``games_per_tie``: the games of a tie of an individual cup (a team cup's tie is its match). Raises
    PermissionDenied (not the league's organiser) or ServiceError, and then nothing was written: ``not_knockout``,
    ``event_finished``, ``cup_played``, ``too_few_teams``, ``bad_seeding``, ``bad_tie_resolution``, ``bad_order``,
    ``bad_days_between``, ``bad_games_per_tie``."""
    if not is_league_organiser(user, event.league_id):
        raise PermissionDenied(_("Only the league's organisers may draw the cup."))
    if seeding not in Cup.Seeding.values:
        raise ServiceError(_("Seeding of the cup: by rating or in your order."), code="bad_seeding")
    allowed = RESOLUTIONS if event.is_team else INDIVIDUAL_RESOLUTIONS
    default = ["board_count", "decider"] if event.is_team else ["decider"]
    resolution = list(tie_resolution) if tie_resolution is not None else default
    if any(code not in allowed for code in resolution) or len(set(resolution)) != len(resolution):
        message = (
            _("The tie resolution lists each of board count, bottom board, rating and decider at most once.")
            if event.is_team
            else _("The tie resolution of an individual cup lists each of rating and decider at most once.")
        )
        raise ServiceError(message, code="bad_tie_resolution")
    if games_per_tie < 1 or (event.is_team and games_per_tie != 1) or games_per_tie > 20:
        raise ServiceError(
            _("A tie of an individual cup has 1 to 20 games; a team cup's tie is its match."), code="bad_games_per_tie"
        )
    if Cup.Resolution.DECIDER not in resolution:
        resolution.append(Cup.Resolution.DECIDER)  # the last resort, always
    if days_between < 0:
        raise ServiceError(_("The days between rounds cannot be negative."), code="bad_days_between")
    with transaction.atomic():
        event = _knockout_event(event.pk)
        if _cup_is_played(event):
            raise ServiceError(
                _("Results have already been recorded; the cup can no longer be drawn again."), code="cup_played"
            )
        entries = list(
            Entry.objects.filter(
                event=event, **({"team__isnull": False} if event.is_team else {"player__isnull": False})
            )
            .select_related("team", "player")
            .order_by("start_number")
        )
        if len(entries) < 2:
            raise ServiceError(_("A cup needs at least two teams or players."), code="too_few_teams")
        seeds = _seeded(event, entries, seeding, order)
        Cup.objects.filter(event=event).delete()
        venues = dict(Round.objects.filter(event=event).values_list("number", "venue"))  # the organiser's, kept
        Round.objects.filter(event=event).delete()  # unplayed: its matches and games go with it
        cup = Cup.objects.create(
            event=event, seeding=seeding, tie_resolution=resolution, games_per_tie=games_per_tie,
            drawn_by=acting_user(user),
        )  # fmt: skip
        first_day = starts_on or event.starts_on
        rounds_count = bracket_rounds(len(seeds))
        rounds = {}
        for number in range(1, rounds_count + 1):
            day = first_day + timedelta(days=days_between * (number - 1)) if first_day else None
            rounds[number] = Round.objects.create(event=event, number=number, date=day, venue=venues.get(number, ""))
        order_of_seeds = bracket_order(bracket_size(len(seeds)))
        rosters = _rosters(entries)
        games: list[Game] = []
        for position in range(1, len(order_of_seeds) // 2 + 1):
            top, bottom = order_of_seeds[2 * position - 2], order_of_seeds[2 * position - 1]
            high, low = min(top, bottom), max(top, bottom)
            home = seeds[high - 1]
            if low > len(seeds):
                CupTie.objects.create(
                    cup=cup,
                    round_number=1,
                    position=position,
                    home=home,
                    home_seed=high,
                    winner=home,
                    decided_by=CupTie.DecidedBy.BYE,
                )
                continue
            tie = CupTie(cup=cup, round_number=1, position=position, home=home, away=seeds[low - 1],
                         home_seed=high, away_seed=low)  # fmt: skip
            games.extend(_tie_made(event, rounds[1], tie, rosters))
        Game.objects.bulk_create(games)
        Event.objects.filter(pk=event.pk).update(rounds_count=rounds_count)
        event_pages_changed_after_commit(event_id=event.pk)
    return cup


# --- deciding a tie -----------------------------------------------------------------------------------------------


def _average_rating(games: list[Game], home_side: bool, home_id: int) -> Fraction | None:
    ratings = []
    for game in games:
        home_white = game.white_id == home_id
        player = game.white_player if home_white == home_side else game.black_player
        if player is not None and player.rating:
            ratings.append(player.rating)
    return Fraction(sum(ratings), len(ratings)) if ratings else None


def _decider_winner(tie: CupTie) -> int | None:
    if not tie.decider_result or tie.decider_white_id is None:
        return None
    white = tie.decider_white_id
    black = tie.away_id if white == tie.home_id else tie.home_id
    if tie.decider_result == CupTie.DeciderResult.WHITE_WINS:
        return white
    if tie.decider_result == CupTie.DeciderResult.BLACK_WINS:
        return black
    return black if tie.decider_armageddon else None  # Armageddon: a draw sends Black through


@dataclass
class Outcome:
    winner_id: int | None
    decided_by: str = ""
    waiting: str = ""  # why not decided: "card" (not confirmed or boards without result), "decider"


def tie_outcome(event: Event, cup: Cup, tie: CupTie) -> Outcome:
    """Who goes through, by what; or what the tie waits for."""
    if tie.away_id is None:
        return Outcome(tie.home_id, CupTie.DecidedBy.BYE)
    waiting = "card" if event.is_team else "games"
    if event.is_team and (tie.match is None or tie.match.status != TeamMatch.Status.CONFIRMED):
        return Outcome(None, waiting=waiting)
    games = tie_games(event, tie)
    points = cup_board_points(event, tie.home_id, games)
    if points is None:
        return Outcome(None, waiting=waiting)
    winner = _ahead(tie, sum(p[0] for p in points), sum(p[1] for p in points))
    if winner:
        return Outcome(winner, CupTie.DecidedBy.SCORE)
    for rule in cup.tie_resolution:
        if rule == Cup.Resolution.DECIDER:
            winner = _decider_winner(tie)
            if winner is None:
                return Outcome(None, waiting="decider")
        else:
            resolution = _RESOLUTIONS.get(rule)
            winner = resolution(event, tie, games, points) if resolution else None
        if winner:
            return Outcome(winner, rule)
    return Outcome(None, waiting="decider")


def _ahead(
    tie: CupTie, home: Fraction | float | None, away: Fraction | float | None, lower_wins: bool = False
) -> int | None:
    """The side ahead on these figures (the lower one with `lower_wins`), None when level or unknown."""
    if home is None or away is None or home == away:
        return None
    return tie.home_id if (home > away) != lower_wins else tie.away_id


_BoardPoints = list[tuple[Fraction, Fraction]]


def _by_board_count(event: Event, tie: CupTie, games: list[Game], points: _BoardPoints) -> int | None:
    """Board count: board 1 of n boards weighs n, the last board 1."""
    boards = len(points)
    weight = [boards - i for i in range(boards)]
    return _ahead(
        tie,
        sum(w * p[0] for w, p in zip(weight, points, strict=True)),
        sum(w * p[1] for w, p in zip(weight, points, strict=True)),
    )


def _by_bottom_board(event: Event, tie: CupTie, games: list[Game], points: _BoardPoints) -> int | None:
    """Elimination from the bottom board: the last board left out, then the last two, down to board 1 alone."""
    for kept in range(len(points) - 1, 0, -1):
        winner = _ahead(tie, sum(p[0] for p in points[:kept]), sum(p[1] for p in points[:kept]))
        if winner:
            return winner
    return None


def _by_rating(event: Event, tie: CupTie, games: list[Game], points: _BoardPoints) -> int | None:
    """The lower rating goes through: a team's average on the card, a player's own seeding rating."""
    if event.is_team:
        home_rating = _average_rating(games, True, tie.home_id)
        away_rating = _average_rating(games, False, tie.home_id)
        return _ahead(tie, home_rating, away_rating, lower_wins=True)
    return _ahead(tie, _seed_rating(tie.home, 1), _seed_rating(tie.away, 1), lower_wins=True)  # type: ignore[arg-type]


#: how each rule but the decider game separates a tie level on game points (Cup.Resolution)
_RESOLUTIONS: dict[str, Callable[[Event, CupTie, list[Game], _BoardPoints], int | None]] = {
    Cup.Resolution.BOARD_COUNT: _by_board_count,
    Cup.Resolution.BOTTOM_BOARD: _by_bottom_board,
    Cup.Resolution.RATING: _by_rating,
}


# --- advancing --------------------------------------------------------------------------------------------------


@dataclass
class Progress:
    """What an advance did: the round looked at, the ties still waiting (tie, "card" or "decider"), whether the next
    round's matches were made, and the cup's winner once the final is decided."""

    round_number: int
    waiting: list[tuple[CupTie, str]] = field(default_factory=list)
    next_round_made: bool = False
    champion: Entry | None = None


def current_round(cup: Cup) -> int:
    """The last round that has ties (its next round is not made yet)."""
    return max((t.round_number for t in cup.ties.all()), default=1)


def _advance(event: Event, cup: Cup) -> Progress:
    number = current_round(cup)
    ties = list(cup.ties.filter(round_number=number).select_related("match", "home", "away").order_by("position"))
    progress = Progress(round_number=number)
    for tie in ties:
        outcome = tie_outcome(event, cup, tie)
        if (tie.winner_id, tie.decided_by) != (outcome.winner_id, outcome.decided_by):
            tie.winner_id, tie.decided_by = outcome.winner_id, outcome.decided_by
            tie.save(update_fields=["winner", "decided_by"])
        if outcome.winner_id is None:
            progress.waiting.append((tie, outcome.waiting))
    if progress.waiting:
        return progress
    if len(ties) == 1:  # the final
        progress.champion = Entry.objects.select_related("team").get(pk=ties[0].winner_id or 0)
        return progress
    rnd = Round.objects.get(event=event, number=number + 1)
    winners = Entry.objects.in_bulk([t.winner_id for t in ties])
    rosters = _rosters(list(winners.values()))
    games: list[Game] = []
    for position in range(1, len(ties) // 2 + 1):
        upper, lower = ties[2 * position - 2], ties[2 * position - 1]
        home, away = winners[upper.winner_id], winners[lower.winner_id]
        tie = CupTie(cup=cup, round_number=number + 1, position=position, home=home, away=away,
                     home_seed=_seed_of(upper, home.pk), away_seed=_seed_of(lower, away.pk))  # fmt: skip
        games.extend(_tie_made(event, rnd, tie, rosters))
    Game.objects.bulk_create(games)
    progress.next_round_made = True
    return progress


def _seed_of(tie: CupTie, entry_id: int) -> int:
    """The seed the tie's winner came with (a team that won a tie played in it: its seed is known)."""
    return tie.home_seed if tie.home_id == entry_id else int(tie.away_seed or 0)


def cup_advance(*, event: Event, user: AnyUser) -> Progress:
    """Decide the current round's ties from their confirmed cards and, when all are decided, make the next round's
    matches. Raises PermissionDenied (not the organiser or the event's arbiter) or ServiceError (``not_drawn``,
    and those of the draw's event checks); a round still waiting is no error: the answer names its ties."""
    if not can_manage_event(user, event):
        raise PermissionDenied(_("Only the league's organiser or the event's arbiter may advance the cup."))
    with transaction.atomic():
        event = _knockout_event(event.pk)
        cup = Cup.objects.filter(event=event).first()
        if cup is None:
            raise ServiceError(_("The cup is not drawn yet."), code="not_drawn")
        progress = _advance(event, cup)
        event_pages_changed_after_commit(event_id=event.pk)
    return progress


def cup_card_confirmed(match: TeamMatch) -> None:
    """A card was confirmed (in the card's transaction, its event locked): a cup's tie of the current round is
    decided at once, and the round's last decided tie makes the next round's matches, with no click of the organiser.
    Nothing for a match of any other event (no query: the card's event is at hand)."""
    event = match.round.event
    if not event.is_knockout or match.status != TeamMatch.Status.CONFIRMED or event.status == Event.Status.FINISHED:
        return
    cup = Cup.objects.filter(event=event).first()
    if cup is None or not CupTie.objects.filter(cup=cup, match=match, round_number=current_round(cup)).exists():
        return
    _advance(event, cup)
    event_pages_changed_after_commit(event_id=event.pk)


def cup_decider_record(
    *,
    match_id: int | None = None,
    tie_id: int | None = None,
    user: AnyUser,
    white: str,
    result: str,
    armageddon: bool,
    white_player_id: int | None = None,
    black_player_id: int | None = None,
) -> tuple[CupTie, Progress]:
    """Record the decider game (a play-off, or Armageddon) of a level tie, then advance the cup: a team cup's on its
    match's card (``match_id``), an individual cup's on its tie (``tie_id``). ``white`` is "home" or "away" (the team
    or player higher or lower in the bracket had White). Raises PermissionDenied or ServiceError, and then
    nothing was written: ``not_cup_match``, ``round_closed`` (the next round is made), ``card_not_confirmed``,
    ``not_level`` (the card or the cup's rules before the decider decide the match), ``bad_result`` (a draw decides
    only an Armageddon game), ``bad_side``, ``player_not_in_team``."""
    ties = CupTie.objects.filter(match_id=match_id) if match_id is not None else CupTie.objects.filter(pk=tie_id or 0)
    tie = ties.exclude(away__isnull=True).select_related("cup__event").first()
    if tie is None:
        raise ServiceError(_("This match is not a tie of a knock-out cup."), code="not_cup_match")
    event_id = tie.cup.event_id
    if not can_manage_event(user, tie.cup.event):
        raise PermissionDenied(_("Only the league's organiser or the event's arbiter may record the decider."))
    if white not in ("home", "away"):
        raise ServiceError(_("Say which team had White: home or away."), code="bad_side")
    if result not in CupTie.DeciderResult.values:
        raise ServiceError(_("Record the decider's result: 1-0, ½-½ or 0-1."), code="bad_result")
    if result == CupTie.DeciderResult.DRAW and not armageddon:
        raise ServiceError(
            _("A drawn play-off game decides nothing: record the game that has a winner, or an Armageddon game."),
            code="bad_result",
        )
    with transaction.atomic():
        event = _knockout_event(event_id)
        tie = (
            CupTie.objects.select_for_update(of=("self",)).select_related("cup", "match", "home", "away").get(pk=tie.pk)
        )
        if tie.round_number != current_round(tie.cup):
            raise ServiceError(_("The next round is made; this tie can no longer change."), code="round_closed")
        white_entry = tie.home if white == "home" else tie.away
        black_entry = tie.away if white == "home" else tie.home
        if white_entry is None or black_entry is None:
            raise RuntimeError("a tie with a match has two teams")
        for player_id, entry in ((white_player_id, white_entry), (black_player_id, black_entry)):
            if player_id is None:
                continue
            if event.is_team and not TeamMember.objects.filter(team__entry=entry, player_id=player_id).exists():
                raise ServiceError(
                    _("The decider's player must be on %(team)s's roster.") % {"team": entry.name},
                    code="player_not_in_team",
                )
            if not event.is_team and player_id != entry.player_id:
                raise ServiceError(_("The decider is played by the tie's two players."), code="player_not_in_team")
        before = tie_outcome(event, tie.cup, _without_decider(tie))
        if before.waiting == "card":
            raise ServiceError(
                _("The decider is recorded once the match card is confirmed with every board's result."),
                code="card_not_confirmed",
            )
        if before.waiting == "games":
            raise ServiceError(
                _("The decider is recorded once every game of the tie has its result."), code="card_not_confirmed"
            )
        if before.waiting != "decider":
            raise ServiceError(_("This match is decided without a decider game."), code="not_level")
        tie.decider_white = white_entry
        tie.decider_white_player_id, tie.decider_black_player_id = white_player_id, black_player_id
        tie.decider_result, tie.decider_armageddon = result, armageddon
        tie.decider_by, tie.decider_at = acting_user(user), timezone.now()
        tie.save()
        progress = _advance(event, tie.cup)
        event_pages_changed_after_commit(event_id=event.pk)
    tie.refresh_from_db()
    return tie, progress


def _without_decider(tie: CupTie) -> CupTie:
    copy = CupTie(**{f.attname: getattr(tie, f.attname) for f in CupTie._meta.concrete_fields})
    copy.decider_result = ""
    copy.match = tie.match
    return copy


# --- a card of an earlier round corrected ---------------------------------------------------------------------


def cup_card_corrected(match: TeamMatch, *, user: AnyUser, reason: str, later_pairing: str = "") -> None:
    """A card (or a board defaulted under the league's rules) changed after the next round was made (in the card's
    transaction, its event locked). When the correction changes who goes through that tie, the next round's match
    is made again with the new team while it has no result (its card reset: lineup, status, submitted and
    confirmed; the change audited as a CupTieChange); once it has results the correction is refused with
    ConfirmationNeeded ``later_round_paired`` unless ``later_pairing`` is "keep" (the bracket stays as it is). A
    correction that leaves the match level (the decider decides it, and the decider is closed once the next round is
    made) is refused the same way. Nothing for the current round (cup_card_confirmed decides it) or another event."""
    event = match.round.event
    if not event.is_knockout or event.status == Event.Status.FINISHED:
        return
    tie = CupTie.objects.filter(match=match).select_related("cup", "match").first()
    if tie is not None:
        _tie_corrected(event, tie, user=user, reason=reason, later_pairing=later_pairing)


def cup_game_recorded(game: Game, *, user: AnyUser, reason: str, later_pairing: str = "") -> None:
    """A game of an individual cup got its result, or was corrected (in the result's transaction, its event locked):
    a tie of the current round is decided, and the round's last decided tie makes the next round, as a confirmed
    card does in a team cup; a tie of an earlier round is corrected as :func:`cup_card_corrected` says. Nothing for a
    game of any other event."""
    event = game.round.event
    if not event.is_knockout or event.is_team or event.status == Event.Status.FINISHED:
        return
    cup = Cup.objects.filter(event=event).first()
    pair = (game.white_id, game.black_id)
    tie = (
        CupTie.objects.filter(cup=cup, round_number=game.round.number, home_id__in=pair, away_id__in=pair)
        .select_related("cup", "home__player", "away__player")
        .first()
    )
    if cup is None or tie is None:
        return
    if tie.round_number == current_round(cup):
        _advance(event, cup)
        event_pages_changed_after_commit(event_id=event.pk)
    else:
        _tie_corrected(event, tie, user=user, reason=reason, later_pairing=later_pairing)


def _tie_corrected(event: Event, tie: CupTie, *, user: AnyUser, reason: str, later_pairing: str) -> None:
    """A tie of an earlier round corrected: the next round's tie made again with the new winner, or refused."""
    if tie.round_number == current_round(tie.cup) or later_pairing == "keep":
        return
    outcome = tie_outcome(event, tie.cup, tie)
    if outcome.winner_id == tie.winner_id:
        if outcome.decided_by != tie.decided_by:
            tie.decided_by = outcome.decided_by
            tie.save(update_fields=["decided_by"])
        return
    upper = tie.position % 2 == 1  # the winner of tie 2p-1 is at home in tie p of the next round
    following = (
        CupTie.objects.select_for_update(of=("self",))
        .select_related("match")
        .get(cup=tie.cup, round_number=tie.round_number + 1, position=(tie.position + 1) // 2)
    )
    made = tie_games(event, following)
    played = any(g.result != Result.PENDING for g in made)
    if outcome.winner_id is None:
        message = _(
            "After this correction the match is level and only a decider game could settle it, but round "
            "%(next)s of the cup is made already. Confirm to keep the bracket as it is (%(team)s stays through)."
        )
        raise ConfirmationNeeded(
            message % {"next": following.round_number, "team": _entry_name(tie.winner_id)}, code="later_round_paired"
        )
    if played:
        message = _(
            "This correction sends %(new)s through instead of %(old)s, but their match in round %(next)s of the cup "
            "has results already, so it cannot be made again. Confirm to keep the bracket as it is (%(old)s stays "
            "through)."
        )
        raise ConfirmationNeeded(
            message
            % {
                "new": _entry_name(outcome.winner_id),
                "old": _entry_name(tie.winner_id),
                "next": following.round_number,
            },
            code="later_round_paired",
        )
    before = tie.winner_id
    if before is None:
        raise RuntimeError("the tie was decided: the next round is made")
    tie.winner_id, tie.decided_by = outcome.winner_id, outcome.decided_by
    tie.save(update_fields=["winner", "decided_by"])
    new = Entry.objects.select_related("team").get(pk=outcome.winner_id)
    if upper:
        following.home, following.home_seed = new, _seed_of(tie, new.pk)
    else:
        following.away, following.away_seed = new, _seed_of(tie, new.pk)
    Game.objects.filter(pk__in=[g.pk for g in made]).delete()
    following.save(update_fields=["home", "home_seed", "away", "away_seed"])
    home, away = following.home, following.away
    if away is None:
        raise RuntimeError("the next tie has two sides")
    nxt = following.match
    if nxt is not None:  # a team cup's card starts again
        nxt.home, nxt.away = home, away
        nxt.status = TeamMatch.Status.SCHEDULED
        nxt.submitted_by = nxt.submitted_at = nxt.confirmed_by = nxt.confirmed_at = None
        nxt.dispute_reason = ""
        nxt.version += 1
        nxt.save()
    rnd = Round.objects.get(event=event, number=following.round_number)
    Game.objects.bulk_create(_tie_games(event, rnd, following, _rosters([home, away])))
    CupTieChange.objects.create(
        tie=following, user=acting_user(user), before_id=before, after=new, reason=reason.strip()[:300]
    )
    event_pages_changed_after_commit(event_id=event.pk)


def _entry_name(entry_id: int | None) -> str:
    entry = Entry.objects.select_related("team").filter(pk=entry_id or 0).first()
    return entry.name if entry else "?"


# --- the TRF export -------------------------------------------------------------------------------------------


def cup_trf_lines(event: Event) -> list[str]:
    """What TRF-26 cannot say of a cup, as ``###`` lines of its export (record 192 says CUSTOM_TEAM_KNOCKOUT): each
    tie of the bracket, the team that went through and by what, a bye of round 1 (written ``0000 - Z`` for its
    players: no game and no point), and the decider game (play-off or Armageddon), which is no board of the card
    and so has no place in the 001 records."""
    cup = Cup.objects.filter(event=event).first()
    if cup is None:
        return []
    lines = [f"### knock-out cup: seeded {cup.seeding}; tie resolution {', '.join(cup.tie_resolution)}"]
    ties = cup.ties.select_related("home", "away", "winner", "decider_white").order_by("round_number", "position")
    for tie in ties:
        where = f"### cup round {tie.round_number} tie {tie.position}:"
        if tie.away is None:
            lines.append(f"{where} {tie.home.start_number} {tie.home.name} has a bye and goes through")
            continue
        line = f"{where} {tie.home.start_number} {tie.home.name} - {tie.away.start_number} {tie.away.name}"
        if tie.winner is not None:
            line += f"; {tie.winner.start_number} {tie.winner.name} goes through ({tie.decided_by})"
        lines.append(line)
        if tie.decider_result and tie.decider_white is not None:
            kind = "Armageddon" if tie.decider_armageddon else "play-off"
            lines.append(
                f"{where} decider game ({kind}): {tie.decider_white.start_number} {tie.decider_white.name} had White,"
                f" {tie.decider_result}"
            )
    return lines
