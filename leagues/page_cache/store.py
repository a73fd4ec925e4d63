"""Where pages and stamps are kept: the shared cache (Redis, one client per process; Django's cache elsewhere), its
keys, and this process's own copies of pages and stamps."""

import logging
import pickle
from typing import cast

from django.conf import settings
from django.core.cache import cache as django_cache
from django.core.cache.backends.base import BaseCache

from .. import redis_outage

log = logging.getLogger(__name__)
TTL = 24 * 3600
# the stamp of an event that is not public: its pages are never served from the cache. Kept longer than any page
# stored before it (TTL); gone (evicted), the stamp is derived from the database, which knows no stamp of such an event.
HIDDEN = "hidden"
HIDDEN_TTL = TTL + 3600


class _RedisStore:
    """One Redis client per process (Django's cache builds a new client object on every call, which
    costs more than the lookup itself on this hot path)."""

    def __init__(self, url: str, prefix: str):
        # short timeouts: a hung Redis costs a request half a second, then the page is rendered
        self.client = redis_outage.client(url, 0.5)
        self.prefix = prefix

    def get(self, key):
        value = self.client.get(f"{self.prefix}:{key}")
        return None if value is None else pickle.loads(cast(bytes, value))  # noqa: S301 - the site's own Redis, written by set/add

    def set(self, key, value, ttl):
        self.client.set(f"{self.prefix}:{key}", pickle.dumps(value), ex=ttl)

    def add(self, key, value, ttl):
        self.client.set(f"{self.prefix}:{key}", pickle.dumps(value), ex=ttl, nx=True)

    def delete(self, key):
        self.client.delete(f"{self.prefix}:{key}")

    def set_unless_hidden(self, key, value, ttl, reveal: bool) -> None:
        """Set `key` to `value` (None: leave it) unless it is HIDDEN, then delete it if `reveal`; in one step, so a
        hiding that comes between is never overwritten."""
        self.client.eval(
            _SET_UNLESS_HIDDEN,
            1,
            f"{self.prefix}:{key}",
            b"" if value is None else pickle.dumps(value),
            ttl,
            pickle.dumps(HIDDEN),
            int(reveal),
        )


_SET_UNLESS_HIDDEN = """
if redis.call('GET', KEYS[1]) == ARGV[3] then
    if ARGV[4] == '1' then redis.call('DEL', KEYS[1]) end
    return 0
end
if ARGV[1] ~= '' then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end
return 1
"""


def _store():
    global _STORE
    if _STORE is None:
        options = settings.CACHES["default"]
        if options["BACKEND"].endswith("RedisCache"):
            _STORE = _RedisStore(options["LOCATION"], f"{options.get('KEY_PREFIX', '')}:pages")
        else:
            _STORE = django_cache
    return _STORE


_STORE: "_RedisStore | BaseCache | None" = None


# pages this process rendered or fetched, checked against the shared stamp on every request
_local: dict[tuple[str, str], tuple] = {}
# the shared stamps, trusted for PAGE_STAMP_SECONDS in this process (a change made by another process shows
# after at most that long; this process's own changes show at once)
_local_stamps: dict[str, tuple[str, float]] = {}
LOCAL_PAGES = 500


def _remember(slug: str, name: str, page: tuple) -> None:
    if len(_local) >= LOCAL_PAGES:
        _local.pop(next(iter(_local)))
    _local[(slug, name)] = page


def _stamp_key(slug: str) -> str:
    return f"event-stamp:{slug}"


def _heavy_key(slug: str) -> str:
    return f"event-heavy-pages:{slug}"


def _asked_key(slug: str) -> str:
    return f"event-pages-asked:{slug}"


def _pass_key(slug: str) -> str:
    return f"event-render-pass:{slug}"


def _rendered_key(slug: str) -> str:
    return f"event-rendered-after-recompute:{slug}"


def _explained_key(slug: str) -> str:
    return f"event-explained:{slug}"


def _page_key(slug: str, name: str) -> str:
    return f"event-page:{slug}:{name}"


def _shown_key(slug: str) -> str:
    return f"event-snapshot-shown:{slug}"


def _redis():
    """The page cache's Redis client, or None (a cache of another kind: no worker renders pages)."""
    store = _store()
    return store.client if isinstance(store, _RedisStore) else None
