"""Random playouts per second for each game beside OpenSpiel's C++ rollouts.

    .venv/bin/python bench/playouts.py [GAME ...] [--seconds S]

The same as ``hexarena bench``; OpenSpiel (open-spiel==2.0.2) is installed
into the running environment on demand, or the ratios are skipped.
"""

import sys

from hexarena.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
