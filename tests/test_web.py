"""The web app's API (`crossridor serve`), through Starlette's test client:
play, analysis, replay, bad input, searches stopped when a tab goes away,
and the hidden-information rule: every message a seat gets is built from
what that seat may see."""

import json
import random
import warnings

import pytest

pytest.importorskip("starlette", reason='the web app needs the web extra: pip install ".[web]"')
pytest.importorskip("httpx", reason="Starlette's test client needs httpx (in the test extra)")

with warnings.catch_warnings():     # newer Starlette suggests another HTTP client package
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

import crossridor  # noqa: E402
from crossridor.engine.cli.main import main  # noqa: E402
from crossridor.engine.registry import picture  # noqa: E402
from crossridor.engine.views import view_in_seats  # noqa: E402
from crossridor.engine.web import searching  # noqa: E402
from crossridor.engine.web.app import create_app, page_games  # noqa: E402
from helpers import wait_for  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(host="testserver")) as c:   # the test client's Host
        yield c


def until_state(ws, thinking=False):
    """Messages up to the next state with the engine done."""
    seen = []
    while True:
        msg = ws.receive_json()
        seen.append(msg)
        if msg["type"] == "state" and not msg.get("thinking"):
            return msg, seen
        if msg["type"] == "error":
            raise AssertionError(msg)


def test_games_page_and_static_files(client):
    data = client.get("/api/games").json()
    assert set(data["games"]) == {"quoridor", "crosswise", "qwatrobat", "kreuzundquer"}
    assert "alphabeta" in data["algorithms"]
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert "onBoardClick" in client.get("/static/app.js").text
    assert client.get("/static/app.css").status_code == 200
    assert client.get("/api/health").json()["ok"] is True


def test_best_and_bad_input(client):
    r = client.post("/api/best", json={"game": "quoridor", "moves": "e2 e8", "engine": "alphabeta:depth=3"})
    assert r.status_code == 200 and r.json()["depth"] == 3
    assert sum(r.json()["wdl"]) == 1000 and 0 <= r.json()["expected"] <= 1 and r.json()["result_in"] is None
    state = crossridor.load_game("quoridor").new_state("e2 e8")
    assert state.parse_move(r.json()["move"])
    for body, words in [({"game": "chess"}, "unknown game"),
                        ({"game": "quoridor", "moves": "e2 e9"}, "move 2"),
                        ({"game": "quoridor", "engine": "alphabeta:time=1000"}, "at most"),
                        ({"game": "quoridor", "engine": "nope"}, "unknown algorithm"),
                        ({"game": "quoridor", "options": {"size": 10}}, "size"),
                        ({"game": "quoridor", "options": {"size": "4x2"}}, "size"),
                        ({"game": "quoridor", "options": {"size": "4x7", "players": 4}}, "four-player board")]:
        r = client.post("/api/best", json=body)
        assert r.status_code == 400 and words in r.json()["error"], r.json()
    r = client.post("/api/best", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not JSON" in r.json()["error"]


def test_render_a_position(client):
    r = client.post("/api/render", json={"game": "crosswise", "seed": 3, "moves": [], "viewer": 1}).json()
    assert r["svg"].startswith("<svg") and "tiles" not in r["view"]["hands"][1]
    assert r["view"]["viewer"] == 1 and [h["seat"] for h in r["view"]["hands"]] == [1, 2]


def test_play_quoridor_move_refuse_undo_hint(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "new", "game": "quoridor", "options": {"size": 5}, "seats": [1],
                      "engine": "alphabeta:depth=2"})
        msg, _ = until_state(ws)
        assert msg["view"]["to_move"] == 1 and msg["seat"] == 1 and msg["humans"] == [1]
        assert {"move": "c2", "paths": [["sq-c2"]]} in msg["legal"]
        assert {"move": "a1h", "paths": [["wall-a1h"]]} in msg["legal"]
        ws.send_json({"type": "stop"})            # the page's mode switch: no effect on a game
        ws.send_json({"type": "move", "move": "c2"})
        msg, seen = until_state(ws)
        assert any(m.get("thinking") and m["legal"] == [] for m in seen)      # no moves while the engine thinks
        assert msg["view"]["history"][0] == "c2" and len(msg["view"]["history"]) == 2
        ws.send_json({"type": "move", "move": "c5"})
        refused = ws.receive_json()
        assert refused["type"] == "refused" and "c5" in refused["message"]
        ws.send_json({"type": "hint"})
        hint = ws.receive_json()
        assert hint["type"] == "hint" and hint["move"] in {m["move"] for m in msg["legal"]}
        ws.send_json({"type": "undo"})
        msg = ws.receive_json()
        assert msg["view"]["history"] == [] and msg["legal"]
        ws.send_json({"type": "undo"})
        assert ws.receive_json()["type"] == "refused"
        for seats in ([5], [0]):
            ws.send_json({"type": "new", "game": "quoridor", "seats": seats})
            assert "seats must be a non-empty list of seats 1..2" in ws.receive_json()["message"]
        ws.send_text("not json")
        assert ws.receive_json()["type"] == "error"


