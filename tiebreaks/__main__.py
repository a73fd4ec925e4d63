"""``python -m tiebreaks standings|explain FILE.trf ...`` - see tiebreaks/cli.py."""

import sys

from tiebreaks.cli import main

if __name__ == "__main__":
    sys.exit(main())
