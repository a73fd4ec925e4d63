"""Issue #37: a pairing's time limit grows with the event, so a big open is not stopped for time."""

from pairings.engine import DEFAULT_TIMEOUT, expected_pairing_seconds, pairing_time_limit


def test_a_big_open_is_given_time_by_its_size():
    """A small event keeps the 300 s limit; a 2,000-player open gets minutes more, and the limit is
    always far above what the pairing is expected to take."""
    assert pairing_time_limit(20) == pairing_time_limit(1000) == DEFAULT_TIMEOUT == 300
    assert pairing_time_limit(2000) > 3 * DEFAULT_TIMEOUT
    assert pairing_time_limit(3000) > pairing_time_limit(2000)
    for players in (10, 500, 1000, 1500, 2000, 5000):
        assert pairing_time_limit(players) >= 20 * expected_pairing_seconds(players)
