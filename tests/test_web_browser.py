"""The web app in a real browser: headless Chromium (Debian's package),
driven by Playwright through its executable path. Plays a short Quoridor
game by clicking, checks that the board updates and that an illegal click
is refused, takes a screenshot, and replays an uploaded records file; a
records file naming code is refused, and nothing on the page breaks the
server's Content-Security-Policy. Analysis for people: the MultiPV lines,
their arrows and the evaluation bar; a game played in the page and a
replayed record reviewed, their graphs' points and marks, and a point
clicked shows its ply. Skips, saying why, without Chromium.

The page's policy forbids eval, which Playwright's wait_for_function uses:
`until` polls with page.evaluate instead."""

import json
import os
import shutil
import socket
import subprocess
import sys
import urllib.request

import pytest

from helpers import HANG, wait_for

pytest.importorskip("starlette", reason='the web app needs the web extra: pip install ".[web]"')
pytest.importorskip("uvicorn", reason='the web app needs the web extra: pip install ".[web]"')
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (test extra)")

CHROMIUM = os.environ.get("CROSSRIDOR_CHROMIUM") or next(
    (p for p in (shutil.which("chromium"), shutil.which("chromium-browser"), "/usr/bin/chromium")
     if p and os.path.exists(p)),
    None)
if CHROMIUM is None:
    pytest.skip("no Chromium installed (apt-get install chromium; or set CROSSRIDOR_CHROMIUM)",
                allow_module_level=True)

# what the browser said about the page's Content-Security-Policy (nothing, we hope)
POLICY_COMPLAINTS: list[str] = []

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "crossridor", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        def up():
            if proc.poll() is not None:
                pytest.fail(f"crossridor serve exited: {proc.stdout.read().decode()}")
            try:
                urllib.request.urlopen(url + "/api/health", timeout=HANG)
                return True
            except OSError:
                return False
        assert wait_for(up), "crossridor serve did not answer"
        yield url
    finally:
        proc.terminate()
        proc.wait(HANG)


@pytest.fixture(scope="module")
def page(server, tmp_path_factory):
    with sync_api.sync_playwright() as pw:
        # installed but not starting is a failure, not a skip
        ctx = pw.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM, args=ARGS,
            headless=True, viewport={"width": 1100, "height": 800})
        pg = ctx.new_page()
        pg.set_default_timeout(HANG * 1000)      # a bound for a hang, in ms
        pg.on("console", lambda m: POLICY_COMPLAINTS.append(m.text) if "Content Security Policy" in m.text else None)
        pg.goto(server + "/")
        pg.wait_for_selector("#conn:text-is('connected')")
        yield pg
        ctx.close()


def until(page, expression: str) -> None:
    """Wait until `expression` is true on the page (a bound for a hang)."""
    assert wait_for(lambda: page.evaluate(expression)), expression


def plies(page) -> int:
    return int(page.get_attribute("#board", "data-plies") or 0)


