"""Webhooks: subscriptions to a league, a club or an event, and their signed deliveries.

The service that saves a change calls `webhooks_emit` inside its transaction through one step below per kind
of change: results_changed (services/results.py), match_card_changed (services/match_cards.py),
event_finished (services/events.py), standings_updated (recompute.py), pairings_published
(services/round_pairings.py), game_pgn_updated (services/games.py); no model signal does. After the commit
one fan-out task per event finds the subscriptions whose owners may still follow their target and see the
event, and writes one delivery each (once per subscription and occurrence, so a repeated emit delivers
nothing twice). Each delivery is its own task in the webhooks queue, ended at WEBHOOKS_TIMEOUT_SECONDS
whatever the receiver does, with at most WEBHOOKS_CONCURRENCY_PER_SUBSCRIPTION of one subscription under
way at once: a slow or failing receiver holds up only its own deliveries, never a request, another
subscriber or another queue's work. Every retry sends the same body under the same delivery id.

Receivers on private, loopback or link-local addresses are refused (at subscription and again at every
delivery, connecting to the very address that was checked) unless WEBHOOKS_ALLOW_PRIVATE_ADDRESSES. The
receiver's name is looked up by dnspython within the same deadline as the rest of the delivery (the system's
resolver could take as long as it likes): the servers of /etc/resolv.conf, or WEBHOOKS_DNS_SERVERS.
"""

import hashlib
import hmac
import http.client
import ipaddress
import json
import secrets
import socket
import ssl
import time
import uuid
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

import dns.exception
import dns.resolver
from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from .. import broker
from ..after_commit import collected_after_commit, once_after_commit
from ..errors import NotFound, PermissionDenied, ServiceError
from ..models import (
    Club,
    ClubMembership,
    Entry,
    Event,
    League,
    ResultChange,
    Team,
    TeamMatch,
    WebhookDelivery,
    WebhookEvent,
    WebhookSubscription,
)
from ..notifications import language_of
from ..permissions import (
    arbitrated_event_ids,
    can_manage_event,
    can_see_event,
    is_club_secretary,
    is_league_organiser,
    organised_league_ids,
    secretary_club_ids,
)

SIGNATURE_HEADER = "X-Chess-League-Signature"
SUBSCRIBABLE = [choice for choice in WebhookEvent.values if choice != WebhookEvent.TEST]


class UnsafeTarget(ServiceError):
    code = "unsafe_webhook_url"


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The signature header's value: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


NAT64 = ipaddress.ip_network("64:ff9b::/96")  # the IPv4 address in the last 32 bits
REFUSED_IPV6 = [
    ipaddress.ip_network("64:ff9b:1::/48"),  # local-use NAT64: a network's own translator
    ipaddress.ip_network("2001::/32"),  # Teredo: the client's address is hidden in the bits
    ipaddress.ip_network("::/96"),  # IPv4-compatible (deprecated): nothing routes it
]


def public_address(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """A global address, and for an IPv6 address carrying an IPv4 address (IPv4-mapped, NAT64, 6to4) that
    IPv4 address global too: a translator would deliver to it."""
    if not ip.is_global:
        return False
    if isinstance(ip, ipaddress.IPv4Address):
        return True
    if any(ip in network for network in REFUSED_IPV6):
        return False
    carried = ip.ipv4_mapped or ip.sixtofour or (ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF) if ip in NAT64 else None)
    return carried is None or carried.is_global


def _resolver() -> dns.resolver.Resolver:
    """The resolver of the receivers' names: WEBHOOKS_DNS_SERVERS ("address" or "address:port" each), else the
    servers of /etc/resolv.conf."""
    servers = settings.WEBHOOKS_DNS_SERVERS
    resolver = dns.resolver.Resolver(configure=not servers)
    if servers:
        pairs = [server.rpartition(":") if server.count(":") == 1 else ("", "", server) for server in servers]
        resolver.nameservers = [address or port for address, _sep, port in pairs]
        resolver.nameserver_ports = {address: int(port) for address, _sep, port in pairs if address}
    return resolver


