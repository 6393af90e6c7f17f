"""The board's QR code to the phone page (issue 21): drawn by segno (a small, pure-Python,
well-kept QR encoder with SVG output), once per address."""

from __future__ import annotations

import io
from functools import lru_cache

import segno


@lru_cache(maxsize=256)
def qr_svg(url: str) -> bytes:
    """``url`` as an SVG QR code, dark on transparent (the board's card is light behind it), with
    error correction M (the board may be photographed at an angle, from across the room)."""
    out = io.BytesIO()
    segno.make(url, error="m", micro=False).save(out, kind="svg", scale=8, border=2,
                                                  dark="#000", light="#fff", xmldecl=False,
                                                  svgns=True, title="QR code: " + url)
    return out.getvalue()
