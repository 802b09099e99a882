"""``python -m boardpuzzles``: the same command line as ``boardpuzzles``."""

import sys

from boardpuzzles.cli import main

if __name__ == "__main__":
    sys.exit(main())
