"""Following a player or a team: the follower is e-mailed when a round's pairings are published and when a result
of theirs is recorded or corrected, in the language they followed in, with a one-click unsubscribe.

Doors: the player's profile and the team's page (leagues/public/follows.py). Someone without an account follows by
e-mail and is sent nothing but the confirmation link until they confirm it (double opt-in); an account's follow is
confirmed at once. The pairing service (``pairing_publish``) calls :func:`pairings_published_followers` and the
result services :func:`results_changed_followers`, both inside their transaction; the notices are written after
the commit and one task per follower and event (``leagues.tasks.follow_digest``, on the email queue) sends them: a
round's pairings at once (its boards are published together), results a short while later (FOLLOW_DIGEST_SECONDS),
so many results landing at once make one digest, not a flood. Nothing is sent for a draft event.
"""

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from ..after_commit import collected_after_commit, once_after_commit
from ..dates import date_format, league_dates
from ..errors import NotFound, ServiceError
from ..models import Entry, Event, Follow, FollowNotice, Game, Player, ResultChange, Round, Team
from ..notifications import SEND_EMAIL, _plain_text, _send_task
from ..permissions import AnyUser

log = logging.getLogger(__name__)

FOLLOW_DIGEST = "leagues.tasks.follow_digest"
CONFIRM_SALT = "leagues.follows.confirm"
UNSUBSCRIBE_SALT = "leagues.follows.unsubscribe"
CONFIRM_DAYS = 7
CONFIRM_AGAIN_AFTER = timedelta(hours=1)


def _language(language: str) -> str:
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def _url(name: str, language: str, *args: object) -> str:
    with translation.override(language):
        return settings.SITE_URL + reverse(name, args=args)


def follow_start(
    *, user: AnyUser, language: str, email: str = "", player_id: int | None = None, team_id: int | None = None
) -> Follow:
    """Follow one player or one team. With an account, at once (its e-mail address); else by `email`, sending the
    confirmation link (nothing else until it is confirmed). Raises NotFound or ServiceError; then nothing changed."""
    target: dict[str, Player | Team] = {}
    if player_id is not None:
        player = Player.objects.filter(pk=player_id).first()
        if player is None:
            raise NotFound(_("There is no such player."), code="unknown_player")
        target = {"player": player}
    elif team_id is not None:
        team = Team.objects.filter(pk=team_id).exclude(event__status=Event.Status.DRAFT).first()
        if team is None:
            raise NotFound(_("There is no such team."), code="unknown_team")
        target = {"team": team}
    else:
        raise ServiceError(_("Choose a player or a team to follow."), code="nothing_to_follow")
    language = _language(language)
    account = user if user is not None and user.is_authenticated else None
    by_account = account is not None
    address = (account.email if account is not None else email).strip()
    try:
        validate_email(address)
    except ValidationError:
        message = _("Your account has no e-mail address.") if by_account else _("Enter a valid e-mail address.")
        raise ServiceError(message, code="bad_email") from None
    with transaction.atomic():
        follow, _created = Follow.objects.select_for_update().get_or_create(
            email__iexact=address, **target, defaults={"email": address, "language": language}
        )
        follow.language = language
        if account is not None:
            follow.user = account
            follow.confirmed_at = follow.confirmed_at or timezone.now()
        follow.save()
        # one confirmation an hour at most: the form cannot be used to flood someone else's mailbox
        if follow.confirmed_at is None and (_created or follow.created_at < timezone.now() - CONFIRM_AGAIN_AFTER):
            Follow.objects.filter(pk=follow.pk).update(created_at=timezone.now())
            follow_id = follow.pk
            transaction.on_commit(lambda: _send_task(SEND_EMAIL, message=confirmation_message(follow_id)))
    return follow


def confirm_token(follow: Follow) -> str:
    return signing.dumps([follow.pk, follow.email], salt=CONFIRM_SALT)


def unsubscribe_token(follows: list[Follow]) -> str:
    """The link of a message stops every follow the message was sent for."""
    return signing.dumps([[f.pk for f in follows], follows[0].email], salt=UNSUBSCRIBE_SALT)


def _signed(token: str, salt: str, max_age: int | None = None) -> tuple[object, str]:
    try:
        ids, email = signing.loads(token, salt=salt, max_age=max_age)
    except (signing.BadSignature, ValueError, TypeError):
        raise ServiceError(_("This link is not valid."), code="bad_link") from None
    return ids, email


def _follow_of(token: str, salt: str, max_age: int | None = None) -> Follow | None:
    pk, email = _signed(token, salt, max_age)
    return Follow.objects.filter(pk=pk, email=email).first() if isinstance(pk, int) else None


