"""Money as people read and type it (R32, R4): the room's currency in its locale, exactly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roomops.errors import Conflict, Invalid
from roomops.holds.rules import check_buy_in
from roomops.money import Money, check_currency_code, check_locale
from roomops.schemas import MAX_AMOUNT

GBP, EUR_DE, JPY, KWD = Money("GBP"), Money("EUR", "de_DE"), Money("JPY", "ja_JP"), Money("KWD")


@pytest.mark.parametrize("money,minor,shown", [
    (GBP, 123456789, "£1,234,567.89"), (GBP, 5, "£0.05"), (GBP, 0, "£0.00"), (GBP, -250, "-£2.50"),
    (GBP, 2**53 + 1, "£90,071,992,547,409.93"),  # exact: no float anywhere
    (EUR_DE, 123456789, "1.234.567,89\xa0€"), (JPY, 123456, "￥123,456"), (KWD, 1234567, "KWD1,234.567"),
])
def test_r32_an_amount_reads_in_the_rooms_currency_and_locale(money, minor, shown):
    assert money(minor) == shown


def test_r32_one_amount_in_several_rooms_reads_in_each_rooms_money():
    """Amounts are formatted once and remembered: by currency and locale, not the amount alone."""
    moneys = (GBP, EUR_DE, Money("EUR", "en_IE"), Money("GBP", "de_DE"))
    for _ in range(2):
        assert [m(123456) for m in moneys] == ["£1,234.56", "1.234,56\xa0€", "€1,234.56", "1.234,56\xa0£"]


def test_r4_one_figure_in_several_rooms_reads_in_each_rooms_money():
    """Figures (stakes, a form's amount) are remembered too: by currency, locale and grouping."""
    moneys = (GBP, EUR_DE, JPY, Money("GBP", "de_DE"))
    for _ in range(2):
        assert [m.figure(123450) for m in moneys] == ["1,234.50", "1.234,50", "123,450", "1.234,50"]
        assert [m.field(123450) for m in moneys] == ["1234.50", "1234,50", "123450", "1234,50"]


@pytest.mark.parametrize("money,blinds,shown", [
    (GBP, (100, 200, 0), "1/2"), (GBP, (50, 100, 0), "0.50/1"), (GBP, (100, 200, 25), "1/2 ante 0.25"),
    (GBP, (500000, 1000000, 0), "5,000/10,000"), (EUR_DE, (50, 100, 0), "0,50/1"),
    (JPY, (100, 200, 0), "100/200"),
])
def test_r4_stakes_read_as_players_say_them_never_in_minor_units(money, blinds, shown):
    assert money.stakes(*blinds) == shown


@pytest.mark.parametrize("money,typed,minor", [
    (GBP, "200", 20000), (GBP, "200.5", 20050), (GBP, " 200.05 ", 20005), (EUR_DE, "200,5", 20050),
    (JPY, "200", 200), (KWD, "1.234", 1234),
])
def test_an_amount_is_typed_in_the_rooms_decimal_sign(money, typed, minor):
    assert money.parse(typed) == minor


@pytest.mark.parametrize("money,typed", [
    (GBP, "200.505"), (GBP, "-5"), (GBP, "1e3"), (GBP, "1,000"), (GBP, "£5"), (GBP, ""),
    (EUR_DE, "200.50"), (JPY, "200.5"), (GBP, "1" * 16),
])
def test_anything_else_is_refused_naming_the_currency(money, typed):
    with pytest.raises(Invalid, match=f"buy_in: .* is not an amount in {money.currency}") as refused:
        money.parse(typed, "buy_in", "R30")
    assert refused.value.rule == "R30"  # the rule the amount was typed for


@given(st.integers(min_value=0, max_value=MAX_AMOUNT),
       st.sampled_from([GBP, EUR_DE, JPY, KWD, Money("USD", "en_US"), Money("CHF", "de_CH")]))
def test_an_inputs_value_is_typed_back_to_the_same_amount(minor, money):
    assert money.parse(money.field(minor)) == minor


def test_a_locale_and_a_currency_are_known_or_refused():
    assert check_locale("de-DE") == "de_DE" and check_currency_code("eur") == "EUR"
    with pytest.raises(Invalid, match="not a locale"):
        check_locale("xx_YY")
    with pytest.raises(Invalid, match="R32"):
        check_currency_code("ABC")


def test_r30_a_refusal_names_its_amounts_in_the_rooms_money_never_in_minor_units():
    with pytest.raises(Invalid) as err:
        check_buy_in(5000, 10000, 40000)
    assert err.value.amounts == {"amount": 5000, "minimum": 10000}
    assert err.value.text(GBP) == "buy-in £50.00 is below the table minimum £100.00"
    assert err.value.text(EUR_DE) == "buy-in 50,00\xa0€ is below the table minimum 100,00\xa0€"
    assert "5000" not in err.value.text(GBP)


def test_only_the_named_amounts_are_filled_in():
    err = Conflict("table {x} of {name}: {amount}", "R30", amounts={"amount": 100})
    assert err.text(GBP) == "table {x} of {name}: £1.00"
