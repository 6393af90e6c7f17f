"""Text others read (roomops.text, docs/security.md "Headers and inputs"): names hold no control
character, line break or direction override; notes may break lines; CSV text cells that a
spreadsheet would run as a formula get a leading quote, numbers stay numbers."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from pydantic import ValidationError

from roomops.schemas import AuditQuery, NewPlayer
from roomops.text import check_shown, refused_character, spreadsheet_cell, spreadsheet_rows

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
    for name in ("Zoë O'Brien-Núñez", "محمد", "יעל", "李小龍", "Ann \u200dLee", "=1+1"):
        assert check_shown(name) == name


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
