"""The board read from across the room in a 250-table room (issue 21): on a 1080p TV, names and
seat numbers at least 28 px, and no page but the last more than a third empty, the busiest
game's pages included; the board pages by itself through what does not fit."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from bench.roomgen import RoomSpec, build
from tests.browser.conftest import SHOTS

TV = {"width": 1920, "height": 1080}
# The share of the games' box that each page's content covers: every block of a game (its head,
# tables, lists) as laid out in its columns, clipped to the screen.
COVERED = """() => {
  const box = document.getElementById('games').getBoundingClientRect();
  let area = 0;
  document.querySelectorAll('.game > *').forEach(el => {
    for (const r of el.getClientRects()) {
      const w = Math.min(r.right, box.right) - Math.max(r.left, box.left);
      const h = Math.min(r.bottom, box.bottom) - Math.max(r.top, box.top);
      if (w > 0 && h > 0) area += w * h;
    }
  });
  return area / (box.width * box.height);
}"""
BUSIEST = """() => {
  const games = Array.from(document.querySelectorAll('.game'));
  const n = g => g.querySelectorAll('.table').length;
  const most = games.reduce((a, b) => n(b) > n(a) ? b : a);
  return [most.dataset.key, n(most)];
}"""
SHOWN = """key => {
  const box = document.getElementById('games').getBoundingClientRect();
  return Array.from(document.querySelectorAll(`.game[data-key="${key}"] .table`)).some(t => {
    const r = t.getBoundingClientRect(); return r.right > box.left && r.left < box.right; });
}"""


def test_a_250_table_room_fills_every_tv_page_with_28_px_names(live, page):
    build(live.app.extensions["roomops"].engine,
          RoomSpec(audit_rows=2000, history_holds=2000, history_entries=2000))
    page.set_viewport_size(TV)
    page.goto(f"{live.url}/board/bench")
    pager = page.locator("#pager")
    expect(pager).to_have_text(re.compile(r"^Page 1 of \d+$"))
    pages = int(pager.inner_text().rsplit(" ", 1)[1])
    for sel in (".place .who", ".called .who", ".seatmap .s"):
        size = page.evaluate(f"() => parseFloat(getComputedStyle(document.querySelector('{sel}')).fontSize)")
        assert size >= 28, (sel, size)
    busiest, tables = page.evaluate(BUSIEST)
    assert tables >= 7  # the room's busiest game
    busiest_pages = []
    for n in range(1, pages + 1):
        expect(pager).to_have_text(f"Page {n} of {pages}")
        covered = page.evaluate(COVERED)
        if page.evaluate(SHOWN, busiest):
            busiest_pages.append(n)
            page.screenshot(path=str(SHOTS / f"board-tv-250-page-{n}.png"))
        if n < pages:
            assert covered >= 2 / 3, (n, covered)  # no more than a third of the screen empty
        page.evaluate("() => window.roomopsBoard.next()")
    assert busiest_pages and busiest_pages[-1] < pages
    dims = page.evaluate("() => [document.documentElement.scrollHeight, "
                         "document.documentElement.scrollWidth]")
    assert dims[0] <= TV["height"] and dims[1] <= TV["width"]
