"""reviews: a finished match reviewed with the AI, every ply (GET /api/matches/{id}/analysis).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the reviews table."""
    op.create_table(
        "reviews",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("plies", sa.JSON(), nullable=False),
        sa.Column("created", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    """Drop the reviews table."""
    op.drop_table("reviews")
