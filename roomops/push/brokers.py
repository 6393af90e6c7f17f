"""Where the publisher sends a room's update: the process's own hub (the embedded default, one
process, no broker) or Redis pub/sub, which carries it to the push servers (``ROOMOPS_PUSH_BROKER``).

With Redis one script numbers the room's message (``INCR``, so every web process and the scheduler
share one sequence and ``Last-Event-ID`` means the same everywhere), keeps the room's current state
in a hash (a push server that starts, or first sees a room, reads the whole page from it) and
publishes, atomically: messages reach the push servers in the order of their numbers. Each of a
room's languages is a channel of its own, with its own sequence and state (issue 21). Which
languages the screens read is known to the broker too (``Broker.shown``): the publisher draws a
game in those alone (issue 41)."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Protocol, cast

import redis

from roomops.push.hub import Hub
from roomops.push.messages import Message, Update
from roomops.rooms.languages import DEFAULT, LANGUAGES

log = logging.getLogger("roomops.push")
# A language a page was drawn in, or a push server's page reads, is drawn this long after: the
# push servers say it again every ``roomops.push.alive.BEAT_SECONDS`` while a page reads it.
SHOWN_SECONDS = 15


@dataclass(frozen=True)
class Keys:
    """The broker's names, under ``ROOMOPS_PUSH_PREFIX`` (deployments, or tests, sharing a Redis)."""

    prefix: str = "roomops:push"

    @property
    def slugs(self) -> str:  # hash: room slug -> room id, for the push server's routes
        return f"{self.prefix}:slugs"

    @property
    def channels(self) -> str:
        return f"{self.prefix}:room:*"

    def channel(self, room_id: int, lang: str) -> str:
        return f"{self.prefix}:room:{room_id}:{lang}"

    def room_of(self, channel: str) -> tuple[int, str]:
        """The room and language of a channel's name."""
        room, _, lang = channel.removeprefix(f"{self.prefix}:room:").partition(":")
        return int(room), lang or DEFAULT

    def state(self, room_id: int, lang: str) -> str:
        return f"{self.prefix}:state:{room_id}:{lang}"

    def seq(self, room_id: int, lang: str) -> str:
        return f"{self.prefix}:seq:{room_id}:{lang}"

    def shown(self, lang: str) -> str:  # a screen reads ``lang`` (kept ``SHOWN_SECONDS``)
        return f"{self.prefix}:shown:{lang}"


class Broker(Protocol):
    def send(self, update: Update, slug: str) -> None: ...

    def latest(self, room_id: int, lang: str) -> int:
        """The room's latest message number in ``lang`` (0: none yet)."""

    def want(self, lang: str) -> None:
        """A page in ``lang`` is being drawn: every publisher draws it from its next pass."""

    def shown(self) -> set[str]:
        """The languages the screens read now."""


class LocalBroker:
    """The embedded default: straight into this process's hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def send(self, update: Update, slug: str) -> None:
        self.hub.publish(update)

    def latest(self, room_id: int, lang: str) -> int:
        return self.hub.latest(room_id, lang)

    def want(self, lang: str) -> None:
        """Nothing to tell: this process's publisher is the only one, and was asked itself."""

    def shown(self) -> set[str]:
        return self.hub.languages()


# KEYS: seq, state, slugs; ARGV: payload, full, order, late, now, slug, room, then game/html pairs
# ("" for a game gone). The state's own fields start with "_"; games are "g<id>".
_SEND = """
local id = redis.call('INCR', KEYS[1])
if ARGV[2] == '1' then redis.call('DEL', KEYS[2]) end
for i = 8, #ARGV, 2 do
  if ARGV[i + 1] == '' then redis.call('HDEL', KEYS[2], ARGV[i])
  else redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
end
redis.call('HSET', KEYS[2], '_order', ARGV[3], '_late', ARGV[4], '_now', ARGV[5], '_id', id)
redis.call('HSET', KEYS[3], ARGV[6], ARGV[7])
redis.call('PUBLISH', KEYS[4], id .. '|' .. ARGV[1])
return id
"""


class RedisBroker:
    def __init__(self, url: str, keys: Keys) -> None:
        self.client, self.keys = redis.Redis.from_url(url), keys
        self._send = self.client.register_script(_SEND)

    def send(self, update: Update, slug: str) -> None:
        pairs = [part for key, html in update.games.items() for part in (key, html or "")]
        room, lang = update.room_id, update.lang
        self._send(keys=[self.keys.seq(room, lang), self.keys.state(room, lang), self.keys.slugs,
                         self.keys.channel(room, lang)],
                   args=[Message(0, update).payload(), "1" if update.full else "0",
                         json.dumps(update.order), "1" if update.late else "0", update.now_ms, slug,
                         update.room_id, *pairs])

    def latest(self, room_id: int, lang: str) -> int:
        """0 when Redis does not answer: the page is drawn all the same (its stream then fails
        and it polls), never an error page."""
        try:
            found = self.client.get(self.keys.seq(room_id, lang))
        except redis.RedisError:
            log.warning("the push broker did not answer; the board's pages will poll", exc_info=True)
            return 0
        return 0 if found is None else int(cast(bytes, found))

    def want(self, lang: str) -> None:
        """Until the push server's pages in ``lang`` say so themselves (``roomops.push.alive``);
        Redis not answering: the page's stream will fail and it polls."""
        try:
            self.client.set(self.keys.shown(lang), 1, ex=SHOWN_SECONDS)
        except redis.RedisError:
            log.warning("the push broker did not answer; the board's pages will poll", exc_info=True)

    def shown(self) -> set[str]:
        """Every language when Redis does not answer (as before it was asked)."""
        try:
            found = self.client.mget([self.keys.shown(lang) for lang in LANGUAGES])
        except redis.RedisError:
            return set(LANGUAGES)
        return {lang for lang, there in zip(LANGUAGES, found, strict=True) if there is not None}


def stored_update(room_id: int, fields: dict[bytes, bytes],
                  lang: str = DEFAULT) -> tuple[int, Update] | None:
    """A room's state in ``lang`` as Redis keeps it (``HGETALL``), as a full update with its
    message id."""
    if b"_id" not in fields:
        return None
    order = tuple(json.loads(fields[b"_order"]))
    games: dict[str, str | None] = {k: fields[k.encode()].decode() for k in order
                                    if k.encode() in fields}
    return int(fields[b"_id"]), Update(room_id, int(fields[b"_now"]), order, games,
                                       fields[b"_late"] == b"1", full=True, lang=lang)
