"""Text others read (roomops.text, docs/security.md "Headers and inputs"): names hold no control
character, line break, direction override or invisible character (issue 40: zero-width, the
direction marks, BOM, other format characters, more than two accents on a letter) and are kept in
NFC; notes may break lines; CSV text cells that a spreadsheet would run as a formula get a leading
quote, numbers stay numbers."""

from __future__ import annotations

import csv
import io
import unicodedata
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from roomops.schemas import AuditQuery, NewPlayer
from roomops.text import (
    MAX_STACKED,
    Invisible,
    check_shown,
    invisible_character,
    refused_character,
    spreadsheet_cell,
    spreadsheet_rows,
)

BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]
CONTROLS = ["\x00", "\x01", "\x1b", "\x7f", "\x85", "\x9b", "\u2028", "\u2029"]


@pytest.mark.parametrize("char", BIDI + CONTROLS + ["\t", "\n", "\r"])
def test_a_name_refuses_controls_breaks_and_direction_overrides(char):
    assert refused_character(f"Ann{char}Lee") == f"U+{ord(char):04X}"
    with pytest.raises(ValueError, match=f"U\\+{ord(char):04X}"):
        check_shown(f"Ann{char}Lee")


@pytest.mark.parametrize("char", BIDI + CONTROLS)
def test_a_note_refuses_them_too(char):
    assert refused_character(f"late{char}", note=True) == f"U+{ord(char):04X}"


def test_a_note_may_break_lines_and_a_name_may_be_any_script():
    assert check_shown("first line\r\nsecond\tindented", note=True) == "first line\r\nsecond\tindented"
    for name in ("Zoë O'Brien-Núñez", "محمد", "יעל", "李小龍", "Nguyễn Thị", "श्री", "مُحَمَّد", "=1+1"):
        assert check_shown(name) == name


# zero-width space, non-joiner, joiner; word joiner; BOM; LRM, RLM, ALM; soft hyphen, invisible
# times, Arabic number sign, Mongolian vowel separator, a tag character: all format characters
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u200e", "\u200f", "\u061c",
             "\u00ad", "\u2062", "\u0600", "\u180e", "\U000e0041"]


@pytest.mark.parametrize("char", INVISIBLE)
def test_a_name_refuses_invisible_characters(char):
    assert invisible_character(f"Ann{char}Lee") == f"U+{ord(char):04X}"
    with pytest.raises(Invisible, match=f"^The name has invisible characters \\(U\\+{ord(char):04X}\\)"):
        check_shown(f"Ann{char}Lee")
    with pytest.raises(Invisible):
        check_shown(f"{char}Ann")


def test_more_than_two_accents_on_one_letter_are_refused_two_are_taken():
    assert check_shown("Lee\u0331\u0332") == "Lee\u0331\u0332"  # two marks that do not compose
    with pytest.raises(Invisible, match="U\\+0333"):
        check_shown("Le\u0331\u0332\u0333e")
    with pytest.raises(Invisible):
        check_shown("Z" + "\u0336\u0337\u0338\u0300\u0301" * 4 + "algo")


def test_a_name_is_kept_in_nfc_so_one_name_is_written_one_way():
    assert check_shown("Zoe\u0308") == "Zoë" == check_shown("Zo\u00eb")
    # three marks typed, one composes with the letter: two are left, which is allowed
    assert check_shown("Nguye\u0302\u0303n") == "Nguyễn"


def test_a_character_nfc_would_lengthen_keeps_the_form_typed():
    """U+0958 decomposes under NFC (a composition exclusion): the name stays as long as typed, so
    the limits counted on what was typed still hold for what is stored."""
    assert check_shown("\u0958" * 3) == "\u0958" * 3


def test_a_note_may_hold_them():
    assert check_shown("see\u200bnote \U0001f468\u200d\U0001f469", note=True).startswith("see")


def test_the_request_bodies_say_it_in_their_own_words():
    with pytest.raises(ValidationError) as err:
        NewPlayer(first_name="Ann\u200b", create_anyway=True)
    (error,) = err.value.errors()
    assert error["type"] == "invisible_characters" and error["loc"] == ("first_name",)
    assert error["msg"].startswith("The name has invisible characters (U+200B)")
    assert NewPlayer(first_name="Zoe\u0308", create_anyway=True).first_name == "Zoë"


NAMES = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)


@given(NAMES)
def test_every_name_taken_is_visible_nfc_and_no_longer_than_typed(text):
    try:
        name = check_shown(text)
    except ValueError:
        return
    assert len(name) <= len(text)
    assert not any(unicodedata.category(c) == "Cf" for c in name)
    assert unicodedata.is_normalized("NFC", name) or len(unicodedata.normalize("NFC", name)) > len(name)
    assert check_shown(name) == name  # what is stored is taken again as it is
    run = 0
    for c in name:
        run = run + 1 if unicodedata.category(c) in ("Mn", "Me") else 0
        assert run <= MAX_STACKED


@given(NAMES, st.sampled_from(INVISIBLE), st.integers(0, 30))
def test_no_invisible_character_gets_into_a_name_wherever_it_is_typed(text, char, at):
    with pytest.raises(ValueError):
        check_shown(text[:at] + char + text[at:])


@pytest.mark.parametrize("text", ["=1+1", "+44 20", "-2+3+cmd|' /C calc'!A0", "@SUM(A1)",
                                  "\tx", "\rx", "=HYPERLINK(\"http://x\")"])
def test_text_a_spreadsheet_would_run_gets_a_leading_quote(text):
    assert spreadsheet_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["Table 1", "a=b", " =x", "", "'already", 12, -12, Decimal("-12.50"),
                                   Decimal("0.00"), None])
def test_anything_else_is_written_as_it_is(value):
    assert spreadsheet_cell(value) is value


def test_amounts_stay_numbers_in_the_file():
    out = io.StringIO()
    csv.writer(out).writerows(spreadsheet_rows([["-7", Decimal("-12.50"), "-note", 3]]))
    assert out.getvalue().strip() == "'-7,-12.50,'-note,3"


@pytest.mark.parametrize("sent", ["\n" + "A" * 60, " " + "A" * 60, "A" * 60 + "  "])
def test_a_texts_length_is_counted_as_sent_though_it_is_stored_trimmed(sent):
    """The API's document says at most 60 characters: 61 sent are refused even when the spaces
    around them would trim them to 60 (found by the document's fuzzer); 60 sent are stored
    trimmed. The audit's query string likewise."""
    with pytest.raises(ValidationError, match="at most 60 characters"):
        NewPlayer(first_name=sent, create_anyway=True)
    assert NewPlayer(first_name=sent[:60]).first_name == sent[:60].strip()
    with pytest.raises(ValidationError, match="at most 40 characters"):
        AuditQuery(action=" " + "x" * 40)