def test_play_quoridor_by_clicking(page, tmp_path):
    page.select_option("#opt-size", "5")
    page.fill("#engine", "alphabeta:depth=2")
    page.click("#new-game")
    page.wait_for_selector("#sq-c2.legal")
    assert page.locator("#sq-c3.legal").count() == 0          # only legal targets are highlighted
    assert page.locator("#pawn-1").count() == 1
    pawn_before = page.get_attribute("#pawn-1", "cx")
    page.click("#sq-c2")
    until(page, "document.querySelector('#board').dataset.plies == '2'")
    assert page.get_attribute("#pawn-1", "cx") == pawn_before      # c1 -> c2: same column
    assert page.get_attribute("#sq-c2", "class").split()[:1] == ["sq"]
    # an illegal click is refused, and the board stays as it was
    page.click("#sq-c5")
    page.wait_for_selector(".message.refused")
    assert "c5" in page.text_content("#message") and plies(page) == 2
    # a wall by clicking its slot
    wall = page.locator("#board rect.slot.legal").first
    name = wall.get_attribute("data-move")
    wall.click()
    until(page, "document.querySelector('#board').dataset.plies == '4'")
    assert page.locator("#board rect.wall").count() >= 1 and name
    # undo takes back the wall and the engine's reply
    page.click("#undo")
    until(page, "document.querySelector('#board').dataset.plies == '2'")
    # play on to the end of the game, clicking the highlighted square nearest the goal
    for _ in range(40):
        if "game over" in page.text_content("#status"):
            break
        n = plies(page)
        squares = page.locator("#board rect.sq.legal")
        best = max(range(squares.count()), key=lambda i: int(squares.nth(i).get_attribute("data-move")[1:]))
        squares.nth(best).click()
        until(page, f"document.querySelector('#board').dataset.plies > {n}")
        until(page, "!document.querySelector('#status').textContent.includes('thinking')")
    assert "game over" in page.text_content("#status")
    shot = tmp_path / "quoridor.png"
    page.screenshot(path=str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 5000


def test_play_a_rectangular_board_by_clicking(page):
    """A 4x7 board chosen in the form: drawn 4 columns by 7 rows; a step
    and a wall made by clicking."""
    page.click("#tab-play")
    page.select_option("#game", "quoridor")
    assert page.locator("#opt-size option[value='4x7']").text_content() == "4x7"
    page.select_option("#opt-size", "4x7")
    page.fill("#engine", "alphabeta:depth=1")
    page.click("#new-game")
    page.wait_for_selector("#sq-c2.legal")
    assert page.locator("#board rect.sq").count() == 28
    assert page.locator("#sq-d7").count() == 1 and page.locator("#sq-e1, #sq-a8").count() == 0
    assert page.locator("#board rect.slot").count() == 2 * 3 * 6
    page.click("#sq-c2")
    until(page, "document.querySelector('#board').dataset.plies == '2'")
    centre = page.evaluate("(() => { const r = document.querySelector('#sq-c2');"
                           " return [Number(r.getAttribute('x')) + Number(r.getAttribute('width')) / 2,"
                           " Number(r.getAttribute('y')) + Number(r.getAttribute('height')) / 2]; })()")
    assert [float(page.get_attribute("#pawn-1", k)) for k in ("cx", "cy")] == pytest.approx(centre)
    page.click("#wall-a5h")
    until(page, "document.querySelector('#board').dataset.plies == '4'")
    assert page.locator("#board rect.wall").count() >= 1


def test_analyse_shows_info_lines(page):
    page.click("#tab-analyse")
    page.select_option("#game", "quoridor")
    page.fill("#an-moves", "e2 e8")
    page.fill("#an-engine", "alphabeta:depth=4")
    page.click("#analyse")
    until(page, "document.querySelector('#info').textContent.includes('bestmove')")
    assert "depth 4" in page.text_content("#info")
    page.click("#sq-e3")                                       # a click extends the analysed line
    until(page, "document.querySelector('#an-moves').value == 'e2 e8 e3'")
    page.click("#tab-play")


def test_crosswise_move_by_clicking_a_tile_then_a_cell(page):
    page.select_option("#game", "crosswise")
    page.fill("#engine", "greedy")
    page.click("#new-game")
    page.wait_for_selector("#board .tile.legal")        # our turn (the engine may have opened)
    n = plies(page)
    assert page.locator("#board .back").count() == 4      # the other hand: four tile backs
    tiles = page.locator("#board .tile.legal")
    symbols = [tiles.nth(i).get_attribute("data-move") for i in range(tiles.count())]
    symbol = next(s for s in symbols if s.isdigit())      # a symbol: placed by one more click
    page.click(f"#hand-{symbol}")
    assert page.locator("#board .picked").count() == 1
    cells = page.locator("#board rect.cell.legal")
    assert cells.count() > 0
    cell = cells.first.get_attribute("data-move")
    cells.first.click()
    until(page, f"document.querySelector('#board').dataset.plies > {n}")
    assert f"{symbol}@{cell}" in page.evaluate("current.view.history")


def test_replay_a_records_file(page, tmp_path):
    # a match's records file, uploaded through the file input, is listed and stepped through
    records = tmp_path / "r.jsonl"
    subprocess.run([sys.executable, "-m", "crossridor", "match", "quoridor", "--size", "5", "--engine", "random",
                    "--engine", "greedy", "--games", "2", "--seed", "3", "--records", str(records)],
                   check=True, capture_output=True)
    games = [line for line in records.read_text().splitlines() if line.strip()]
    page.click("#tab-replay")
    page.set_input_files("#records", str(records))
    until(page, f"document.querySelector('#replay-games').options.length == {len(games)}")
    page.wait_for_selector("#rp-ply:text-matches('^move 0 of [0-9]+$')")
    total = int(page.text_content("#rp-ply").split()[-1])
    assert total > 0 and page.locator("#board svg").count() == 1
    page.click("#rp-last")
    page.wait_for_selector(f"#rp-ply:text-is('move {total} of {total}')")
    assert page.locator("#rp-moves span.current").count() == 1
    page.click("#rp-first")
    page.wait_for_selector(f"#rp-ply:text-is('move 0 of {total}')")
    # a corrupt file is refused with a message, not a crash
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    page.set_input_files("#records", str(bad))
    page.wait_for_selector(".message.refused")
    assert "line 1: not JSON" in page.text_content("#message")
    page.click("#tab-play")


# a 3x3 Quoridor game in which player 1 could win at ply 5 (a2-a3 reaches its
# goal row) and walks back to a1 instead; player 2 then wins
THROWN = ["a1", "c3", "a2", "c2", "a1", "c1"]


def review_in_page(page, plies: int) -> None:
    """Ask for the review of the game shown and wait for its graph."""
    page.fill("#rv-engine", "alphabeta:depth=3")
    page.click("#review-game")
    page.wait_for_selector("#rv-graph svg")
    assert page.text_content("#rv-progress") == f"reviewed {plies} plies"


def test_analyse_shows_multipv_lines_and_the_bar(page):
    page.click("#tab-analyse")
    page.select_option("#game", "quoridor")
    page.select_option("#opt-size", "5")
    page.fill("#an-moves", "c2 c4")
    page.fill("#an-engine", "alphabeta:depth=3")
    page.fill("#an-multipv", "3")
    page.click("#analyse")
    until(page, "document.querySelector('#info').textContent.includes('bestmove')")
    rows = page.locator("#lines tbody tr")
    assert rows.count() == 3
    assert [rows.nth(k).locator("td").first.text_content() for k in range(3)] == ["1", "2", "3"]
    assert page.locator("#board .arrow.faint").count() == 2            # the other two lines, paler
    assert page.locator("#board .arrow:not(.faint)").count() >= 1       # the best line
    assert "unknown" not in page.get_attribute("#evalbar", "class")
    assert page.text_content("#eval-text").startswith("player 1: ")
    page.click("#tab-play")


def test_review_a_game_played_in_the_page(page):
    """Both seats are people: player 1 walks away from a won position; the
    review marks it, and a graph point shows the position after its ply."""
    page.click("#tab-play")
    page.select_option("#game", "quoridor")
    page.select_option("#opt-size", "3")
    page.check("#seat-2")
    page.click("#new-game")
    until(page, "document.querySelector('#board').dataset.plies == '0'")
    page.wait_for_selector("#sq-a1.legal")
    for k, square in enumerate(THROWN, 1):
        page.click(f"#sq-{square}")
        until(page, f"document.querySelector('#board').dataset.plies == '{k}'")
    page.wait_for_selector("#status:text-matches('game over')")
    review_in_page(page, len(THROWN))
    points = page.locator("#rv-graph .pt")
    assert [points.nth(k).get_attribute("data-ply") for k in range(points.count())] == ["1", "2", "3", "4", "5", "6"]
    blunders = page.locator("#rv-graph .pt.mark.blunder")
    assert "5" in [blunders.nth(k).get_attribute("data-ply") for k in range(blunders.count())]
    row = page.locator('#rv-marks tr[data-ply="5"] td')
    assert [row.nth(k).text_content() for k in (0, 1, 2, 3, 6)] == ["5", "player 1", "a1", "a3", "blunder"]
    assert page.locator("#rv-marks tbody tr").count() == 6
    assert page.text_content("#rv-summary").startswith("player 1: 3 moves, mean loss 0.333, 0 inaccuracies, "
                                                       "0 mistakes, 1 blunder; player 2: 3 moves")
    # a point: the board shows the position after its ply (player 1 on a2 after ply 3)
    page.click('#rv-graph .pt[data-ply="3"]')
    until(page, "document.querySelector('#board').dataset.plies == '3'")
    centre = page.evaluate("(() => { const r = document.querySelector('#sq-a2');"
                           " return Number(r.getAttribute('x')) + Number(r.getAttribute('width')) / 2; })()")
    assert abs(float(page.get_attribute("#pawn-1", "cx")) - centre) < 0.01
    assert "after ply 3 of 6" in page.text_content("#status")
    assert page.locator('#rv-graph .pt.current[data-ply="3"]').count() == 1
    assert "unknown" not in page.get_attribute("#evalbar", "class")
    # and the blunder's point: player 1 back on a1, lost
    page.click('#rv-graph .pt[data-ply="5"]')
    until(page, "document.querySelector('#board').dataset.plies == '5'")
    assert page.text_content("#eval-text") == "player 1: loses in 1 ply"


def test_review_a_replayed_records_line(page, tmp_path):
    record = {"index": 0, "seed": 1, "deal_seed": None, "seats": [0, 1], "engines": ["someone", "another"],
              "result": "0-1", "returns": [-1.0, 1.0], "winner": 1, "winner_engine": 1, "reason": "terminal",
              "moves": THROWN, "opening_plies": 0, "plies": 6, "seconds": 1.0, "game": "quoridor",
              "params": {"size": 3}}
    records = tmp_path / "thrown.jsonl"
    records.write_text(json.dumps(record) + "\n")
    page.click("#tab-replay")
    page.set_input_files("#records", str(records))
    page.wait_for_selector("#rp-ply:text-is('move 0 of 6')")
    review_in_page(page, len(THROWN))
    assert page.locator("#rv-graph .pt").count() == 6
    assert page.locator('#rv-marks tr.blunder[data-ply="5"]').count() == 1
    page.click('#rv-graph .pt[data-ply="5"]')
    page.wait_for_selector("#rp-ply:text-is('move 5 of 6')")
    assert page.locator("#rp-moves span.current").text_content() == "a1"
    page.click("#tab-play")
    assert page.locator("#rv-graph svg").count() == 0         # the review belongs to the replayed game


def test_replay_refuses_a_file_naming_code(page, tmp_path):
    """Data never names code, through the page: a records line naming
    `os:system` is one line of refusal, and the command never runs."""
    mark = tmp_path / "ran.txt"
    record = {"index": 0, "seed": 1, "deal_seed": None, "seats": [0, 1], "engines": ["random", "random"],
              "result": "1-0", "returns": [1.0, -1.0], "winner": 0, "winner_engine": 0, "reason": "terminal",
              "moves": [], "opening_plies": 0, "plies": 0, "seconds": 0.1, "game": "os:system",
              "params": {"command": f"touch {mark}"}}
    crafted = tmp_path / "crafted.jsonl"
    crafted.write_text(json.dumps(record) + "\n")
    page.click("#tab-replay")
    page.set_input_files("#records", str(crafted))
    page.wait_for_selector(".message.refused")
    message = page.text_content("#message")
    assert "line 1: " in message and "data never names code" in message and "\n" not in message
    assert page.locator("#replay-games option").count() == 0
    assert not mark.exists()
    page.click("#tab-play")


def test_the_page_lives_within_its_content_security_policy(page, server):
    """The server forbids framing and anything the page does not load from
    itself; the page (its script, style sheet, WebSocket and SVG boards) works
    within that: the browser complained of nothing in the tests above."""
    response = page.goto(server + "/")
    policy = response.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy
    assert response.headers["x-frame-options"] == "DENY"
    page.wait_for_selector("#conn:text-is('connected')")
    page.select_option("#game", "quoridor")
    page.fill("#engine", "random")
    page.click("#new-game")
    page.wait_for_selector("#board svg text")
    # the board's style attributes apply (a blocked one would leave the default size)
    sizes = page.evaluate("[...document.querySelectorAll('#board svg text[style*=font-size]')]"
                          ".map(t => [t.style.fontSize, getComputedStyle(t).fontSize])")
    assert sizes and all(declared == computed for declared, computed in sizes), sizes
    assert POLICY_COMPLAINTS == []
