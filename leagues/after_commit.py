"""Work done once per transaction after it commits, however many writes asked for it.

A round sheet or a 400-player TRF import saves hundreds of rows of one event in one transaction; each
asks for the event's pages to be renewed and its standings recomputed. `once_after_commit` keeps one
piece of work per key (e.g. ("recompute", event id)) and runs them all in one on-commit hook. The work
runs after the data is saved, so it must never fail the request: an exception is logged, never raised.
"""

import logging
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from django.db import transaction

log = logging.getLogger(__name__)
T = TypeVar("T")


class _Batch:
    def __init__(self) -> None:
        self.work: dict[Hashable, Callable[[], None]] = {}
        self.items: dict[Hashable, list[Any]] = {}
        self.done: set[Hashable] = set()

    def run(self) -> None:
        for key, work in self.work.items():
            _run(key, work)


def _run(key: Hashable, work: Callable[[], None]) -> None:
    try:
        work()
    except Exception:  # the transaction is committed: the answer must not become an error
        log.warning("after-commit work %s failed; the sweep will catch up", key, exc_info=True)


def _waiting_batch() -> _Batch:
    connection = transaction.get_connection()
    batch = getattr(connection, "_once_after_commit", None)
    # a batch whose hook went with a rolled-back savepoint (or an earlier transaction) is no longer waiting
    if batch is None or not any(getattr(hook, "__self__", None) is batch for _s, hook, _r in connection.run_on_commit):
        batch = connection._once_after_commit = _Batch()
        transaction.on_commit(batch.run)
    return batch


def once_after_commit(key: Hashable, work: Callable[[], None]) -> None:
    """Run `work` once the current transaction commits (at once outside one); once per key and transaction."""
    if not transaction.get_connection().in_atomic_block:
        _run(key, work)
        return
    _waiting_batch().work.setdefault(key, work)


def first_in_transaction(key: Hashable) -> bool:
    """True the first time `key` is asked in the current transaction (always outside one): a write done once per
    transaction inside it, however many writes ask (an event's results version raised once for a card's boards).
    Like the items of collected_after_commit, a key asked inside a savepoint that rolled back stays asked."""
    if not transaction.get_connection().in_atomic_block:
        return True
    done = _waiting_batch().done
    if key in done:
        return False
    done.add(key)
    return True


def collected_after_commit(key: Hashable, item: T, work: Callable[[list[T]], None]) -> None:
    """Run `work` once the current transaction commits with every item given under `key` in it, in order
    (a round sheet's or an import's results: one call with all of them); at once with [item] outside one.
    Like the work of once_after_commit, an item given inside a savepoint that rolled back stays: services raise
    through their transaction, never carry on after a refused write."""
    if not transaction.get_connection().in_atomic_block:
        _run(key, lambda: work([item]))
        return
    batch = _waiting_batch()
    items = batch.items.setdefault(key, [])
    items.append(item)
    batch.work.setdefault(key, lambda: work(items))
