"""tournaments: events (round robins, Swiss, knockouts, championship divisions), their entrants and games, and the
championships' sign-ups (docs/server.md, "Tournaments and championships").

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-29

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create tournaments, tournament_players, tournament_games and championship_entries."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("by_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"), index=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("format", sa.String(24), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("clock", sa.JSON(), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("max_players", sa.Integer, nullable=False),
        sa.Column("rating_lo", sa.Integer),
        sa.Column("rating_hi", sa.Integer),
        sa.Column("starts", sa.String(32)),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("created", sa.String(32), nullable=False, index=True),
        sa.Column("championship", sa.String(64), index=True),
        sa.Column("cycle", sa.Integer),
        sa.Column("division", sa.String(8)),
    )
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True,
                  index=True),
        sa.Column("seed", sa.Integer),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("withdrawn", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("joined", sa.String(32), nullable=False),
    )
    op.create_table(
        "tournament_games",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("board", sa.Integer, nullable=False),
        sa.Column("seat0", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("seat1", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="SET NULL"), index=True),
        sa.Column("result", sa.Float),
        sa.Column("forfeit", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.UniqueConstraint("tournament_id", "round", "board", name="tournament_games_board"),
    )
    op.create_table(
        "championship_entries",
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True,
                  index=True),
        sa.Column("joined", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    for table in ("championship_entries", "tournament_games", "tournament_players", "tournaments"):
        op.drop_table(table)
