"""``python -m tiebreaks standings|explain FILE.trf ...`` - see tiebreaks/cli.py."""

import gc
import os
import sys

# a one-shot process: the cyclic collector would only re-scan the modules and the tournament
# being loaded (nothing here builds garbage cycles); main() keeps it off until the end
gc.disable()

from tiebreaks.cli import main  # noqa: E402


def _exit(status: int) -> None:
    """Exit without tearing the interpreter down: freeing every object of the computation one by
    one costs more than a tenth of the run, and the process owns nothing else to clean up (no
    atexit handlers, no open files but the standard streams, flushed here). If flushing fails
    (e.g. a closed pipe), the ordinary exit reports it as before."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        sys.exit(status)
    os._exit(status)


if __name__ == "__main__":
    _exit(main())
