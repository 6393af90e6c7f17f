"""R80: the figures screen in Chromium: every chart draws (an SVG with marks, no eval under the
page's Content-Security-Policy) and its drawn values are its table's; screenshots of the page
and of each chart, figures-*.png (ROOMOPS_SCREENSHOTS)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from roomops.figures.charts import charts
from roomops.words import english
from tests.browser.conftest import SHOTS, Live, log_in
from tests.figures import fake


def _number(cell: str) -> float | None:
    """A table cell as the number it shows ('€42.50' 42.5, '83.3 %' 83.3, '1,234' 1234); a dash: None."""
    digits = re.sub(r"[^\d.\-]", "", cell.replace(",", ""))
    return float(digits) if digits not in ("", "-") else None


@pytest.fixture()
def figures_page(page: Page, live: Live, monkeypatch: pytest.MonkeyPatch) -> Page:
    fake.answer_with(monkeypatch, fake.figures())
    live.build(lambda room, session, now: None)  # the room and its staff
    log_in(page, live)
    page.goto(f"{live.url}/figures?period=day&day=2026-11-30")
    page.wait_for_function("document.getElementById('figures').dataset.drawn === 'true'")
    return page


def test_r80_every_chart_draws_the_numbers_of_its_table(figures_page: Page):
    page = figures_page
    keys = [c.key for c in charts(fake.figures(), english)]
    assert page.eval_on_selector_all(".chart-card", "cs => cs.map(c => c.dataset.key)") == keys
    for key in keys:
        card = page.locator(f"#chart-{key}")
        assert card.get_attribute("data-drawn") == "true", key
        marks = card.locator("svg .mark-line path, svg .mark-symbol path, svg .mark-rect path")
        assert marks.count() > 0, f"{key}: nothing drawn"
        drawn = page.evaluate(f"window.figuresDrawn[{key!r}]")
        headings = card.locator("thead th").all_inner_texts()
        rows = [r.locator("th, td").all_inner_texts() for r in card.locator("tbody tr").all()]
        table = {(row[0], headings[i]): _number(cell) for row in rows for i, cell in enumerate(row) if i}
        assert drawn, key
        for d in drawn:
            where = (d["weekday"], f"{d['hour']:02d}") if "weekday" in d else (d["step"], d["series"])
            assert table[where] == pytest.approx(d["value"]), (key, where)
    assert page.locator(".vega-actions").count() == 0  # no actions menu
    page.screenshot(path=str(SHOTS / "figures-page.png"), full_page=True)
    for key in keys:
        page.locator(f"#chart-{key}").screenshot(path=str(SHOTS / f"figures-{key}.png"))
    page.emulate_media(media="print")  # printed: no navigation nor chooser, the charts' SVG kept
    assert not page.locator(".topbar").is_visible() and not page.locator(".chooser").is_visible()
    assert page.locator("#chart-seats svg").is_visible()
    pdf = page.pdf(format="A4", landscape=True, print_background=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == len(keys)  # one chart and its table a page
    page.set_viewport_size({"width": 1123, "height": 794})  # A4 landscape at 96 dpi
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / "figures-print.png"))


def test_r80_the_page_in_german_draws_german_numbers(page: Page, live: Live, monkeypatch: pytest.MonkeyPatch):
    fake.answer_with(monkeypatch, fake.figures())
    live.build(lambda room, session, now: None)  # the room and its staff
    log_in(page, live)
    page.goto(f"{live.url}/figures?period=day&day=2026-11-30&lang=de")
    page.wait_for_function("document.getElementById('figures').dataset.drawn === 'true'")
    # the axes' numbers are formatted by Vega's default locale, which the page set to German
    assert page.evaluate("vega.formatLocale().format(',.1f')(1234.5)") == "1.234,5"
    assert "Laufende Tische" in page.locator("#chart-seats h2").inner_text()
    page.screenshot(path=str(SHOTS / "figures-de.png"), full_page=False)
