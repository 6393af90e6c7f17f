"""The failures counted (``login_failures``) and the addresses each staff member logged in or
approved from (``known_addresses``), migration 0049."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from roomops.checks import one_of
from roomops.db import Base, UTCDateTime

Kind = Literal["login", "approval"]  # a log-in, or a second person's password typed to approve
ADDRESS_MAX = 64  # an IPv6 address with its zone is at most 45 characters
USERNAME_MAX = 100  # a typed username as counted: trimmed, case folded, cut (``rules.typed``)


class LoginFailure(Base):
    """The wrong passwords typed for one username from one address, since ``first_at``, the last
    at ``last_at``. A right password from there deletes it; so does an admin clearing it (R60);
    it stops counting a window after ``last_at`` (``roomops.lockouts.rules``). Not audited for
    itself: a failed log-in of a known username is (``staff.login_failed``)."""

    __tablename__ = "login_failures"
    __table_args__ = (
        UniqueConstraint("kind", "username", "address", name="uq_login_failures_key"),
        CheckConstraint(one_of("kind", Kind), name="kind"),
        CheckConstraint("failures >= 1", name="failures"),
        CheckConstraint("last_at >= first_at", name="times"),
        Index("ix_login_failures_address", "kind", "address", "last_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[Kind] = mapped_column(String(8))
    username: Mapped[str] = mapped_column(String(USERNAME_MAX))
    address: Mapped[str] = mapped_column(String(ADDRESS_MAX))
    failures: Mapped[int]
    first_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_at: Mapped[datetime] = mapped_column(UTCDateTime)


class KnownAddress(Base):
    """An address a staff member logged in from, or approved from, with the right password: from
    there their wrong passwords slow them down but never lock them out."""

    __tablename__ = "known_addresses"

    staff_id: Mapped[int] = mapped_column(ForeignKey("staff.id", ondelete="CASCADE"),
                                          primary_key=True)
    address: Mapped[str] = mapped_column(String(ADDRESS_MAX), primary_key=True)
    last_at: Mapped[datetime] = mapped_column(UTCDateTime)
