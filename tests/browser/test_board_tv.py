"""The board read from 5 m in a 250-table room (issues 21, 40): on a 1080p TV, names and seat numbers
at least 36 px, stakes, buy-ins, fees and straddles at least 28 px, no page but the last more than
a fifth of the screen empty, the busiest game's pages included; the board pages by itself through
what does not fit; its QR code at least 240 px and read from a screenshot a third the size (a phone
3 m away)."""

from __future__ import annotations

import io
import re

import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from bench.roomgen import RoomSpec, build
from tests.browser.conftest import SHOTS

TV = {"width": 1920, "height": 1080}
SIZE = "sel => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize)"
NAMES = (".place .who", ".called .who", ".seatmap .s")  # names and seat numbers
TERMS = (".game-head .stakes", ".terms .buyin", ".terms .fees", ".terms .straddles")
# The share of the games' box that each page's content covers: every block of a game (its head,
# tables, lists) as laid out in its columns, clipped to the screen.
# The share of the screen that nothing shows on: sampled every 8 px, a point is shown on when it
# lies in a block of a game (its head, tables, lists as laid out in its columns, clipped to the
# games' box), of the header or of the side with the QR code.
EMPTY = """() => {
  const box = document.getElementById('games').getBoundingClientRect();
  const step = 8, cols = Math.ceil(innerWidth / step), rows = Math.ceil(innerHeight / step);
  const shown = new Uint8Array(cols * rows);
  const mark = (l, t, r, b) => {
    for (let y = Math.max(0, Math.ceil(t / step - 0.5)); y < rows && (y + 0.5) * step < b; y++)
      for (let x = Math.max(0, Math.ceil(l / step - 0.5)); x < cols && (x + 0.5) * step < r; x++)
        shown[y * cols + x] = 1;
  };
  document.querySelectorAll('.game > *').forEach(el => { for (const r of el.getClientRects())
    mark(Math.max(r.left, box.left), Math.max(r.top, box.top),
         Math.min(r.right, box.right), Math.min(r.bottom, box.bottom)); });
  document.querySelectorAll('.board-head > :not(.spacer), .board-foot > *').forEach(el => {
    for (const r of el.getClientRects()) mark(r.left, r.top, r.right, r.bottom); });
  return 1 - shown.reduce((a, b) => a + b, 0) / shown.length;
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
# The page shown, its empty share and whether it shows the game keyed, read at one moment.
# The character before each line break of an element's text, as laid out.
BROKEN_AFTER = """el => {
  const range = document.createRange(), walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const after = []; let top = null, last = null;
  while (walker.nextNode()) {
    const node = walker.currentNode;
    for (let i = 0; i < node.length; i++) {
      range.setStart(node, i); range.setEnd(node, i + 1);
      const at = range.getBoundingClientRect().top;
      if (top !== null && at > top + 2) after.push(last);
      top = at; last = node.data[i];
    }
  }
  return after;
}"""
MEASURE = (f"key => [parseInt(document.getElementById('pager').textContent.split(' ')[1]), "
           f"({EMPTY})(), ({SHOWN})(key)]")


def test_a_250_table_room_fills_every_tv_page_with_36_px_names(live, page):
    build(live.app.extensions["roomops"].engine,
          RoomSpec(audit_rows=2000, history_holds=2000, history_entries=2000))
    page.set_viewport_size(TV)
    page.goto(f"{live.url}/board/bench")
    pager = page.locator("#pager")
    expect(pager).to_have_text(re.compile(r"^Page 1 of \d+$"))
    pages = int(pager.inner_text().rsplit(" ", 1)[1])
    sizes = {sel: page.evaluate(SIZE, sel) for sel in (*NAMES, *TERMS)}
    qr = page.locator(".board-foot .qr").bounding_box()
    busiest, tables = page.evaluate(BUSIEST)
    assert tables >= 7  # the room's busiest game
    seen: dict[int, tuple[float, bool]] = {}  # by page: its empty share, whether it shows busiest
    for _ in range(3 * pages):  # the board turns its pages by itself too: each is read as it shows
        if len(seen) == pages:
            break
        n, empty, shown = page.evaluate(MEASURE, busiest)
        if n not in seen:
            seen[n] = (empty, shown)
            if shown:
                page.screenshot(path=str(SHOTS / f"board-tv-250-page-{n}.png"))
        page.evaluate("() => window.roomopsBoard.next()")
    assert len(seen) == pages
    empties = [seen[n][0] for n in range(1, pages + 1)]
    busiest_pages = [n for n in range(1, pages + 1) if seen[n][1]]
    report = (sizes, qr, max(empties[:-1]), [round(e, 3) for e in empties])
    assert all(sizes[sel] >= 36 for sel in NAMES), report
    assert all(sizes[sel] >= 28 for sel in TERMS), report
    assert qr and min(qr["width"], qr["height"]) >= 240, report
    assert max(empties[:-1]) <= 1 / 5, report  # no page but the last more than a fifth empty
    assert busiest_pages and busiest_pages[-1] < pages
    dims = page.evaluate("() => [document.documentElement.scrollHeight, "
                         "document.documentElement.scrollWidth]")
    assert dims[0] <= TV["height"] and dims[1] <= TV["width"]


def test_the_tv_qr_code_reads_from_a_third_of_the_screenshot(live, page):
    """A phone 3 m from the TV sees the board about a third as large as a screenshot: the QR code
    read from the screenshot scaled to a third is the board's phone address."""
    build(live.app.extensions["roomops"].engine, RoomSpec().small())
    page.set_viewport_size(TV)
    page.goto(f"{live.url}/board/bench")
    expect(page.locator(".board-foot .qr")).to_be_visible()
    page.wait_for_function("() => document.querySelector('.board-foot .qr').complete")
    shot = Image.open(io.BytesIO(page.screenshot())).convert("L")
    third = shot.resize((TV["width"] // 3, TV["height"] // 3), Image.Resampling.LANCZOS)
    read = [code.text for code in zxingcpp.read_barcodes(third)]
    address = page.locator(".board-foot strong").first
    assert read == [address.inner_text()], read
    assert read[0].endswith("/board/bench")
    # the address beside it wraps after a slash, a dot or a colon, never inside a word (issue 40)
    after = address.evaluate(BROKEN_AFTER)
    assert after and set(after) <= set("/.:"), after
