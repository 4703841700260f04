"""addresses: the client address an account was registered from and a seek posted from (docs/server.md, "Limits":
--max-accounts-per-address, --max-open-seeks-per-address).  Rows made before are not counted (null, "").

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-29

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add accounts.client and seeks.client, each with its index."""
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("client", sa.String(64), nullable=True))
        batch.create_index("ix_accounts_client", ["client"])
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("client", sa.String(64), server_default="", nullable=False))
        batch.create_index("ix_seeks_client", ["client"])


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("seeks") as batch:
        batch.drop_index("ix_seeks_client")
        batch.drop_column("client")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_index("ix_accounts_client")
        batch.drop_column("client")
