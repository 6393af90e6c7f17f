"""Settings, read from the environment once at start-up."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

from limits import parse_many

from roomops.messages.settings import TwilioSettings
from roomops.rooms.session_rules import SessionLimits

INSTANCE = Path(os.environ.get("ROOMOPS_INSTANCE", "instance"))
DEV_PUBLIC_URL = "http://localhost:5000"  # `flask --app app serve`'s default port, on this machine
# hosts a server may listen on that phones know no better name for than this machine's own
_LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "0.0.0.0", "::", "::1", ""})
_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


def served_url(host: str, port: int) -> str:
    """The public address of a server listening on ``host`` and ``port`` when ROOMOPS_PUBLIC_URL is
    not set: that host (``localhost`` for the loopback or every interface) and that port."""
    name = "localhost" if host in _LOCAL_HOSTS else f"[{host}]" if ":" in host else host
    return f"http://{name}:{port}"


def phones_hint(host: str, port: int) -> str:
    """The console's one line for a server without ROOMOPS_PUBLIC_URL: where the board's QR code
    sends phones, and what to set so that they reach this server."""
    address = served_url(host, port)
    if host in _LOOPBACK:
        return (f"phones: the board's QR code sends them to {address}, which only this computer "
                f"reaches; for players' phones serve with --host 0.0.0.0 and set "
                f"ROOMOPS_PUBLIC_URL=http://<this computer's address>:{port}")
    if host in _LOCAL_HOSTS:
        return (f"phones: set ROOMOPS_PUBLIC_URL=http://<this computer's address>:{port} so that "
                f"the board's QR code reaches this server (it sends them to {address} now)")
    return f"phones: the board's QR code sends them to {address} (ROOMOPS_PUBLIC_URL changes it)"


def _embedded_database() -> str:
    """The embedded default: SQLite in the instance folder, made if it is not there yet (a fresh
    checkout with ROOMOPS_SECRET_KEY set has none: the secret key's file would have made it)."""
    INSTANCE.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(INSTANCE / 'roomops.db').absolute()}"


def _secret_key() -> str:
    """ROOMOPS_SECRET_KEY, or a random key kept in the instance folder so logins survive restarts."""
    if key := os.environ.get("ROOMOPS_SECRET_KEY"):
        return key
    path = INSTANCE / "secret_key"
    if not path.exists():
        INSTANCE.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
    return path.read_text().strip()


