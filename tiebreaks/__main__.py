"""``python -m tiebreaks standings|explain FILE.trf ...`` - see tiebreaks/cli.py."""

import gc
import sys

# a one-shot process: the cyclic collector would only re-scan the modules and the tournament
# being loaded (nothing here builds garbage cycles); main() keeps it off until the end
gc.disable()

from tiebreaks.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
