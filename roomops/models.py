"""Every model, imported once so the metadata (and Alembic) sees the whole schema."""

from roomops.absences.models import Absence
from roomops.audit.models import AuditEvent
from roomops.db import Base
from roomops.dealers.models import DealerOverride, DealerShift, DealerSpell
from roomops.figures.models import FigureHour, FigureRoll, FigureWait
from roomops.games.models import Game, Table
from roomops.hands.models import Hand, PenaltyRecord, SeatBlinds
from roomops.heartbeat.models import SweepHeartbeat
from roomops.holds.models import SeatChangeRequest, SeatHold
from roomops.holds.playovers import Playover
from roomops.jackpots.models import (
    JackpotBoxCount,
    JackpotClaim,
    JackpotDecision,
    JackpotLink,
    JackpotRow,
    JackpotScheme,
)
from roomops.ledger.models import (
    DayClose,
    DayCount,
    DealerDown,
    LedgerEntry,
    SlipCounter,
    TransitSlip,
)
from roomops.lists.models import ListEntry
from roomops.lockouts.models import KnownAddress, LoginFailure
from roomops.messages.models import OutboxMessage
from roomops.remote.models import BlockedPhone, PhoneCode, PlayerLink
from roomops.rooms.models import BarredPair, Player, Room, Staff
from roomops.tokes.models import TokeCount, TokeShare

__all__ = [
    "Absence",
    "AuditEvent",
    "BarredPair",
    "Base",
    "BlockedPhone",
    "DayClose",
    "DayCount",
    "DealerDown",
    "DealerOverride",
    "DealerShift",
    "DealerSpell",
    "FigureHour",
    "FigureRoll",
    "FigureWait",
    "Game",
    "Hand",
    "JackpotBoxCount",
    "JackpotClaim",
    "JackpotDecision",
    "JackpotLink",
    "JackpotRow",
    "JackpotScheme",
    "KnownAddress",
    "LedgerEntry",
    "ListEntry",
    "LoginFailure",
    "OutboxMessage",
    "PenaltyRecord",
    "PhoneCode",
    "Player",
    "PlayerLink",
    "Playover",
    "Room",
    "SeatBlinds",
    "SeatChangeRequest",
    "SeatHold",
    "SlipCounter",
    "Staff",
    "SweepHeartbeat",
    "Table",
    "TokeCount",
    "TokeShare",
    "TransitSlip",
]
