"""Compressed answers (issue 21): HTML, JSON, CSS, JavaScript and SVG of 1 KB or more are sent
with brotli or gzip, whichever the browser asks for (Flask-Compress, docs/decisions.md); the board
page of a 250-table room goes out at a fourteenth of its size or less (docs/benchmarks.md).

Never compressed: the Server-Sent Events streams (``text/event-stream`` is not in the list: a
compressor would hold the events back until its buffer fills), small bodies, and anything but a
2xx (a 304 stays empty).

The app's ETags are weak (``W/"..."``): they name what a page shows, not its bytes, so a compressed
answer and a plain one share them, as only a weak ETag may (RFC 9110, 8.8.1); Flask-Compress leaves
a weak ETag alone where it would append the encoding to a strong one, which a poller's next
``If-None-Match`` would not match, rendering every poll. The views compare ``If-None-Match``
weakly (``ETags.contains_weak``), as RFC 9110 13.1.2 says.

A body sent alike to many screens (the desk's live part, ``roomops.desk.shared``) is compressed
once for each way of asking (``kept``), not once per answer."""

from __future__ import annotations

from flask import Flask, Response, current_app, request
from flask_compress import Compress

KEY = "roomops.compress"

MIMETYPES = ["text/html", "text/css", "text/javascript", "application/javascript", "application/json",
             "image/svg+xml"]
# Levels whose CPU stays small beside the render: the 250-table board page (~600 KB) goes out in
# 34 KB (br) or 43 KB (gzip) for 1-2 ms more CPU, against ~9 ms of render (docs/benchmarks.md).
GZIP_LEVEL = 3
BR_LEVEL = 4
MIN_SIZE = 1000  # bytes: below this the saving is a packet at most


def install(app: Flask) -> None:
    """Call first among the app's ``after_request`` hooks: Flask runs them last-registered first,
    so the compression runs after every other hook has written the answer."""
    app.config.update(
        COMPRESS_REGISTER=False, COMPRESS_MIMETYPES=MIMETYPES, COMPRESS_MIN_SIZE=MIN_SIZE,
        COMPRESS_ALGORITHM=["br", "gzip"], COMPRESS_ALGORITHM_STREAMING=["br", "gzip"],
        COMPRESS_LEVEL=GZIP_LEVEL, COMPRESS_BR_LEVEL=BR_LEVEL)
    compress = app.extensions[KEY] = Compress(app)

    def compressed(resp: Response) -> Response:
        tag, weak = resp.get_etag()
        if tag and not weak:
            resp.set_etag(tag, weak=True)
        return compress.after_request(resp)

    app.after_request(compressed)


Encoded = tuple[str | None, bytes]  # the Content-Encoding (None: as it is) and the bytes sent


def encode_once(body: bytes, mimetype: str, kept: dict[str, Encoded]) -> Encoded:
    """``body`` as this request's ``Accept-Encoding`` asks, compressed (as every answer is) the
    first time that header is met, then taken from ``kept``."""
    asked = request.headers.get("Accept-Encoding", "")
    found = kept.get(asked)
    if found is None:
        resp = current_app.extensions[KEY].after_request(Response(body, mimetype=mimetype))
        found = kept[asked] = (resp.headers.get("Content-Encoding"), resp.get_data())
    return found


def encoded_response(encoded: Encoded, mimetype: str) -> Response:
    """An answer of ``encode_once``'s bytes, left alone by the compression hook (it skips an
    answer with a ``Content-Encoding``)."""
    encoding, data = encoded
    resp = Response(data, mimetype=mimetype)
    if encoding:
        resp.headers["Content-Encoding"] = encoding
    resp.vary.add("Accept-Encoding")
    return resp
