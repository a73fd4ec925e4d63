"""TRF-16 / TRF-2026 reader and writer, to and from the engine's input model.

Reference: FIDE's TRF-16 and TRF-2026 formats (columns of every record, the import algorithm,
the export rules). Pure Python, standard library only: the command line imports this package on
every run, so it must stay cheap. Modules: :mod:`.codes` (result codes, record order, scoring
records), :mod:`.read`, :mod:`.problems` (every problem at once, for the import preview),
:mod:`.write`.

    >>> tournament = read_trf(open("event.trf", "rb").read())
    >>> text = write_trf(tournament)          # CRLF line ends, record 162 always written

What is modelled (and therefore survives ``write_trf(read_trf(x))``): 001 player records (every
field; the points column is recomputed and must agree), 012 name, 042/052 dates, 062/072/082
(recomputed), 142 rounds (or ``XXR``), 162 game scoring (inferred from the points columns when
absent, §5), 192 type, 202/212 tie-break lists, 013/310 teams, 362 match points and 240 byes
(merged into the 001 rounds). Every other record (022, 092, 102, 132, 172 with its national
rating records, comments, unknown tags, ...) is kept verbatim in ``Tournament.extra_records``
and written back in the checker's record order.

Consistency rules enforced on import (§4, §9): start numbers 1..N without gaps, opponents exist
and point back in the same round with the opposite colour and the complementary code, byes have
no opponent, at most one ``U`` per round, the points column equals the awarded points, 240
records agree with the 001 records. Every violation raises :class:`TRFError` naming the line.
"""

from .codes import TRFError
from .problems import trf_problems
from .read import apply_national_ratings, decode_trf, read_trf, read_trf_file
from .write import encode_trf, write_trf

__all__ = [
    "TRFError",
    "read_trf",
    "read_trf_file",
    "trf_problems",
    "write_trf",
    "encode_trf",
    "decode_trf",
    "apply_national_ratings",
]
