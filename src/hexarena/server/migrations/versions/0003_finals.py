"""finals: the final fields of finished games whose exact scores are costly, once per match and ply.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create finals (keyed by match and ply)."""
    op.create_table(
        "finals",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ply", sa.Integer(), primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("fields", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    """Drop finals."""
    op.drop_table("finals")
