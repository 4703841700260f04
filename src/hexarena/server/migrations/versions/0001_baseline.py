"""The baseline: matches and their moves, as the server made them before migrations (create_all).

Revision ID: 0001
Revises:
Create Date: 2026-11-26

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create matches (indexed by update time) and moves (unique per match and ply)."""
    op.create_table(
        "matches",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("tokens", sa.JSON(), nullable=False),
        sa.Column("resigned", sa.Integer()),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("over", sa.Boolean(), nullable=False),
        sa.Column("winner", sa.Integer()),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("created", sa.String(32), nullable=False),
        sa.Column("updated", sa.String(32), nullable=False),
    )
    op.create_index("ix_matches_updated", "matches", ["updated"])
    op.create_table(
        "moves",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("move", sa.String(64), nullable=False),
        sa.Column("time", sa.String(32), nullable=False),
        sa.UniqueConstraint("match_id", "ply", name="moves_match_ply"),
    )


def downgrade() -> None:
    """Drop moves and matches."""
    op.drop_table("moves")
    op.drop_index("ix_matches_updated", table_name="matches")
    op.drop_table("matches")
