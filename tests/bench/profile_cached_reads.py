"""What a reader's conditional request costs the web process when the page is in the cache (not a test; issue #37).

    .venv/bin/python tests/bench/profile_cached_reads.py [--reads 3000]

A federation night's section (216 players, 9 rounds, rounds 1-3 played: bench_night.build_open) and its standings page,
read through Django's test Client (the whole middleware stack, with the settings bench_night gives its web:
config.settings.dev, DEBUG off, the page cache in Redis, PAGE_STAMP_SECONDS 1) by a reader who has the page and sends
its ETag, in two states:
- current: the page is the one of the event's stamp (a 304 from the stamp);
- left to a worker: a result moved the stamp on, the page is heavy and a worker's heartbeat is fresh, so the reader
  gets the page as it was (a 304 for its earlier ETag) while a worker is asked to render the new one, as on a busy
  night for every heavy page whose worker is behind.
For each: this process's CPU milliseconds a read (time.process_time over `--reads` reads), in the same run.
Its own database (chess_league_bench_write, as profile_result_write's) and Redis DB 7, emptied at the start and the end.
"""

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.bench import profile_result_write as writes  # noqa: E402 - the environment of its web, and its section


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reads", type=int, default=3000, help="conditional reads in each state")
    args = parser.parse_args()
    queue = writes.site_ready()
    from django.test import Client

    from leagues import broker, page_cache

    try:
        _organiser, _token, section, _divisions = writes.build(0)
        client, path, name = Client(HTTP_ACCEPT_ENCODING="gzip"), f"/en/events/{section.slug}/", "standings-en"

        def conditional_reads(etag: str) -> float:
            started = time.process_time()
            for _ in range(args.reads):
                answer = client.get(path, HTTP_IF_NONE_MATCH=etag)
                assert answer.status_code == 304, answer.status_code
            return (time.process_time() - started) / args.reads * 1000

        client.get(path)  # the route learned: later reads are answered before the view
        current = client.get(path)["ETag"]
        time.sleep(1.1)  # a new stamp is a second newer at least
        page_cache._redis().hset(page_cache._heavy_key(section.slug), name, 1000)
        broker.record_heartbeat()
        page_cache.event_pages_changed(slug=section.slug)  # a result's renewal
        time.sleep(float(os.environ.get("PAGE_STAMP_SECONDS", "1")) + 0.1)  # this process trusts the new stamp
        left = client.get(path)
        assert left["ETag"] == current, "the page as it was, left to a worker"
        print(f"section of {writes.PLAYERS} players, its standings page, {args.reads} conditional reads in each state")
        print("| the page | CPU a read (this process) |\n|---|---|")
        print(f"| left to a worker (a result moved its stamp on) | {conditional_reads(current):.3f} ms |")
        page_cache.event_pages_changed(slug=section.slug)
        time.sleep(1.1)
        page_cache._redis().hdel(page_cache._heavy_key(section.slug), name)
        fresh = client.get(path)["ETag"]
        assert fresh != current, "rendered here once light again"
        print(f"| current | {conditional_reads(fresh):.3f} ms |")
    finally:
        queue.flushdb()


if __name__ == "__main__":
    main()
