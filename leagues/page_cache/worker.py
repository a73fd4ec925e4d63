"""Pages rendered by a worker: a heavy page is not rendered in a web process while a worker is alive (its heartbeat);
its readers get the page as it was, and a render pass in a worker renders what they asked for."""

import io
import json
import logging
import time
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import translation

from .. import broker
from ..health import heartbeat_stale_after
from ..models import Event
from .stamps import modified_of
from .store import (
    LOCAL_PAGES,
    TTL,
    _asked_key,
    _heavy_key,
    _local_stamps,
    _pass_key,
    _redis,
    _rendered_key,
)

if TYPE_CHECKING:
    from django.core.handlers.wsgi import WSGIHandler

log = logging.getLogger(__name__)


# Pages rendered by a worker. A page whose last render took PAGE_HEAVY_RENDER_MS or more (a big event's standings,
# crosstable, player pages) is not rendered again in a web process while a worker is alive: after a change its
# readers get the page as it was (at most PUBLIC_STALE_WHILE_REVALIDATE older by its stamp, as a CDN may serve it) at
# once, and the pages they asked for are rendered by a worker: by the event's next recompute once its standings are
# stored (at most every RENDER_PASS_SECONDS), or by the render pass the first of them sent, which waits behind every
# other task. Web processes then answer from the cache only, and a cheap request never shares its process with a long
# render. Renders yield to recomputes: between two pages a pass that finds a recompute waiting in the queue stops and
# leaves the rest to a pass sent behind it, so a result waits for one page's render at most, never a whole pass.
ASKED_TTL = 600
PASS_QUEUED_TTL = 60  # a pass lost on its way (its worker killed) is sent again after this long at most
RENDER_PASS_SECONDS = 5  # the recomputes of a busy event render its pages at most this often
# set in the environ of a render pass's requests: they always render
RENDER_PASS = "chess_league.render_pass"  # noqa: S105 - an environ key, not a password
# what of a reader's request a render pass asks with again (the answer may depend on these, nothing else); kept
# under the event's list of pages asked for, one request per page
REPLAYED = (
    "PATH_INFO",
    "QUERY_STRING",
    "SERVER_NAME",
    "SERVER_PORT",
    "wsgi.url_scheme",
    "HTTP_HOST",
    "HTTP_ACCEPT",
    "HTTP_ACCEPT_LANGUAGE",
    "HTTP_X_FORWARDED_PROTO",
)
_worker_alive: tuple[bool, float] = (False, 0.0)
# the pages this process left to a worker lately: (slug, name) -> (the earlier stamp its readers get, the current
# stamp asked for, when). For PAGE_STAMP_SECONDS (as long as this process trusts a stamp it read) its readers
# get the earlier page without the shared cache being asked again (the page, whether it is heavy, the ask and the
# pass: four round trips to Redis a request, on every read of a busy open's heavy pages while a worker is behind); a
# page a worker renders meanwhile is served that much later.
_left: dict[tuple[str, str], tuple[str, str, float]] = {}


def _note_render_time(slug: str, name: str, seconds: float, in_a_pass: bool) -> None:
    """Remember which pages of the event are heavy (rendered by a worker from now on). A heavy page stays heavy
    until a web process renders it in less than half the threshold (a worker's render pass, which has its process to
    itself, renders it faster than a busy web process would)."""
    client = _redis()
    if client is None or not settings.PAGE_HEAVY_RENDER_MS:
        return
    try:
        key, took = _heavy_key(slug), round(seconds * 1000)
        heavy = took >= settings.PAGE_HEAVY_RENDER_MS
        if heavy or in_a_pass:
            log.info("heavy page rendered event=%s page=%s duration_ms=%s", slug, name, took)
        if heavy:
            client.pipeline().hset(key, name, took).expire(key, TTL).execute()
        elif took < settings.PAGE_HEAVY_RENDER_MS / 2 and not in_a_pass:
            client.hdel(key, name)
    except Exception:
        log.warning("page cache unreachable; render time of %s not kept", name, exc_info=True)


def _a_worker_is_alive() -> bool:
    """A worker's heartbeat is fresh, as /healthz counts it (asked once a second at most)."""
    global _worker_alive
    alive, until = _worker_alive
    if time.monotonic() >= until:
        age = broker.heartbeat_age_seconds()
        alive = age is not None and age <= heartbeat_stale_after()
        _worker_alive = (alive, time.monotonic() + 1)
    return alive


def left_here_lately(request, slug: str, name: str, earlier: str, current: str) -> bool:
    """This process left the page of the `current` stamp to a worker less than PAGE_STAMP_SECONDS ago, its readers
    getting the one of `earlier`: they still do (nothing is asked of Redis)."""
    left = _left.get((slug, name))
    return (
        left is not None
        and left[0] == earlier
        and left[1] == current
        and time.monotonic() < left[2] + settings.PAGE_STAMP_SECONDS
        and request is not None
        and RENDER_PASS not in request.META
    )


