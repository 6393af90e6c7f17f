"""Amounts as people read and type them (R32): integer minor units of the room's currency, shown
with Babel in the room's locale (symbol, decimals, thousands separators), typed back in the
room's decimal sign. Pure: no Flask, no database. Exact: amounts go through ``Decimal``, never a
float, so what a screen shows is what the ledger holds.

A room that has not chosen a locale reads as British English (``DEFAULT_LOCALE``), the default
room's currency being pounds sterling."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property, lru_cache

from babel import Locale, UnknownLocaleError
from babel.numbers import (
    format_currency,
    format_decimal,
    get_currency_name,
    get_currency_precision,
    get_decimal_symbol,
    list_currencies,
)

from roomops.errors import Invalid

DEFAULT_LOCALE = "en_GB"
# The most digits typed before the decimals: with a currency's three decimals at most, still a
# 64-bit integer of minor units. An amount is bounded again by the request's model
# (``roomops.schemas.MAX_AMOUNT``); a count is a total and may be this large (``MAX_TOTAL``).
WHOLE_DIGITS = 15


@dataclass(frozen=True)
class Money:
    """The room's currency (ISO 4217) and locale (``en_GB``, ``de_DE``, ...)."""

    currency: str
    locale: str = DEFAULT_LOCALE

    @cached_property
    def digits(self) -> int:
        """How many decimals the currency's minor units are: 2 for GBP, 0 for JPY, 3 for KWD."""
        return get_currency_precision(self.currency)

    def major(self, amount: int) -> Decimal:
        return Decimal(amount).scaleb(-self.digits)

    def __call__(self, amount: int) -> str:
        """1234550 -> '£12,345.50' (en_GB, GBP); -500 -> '-€5,00' in de_DE's order and signs."""
        return _formatted(self, amount)

    def figure(self, amount: int, grouped: bool = True) -> str:
        """The number alone, decimals only when there are some: stakes read '1/2', '0.50/1'."""
        return _figure(self, amount, grouped)

    def stakes(self, small_blind: int, big_blind: int, ante: int = 0) -> str:
        """R4: the blinds as players say them, '1/2' (never the minor units '100/200'), and the
        ante when there is one."""
        text = f"{self.figure(small_blind)}/{self.figure(big_blind)}"
        return f"{text} ante {self.figure(ante)}" if ante else text

    @property
    def name(self) -> str:
        return get_currency_name(self.currency, locale=self.locale)

    @property
    def decimal_sign(self) -> str:
        return get_decimal_symbol(self.locale)

    def field(self, amount: int | None) -> str:
        """An amount as an input's value, typed back as it is shown: no symbol, no grouping."""
        return "" if amount is None else self.figure(amount, grouped=False)

    def parse(self, raw: str, field: str = "amount", rule: str | None = None) -> int:
        """What staff type, in the room's decimal sign: '200' -> 20000, '200.5' -> 20050 (GBP);
        exact. More decimals than the currency has, signs, exponents, separators or letters are
        refused rather than guessed at, naming ``rule``: the one the amount is typed for."""
        text = raw.strip()
        match = self._typed.match(text)
        if match is None:
            example = f"200{self.decimal_sign}{'5' * self.digits}" if self.digits else "200"
            raise Invalid(f"{field}: {raw!r} is not an amount in {self.currency}; type it like "
                          f"200 or {example}", rule)
        whole, frac = match.group(1), match.group(2) or ""
        scale: int = 10**self.digits
        return int(whole) * scale + int(frac.ljust(self.digits, "0") or "0")

    @cached_property
    def _typed(self) -> re.Pattern[str]:
        decimals = (rf"(?:{re.escape(self.decimal_sign)}(\d{{1,{self.digits}}}))?"
                    if self.digits else "()")
        return re.compile(rf"^(\d{{1,{WHOLE_DIGITS}}}){decimals}$")


def check_locale(locale: str) -> str:
    """A locale Babel knows (``en_GB``, ``fr_FR``), in its canonical spelling."""
    try:
        return str(Locale.parse(locale.replace("-", "_")))
    except (UnknownLocaleError, ValueError):
        raise Invalid(f"{locale!r} is not a locale (write it like en_GB or de_DE)") from None


def check_currency_code(code: str) -> str:
    """R32: an ISO 4217 currency Babel knows, upper-case."""
    if code.upper() not in list_currencies():
        raise Invalid(f"{code!r} is not an ISO 4217 currency code (GBP, EUR, USD, ...)", "R32")
    return code.upper()


# A 250-table room's desk shows ~7,000 amounts, most of them the same few buy-ins, at ~50 us each
# through Babel: 40% of drawing it (docs/benchmarks.md). Amounts are ints: the cache is exact.
@lru_cache(maxsize=8192)
def _formatted(money: Money, amount: int) -> str:
    return format_currency(money.major(amount), money.currency, locale=money.locale)


# Likewise the figures alone: the desk's page names every table's stakes in its move forms' lists
# of tables, ~1,700 figures a page in a 250-table room (~30 ms through Babel).
@lru_cache(maxsize=8192)
def _figure(money: Money, amount: int, grouped: bool) -> str:
    pattern = "#,##0" if grouped else "0"
    if amount % 10**money.digits:
        pattern += "." + "0" * money.digits
    return format_decimal(money.major(amount), format=pattern, locale=money.locale)