def test_games_page_offers_the_boards():
    size = next(p for p in page_games()["quoridor"]["params"] if p["name"] == "size")
    assert size == {"name": "size", "type": "board", "widths": [2, 9], "heights": [3, 9], "default": 9,
                    "doc": size["doc"], "file": False, "budget": False, "python_only": False}


def test_play_render_and_best_on_a_rectangular_board(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "new", "game": "quoridor", "options": {"size": "4x7", "walls": "2"}, "seats": [1],
                      "engine": "alphabeta:depth=2"})
        msg, _ = until_state(ws)
        view = msg["view"]
        assert (view["size"], view["width"], view["height"], view["pawns"]) == ("4x7", 4, 7, ["c1", "c7"])
        assert {"move": "c2", "paths": [["sq-c2"]]} in msg["legal"]
        assert {"move": "c6v", "paths": [["wall-c6v"]]} in msg["legal"]
        assert 'id="sq-d7"' in msg["svg"] and 'id="sq-e1"' not in msg["svg"]
        ws.send_json({"type": "move", "move": "c2"})
        msg, _ = until_state(ws)
        assert msg["view"]["history"][0] == "c2" and len(msg["view"]["history"]) == 2
        ws.send_json({"type": "move", "move": "e2"})
        refused = ws.receive_json()
        assert refused["type"] == "refused" and "off the 4x7 board" in refused["message"]
    r = client.post("/api/render", json={"game": "quoridor", "options": {"size": "4x7"}, "moves": "c2 c6 b3h"}).json()
    assert r["view"]["walls"] == ["b3h"] and r["view"]["position"] == "4x7x2:c2,c6:9,10:b3h:2"
    assert 'id="wall-c6v"' in r["svg"]
    r = client.post("/api/best", json={"game": "quoridor", "options": {"size": "4x7", "walls": 1},
                                        "moves": "c2 c6", "engine": "alphabeta:depth=3"})
    assert r.status_code == 200 and r.json()["depth"] == 3
    assert crossridor.load_game("quoridor", size="4x7", walls=1).new_state("c2 c6").parse_move(r.json()["move"])


def test_replay_records_of_a_rectangular_board(client, tmp_path):
    records = tmp_path / "games.jsonl"
    assert main(["match", "quoridor", "--size", "4x7", "--walls", "2", "--engine", "random", "--engine", "greedy",
                 "--games", "1", "--concurrency", "1", "--seed", "1", "--records", str(records)]) == 0
    g = client.post("/api/replay", json={"records": records.read_text()}).json()["games"][0]
    assert g["options"] == {"size": "4x7", "walls": 2}
    final = client.post("/api/render", json={"game": g["game"], "options": g["options"], "moves": g["moves"]}).json()
    assert final["view"]["over"] and (final["view"]["width"], final["view"]["height"]) == (4, 7)


def test_play_a_whole_quoridor_game_as_the_second_seat(client):
    rng = random.Random(4)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "new", "game": "quoridor", "options": {"size": 3}, "seats": [2], "engine": "random"})
        msg, _ = until_state(ws)
        assert len(msg["view"]["history"]) == 1                  # the engine opened
        while "result" not in msg:
            ws.send_json({"type": "move", "move": rng.choice(msg["legal"])["move"]})
            msg, _ = until_state(ws)
        assert msg["view"]["over"] and msg["result"] in ("you win", "the engine (player 1) wins")


def test_analysis_streams_info_lines_and_stops(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "analyse", "game": "quoridor", "moves": ["e2", "e8"], "engine": "alphabeta:depth=5"})
        msg = ws.receive_json()
        assert msg["type"] == "state" and msg["history"] == ["e2", "e8"] and msg["legal"]
        infos = []
        while True:
            m = ws.receive_json()
            if m["type"] == "bestmove":
                break
            infos.append(m)
        assert [i["depth"] for i in infos] == [1, 2, 3, 4, 5]
        assert m["move"] == infos[-1]["pv"][0] and "<svg" in m["svg"]
        # what each score means for the side to move (the page's evaluation bar)
        assert all(sum(i["wdl"]) == 1000 and 0 <= i["expected"] <= 1 for i in [*infos, m])
        # open-ended: runs until stopped
        ws.send_json({"type": "analyse", "game": "quoridor", "moves": "e2 e8", "engine": "alphabeta"})
        assert ws.receive_json()["type"] == "state"
        assert ws.receive_json()["type"] == "info"
        ws.send_json({"type": "stop"})
        while (m := ws.receive_json())["type"] != "bestmove":
            assert m["type"] == "info"
        # a card game: chunks of growing length
        ws.send_json({"type": "analyse", "game": "crosswise", "seed": 2, "moves": [],
                      "engine": "ismcts:time=0.6"})
        assert ws.receive_json()["type"] == "state"
        kinds = []
        while (m := ws.receive_json())["type"] != "bestmove":
            kinds.append(m["type"])
        assert kinds and set(kinds) == {"info"}


