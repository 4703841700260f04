"""ratings: the AI levels as accounts ai-1 ... ai-10, each account's Glicko-2 rating per game, and every rating
change a rated match made (the profiles' history and the records' ratings).

A person's account already named like an AI level (names were free before) is renamed NAME_ID.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27

"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LEVELS = range(1, 11)


def upgrade() -> None:
    """Add accounts.ai_level, the AI accounts, and the ratings and rating_changes tables."""
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("ai_level", sa.Integer()))
    accounts = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name", sa.String),
                        sa.column("name_key", sa.String), sa.column("created", sa.String),
                        sa.column("ai_level", sa.Integer))
    conn = op.get_bind()
    names = [f"ai-{level}" for level in LEVELS]
    for row in conn.execute(sa.select(accounts.c.id, accounts.c.name).where(accounts.c.name_key.in_(names))).all():
        renamed = f"{row.name}_{row.id}"[:20]
        conn.execute(sa.update(accounts).where(accounts.c.id == row.id).values(name=renamed,
                                                                                name_key=renamed.lower()))
    stamp = datetime.now(UTC).isoformat(timespec="milliseconds")
    op.bulk_insert(accounts, [{"name": name, "name_key": name, "created": stamp, "ai_level": level}
                              for level, name in zip(LEVELS, names, strict=True)])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", sa.String(32), nullable=False),
    )
    op.create_index("ix_ratings_game_rating", "ratings", ["game", "rating"])
    op.create_table(
        "rating_changes",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rd_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("rd_after", sa.Float(), nullable=False),
        sa.Column("at", sa.String(32), nullable=False),
    )
    op.create_index("ix_rating_changes_account_id", "rating_changes", ["account_id"])


def downgrade() -> None:
    """Drop the rating tables, the AI accounts (and their seats) and accounts.ai_level."""
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.execute("DELETE FROM match_players WHERE account_id IN (SELECT id FROM accounts WHERE ai_level IS NOT NULL)")
    op.execute("DELETE FROM accounts WHERE ai_level IS NOT NULL")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("ai_level")