def resolved(host: str, deadline: float) -> list[str]:
    """The addresses of `host` (A and AAAA records), looked up before `deadline` (time.monotonic()): raises
    TimeoutError when the name servers have not answered by then, UnsafeTarget when the name is not known."""
    try:
        ipaddress.ip_address(host.split("%")[0])
        return [host]  # an address: nothing to look up
    except ValueError:
        pass
    name = host.rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):  # always the loopback (RFC 6761), never asked
        return ["127.0.0.1", "::1"]
    resolver, addresses = _resolver(), set()
    for record in ("A", "AAAA"):
        try:
            answer = resolver.resolve(name, record, lifetime=_time_left(deadline))
        except (dns.resolver.NoAnswer, dns.resolver.NoNameservers):
            continue
        except dns.resolver.NXDOMAIN:
            break
        except dns.exception.Timeout:
            raise TimeoutError("timed out looking up the receiver's address") from None
        except (dns.exception.DNSException, UnicodeError, ValueError):
            break
        addresses |= {rdata.to_text() for rdata in answer}
    if not addresses:
        raise UnsafeTarget(_("The host %(host)s is not known.") % {"host": host})
    return sorted(addresses)


def checked_addresses(url: str, deadline: float | None = None) -> list[str]:
    """The addresses `url`'s host resolves to (before `deadline`, else within WEBHOOKS_TIMEOUT_SECONDS), each one
    allowed as a target; raises UnsafeTarget, or TimeoutError when the name servers do not answer in time."""
    parts = urlsplit(url)
    allow_private = settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES
    if parts.scheme != "https" and not (allow_private and parts.scheme == "http"):
        raise UnsafeTarget(_("A webhook URL must start with https://."))
    if not parts.hostname:
        raise UnsafeTarget(_("A webhook URL needs a host name."))
    if deadline is None:
        deadline = time.monotonic() + settings.WEBHOOKS_TIMEOUT_SECONDS
    addresses = resolved(parts.hostname, deadline)
    for address in addresses:
        ip = ipaddress.ip_address(address.split("%")[0])
        if not public_address(ip) and not allow_private:
            raise UnsafeTarget(
                _("%(host)s resolves to %(address)s, a private, loopback or link-local address.")
                % {"host": parts.hostname, "address": address}
            )
    return addresses


_TARGET_MODELS: dict[str, type[League] | type[Club] | type[Event]] = {"league": League, "club": Club, "event": Event}


def _target_of(*, league: str | None, club: str | None, event: str | None) -> dict[str, Any]:
    given = [(name, slug) for name, slug in (("league", league), ("club", club), ("event", event)) if slug]
    if len(given) != 1:
        raise ServiceError(_("Subscribe to exactly one league, club or event."), code="invalid")
    name, slug = given[0]
    model = _TARGET_MODELS[name]
    queryset: QuerySet[Any] = Event.objects.public() if model is Event else model.objects.all()
    target = queryset.filter(slug=slug).first()
    if target is None:
        raise NotFound(_("There is no %(kind)s %(slug)s.") % {"kind": name, "slug": slug})
    return {name: target}


def _may_subscribe(user: User, target: dict[str, Any]) -> bool:
    """Organisers of the league (of the event's league, of a league the club plays in); a club's secretary
    for the club."""
    if "league" in target:
        return is_league_organiser(user, target["league"].pk)
    if "event" in target:
        return can_manage_event(user, target["event"])
    club = target["club"]
    if is_club_secretary(user, club.pk):
        return True
    return any(is_league_organiser(user, league_id) for league_id in club.leagues.values_list("pk", flat=True))


