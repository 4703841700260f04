"""Alembic's command line with this package's configuration (no ``alembic.ini``), e.g.

    python -m hexarena.server.migrations revision -m "add a column" --rev-id 0004
    python -m hexarena.server.migrations -x db=sqlite:///data/hexarena.db revision --autogenerate -m "..."
    python -m hexarena.server.migrations -x db=sqlite:///data/hexarena.db current
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from alembic.config import CommandLine

from hexarena.server.migrations import alembic_config


def main(argv: Sequence[str] | None = None) -> None:
    """Parse Alembic's arguments and run the command on this package's scripts."""
    cli = CommandLine(prog="python -m hexarena.server.migrations")
    options = cli.parser.parse_args(argv)
    if not hasattr(options, "cmd"):
        cli.parser.error("name a command (revision, upgrade, downgrade, current, history, heads, ...)")
    config = alembic_config()
    config.cmd_opts = options
    cli.run_cmd(config, options)


if __name__ == "__main__":
    main(sys.argv[1:])