@dataclass
class Settings:
    database_url: str = field(default_factory=lambda: os.environ.get("ROOMOPS_DATABASE_URL")
                              or _embedded_database())
    # The tables' owner, who runs the migrations and `db create-roles` (docs/security.md, "The
    # books"); empty: the app's own URL (SQLite, or one PostgreSQL role for both)
    owner_database_url: str = field(default_factory=lambda: os.environ.get(
        "ROOMOPS_OWNER_DATABASE_URL", ""))
    # embedded: the scheduler runs inside the web process; off: run `flask scheduler` separately.
    scheduler: str = field(default_factory=lambda: os.environ.get("ROOMOPS_SCHEDULER", "embedded"))
    sweep_seconds: float = field(
        default_factory=lambda: float(os.environ.get("ROOMOPS_SWEEP_SECONDS", "2")))
    # the desk, the board and /health say the sweep is late past this many seconds without one
    # (a deployment setting, not a room's: docs/decisions.md, "The scheduler's heartbeat")
    sweep_stale_seconds: float = field(
        default_factory=lambda: float(os.environ.get("ROOMOPS_SWEEP_STALE_SECONDS", "15")))
    # the row this process's sweeps write in sweep_heartbeats; empty: host and process id
    scheduler_id: str = field(default_factory=lambda: os.environ.get("ROOMOPS_SCHEDULER_ID", ""))
    secret_key: str = field(default_factory=_secret_key)
    # The address players' phones reach the app at (scheme, host, any path prefix): the board shows
    # it, never the request's Host header. An https:// address also turns on HSTS on every answer.
    public_url: str = field(default_factory=lambda: os.environ.get(
        "ROOMOPS_PUBLIC_URL", DEV_PUBLIC_URL))
    # R61: a log-in ends after this long without a request, and this long after it began however
    # busy it is (a deployment setting, not a room's: docs/decisions.md, "Sessions end on the server")
    session_idle_minutes: float = field(
        default_factory=lambda: float(os.environ.get("ROOMOPS_SESSION_IDLE_MINUTES", "240")))
    session_max_hours: float = field(
        default_factory=lambda: float(os.environ.get("ROOMOPS_SESSION_MAX_HOURS", "14")))
    # R61: failed log-ins (and wrong approvals, counted apart) allowed per typed username and per
    # address in a moving window, in limits' notation; where the counts are kept: "memory://"
    # (one process) or "redis://127.0.0.1:6379" (shared by several workers; docs/security.md)
    login_limit_per_account: str = field(default_factory=lambda: os.environ.get(
        "ROOMOPS_LOGIN_LIMIT_PER_ACCOUNT", "10 per 15 minutes"))
    login_limit_per_address: str = field(default_factory=lambda: os.environ.get(
        "ROOMOPS_LOGIN_LIMIT_PER_ADDRESS", "30 per 15 minutes"))
    # R12: joins from the phone page allowed per address (every attempt counts)
    join_limit_per_address: str = field(default_factory=lambda: os.environ.get(
        "ROOMOPS_JOIN_LIMIT_PER_ADDRESS", "20 per hour"))
    ratelimit_storage_uri: str = field(default_factory=lambda: os.environ.get(
        "ROOMOPS_RATELIMIT_STORAGE_URI", "memory://"))
    # how many reverse proxies in front add X-Forwarded-For: the address counted and logged is
    # the client's, not the proxy's (0: requests come straight from the clients)
    trusted_proxies: int = field(
        default_factory=lambda: int(os.environ.get("ROOMOPS_TRUSTED_PROXIES", "0")))
    # where the security log's JSON lines go: "stderr" or a file's path
    security_log: str = field(default_factory=lambda: os.environ.get(
        "ROOMOPS_SECURITY_LOG", "stderr"))
    # R20: the text-message provider (docs/messages.md); no account SID: no texts (LogOnly)
    twilio: TwilioSettings = field(default_factory=TwilioSettings)
    # Pushed screens (docs/board.md, "Pushed"): empty, the app serves the board's streams itself to
    # at most push_streams screens (one process, no broker; 0: every screen polls); a redis://
    # URL, the web processes publish there and `flask push-server` serves the streams
    push_broker: str = field(default_factory=lambda: os.environ.get("ROOMOPS_PUSH_BROKER", ""))
    push_streams: int = field(
        default_factory=lambda: int(os.environ.get("ROOMOPS_PUSH_STREAMS", "16")))
    # issue 40: the staff screens' own streams (the public cannot take them), and how many of the
    # board's streams one client address may hold, in the app and on the push server (0: no bound)
    push_staff_streams: int = field(
        default_factory=lambda: int(os.environ.get("ROOMOPS_PUSH_STAFF_STREAMS", "16")))
    push_streams_per_address: int = field(
        default_factory=lambda: int(os.environ.get("ROOMOPS_PUSH_STREAMS_PER_ADDRESS", "4")))
    # the broker's keys and channels start with this (deployments sharing one Redis)
    push_prefix: str = field(
        default_factory=lambda: os.environ.get("ROOMOPS_PUSH_PREFIX", "roomops:push"))
    testing: bool = False

    def __post_init__(self) -> None:
        parts = urlsplit(self.public_url)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
            raise ValueError(f"ROOMOPS_PUBLIC_URL must be an http:// or https:// address without "
                             f"query or fragment, like {DEV_PUBLIC_URL} (got {self.public_url!r})")
        if self.session_idle_minutes <= 0 or self.session_max_hours <= 0:
            raise ValueError("ROOMOPS_SESSION_IDLE_MINUTES and ROOMOPS_SESSION_MAX_HOURS must be "
                             "more than 0")
        for name, limit in (("ROOMOPS_LOGIN_LIMIT_PER_ACCOUNT", self.login_limit_per_account),
                            ("ROOMOPS_LOGIN_LIMIT_PER_ADDRESS", self.login_limit_per_address),
                            ("ROOMOPS_JOIN_LIMIT_PER_ADDRESS", self.join_limit_per_address)):
            try:
                parse_many(limit)
            except ValueError:
                raise ValueError(f"{name} must be a limit like '10 per 15 minutes' "
                                 f"(got {limit!r})") from None
        if self.trusted_proxies < 0:
            raise ValueError("ROOMOPS_TRUSTED_PROXIES must be 0 or more")
        self.twilio.check()

    @property
    def owner_url(self) -> str:
        """The URL migrations and grants connect with: the owner's, else the app's own."""
        return self.owner_database_url or self.database_url

    @property
    def https(self) -> bool:
        """Whether the deployment is served over HTTPS (its public address is)."""
        return urlsplit(self.public_url).scheme == "https"

    @property
    def twilio_status_url(self) -> str:
        """Where Twilio reports delivery: the setting, else the public URL's hook (no query)."""
        return self.twilio.status_callback_url or (
            f"{self.public_url.rstrip('/')}/hooks/twilio/status")

    @property
    def session_limits(self) -> SessionLimits:
        return SessionLimits(idle=timedelta(minutes=self.session_idle_minutes),
                             lifetime=timedelta(hours=self.session_max_hours))
