"""Makes the README's pictures (docs/img/*.png): `crossridor serve` after a
whole 9x9 Quoridor game against the engine, its review, an analysis with three
lines, and after the first 16 plies of a Crosswise game as one seat, played
by clicking in headless Chromium (in Quoridor "you" click the engine's hints
but walk back once, in Crosswise random legal tiles and cells), and
`crossridor show --png`.

    python docs/img/screenshots.py        # needs .[web,test,png] and Chromium
"""

import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PORT = 8771


def plies(page):
    return int(page.get_attribute("#board", "data-plies") or 0)


def until(page, expression):
    """Wait until `expression` is true on the page: polled with evaluate, as
    the page's Content-Security-Policy forbids wait_for_function's eval."""
    for _ in range(6000):
        if page.evaluate(expression):
            return
        time.sleep(0.01)
    raise TimeoutError(expression)


def wait_turn(page, n):
    until(page, f"document.querySelector('#board').dataset.plies > {n}")
    until(page, "!document.querySelector('#status').textContent.includes('thinking')")


def click_path(page, path):
    for el_id in path:
        page.click(f"#{el_id}")


def quoridor(page):
    page.select_option("#game", "quoridor")
    page.fill("#engine", "alphabeta:time=0.3")
    page.click("#new-game")
    page.wait_for_selector("#sq-e2.legal")
    while "game over" not in page.text_content("#status"):
        n = plies(page)
        if n == 10:                  # a move for the review to mark: back towards the start
            page.click("#board rect.sq.legal >> nth=0")
        else:
            page.click("#hint")
            page.wait_for_selector("#board .hint")
            page.click("#board .hint")
        wait_turn(page, n)
    page.screenshot(path=str(HERE / "serve-quoridor.png"))


def review(page):
    """The review of the game just played, the position after a marked ply shown."""
    page.fill("#rv-engine", "alphabeta:depth=4")
    page.click("#review-game")
    page.wait_for_selector("#rv-graph svg")
    page.click("#rv-graph .pt.mark >> nth=0")
    page.wait_for_timeout(500)
    page.screenshot(path=str(HERE / "serve-review.png"), full_page=True)


def analyse(page):
    page.click("#tab-analyse")
    page.select_option("#game", "quoridor")
    page.fill("#an-moves", "e2 e8 e3 e7 e4 e6")
    page.fill("#an-engine", "alphabeta:depth=5")
    page.fill("#an-multipv", "3")
    page.click("#analyse")
    until(page, "document.querySelector('#info').textContent.includes('bestmove')")
    page.wait_for_timeout(500)          # the bar's move to its value
    page.screenshot(path=str(HERE / "serve-analyse.png"))
    page.click("#tab-play")


def crosswise(page, rng):
    page.select_option("#game", "crosswise")
    page.fill("#engine", "ismcts:time=0.3")
    page.click("#new-game")
    page.wait_for_selector("#board .tile.legal")
    while plies(page) < 16:         # the picture is of the game under way
        n = plies(page)
        legal = page.evaluate("legal")
        with_paths = [m for m in legal if m["paths"]]
        if with_paths:
            click_path(page, rng.choice(with_paths)["paths"][0])
        else:
            page.click("#move-buttons button")
        wait_turn(page, n)
    page.screenshot(path=str(HERE / "serve-crosswise.png"))


def main():
    server = subprocess.Popen([sys.executable, "-m", "crossridor", "serve", "--port", str(PORT)])
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{PORT}/api/health")
                break
            except OSError:
                time.sleep(0.1)
        with sync_playwright() as pw:
            ctx = pw.chromium.launch_persistent_context(tempfile.mkdtemp(), executable_path="/usr/bin/chromium",
                                                        args=ARGS, headless=True,
                                                        viewport={"width": 1000, "height": 700})
            page = ctx.new_page()
            page.set_default_timeout(60000)
            page.goto(f"http://127.0.0.1:{PORT}/")
            page.wait_for_selector("#conn:text-is('connected')")
            quoridor(page)
            review(page)
            analyse(page)
            crosswise(page, random.Random(1))
            ctx.close()
    finally:
        server.terminate()
        server.wait()
    subprocess.run([sys.executable, "-m", "crossridor", "show", "quoridor", "--moves", "e2 e8 e3h",
                    "--png", str(HERE / "show-quoridor.png")], check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