def _left_to_a_worker(request, slug: str, name: str, earlier: str, current: str) -> bool:
    """The page is heavy and a worker is alive: the reader gets the page of the `earlier` stamp, and a worker is
    asked to render the `current` one. False: this request renders the page itself (a light page, no worker, the
    kept page too old, the cache not answering, or this is the worker's own render pass)."""
    if (
        request is None
        or not settings.PAGE_HEAVY_RENDER_MS
        or RENDER_PASS in request.META
        or modified_of(current) - modified_of(earlier) > settings.PUBLIC_STALE_WHILE_REVALIDATE
    ):
        return False
    if left_here_lately(request, slug, name, earlier, current):
        return True
    client = _redis()
    if client is None:
        return False
    try:
        if client.hget(_heavy_key(slug), name) is None or not _a_worker_is_alive():
            return False
        meta = getattr(request, "_request", request).META
        asked = json.dumps({key: meta[key] for key in REPLAYED if key in meta})
        client.pipeline().hset(_asked_key(slug), name, asked).expire(_asked_key(slug), ASKED_TTL).execute()
        _send_a_pass(client, slug)
    except Exception:
        log.warning("page cache or broker unreachable; rendering %s here", name, exc_info=True)
        return False
    if len(_left) >= LOCAL_PAGES:
        _left.pop(next(iter(_left)))
    _left[(slug, name)] = (earlier, current, time.monotonic())
    return True


def _send_a_pass(client, slug: str) -> None:
    """Send a render pass for the event's asked pages, unless one is queued already (its key: one at a time)."""
    if client.set(_pass_key(slug), 1, nx=True, ex=PASS_QUEUED_TTL):
        try:
            broker.enqueue_render_pass(slug)
        except Exception:
            client.delete(_pass_key(slug))
            raise


def _a_recompute_waits() -> bool:
    try:
        return broker.recompute_waiting()
    except Exception:
        return False  # the broker not answering: nothing can be waiting in it


def render_pass(slug: str, *, after_recompute: bool = False) -> int:
    """In a worker: render the pages of the event that readers asked for since its last change, as they asked
    (through the site's whole request handling, as an anonymous reader). Returns the number of pages rendered.
    Between two pages the pass yields to a recompute waiting in the queue: it stops, the pages it has not rendered
    are asked for again (a newer ask of the same page is kept) and a render pass is sent for them (at most one is
    queued), which runs after the recomputes; their readers get the page as it was meanwhile.
    `after_recompute`: the event's new standings are stored; its pages are rendered now unless they were less than
    RENDER_PASS_SECONDS ago (then by a later recompute, or by the pass the readers sent) or a recompute waits in the
    queue (then by a pass sent behind it: on a busy night the standings of every event come before any page)."""
    client = _redis()
    if client is None:
        return 0
    started = time.perf_counter()
    try:
        if after_recompute and (
            not client.hlen(_asked_key(slug)) or not client.set(_rendered_key(slug), 1, nx=True, ex=RENDER_PASS_SECONDS)
        ):
            return 0
        if after_recompute and _a_recompute_waits():
            # another result waits for its standings: the asked pages are left to a pass sent behind it
            _send_a_pass(client, slug)
            return 0
        # the pages asked for until now; those asked for from now on are rendered by the next pass (a pass queued
        # still stands for them after a recompute; this pass's key is free once it runs)
        taken = (_asked_key(slug),) if after_recompute else (_asked_key(slug), _pass_key(slug))
        asked, *_ = client.pipeline().hgetall(_asked_key(slug)).delete(*taken).execute()
    except Exception:
        log.warning("page cache unreachable; no render pass for %s", slug, exc_info=True)
        return 0
    _local_stamps.clear()  # the event's stamps as they are now, not as this process last saw them
    pages, rendered = list(asked.items()), 0
    # each replayed request switches to its reader's language; the worker's next task runs in the language it had
    with translation.override(translation.get_language()):
        for _name, meta in pages:
            if rendered and _a_recompute_waits():
                _ask_again(client, slug, pages[rendered:])
                break
            _render_as_asked(json.loads(meta))
            rendered += 1
    took = round((time.perf_counter() - started) * 1000)
    log.info("render pass event=%s pages=%s left=%s duration_ms=%s", slug, rendered, len(pages) - rendered, took)
    return rendered


def _ask_again(client, slug: str, pages: list) -> None:
    """The pages a pass yielded before: asked for again (a reader's newer ask of a page kept) and a pass sent."""
    try:
        pipeline = client.pipeline()
        for name, meta in pages:
            pipeline.hsetnx(_asked_key(slug), name, meta)
        pipeline.expire(_asked_key(slug), ASKED_TTL).execute()
        _send_a_pass(client, slug)
    except Exception:
        log.warning("page cache or broker unreachable; %s pages of %s left to their readers", len(pages), slug)


def render_pass_after_recompute(event_id: int) -> int:
    """The event's new standings are stored: render the pages its readers asked for meanwhile (render_pass)."""
    slug = Event.objects.filter(pk=event_id).values_list("slug", flat=True).first()
    return render_pass(slug, after_recompute=True) if slug else 0


def _render_as_asked(meta: dict) -> None:
    """One anonymous GET through the site's request handling, with what of the reader's request the page depends on;
    its view renders the page and stores it (RENDER_PASS: never the page as it was)."""
    from django.core.handlers.wsgi import WSGIHandler

    global _handler
    if _handler is None:
        _handler = WSGIHandler()
    environ = {
        "REQUEST_METHOD": "GET",
        "SCRIPT_NAME": "",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": io.StringIO(),
        RENDER_PASS: True,
        **meta,
    }
    answer = _handler(environ, _start_response)
    for _ in answer:
        pass
    answer.close()


_handler: "WSGIHandler | None" = None


def _start_response(status, headers, exc_info=None):
    """The WSGI server's part, here with nothing to send (the view stores the page): a write() that drops it."""
    return lambda data: None
