"""The site equals FIDE's tools end to end (issue #30): random tournaments (the Random Tournament Generator's Swiss
events, and round robins) built, paired and played through the site's own doors, then checked after every round
with FIDE's pairing checker and tie-break checker on the site's own TRF export (tests/fide_site.py).
``make check-fide N=...`` plays as many as asked."""

import pytest

from tests.fide_site import Tally, play

# the recompute runs after each commit, as on the site
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

#: twenty small tournaments (four of them round robins, three with Baku acceleration, three with a late entry), in
#: chunks (each chunk one test, one database flush)
SEEDS = [*range(1, 16), 20, 22, 26, 47, 48]
CHUNKS = [SEEDS[i : i + 5] for i in range(0, len(SEEDS), 5)]


@pytest.mark.parametrize("seeds", CHUNKS, ids=lambda seeds: f"seeds-{seeds[0]}-{seeds[-1]}")
def test_random_tournaments_played_on_the_site_equal_fides_tools(seeds):
    tally = Tally(tournaments=0)
    for seed in seeds:
        tally.add(play(seed))
    assert tally.disagreements == [], tally.summary()
    assert tally.unfinished == [] and tally.tournaments == len(seeds) and tally.rounds >= 4 * len(seeds)
    assert tally.pairings_equal == tally.rounds == tally.verdicts_ok
    assert tally.values_equal == tally.values > 0
