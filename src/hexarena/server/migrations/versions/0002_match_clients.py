"""match_clients: who created each match and whether a seat waits for a player; the existing matches filled in
(creator unknown: "").

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# the matches table as this revision reads it
matches = sa.table("matches", sa.column("id", sa.String(32)), sa.column("seats", sa.JSON()),
                   sa.column("created", sa.String(32)))


def upgrade() -> None:
    """Create match_clients (indexed by client and creation time) and give every match its row."""
    clients = op.create_table(
        "match_clients",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("waiting", sa.Boolean(), nullable=False),
        sa.Column("created", sa.String(32), nullable=False),
    )
    op.create_index("ix_match_clients_client", "match_clients", ["client"])
    op.create_index("ix_match_clients_created", "match_clients", ["created"])
    rows = op.get_bind().execute(sa.select(matches.c.id, matches.c.seats, matches.c.created)).all()
    if rows:
        op.bulk_insert(clients, [{"match_id": r.id, "client": "", "waiting": "open" in r.seats,
                                  "created": r.created} for r in rows])


def downgrade() -> None:
    """Drop match_clients."""
    op.drop_index("ix_match_clients_created", table_name="match_clients")
    op.drop_index("ix_match_clients_client", table_name="match_clients")
    op.drop_table("match_clients")
