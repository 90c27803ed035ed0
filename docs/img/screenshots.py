"""Makes the README's pictures (docs/img/*.png): `crossridor serve` after a
whole 9x9 Quoridor game against the engine and after the first 16 plies of a
Crosswise game as one seat, both played by clicking in headless Chromium (in
Quoridor "you" click the engine's hints, in Crosswise random legal tiles and
cells), and `crossridor show --png`.

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


def wait_turn(page, n):
    page.wait_for_function(f"document.querySelector('#board').dataset.plies > {n}")
    page.wait_for_function("!document.querySelector('#status').textContent.includes('thinking')")


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
        page.click("#hint")
        page.wait_for_selector("#board .hint")
        page.click("#board .hint")
        wait_turn(page, n)
    page.screenshot(path=str(HERE / "serve-quoridor.png"))


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
            crosswise(page, random.Random(1))
            ctx.close()
    finally:
        server.terminate()
        server.wait()
    subprocess.run([sys.executable, "-m", "crossridor", "show", "quoridor", "--moves", "e2 e8 e3h",
                    "--png", str(HERE / "show-quoridor.png")], check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