def webhook_subscribe(
    *,
    user: User,
    url: str,
    events: list[str],
    league: str | None = None,
    club: str | None = None,
    event: str | None = None,
) -> WebhookSubscription:
    """A new subscription owned by `user`; returns it (its secret is shown to the owner once, here)."""
    events = sorted(set(events))
    if not events or any(name not in SUBSCRIBABLE for name in events):
        raise ServiceError(
            _("Choose one or more events: %(events)s.") % {"events": ", ".join(SUBSCRIBABLE)}, code="invalid"
        )
    target = _target_of(league=league, club=club, event=event)
    if not _may_subscribe(user, target):
        raise PermissionDenied(_("Only the organisers (or the club's secretaries) may subscribe here."))
    try:
        checked_addresses(url)
    except TimeoutError:
        raise UnsafeTarget(
            _("The host %(host)s could not be looked up in time; try again.") % {"host": urlsplit(url).hostname}
        ) from None
    return WebhookSubscription.objects.create(
        owner=user, url=url, events=events, secret=f"whsec_{secrets.token_hex(24)}", **target
    )


def subscription_of(*, user: User, subscription_id: int) -> WebhookSubscription:
    subscription = WebhookSubscription.objects.filter(pk=subscription_id, owner=user).first()
    if subscription is None:
        raise NotFound(_("You have no webhook %(id)s.") % {"id": subscription_id}, code="unknown_webhook")
    return subscription


def webhook_unsubscribe(*, user: User, subscription_id: int) -> None:
    subscription_of(user=user, subscription_id=subscription_id).delete()


def webhook_targets_for(user: User) -> dict[str, list[League] | list[Club] | list[Event]]:
    """What `user` may subscribe to (the workspace's choices): {"league": [...], "club": [...], "event": [...]}."""
    organised = League.objects.all()
    if not user.is_superuser:
        organised = organised.filter(pk__in=organised_league_ids(user))
    leagues = list(organised)
    events = Event.objects.public().filter(Q(league__in=leagues) | Q(pk__in=arbitrated_event_ids(user)))
    clubs = Club.objects.filter(Q(leagues__in=leagues) | Q(pk__in=secretary_club_ids(user)))
    return {"league": leagues, "club": list(clubs.distinct()), "event": list(events.order_by("name"))}


def webhook_pause(*, user: User, subscription_id: int) -> WebhookSubscription:
    """Stop delivering to a subscription until it is resumed (nothing is kept for it meanwhile)."""
    subscription = subscription_of(user=user, subscription_id=subscription_id)
    WebhookSubscription.objects.filter(pk=subscription.pk, paused_at__isnull=True).update(paused_at=timezone.now())
    subscription.refresh_from_db()
    return subscription


def webhook_resume(*, user: User, subscription_id: int) -> WebhookSubscription:
    """Deliver again to a paused subscription (what it missed while paused is not sent)."""
    subscription = subscription_of(user=user, subscription_id=subscription_id)
    WebhookSubscription.objects.filter(pk=subscription.pk).update(paused_at=None, failures_in_a_row=0)
    subscription.refresh_from_db()
    return subscription


def webhook_send_test(*, user: User, subscription_id: int) -> WebhookDelivery:
    """A `test` delivery to one subscription, sent like every other."""
    subscription = subscription_of(user=user, subscription_id=subscription_id)
    data = {"message": "This is a test delivery from chess-league.", "subscription": subscription.pk}
    delivery = _delivery(subscription, WebhookEvent.TEST, f"test:{uuid.uuid4()}", data)
    delivery.save(force_insert=True)
    once_after_commit(("webhook-delivery", delivery.pk), lambda: broker.enqueue_webhook_delivery(str(delivery.pk)))
    return delivery


