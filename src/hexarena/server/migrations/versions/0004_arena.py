"""arena: accounts and sessions, the account in each seat, a match's time control and deadline, seeks and
challenges, chat, e-mail notices.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MATCH_COLUMNS = ("clock", "remaining", "turn_started", "deadline", "timed_out", "rated")


def upgrade() -> None:
    """Add the time columns to matches (existing matches: no clock, casual) and create the arena's tables."""
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("clock", sa.JSON()))
        batch.add_column(sa.Column("remaining", sa.JSON()))
        batch.add_column(sa.Column("turn_started", sa.String(32)))
        batch.add_column(sa.Column("deadline", sa.String(32)))
        batch.add_column(sa.Column("timed_out", sa.Integer()))
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.create_index("ix_matches_deadline", ["deadline"])
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(20), nullable=False, unique=True),
        sa.Column("password", sa.String(255)),
        sa.Column("created", sa.String(32), nullable=False),
        sa.Column("deleted", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("email", sa.String(254)),
        sa.Column("email_verified", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("email_token", sa.String(64)),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.String(32), nullable=False),
        sa.Column("seen", sa.String(32), nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "match_players",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
    )
    op.create_index("ix_match_players_account_id", "match_players", ["account_id"])
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("author_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("to_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE")),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("clock", sa.JSON()),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("colour", sa.String(8), nullable=False),
        sa.Column("created", sa.String(32), nullable=False),
        sa.Column("expires", sa.String(32), nullable=False),
    )
    op.create_index("ix_seeks_author_id", "seeks", ["author_id"])
    op.create_index("ix_seeks_to_id", "seeks", ["to_id"])
    op.create_index("ix_seeks_expires", "seeks", ["expires"])
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id")),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.String(32), nullable=False),
    )
    op.create_index("ix_chat_match_id", "chat", ["match_id"])
    op.create_table(
        "notices",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("subject", sa.String(64), primary_key=True),
        sa.Column("sent", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    """Drop the arena's tables and the time columns (every match kept, as casual matches without a clock)."""
    for table in ("notices", "chat", "seeks", "match_players", "sessions", "accounts"):
        op.drop_table(table)
    with op.batch_alter_table("matches") as batch:
        batch.drop_index("ix_matches_deadline")
        for column in MATCH_COLUMNS:
            batch.drop_column(column)
