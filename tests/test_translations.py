"""Issue 21: the players' catalogs (translations/) are complete and what the app loads.

Every message the code and templates mark (extracted as ``pybabel extract`` does, with
babel.cfg) is in messages.pot, translated in German and Italian (not empty, not fuzzy) with the
same placeholders; and the committed .mo files are the .po files compiled."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from roomops.rooms.languages import DEFAULT, LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = ROOT / "translations"
TRANSLATED = [lang for lang in LANGUAGES if lang != DEFAULT]
PLACEHOLDER = re.compile(r"%\((\w+)\)s|\{(\w+)\}")


def catalog(lang: str):  # type: ignore[no-untyped-def]
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=lang)


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def test_the_template_holds_every_message_the_code_and_templates_mark():
    with open(ROOT / "babel.cfg") as f:
        method_map, options_map = parse_mapping_cfg(f)
    marked = {message for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords={**DEFAULT_KEYWORDS, "tr": None})
        if not _file.startswith(("tests", "bench", "migrations", ".venv"))}
    with open(TRANSLATIONS / "messages.pot", "rb") as f:
        template = {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(f) if m.id}
    assert marked - template == set(), "run pybabel extract and update (docs/board.md, Languages)"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(lang):
    with open(TRANSLATIONS / "messages.pot", "rb") as f:
        template = {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(f) if m.id}
    found = {m.id if isinstance(m.id, str) else tuple(m.id): m for m in catalog(lang) if m.id}
    assert set(found) == template, "run pybabel update (docs/board.md, Languages)"
    for message in found.values():
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        assert not message.fuzzy and all(strings), f"{lang}: {ids[0]!r} is not translated"
        # a plural form may leave out its count ("num"), never another placeholder
        optional = {"num"} if len(ids) > 1 else set()
        wanted = (placeholders(ids[0]) | placeholders(ids[-1])) - optional
        for text in strings:
            assert placeholders(text) - optional == wanted, f"{lang}: {text!r} lacks a placeholder"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_committed_mo_is_the_po_compiled(lang):
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo", "rb") as f:
        compiled = gettext.GNUTranslations(f)
    for message in catalog(lang):
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            for n, text in zip((1, 2), message.string, strict=False):
                assert compiled.ngettext(message.id[0], message.id[1], n) == text
        else:
            assert compiled.gettext(message.id) == message.string, "run pybabel compile -d translations"