def webhooks_emit(event_type: str, *, event_id: int, occurrence: str, data: dict[str, Any]) -> None:
    """Tell the subscribers of the event (its league, its clubs) after the current transaction commits.
    `occurrence` names what happened; emitting the same occurrence again delivers nothing new. Everything emitted
    for one event in one transaction (a round sheet, an import's thousands of results) goes to one fan-out task
    per FAN_OUT_BATCH occurrences; an event nobody may be subscribed to sends no task (most results of a league
    night: a worker's fan-out of nobody took as long as a small division's recompute)."""

    def fan_out(items: list[tuple[str, str, dict[str, Any]]]) -> None:
        if _may_have_subscribers(event_id):
            for start in range(0, len(items), FAN_OUT_BATCH):
                broker.enqueue_webhook_fan_out(event_id, items[start : start + FAN_OUT_BATCH])

    collected_after_commit(("webhooks", event_id), (event_type, occurrence, data), fan_out)


#: occurrences one fan-out task writes the deliveries of
FAN_OUT_BATCH = 500


def _may_have_subscribers(event_id: int) -> bool:
    """Some active subscription is to the event, its league, or a club of its teams or of its players' memberships
    (one query; more than the fan-out's subscribers, never fewer: it also counts clubs outside the league). Asked
    after every result: each scope is a subquery of its own, which the database plans in a fraction of the time a
    join of the seven tables takes."""
    entries = Entry.objects.filter(event=event_id).values("player_id")
    return (
        WebhookSubscription.objects.filter(paused_at__isnull=True)
        .filter(
            Q(event_id=event_id)
            | Q(league_id__in=Event.objects.filter(pk=event_id).values("league_id"))
            | Q(club_id__in=Team.objects.filter(event=event_id).values("club_id"))
            | Q(club_id__in=ClubMembership.objects.filter(player_id__in=entries).values("club_id"))
        )
        .exists()
    )


def _event_clubs(event: Event) -> set[int]:
    clubs = set(Team.objects.filter(event=event).values_list("club_id", flat=True))
    clubs.update(
        ClubMembership.objects.filter(player__entry__event=event, club__leagues=event.league_id).values_list(
            "club_id", flat=True
        )
    )
    return clubs


def _owner_may_receive(subscription: WebhookSubscription, event: Event | None = None) -> bool:
    """The owner is still active and still may subscribe to the subscription's target (a secretary whose role was
    removed gets nothing more), and may see `event` (a draft only by those who manage it, as in the API)."""
    owner = subscription.owner
    if not owner.is_active:
        return False
    target = {
        name: getattr(subscription, name)
        for name in ("league", "club", "event")
        if getattr(subscription, f"{name}_id") is not None
    }
    return _may_subscribe(owner, target) and (event is None or can_see_event(owner, event))


def webhooks_fan_out(event_id: int, items: list[tuple[str, str, dict[str, Any]]]) -> list[str]:
    """One delivery per subscription and occurrence it wants (runs in a worker); `items` are
    (event type, occurrence, data). Returns the new deliveries' ids."""
    event = Event.objects.filter(pk=event_id).select_related("league").first()
    if event is None:
        return []
    subscriptions = WebhookSubscription.objects.filter(
        Q(event_id=event.pk) | Q(league_id=event.league_id) | Q(club_id__in=_event_clubs(event)),
        paused_at__isnull=True,
    ).select_related("owner", "league", "club", "event")
    deliveries = [
        _delivery(subscription, event_type, occurrence, {"event": event.slug, "league": event.league.slug, **data})
        for subscription in subscriptions
        if _owner_may_receive(subscription, event)
        for event_type, occurrence, data in items
        if event_type in subscription.events
    ]
    # an occurrence already delivered to a subscription (the task ran twice, the same change emitted again) is not
    # written again, so it is not sent again
    WebhookDelivery.objects.bulk_create(deliveries, ignore_conflicts=True)
    written = set(WebhookDelivery.objects.filter(pk__in=[d.pk for d in deliveries]).values_list("pk", flat=True))
    created = [str(d.pk) for d in deliveries if d.pk in written]
    for delivery_id in created:
        broker.enqueue_webhook_delivery(delivery_id)
    return created


