"""Whole public pages served from a shared cache until something they show changes.

One module per job (docs/architecture.md, "The page cache", draws the route of a change):

- `invalidation`: the one route from a write to the pages. Every service whose write changes what pages show says
  what it changed with `pages_changed` (this event, a player or a club in every event they play in, an address
  gone); once the transaction commits, each event concerned gets a new stamp.
- `stamps`: an event's current stamp, which a page must carry to be served from the cache; HIDDEN for an event that
  is not public (deleted, back to draft): none of its pages is served from the cache, every request goes to the view
  (which answers 404). A missing stamp (cache restarted or evicted) is derived from the database.
- `store`: the shared cache (Redis) and this process's copies of pages and stamps; any cache error falls back to
  rendering the page, so the cache can only make pages faster, never wrong.
- `http`: validators (ETag, Last-Modified) from the stamp, 304 to a conditional request, the gzip copy.
- `render`: `cached_page` (from the cache, or rendered and stored), one uncached render at a time in a process, reads
  shared by the renders under one stamp. A page kept for every reader is rendered without the reader's query:
  nothing of one reader's request reaches another.
- `worker`: heavy pages rendered by a worker while one is alive (its heartbeat), their readers getting the page as
  it was meanwhile.
- `middleware`: a current cached page answered to an anonymous reader before the rest of the middleware.

The names below are what the rest of the site (and its tests) use.
"""

from .http import (
    COMPRESSIBLE,
    GZIP_MIN_BYTES,
    KEPT_HEADERS,
    _accepts_gzip,
    _as_it_was,
    _body,
    _encode,
    _gzipped,
    _last_modified,
    _not_modified,
    _response_of,
    _with_stamp,
)
from .invalidation import (
    event_explanations_changed_after_commit,
    event_pages_changed_after_commit,
    events_showing,
    pages_changed,
)
from .middleware import ROUTES, CachedPageMiddleware, _routes
from .render import (
    _RENDERING,
    EARLIER_PAGE_SECONDS,
    SHARED_READ_STAMPS,
    _forget,
    _recent,
    _render_under,
    cached_page,
    read_once_per_stamp,
)
from .stamps import (
    _current_stamp,
    _new_stamp,
    _renew,
    _reveal,
    _stamp_of,
    event_explanations_changed,
    event_pages_changed,
    event_pages_hidden,
    event_pages_show_snapshot,
    modified_of,
    renew_lost,
)
from .store import (
    HIDDEN,
    HIDDEN_TTL,
    LOCAL_PAGES,
    TTL,
    _asked_key,
    _explained_key,
    _heavy_key,
    _local,
    _local_stamps,
    _page_key,
    _pass_key,
    _redis,
    _RedisStore,
    _remember,
    _rendered_key,
    _shown_key,
    _stamp_key,
    _store,
)
from .worker import (
    ASKED_TTL,
    PASS_QUEUED_TTL,
    RENDER_PASS,
    RENDER_PASS_SECONDS,
    REPLAYED,
    _a_worker_is_alive,
    _left_to_a_worker,
    _note_render_time,
    render_pass,
    render_pass_after_recompute,
)

__all__ = [
    "ASKED_TTL",
    "COMPRESSIBLE",
    "EARLIER_PAGE_SECONDS",
    "GZIP_MIN_BYTES",
    "HIDDEN",
    "HIDDEN_TTL",
    "KEPT_HEADERS",
    "LOCAL_PAGES",
    "PASS_QUEUED_TTL",
    "RENDER_PASS",
    "RENDER_PASS_SECONDS",
    "REPLAYED",
    "ROUTES",
    "SHARED_READ_STAMPS",
    "TTL",
    "_RENDERING",
    "CachedPageMiddleware",
    "_RedisStore",
    "_a_worker_is_alive",
    "_accepts_gzip",
    "_as_it_was",
    "_asked_key",
    "_body",
    "_current_stamp",
    "_encode",
    "_explained_key",
    "_forget",
    "_gzipped",
    "_heavy_key",
    "_last_modified",
    "_left_to_a_worker",
    "_local",
    "_local_stamps",
    "_new_stamp",
    "_not_modified",
    "_note_render_time",
    "_page_key",
    "_pass_key",
    "_recent",
    "_redis",
    "_remember",
    "_render_under",
    "_rendered_key",
    "_renew",
    "_response_of",
    "_reveal",
    "_routes",
    "_shown_key",
    "_stamp_key",
    "_stamp_of",
    "_store",
    "_with_stamp",
    "cached_page",
    "event_explanations_changed",
    "event_explanations_changed_after_commit",
    "event_pages_changed",
    "event_pages_changed_after_commit",
    "event_pages_hidden",
    "event_pages_show_snapshot",
    "events_showing",
    "modified_of",
    "pages_changed",
    "read_once_per_stamp",
    "render_pass",
    "render_pass_after_recompute",
    "renew_lost",
]
