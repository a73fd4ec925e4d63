"""TRF-16 / TRF-2026 reader and writer, to and from the engine's input model.

Reference: FIDE's TRF-16 and TRF-2026 formats (columns of every record, the import algorithm,
the export rules). Pure Python, standard library only: the command line imports this package on
every run, so it must stay cheap. Modules: :mod:`.codes` (result codes, record order, scoring
records), :mod:`.read`, :mod:`.problems` (every problem at once, for the import preview),
:mod:`.write`.

    >>> tournament = read_trf(open("event.trf", "rb").read())
    >>> text = write_trf(tournament)          # CRLF line ends, record 162 always written

What is modelled (and therefore survives ``write_trf(read_trf(x))``): 001 player records (every
field; the points column is recomputed on export), 012 name, 042/052 dates (kept as written
when not a clear date), 062/072/082 (recomputed), 142 rounds (or ``XXR``), 162 game scoring
(else JaVaFo's BBx records, else inferred from the points columns), 192 type, 202/212 tie-break
lists, 013/310 teams, 362 match points and, in individual events, 240 byes (merged into the 001
rounds). Every other record (022, 092, 102, 132, 172 with its national rating records, 240 of
team files, 250, 260, 299, 300, 320, 330, XXA, XXC, BBx, comments, unknown tags, ...) is kept
verbatim in ``Tournament.extra_records`` and written back in the checker's record order.

The site's own ``###`` lines for newer ratings during the event (TRF-26 holds one rating per player) are read
by :func:`apply_round_ratings` and :func:`round_rating_records`.

How real exporters' dialects are read, and what is refused: :mod:`.read`.
"""

from .codes import TRFError, TRFNote
from .problems import trf_problems
from .read import (
    apply_national_ratings,
    apply_round_ratings,
    decode_trf,
    ratings_per_round_chosen,
    read_trf,
    read_trf_file,
    read_trf_with_notes,
    round_rating_records,
)
from .write import encode_trf, write_trf

__all__ = [
    "TRFError",
    "TRFNote",
    "apply_national_ratings",
    "apply_round_ratings",
    "decode_trf",
    "encode_trf",
    "ratings_per_round_chosen",
    "read_trf",
    "read_trf_file",
    "read_trf_with_notes",
    "round_rating_records",
    "trf_problems",
    "write_trf",
]