def _delivery(
    subscription: WebhookSubscription, event_type: str, occurrence: str, data: dict[str, Any]
) -> WebhookDelivery:
    delivery_id = uuid.uuid4()
    body = {
        "id": str(delivery_id),
        "type": event_type,
        "created_at": timezone.now().isoformat().replace("+00:00", "Z"),
        "data": data,
    }
    return WebhookDelivery(
        id=delivery_id,
        subscription=subscription,
        event_type=event_type,
        occurrence=occurrence,
        body=json.dumps(body, separators=(",", ":"), ensure_ascii=False),
    )


class SubscriptionBusy(Exception):
    """The subscription has WEBHOOKS_CONCURRENCY_PER_SUBSCRIPTION deliveries under way: try this one later."""


def _time_left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("timed out")
    return left


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to the address that was checked, whatever the host name resolves to by now, before `deadline`."""

    def __init__(self, host: str, port: int, address: str, deadline: float) -> None:
        super().__init__(host, port, timeout=_time_left(deadline))
        self._address = address
        self._deadline = deadline

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), _time_left(self._deadline))


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, deadline: float) -> None:
        self._tls = ssl.create_default_context()
        super().__init__(host, port, timeout=_time_left(deadline), context=self._tls)
        self._address = address
        self._deadline = deadline

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), _time_left(self._deadline))
        sock.settimeout(_time_left(self._deadline))  # the TLS handshake, within what is left
        self.sock = self._tls.wrap_socket(sock, server_hostname=self.host)


def _post(url: str, body: bytes, headers: dict[str, str], deadline: float) -> int:
    """POST `body` and read the answer's status line, all of it (connecting, TLS, sending, answering) before
    `deadline` (time.monotonic()): a receiver that answers a byte at a time is cut there like one that never
    answers. The rest of the answer is not read."""
    parts = urlsplit(url)
    address = checked_addresses(url, deadline)[0]  # the name looked up within the deadline too
    if parts.hostname is None:
        raise RuntimeError("checked_addresses refuses a URL without a host")
    https = parts.scheme == "https"
    port = parts.port or (443 if https else 80)
    connection_class = _PinnedHTTPSConnection if https else _PinnedHTTPConnection
    connection = connection_class(parts.hostname, port, address, deadline)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        connection.connect()
        if connection.sock is None:
            raise RuntimeError("a connected delivery has its socket")
        connection.sock.settimeout(_time_left(deadline))
        connection.request("POST", path, body=body, headers={**headers, "Connection": "close"})
        answer = b""
        while b"\r\n" not in answer:
            connection.sock.settimeout(_time_left(deadline))
            chunk = connection.sock.recv(1024)
            if not chunk:
                raise http.client.RemoteDisconnected("the receiver closed the connection without answering")
            answer += chunk
            if len(answer) > 8192:
                raise http.client.LineTooLong("status line")
        status_line = answer.split(b"\r\n", 1)[0].decode("latin-1")
        version, _, rest = status_line.partition(" ")
        code = rest[:3]
        if not version.startswith("HTTP/") or not code.isdigit() or not 100 <= int(code) <= 599:
            raise http.client.BadStatusLine(status_line[:100])
        return int(code)
    finally:
        connection.close()


def webhook_attempt(delivery_id: str) -> bool | None:
    """One try of a delivery: True delivered, False failed (try again later), None nothing to send
    (delivered already, the subscription is paused or gone, its owner may no longer follow its target).
    Raises SubscriptionBusy, sending nothing, while the subscription has its most deliveries under way."""
    delivery = (
        WebhookDelivery.objects.filter(pk=delivery_id)
        .select_related("subscription__owner", "subscription__league", "subscription__club", "subscription__event")
        .first()
    )
    if delivery is None or delivery.status == WebhookDelivery.Status.DELIVERED:
        return None
    subscription = delivery.subscription
    if subscription.paused_at is not None:
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=WebhookDelivery.Status.FAILED, error="subscription paused"
        )
        return None
    if not _owner_may_receive(subscription):
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=WebhookDelivery.Status.FAILED, error="the owner may no longer follow this target"
        )
        return None
    seconds = settings.WEBHOOKS_TIMEOUT_SECONDS
    if not broker.webhook_slot_take(
        subscription.pk,
        str(delivery.pk),
        limit=settings.WEBHOOKS_CONCURRENCY_PER_SUBSCRIPTION,
        hold_seconds=seconds + 60,  # a worker killed mid-delivery gives its slot back then
    ):
        raise SubscriptionBusy(subscription.pk)
    body = delivery.body.encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "chess-league-webhooks/1",
        SIGNATURE_HEADER: sign(subscription.secret, int(time.time()), body),
        "X-Chess-League-Event": delivery.event_type,
        "X-Chess-League-Delivery": str(delivery.pk),
    }
    code, error = None, ""
    try:
        code = _post(subscription.url, body, headers, time.monotonic() + seconds)
    except UnsafeTarget as exc:
        error = str(exc.message)
    except TimeoutError:
        error = f"timed out: no answer within {seconds} s"
    except (OSError, http.client.HTTPException) as exc:
        error = f"{type(exc).__name__}: {exc}"[:300]
    finally:
        broker.webhook_slot_free(subscription.pk, str(delivery.pk))
    delivered = code is not None and 200 <= code < 300
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        status=WebhookDelivery.Status.DELIVERED if delivered else WebhookDelivery.Status.FAILED,
        attempts=delivery.attempts + 1,
        response_code=code,
        error=error or ("" if delivered else f"HTTP {code}"),
        last_attempt_at=timezone.now(),
    )
    if delivered:
        WebhookSubscription.objects.filter(pk=subscription.pk).update(failures_in_a_row=0)
        return True
    _count_failure(subscription.pk)
    return False


def webhook_next_try_in(delivery_id: str) -> int | None:
    """Seconds until a failed delivery's next try: WEBHOOKS_RETRY_SECONDS after its first, doubling each time;
    None after WEBHOOKS_MAX_ATTEMPTS tries (or when it is no longer failed)."""
    attempts = (
        WebhookDelivery.objects.filter(pk=delivery_id, status=WebhookDelivery.Status.FAILED)
        .values_list("attempts", flat=True)
        .first()
    )
    if not attempts or attempts >= settings.WEBHOOKS_MAX_ATTEMPTS:
        return None
    return int(settings.WEBHOOKS_RETRY_SECONDS * 2 ** (attempts - 1))


def _count_failure(subscription_id: int) -> None:
    """After WEBHOOKS_PAUSE_AFTER_FAILURES failed tries in a row the subscription pauses and its owner is
    told by email."""
    with transaction.atomic():
        subscription = WebhookSubscription.objects.select_for_update().get(pk=subscription_id)
        subscription.failures_in_a_row += 1
        pausing = subscription.paused_at is None and (
            subscription.failures_in_a_row >= settings.WEBHOOKS_PAUSE_AFTER_FAILURES
        )
        if pausing:
            subscription.paused_at = timezone.now()
        subscription.save(update_fields=["failures_in_a_row", "paused_at"])
        if pausing:
            once_after_commit(
                ("webhook-paused", subscription_id), lambda: broker.enqueue_webhook_paused(subscription_id)
            )


def webhook_paused_message(subscription_id: int) -> dict[str, Any] | None:
    """The email telling the owner their subscription paused (None if there is nobody to tell)."""
    subscription = WebhookSubscription.objects.filter(pk=subscription_id).select_related("owner").first()
    if subscription is None or not subscription.owner.email:
        return None
    with translation.override(language_of(subscription.owner)):
        return {
            "subject": _("Your webhook was paused"),
            "body": _(
                "Deliveries to %(url)s failed %(count)s times in a row, so the subscription was paused. "
                "Fix the receiver, then resume the subscription (POST /api/v1/webhooks/%(id)s/resume/)."
            )
            % {"url": subscription.url, "count": subscription.failures_in_a_row, "id": subscription.pk},
            "to": [subscription.owner.email],
        }


# What is emitted where, each by the service that writes it (explicitly, so every door sends the same): results by
# services.results (a single result, a round sheet, a match card's boards, an import), match cards by
# services.match_cards (submitted, confirmed, disputed, confirmed by itself), the event's end by services.events,
# standings by the recompute, pairings by services.round_pairings, a game's moves by services.games.


def results_changed(changes: Iterable[ResultChange]) -> None:
    """result.recorded (or result.corrected, when the game had a result) for each change of the audit trail, sent
    after the commit. Each change's game (and its round) is the one the service just saved."""
    for change in changes:
        game = change.game
        webhooks_emit(
            WebhookEvent.RESULT_CORRECTED if change.before else WebhookEvent.RESULT_RECORDED,
            event_id=game.round.event_id,
            occurrence=f"result-change:{change.pk}",
            data={
                "game": game.pk,
                "round": game.round.number,
                "board": game.board,
                "result": change.after,
                "previous": change.before,
                "url": f"{settings.SITE_URL}/api/v1/games/{game.pk}/",
            },
        )


