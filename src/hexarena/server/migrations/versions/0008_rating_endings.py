"""rating_changes.ending: how a seat lost a rated game where it was quick ("resigned" at once, "abandoned").

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-29

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the column (null for the games rated before: their endings were not kept)."""
    with op.batch_alter_table("rating_changes") as batch:
        batch.add_column(sa.Column("ending", sa.String(16), nullable=True))


def downgrade() -> None:
    """Drop the column."""
    with op.batch_alter_table("rating_changes") as batch:
        batch.drop_column("ending")