def follow_to_confirm(*, token: str) -> Follow:
    """The follow a confirmation link names, read only: opening the link (a GET, which mail scanners and link
    previews make too) shows a page whose button confirms (:func:`follow_confirm`, a POST). Raises ServiceError
    for a link that is not valid or has expired."""
    follow = _follow_of(token, CONFIRM_SALT, max_age=CONFIRM_DAYS * 86400)
    if follow is None:
        raise ServiceError(_("This link is not valid."), code="bad_link")
    return follow


def follow_confirm(*, token: str) -> Follow:
    """The follower pressed the confirmation page's button: from now on they are sent the news."""
    follow = follow_to_confirm(token=token)
    if follow.confirmed_at is None:
        Follow.objects.filter(pk=follow.pk, confirmed_at__isnull=True).update(confirmed_at=timezone.now())
        follow.refresh_from_db()
    return follow


def follow_stop(*, token: str) -> list[str]:
    """Unsubscribe (the link of every message): nothing more is sent for the follows of that message. Returns the
    names no longer followed (none when they had been stopped before)."""
    ids, email = _signed(token, UNSUBSCRIBE_SALT)
    if not isinstance(ids, list):
        raise ServiceError(_("This link is not valid."), code="bad_link")
    with transaction.atomic():
        follows = list(Follow.objects.select_related("player", "team").filter(pk__in=ids, email=email))
        Follow.objects.filter(pk__in=[f.pk for f in follows]).delete()
    return [followed_name(f) for f in follows]


def followed_name(follow: Follow) -> str:
    if follow.player is not None:
        return follow.player.public_name
    if follow.team is None:
        raise RuntimeError("a follow is of a player or a team")
    return follow.team.name


def confirmation_message(follow_id: int) -> dict[str, object]:
    follow = Follow.objects.select_related("player", "team").get(pk=follow_id)
    with translation.override(follow.language):
        context = {
            "name": followed_name(follow),
            "link": _url("leagues:follow-confirm", follow.language, confirm_token(follow)),
        }
        subject = _plain_text("emails/follow_confirm_subject.txt", context).strip()
        body = _plain_text("emails/follow_confirm.txt", context)
    return {"to": [follow.email], "subject": " ".join(subject.split()), "body": body}


# -- the notification step, called by the pairing and result services inside their transaction --


def pairings_published_followers(*, event_id: int, round_number: int) -> None:
    """For pairing_publish: the followers of the round's players and teams are told after the commit."""
    once_after_commit(("follows-pairing", event_id, round_number), lambda: _pairing_notices(event_id, round_number))


def results_changed_followers(changes: list[ResultChange]) -> None:
    """For the result services: the followers of the players and teams of these games, after the commit (a round
    sheet's or an import's results together). The games' players and teams are taken now from the games the service
    holds, read with their sides (a team match's boards are played between its two teams' entries)."""
    for change in changes:
        game = change.game
        collected_after_commit("follows-results", (game.pk, _game_players(game), _side_teams(game)), _result_notices)


def _followers(player_ids: set[int], team_ids: set[int]) -> dict[tuple[str, int], list[int]]:
    """(“player”|“team”, id) → the confirmed follows (no query for no player and no team)."""
    out: dict[tuple[str, int], list[int]] = defaultdict(list)
    if not player_ids and not team_ids:
        return out
    query = Q(player_id__in=player_ids) | Q(team_id__in=team_ids)
    for pk, player_id, team_id in Follow.objects.filter(query, confirmed_at__isnull=False).values_list(
        "pk", "player_id", "team_id"
    ):
        out[("player", player_id) if player_id else ("team", team_id)].append(pk)
    return out


def _game_players(game: Game) -> set[int]:
    ids = {game.white_player_id, game.black_player_id}
    ids |= {entry.player_id for entry in (game.white, game.black) if entry is not None}
    return {pk for pk in ids if pk}


def _side_teams(game: Game) -> set[int]:
    return {entry.team_id for entry in (game.white, game.black) if entry is not None and entry.team_id}


def _game_teams(game: Game) -> set[int]:
    ids = _side_teams(game)
    if game.match is not None:
        ids |= {pk for pk in (game.match.home.team_id, game.match.away.team_id) if pk}
    return ids


def _games() -> QuerySet[Game]:
    return Game.objects.select_related("round__event", "white", "black", "match__home", "match__away").exclude(
        round__event__status=Event.Status.DRAFT
    )