_CARD_EVENTS: dict[str, str] = {
    TeamMatch.Status.SUBMITTED: WebhookEvent.MATCH_CARD_SUBMITTED,
    TeamMatch.Status.CONFIRMED: WebhookEvent.MATCH_CARD_CONFIRMED,
    TeamMatch.Status.DISPUTED: WebhookEvent.MATCH_CARD_DISPUTED,
}


def match_card_changed(match: TeamMatch) -> None:
    """match_card.submitted, .confirmed or .disputed for the card as just saved (its round loaded)."""
    event_type = _CARD_EVENTS.get(match.status)
    if event_type is None:
        return
    webhooks_emit(
        event_type,
        event_id=match.round.event_id,
        occurrence=f"match:{match.pk}:v{match.version}:{match.status}",
        data={
            "match": match.pk,
            "round": match.round.number,
            "status": match.status,
            "version": match.version,
            "url": f"{settings.SITE_URL}/api/v1/matches/{match.pk}/",
        },
    )


def event_finished(event: Event) -> None:
    """event.finished, once per event."""
    webhooks_emit(
        WebhookEvent.EVENT_FINISHED,
        event_id=event.pk,
        occurrence=f"event-finished:{event.pk}",
        data={"url": f"{settings.SITE_URL}/api/v1/events/{event.slug}/"},
    )


