"""the player to move of each match, kept so "my turn" lists need not replay matches (null for a match stored
before: it is read from its replayed state until its next change).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add matches.to_move (null: not known yet)."""
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("to_move", sa.Integer()))


def downgrade() -> None:
    """Drop matches.to_move."""
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("to_move")