def test_a_closed_tab_stops_its_search(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "analyse", "game": "quoridor", "moves": [], "engine": "alphabeta:time=25"})
        ws.receive_json()
        ws.receive_json()                 # an info line: the search is running
        assert searching.running() == 1
    # the tab is gone once its search thread has ended
    assert wait_for(lambda: searching.running() == 0 and client.get("/api/health").json()["tabs"] == 0)


def test_replay_a_records_file(client, tmp_path):
    records = tmp_path / "games.jsonl"
    assert main(["match", "quoridor", "--size", "5", "--engine", "random", "--engine", "greedy", "--games", "2",
                 "--concurrency", "1", "--seed", "1", "--records", str(records)]) == 0
    text = records.read_text() + "this is not json\n"
    data = client.post("/api/replay", json={"records": text}).json()
    assert len(data["games"]) == 2 and len(data["errors"]) == 1
    g = data["games"][0]
    final = client.post("/api/render", json={"game": g["game"], "options": g["options"], "seed": g["seed"],
                                             "moves": g["moves"]}).json()
    assert final["view"]["over"] and final["view"]["history"] == g["moves"]
    assert client.post("/api/replay", json={"records": ""}).status_code == 400


# --- hidden information ------------------------------------------------------------------------

ALLOWED = {"type", "view", "svg", "legal", "mode", "seat", "humans", "thinking", "engine", "result", "message"}


def play_through_server(client, game, options, engine, seed):
    """A whole game as seat 1 against the engine; every message the tab got,
    and the session's full final state and seed."""
    rng = random.Random(seed)
    app = client.app
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "new", "game": game, "options": options, "seats": [1], "engine": engine,
                      "seed": seed})
        messages = []
        while True:
            msg, seen = until_state(ws)
            messages += seen
            if "result" in msg:
                break
            assert msg["legal"] and msg["view"]["to_move"] == 1
            ws.send_json({"type": "move", "move": rng.choice(msg["legal"])["move"]})
        tab = next(t for t in app.state.tabs if t.state is not None and t.state.game.name == game)
        final = tab.state.clone()
    return messages, final


def replay(game, seed, history):
    state = game.new_state(None, seed=seed)
    states = [state.clone()]
    for move in history:
        state.play(move)
        states.append(state.clone())
    return states


def without_history(view):
    return {k: v for k, v in view.items() if k != "history"}


def normal(obj):
    return json.loads(json.dumps(obj))


@pytest.mark.parametrize("name,options,engine", [
    ("crosswise", {"players": 2}, "greedy"),
    ("qwatrobat", {}, "ismcts:sims=30"),
    ("kreuzundquer", {"players": 2, "races": 1}, "greedy"),
])
def test_a_seat_is_sent_only_what_it_may_see(client, name, options, engine):
    seed = 7
    messages, final = play_through_server(client, name, options, engine, seed)
    game = crossridor.load_game(name, **options)
    history = [str(m) for m in (final.history() if callable(final.history) else final.history)]
    states = replay(game, seed, history)
    rng = random.Random(1)
    text = json.dumps([{k: v for k, v in m.items() if k != "legal"} for m in messages])   # legal: own moves
    twins_differ = 0
    for msg in messages:
        assert set(msg) <= ALLOWED, set(msg) - ALLOWED
        assert msg["type"] == "state", msg
        view = msg["view"]
        state = states[len(view["history"])]
        assert view["viewer"] == 1 and msg["svg"] == picture(state.view(0))   # the picture holds only the view
        if msg["legal"]:
            assert view["to_move"] == 1
        assert view == normal(view_in_seats(state.view(0)))
        if state.is_terminal():
            continue
        # a state that differs only in what seat 0 cannot see gives the same view
        for k in range(2):
            if name == "crosswise":
                twin = game.state_from_position(state.position(viewer=0), seed=k + 1)
            else:
                twin = state.sample_determinization(0, rng)
            twins_differ += twin.position() != state.position()
            assert without_history(normal(view_in_seats(twin.view(0)))) == without_history(view)
    assert twins_differ > 0          # there was hidden information to leak
    # and literally: no hidden tile or card in any message
    start = states[0]
    if name == "crosswise":
        assert all("tiles" not in m["view"]["hands"][1] for m in messages)
        assert start.position() not in text and start.position(viewer=1) not in text
    elif name == "qwatrobat":
        assert final.layout[1] != final.layout[0] and str(final.layout[1]) not in text
        assert "setup" in messages[-1]["view"]["history"]
    else:
        built = [m for m in final.history if m.kind == "build"]
        assert str(built[1]) not in text and "x?,?" in text      # the engine's returned cards
        assert all(isinstance(m["view"]["seats"][1]["box"], int) for m in messages)   # a count only


def test_serve_bad_port_and_port_in_use(capsys):
    import socket
    assert main(["serve", "--port", "70000"]) == 2
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "70000" in err and "cannot serve" in err