def _notify(notices: list[FollowNotice], *, wait: int) -> None:
    """Store the notices, then one digest task per follower (an e-mail address) and event, run `wait` seconds later;
    a task that runs after another has sent the news finds nothing left."""
    if not notices:  # nobody follows these games' players or teams (most results)
        return
    FollowNotice.objects.bulk_create(notices)
    emails = dict(Follow.objects.filter(pk__in={n.follow_id for n in notices}).values_list("pk", "email"))
    for email, event_id in sorted({(emails[n.follow_id], n.event_id) for n in notices}):
        try:
            current_app.signature(FOLLOW_DIGEST, kwargs={"email": email, "event_id": event_id}).apply_async(
                countdown=wait
            )
        except Exception:  # the broker or, in-process, the mail server: the results stay saved
            log.warning("follow digest of event %s not sent", event_id, exc_info=True)


def _games_followers(games: QuerySet[Game]) -> dict[tuple[str, int], list[int]]:
    """The followers of the games' players and teams, found from bare ids (the games themselves, with their rounds,
    entries and matches, are read only when one of them is followed)."""
    sides = games.order_by().values_list(
        "white_player_id",
        "black_player_id",
        "white__player_id",
        "black__player_id",
        "white__team_id",
        "black__team_id",
        "match__home__team_id",
        "match__away__team_id",
    )
    ids = list(sides)
    players = {pk for row in ids for pk in row[:4] if pk}
    teams = {pk for row in ids for pk in row[4:] if pk}
    return _followers(players, teams)


def _notices_of(
    games: QuerySet[Game], kind: str, followers: dict[tuple[str, int], list[int]] | None = None
) -> list[FollowNotice]:
    """The notices of the games' followers (`followers`: found already, else found here)."""
    if followers is None:
        followers = _games_followers(games)
    if not followers:
        return []
    rows = list(games)
    notices, seen = [], set()
    for game in rows:
        targets = [("player", p) for p in _game_players(game)] + [("team", t) for t in _game_teams(game)]
        for target in targets:
            for follow_id in followers.get(target, []):
                # a team's pairing is its match, not each board
                team_match = game.match if target[0] == "team" and kind == FollowNotice.Kind.PAIRING else None
                key = (follow_id, team_match.pk, None) if team_match else (follow_id, None, game.pk)
                if key in seen:
                    continue
                seen.add(key)
                notices.append(
                    FollowNotice(
                        follow_id=follow_id,
                        event_id=game.round.event_id,
                        kind=kind,
                        round_number=game.round.number,
                        game=None if key[2] is None else game,
                        match=team_match,
                    )
                )
    return notices


def _pairing_notices(event_id: int, round_number: int) -> None:
    games = _games().filter(round__event_id=event_id, round__number=round_number).order_by("board")
    # a round's boards are published all at once: its pairings go at once (within a minute of publishing, as
    # issue #33 asks), with any result of theirs still waiting; results come in one by one and wait for a digest
    _notify(_notices_of(games, FollowNotice.Kind.PAIRING), wait=0)


def _result_notices(games: list[tuple[int, set[int], set[int]]]) -> None:
    """[(game id, its players, its teams)]: one query when nobody follows them (most results)."""
    players = {pk for _game, ids, _teams in games for pk in ids}
    teams = {pk for _game, _players, ids in games for pk in ids}
    followers = _followers(players, teams)
    if not followers:
        return
    rows = _games().filter(pk__in={pk for pk, _players, _teams in games}).order_by("round__number", "board")
    _notify(_notices_of(rows, FollowNotice.Kind.RESULT, followers), wait=settings.FOLLOW_DIGEST_SECONDS)


# -- the digest: every waiting notice of one follower and one event in one e-mail --


@dataclass
class NewsItem:
    lines: list[str]


def _when_and_where(rnd: Round) -> list[str]:
    lines = []
    if rnd.date and rnd.start_time:
        lines.append(
            _("When: %(date)s at %(time)s")
            % {
                "date": date_format(rnd.date, "DATE_FORMAT"),
                "time": formats.time_format(rnd.start_time, "TIME_FORMAT"),
            }
        )
    elif rnd.date:
        lines.append(_("When: %(date)s") % {"date": date_format(rnd.date, "DATE_FORMAT")})
    if rnd.place:
        lines.append(_("Where: %(place)s") % {"place": rnd.place})
    return lines


def _side_name(player: Player | None, entry: Entry | None) -> str:
    """Who plays one colour: the board's player (a team match), else the entry."""
    if player is not None:
        return player.public_name
    return entry.name if entry is not None else "–"