def standings_updated(*, event_id: int, slug: str, version: int) -> None:
    """Once per new snapshot: its version and where to read it."""
    webhooks_emit(
        WebhookEvent.STANDINGS_UPDATED,
        event_id=event_id,
        occurrence=f"standings:{event_id}:v{version}",
        data={"version": version, "url": f"{settings.SITE_URL}/api/v1/events/{slug}/standings/"},
    )


def pairings_published(*, event_id: int, slug: str, round_number: int, publication: str) -> None:
    """For the pairing service, inside the transaction that publishes a round's pairing; `publication`
    tells one publication of the round from a later one (e.g. the time it was published)."""
    webhooks_emit(
        WebhookEvent.PAIRINGS_PUBLISHED,
        event_id=event_id,
        occurrence=f"pairings:{event_id}:r{round_number}:{publication}",
        data={
            "round": round_number,
            "url": f"{settings.SITE_URL}/api/v1/events/{slug}/rounds/{round_number}/pairing/",
        },
    )


def game_pgn_updated(*, event_id: int, game_id: int, version: int) -> None:
    """game.pgn_updated, once per new version of a game's moves (the moves themselves are read from the API,
    which keeps the event's transmission delay)."""
    webhooks_emit(
        WebhookEvent.GAME_PGN_UPDATED,
        event_id=event_id,
        occurrence=f"game-pgn:{game_id}:v{version}",
        data={"game": game_id, "version": version, "url": f"{settings.SITE_URL}/api/v1/games/{game_id}/pgn/"},
    )
