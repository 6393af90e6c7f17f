"""Compressed answers (issue 21, ``roomops.web.compression``): the board page and the JSON feed
go out compressed when the browser asks, the event stream never, small answers and 304s as they
are; the ETag is weak, shared by the compressed and the plain answer, so an unchanged poll that
asks for gzip is still the view's cheap 304."""

from __future__ import annotations

import gzip

import brotli
import pytest

from tests.http.test_board import _count
from tests.services.helpers import full_game

GZIP = {"Accept-Encoding": "gzip, deflate"}


@pytest.fixture()
def floor(room, session, now):
    """Two full games: a board page and a feed of some kilobytes."""
    full_game(room, session, now, free=2)
    full_game(room, session, now, free=1, name="2", variant="PL Omaha")
    session.commit()


@pytest.mark.parametrize("url", ["/board/main", "/board/main/live", "/api/v1/public/rooms/main/games"])
def test_the_board_and_its_feed_are_sent_gzipped_to_who_asks(client, floor, url):
    plain = client.get(url)
    packed = client.get(url, headers=GZIP)
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers and packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    body = gzip.decompress(packed.data)
    assert len(packed.data) < len(body) / 2
    if url.startswith("/api"):
        assert packed.mimetype == "application/json" and b'"games"' in body
    else:
        assert b"PL Omaha" in body and plain.data.count(b"PL Omaha") == body.count(b"PL Omaha")


def test_brotli_when_the_browser_prefers_it(client, floor):
    resp = client.get("/board/main", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert resp.headers["Content-Encoding"] == "br" and b"PL Omaha" in brotli.decompress(resp.data)


def test_small_answers_go_as_they_are(client, floor):
    resp = client.get("/health", headers=GZIP)
    assert len(resp.data) < 1000 and "Content-Encoding" not in resp.headers


def test_a_gzip_poll_of_an_unchanged_board_is_the_views_empty_304(client, engine, floor):
    """The compressed answer's ETag is the plain answer's, weak: the poll sends it back (board.js
    as it came, live.js and desk.js without ``W/``) and the view answers 304 from the change mark
    alone (three statements: nothing rendered), empty and uncompressed."""
    first = client.get("/board/main/live", headers=GZIP)
    plain = client.get("/board/main/live")
    tag = first.headers["ETag"]
    assert tag.startswith('W/"board-') and plain.headers["ETag"] == tag
    for sent in (tag, tag.removeprefix("W/")):
        again, statements = _count(client, engine, "/board/main/live", **GZIP, **{"If-None-Match": sent})
        assert (again.status_code, again.data, statements) == (304, b"", 3)
        assert "Content-Encoding" not in again.headers and again.headers["ETag"] == tag


def test_the_event_stream_is_never_compressed(client, app, room, session, now):
    from roomops.push.embedded import KEY

    room.game(now)
    session.commit()
    with app.app_context():
        app.extensions[KEY].publisher.publish_changes()
    resp = client.get("/board/main/events", headers=GZIP, buffered=False)
    assert resp.mimetype == "text/event-stream" and "Content-Encoding" not in resp.headers
    assert next(iter(resp.response)) == b"retry: 3000\n\n"  # each event as written, unbuffered
    resp.close()
