"""The language of a player's page (issue 21; docs/board.md and docs/phone.md, "Languages").

Flask-Babel translates with the catalogs under ``translations/``. A page is English unless its
view chose otherwise: staff screens never choose, so they stay English. A player page (the board,
the phone pages) calls ``use_language``: the player's ``?lang=`` (then remembered in a cookie),
else that cookie, else the browser's ``Accept-Language``, else the room's default
(``roomops.rooms.languages.choose``). The fragments a page reads afterwards (the board's poll and
pushed stream) are told the page's language in their address (``fragment_language``), so a
screen's language never changes under it."""

from __future__ import annotations

from typing import Any

from flask import Flask, g, request, url_for
from flask_babel import Babel, gettext, refresh
from werkzeug.wrappers import Response

from roomops.errors import Invalid
from roomops.rooms.languages import DEFAULT, LANGUAGES, Language, supported
from roomops.rooms.languages import choose as choose_language
from roomops.rooms.models import Room
from roomops.runtime import ext
from roomops.words import CATALOGS

COOKIE = "roomops-lang"
COOKIE_DAYS = 365


def install(app: Flask) -> None:
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(CATALOGS)
    Babel(app, locale_selector=lambda: g.get("language", DEFAULT))
    app.after_request(_remember)
    app.add_template_global(language_links)
    app.context_processor(lambda: {"lang": g.get("language", DEFAULT)})


def tr(message: str) -> str:
    """``roomops.words``'s ``Translate`` for the request's language: the message from the
    catalog, its ``{name}``s left for the caller to fill in."""
    return str(gettext(message))


def _asked() -> Language | None:
    """``?lang=``: absent, or a supported language (else a 422 naming them)."""
    raw = request.args.get("lang")
    if raw is None:
        return None
    lang = supported(raw)
    if lang is None:
        raise Invalid(f"lang= is one of {', '.join(LANGUAGES)} (got {raw!r})")
    return lang


def _use(lang: Language) -> Language:
    g.language = lang
    refresh()  # Flask-Babel keeps the first locale it read in a request
    return lang


def use_language(room: Room | None) -> Language:
    """A player page's language, which its templates and ``gettext`` then use; a page of no
    one room (the chooser at ``/board``) falls back to English."""
    asked = _asked()
    g.remember_language = asked
    return _use(choose_language(asked or request.cookies.get(COOKIE),
                                request.headers.get("Accept-Language"),
                                room.language if room is not None else DEFAULT))


def fragment_language() -> Language:
    """The language a fragment of a page was asked in (``?lang=``, as ``in_language`` writes
    it): the page chose it; absent, English."""
    return _use(_asked() or DEFAULT)


def in_language(lang: str) -> str | None:
    """The ``lang`` argument of a fragment's address for a page in ``lang``: none for English
    (the addresses English screens have always used)."""
    return None if lang == DEFAULT else lang


def _remember(resp: Response) -> Response:
    """The player's explicit choice is kept for their next pages; a page chosen by headers
    varies with them (a shared cache must not hand a German page to an English phone)."""
    if "remember_language" in g:  # set by use_language alone (a fragment's is in its address)
        resp.vary.update(("Accept-Language", "Cookie"))
    asked = g.get("remember_language")
    if asked is not None:
        resp.set_cookie(COOKIE, asked, max_age=COOKIE_DAYS * 86400, samesite="Lax",
                        secure=ext().settings.https, httponly=True, path="/")
    return resp


def language_links() -> list[tuple[str, str, bool]]:
    """The switcher (EN · DE · IT): each language's code, this page's address in it, and whether
    it is the page's language."""
    args: dict[str, Any] = {**(request.view_args or {}), **request.args.to_dict()}
    current = g.get("language", DEFAULT)
    return [(lang.upper(), url_for(request.endpoint or "", **{**args, "lang": lang}), lang == current)
            for lang in LANGUAGES]
