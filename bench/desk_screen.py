"""The desk of a large room in Chromium: what a supervisor's screen does after each floor change.

    .venv/bin/python bench/desk_screen.py                  # the 250-table room, SQLite
    .venv/bin/python bench/desk_screen.py --changes 20 --tables 120

Builds the room (bench/roomgen.py) in a fresh database and serves it with ``flask serve`` (no
scheduler) as a process of its own; Debian's Chromium (Playwright) logs in as the supervisor
through ``/login`` and opens ``/desk`` at 1920x1080. It prints the page's load (navigation to the
load event) and its size, then, ``--changes`` times, a player joins a game's waiting list through
the API (untimed) and the page re-reads its live part as its staff stream would make it
(``window.roomopsDesk.poll()``: the fetch, compressed as the browser asks, and the swap); timed
from the call to the swap's end, and to the next frame drawn after it (style and layout of
what is on screen). The floor beside them: the same page re-reading while nothing changed (a
304). Then, ``--actions`` times, the supervisor puts a player on a list with the desk's own form
("Put a player on lists"): timed in the page from the form's sending to the frame drawn with its
message, which desk.js shows once the live part is read again; as many walk-ins added with
"Add a player" and put on a game's list, timed the same way; and as many tables opened with
"Open a table", timed from the sending to the page's forms listing the new table. A benchmark,
not a test: it prints (exit status 0), no target is set (issue 17 names none for the desk's
screen; docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import harness
import ops
import roomgen
from playwright.sync_api import Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
VIEWPORT = {"width": 1920, "height": 1080}
# From the call to the swap's end, and on to the next frame drawn after it.
POLL_JS = """async () => {
  const t0 = performance.now();
  await window.roomopsDesk.poll();
  const swapped = performance.now();
  await new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)));
  return [swapped - t0, performance.now() - t0];
}"""


def serve(url: str, workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = harness.free_port()
    web = harness.flask_process("serve", port, url, workdir, subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    harness.wait_http(f"{base}/health")
    return web, base


def open_desk(page: Page, base: str, password: str) -> float:
    page.goto(f"{base}/login")
    page.fill("input[name=username]", harness.SUPERVISOR)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    t0 = time.perf_counter()
    page.goto(f"{base}/desk", wait_until="load")
    return (time.perf_counter() - t0) * 1000


# In the page, on the epoch's clock (it survives a page loaded again): when the form was sent, and
# the frame after its message appeared on this page, or the desk loaded again parsed whole.
ACT_JS = """() => {
  sessionStorage.clear();
  const at = () => String(performance.timeOrigin + performance.now());
  addEventListener("submit", () => { sessionStorage.sentAt = at(); }, {capture: true, once: true});
  new MutationObserver((m, o) => {
    o.disconnect();
    requestAnimationFrame(() => setTimeout(() => { sessionStorage.shownAt = at(); }, 0));
  }).observe(document.querySelector(".flashes"), {childList: true});
}"""
SHOWN_JS = """() => {
  const sent = Number(sessionStorage.sentAt), loaded = performance.timing.domContentLoadedEventEnd;
  const shown = Number(sessionStorage.shownAt) || (loaded > sent ? loaded : 0);
  return shown ? shown - sent : null;
}"""


def act(page: Page, player_id: int, game_id: int) -> float:
    """One join through the desk's form: from its sending to the frame with its message and the
    seats (the desk's page loaded again, before this change)."""
    page.evaluate("() => { document.querySelectorAll('.flash').forEach(f => f.remove());"
                  " document.querySelector('form[data-form=join]').closest('details').open = true; }")
    form = page.locator("form[data-form=join]")
    form.locator("input[name=player_id]").fill(str(player_id))
    form.locator(f"input[name=game_id][value='{game_id}']").check()
    page.evaluate(ACT_JS)
    form.locator("button[type=submit]").click()
    took: float = page.wait_for_function(SHOWN_JS).json_value()
    return took


def add(page: Page, k: int, game_id: int) -> float:
    """One walk-in added through the desk's form and put on a game's list: from its sending to
    the frame with its message (the desk's page loaded again, before this kept it)."""
    page.evaluate("() => document.querySelectorAll('.flash').forEach(f => f.remove())")
    form = page.locator("form[data-form=add-player]")
    form.locator("input[name=first_name]").fill("Walk")
    form.locator("input[name=last_name]").fill("In" + "".join(chr(97 + int(d)) for d in str(k)))
    form.locator(f"input[name=game_id][value='{game_id}']").check()
    page.evaluate(ACT_JS)
    form.locator("button[type=submit]").click()
    took: float = page.wait_for_function(SHOWN_JS).json_value()
    return took


# In the page: once the move dialog lists the table, the time since the form was sent (ACT_JS).
LISTED_JS = """(name) => {
  const listed = Array.from(document.querySelectorAll("dialog#act select[name=table_id] option"))
    .some(o => o.textContent.startsWith("T" + name + " "));
  return listed ? performance.timeOrigin + performance.now() - Number(sessionStorage.sentAt) : null;
}"""


def open_table(page: Page, k: int, game_id: int) -> float:
    """A table opened with the desk's form: from its sending to the page's forms listing it (the
    desk's page loaded again, before the forms were drawn again apart)."""
    name = f"N{k}"
    form = page.locator("form[action$='/desk/tables']")
    form.evaluate("f => { f.closest('details').open = true; }")
    form.locator("select[name=game_id]").select_option(str(game_id))
    form.locator("input[name=name]").fill(name)
    page.evaluate(ACT_JS)
    form.locator("button[type=submit]").click()
    took: float = page.wait_for_function(LISTED_JS, arg=name).json_value()
    return took


def line(name: str, samples: list[float]) -> str:
    return (f"{name:<38} p50 {statistics.median(samples):8.0f} ms   max {max(samples):8.0f} ms   "
            f"({len(samples)})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=250)
    ap.add_argument("--changes", type=int, default=10)
    ap.add_argument("--actions", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, harness.fresh_database("sqlite", Path(tmp), "desk", "") as url:
        b = harness.Bench(url, roomgen.RoomSpec().scaled(args.tables), f"{args.tables}-table room")
        password, token = b.supervisor_password(), b.built.token
        joins = ops.fresh_joins(b)
        b.close()
        web, base = serve(url, Path(tmp))
        try:
            api = http.client.HTTPConnection(base.removeprefix("http://"))
            auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM)
                page = browser.new_page(viewport=VIEWPORT)
                load = open_desk(page, base, password)
                nodes = page.evaluate("document.getElementsByTagName('*').length")
                seats = page.locator(".seat").count()
                swaps, frames, floor = [], [], []
                for _ in range(args.changes):
                    floor.append(page.evaluate(POLL_JS)[1])  # nothing changed: a 304
                    player_id, game_id = next(joins)
                    api.request("POST", "/api/v1/entries",
                                json.dumps({"player_id": player_id, "game_id": game_id}), auth)
                    answer = api.getresponse()
                    answer.read()
                    if answer.status >= 300:
                        raise RuntimeError(f"a join: {answer.status}")
                    swap, frame = page.evaluate(POLL_JS)
                    swaps.append(swap)
                    frames.append(frame)
                actions = [act(page, *next(joins)) for _ in range(args.actions)]
                added = [add(page, k, next(joins)[1]) for k in range(args.actions)]
                opened = [open_table(page, k, next(joins)[1]) for k in range(args.actions)]
                browser.close()
        finally:
            web.terminate()
            web.wait(10)
    print(f"\nthe desk of a {args.tables}-table room in Chromium {VIEWPORT['width']}x{VIEWPORT['height']}, "
          f"SQLite, {time.strftime('%Y-%m-%d %H:%M %Z')}: {seats} seats, {nodes:,} elements, "
          f"loaded in {load:.0f} ms")
    print(line("after a change: fetch and swap", swaps))
    print(line("after a change: to the next frame", frames))
    print(line("floor: nothing changed (304)", floor))
    print(line("an action: sent to its message drawn", actions))
    print(line("a player added: sent to its message", added))
    print(line("a table opened: sent to in the forms", opened))


if __name__ == "__main__":
    main()