def _pairing_lines(follow: Follow, notice: FollowNotice) -> list[str]:
    event, number = notice.event, notice.round_number
    if notice.match is not None:
        match = notice.match
        head = _("Round %(round)s of %(event)s: %(home)s – %(away)s") % {
            "round": number,
            "event": event.name,
            "home": match.home.name,
            "away": match.away.name,
        }
        return [head, *_when_and_where(match.round)]
    game = notice.game
    if game is None:
        raise RuntimeError("a game's notice has its game")
    mine_white = follow.player_id in {game.white_player_id, game.white.player_id if game.white else None}
    if game.black_id is None and game.black_player_id is None:
        head = _("Round %(round)s of %(event)s: %(name)s has a bye.") % {
            "round": number,
            "event": event.name,
            "name": followed_name(follow),
        }
        return [head]
    white, black = _side_name(game.white_player, game.white), _side_name(game.black_player, game.black)
    params = {"round": number, "event": event.name, "board": game.board}
    if mine_white:
        head = _("Round %(round)s of %(event)s, board %(board)s: %(name)s has White against %(opponent)s.")
        params |= {"name": white, "opponent": black}
    else:
        head = _("Round %(round)s of %(event)s, board %(board)s: %(name)s has Black against %(opponent)s.")
        params |= {"name": black, "opponent": white}
    return [head % params, *_when_and_where(game.round)]


def _result_lines(notice: FollowNotice) -> list[str]:
    game = notice.game
    if game is None:
        raise RuntimeError("a game's notice has its game")
    white, black = _side_name(game.white_player, game.white), _side_name(game.black_player, game.black)
    params = {
        "round": notice.round_number,
        "event": notice.event.name,
        "board": game.board,
        "white": white,
        "black": black,
        "result": game.get_result_display(),
    }
    if game.is_bye:
        return [_("Round %(round)s of %(event)s: %(white)s, %(result)s") % params]
    if game.corrected:
        return [
            _("Round %(round)s of %(event)s, board %(board)s: %(white)s – %(black)s, corrected to %(result)s") % params
        ]
    return [_("Round %(round)s of %(event)s, board %(board)s: %(white)s – %(black)s, %(result)s") % params]


def news_message(follows: list[Follow], notices: list[FollowNotice]) -> dict[str, object]:
    """The e-mail of these notices (of `follows`, one address's), in the language of its first follow, with the
    link and List-Unsubscribe header that stop them."""
    language = notices[0].follow.language
    unsubscribe = _url("leagues:follow-stop", language, unsubscribe_token(follows))
    event = notices[0].event
    with translation.override(language), league_dates(event.league):
        items = []
        for notice in notices:
            if notice.kind == FollowNotice.Kind.PAIRING:
                items.append(NewsItem(_pairing_lines(notice.follow, notice)))
            else:
                items.append(NewsItem(_result_lines(notice)))
        context = {
            "name": " / ".join(followed_name(f) for f in follows),
            "event": event,
            "items": items,
            "count": len(items),
            "pairing": all(n.kind == FollowNotice.Kind.PAIRING for n in notices),
            "round_number": notices[0].round_number,
            "event_url": _url("leagues:event-standings", language, event.slug),
            "unsubscribe": unsubscribe,
        }
        subject = _plain_text("emails/follow_news_subject.txt", context).strip()
        body = _plain_text("emails/follow_news.txt", context)
    return {
        "to": [follows[0].email],
        "subject": " ".join(subject.split()),
        "body": body,
        "headers": {"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    }


def follow_digest(*, email: str, event_id: int) -> int:
    """Send every waiting notice of one follower (an e-mail address) and event in one e-mail: none for a draft
    event or follows stopped meanwhile; one line per game or match however many of the follows it concerns.
    Returns the number of notices sent."""
    with transaction.atomic():
        confirmed = list(
            Follow.objects.select_for_update(of=("self",))
            .filter(email=email, confirmed_at__isnull=False)
            .order_by("pk")
        )
        waiting = list(
            FollowNotice.objects.filter(follow__in=confirmed, event_id=event_id, sent_at__isnull=True)
            .select_related(
                "event",
                "follow__player",
                "follow__team",
                "game__round__event",
                "game__white__player",
                "game__black__player",
                "game__white__team",
                "game__black__team",
                "game__white_player",
                "game__black_player",
                "match__round__event",
                "match__home__team",
                "match__away__team",
            )
            .order_by("kind", "round_number", "pk")
        )
        if not waiting:
            return 0
        FollowNotice.objects.filter(pk__in=[n.pk for n in waiting]).update(sent_at=timezone.now())
        if waiting[0].event.status == Event.Status.DRAFT:
            return 0
        notices, seen = [], set()
        for notice in waiting:
            key = (notice.kind, notice.game_id, notice.match_id)
            if key not in seen:
                seen.add(key)
                notices.append(notice)
        follows = sorted({n.follow.pk: n.follow for n in waiting}.values(), key=lambda f: f.pk)
        message = news_message(follows, notices)
        transaction.on_commit(lambda: _send_task(SEND_EMAIL, message=message))
    return len(waiting)
