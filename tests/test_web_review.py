"""The web app's analysis for people, through Starlette's test client:
MultiPV lines and the evaluation bar in the analysis's info messages, the
engine's evaluation in play, and game reviews over the WebSocket (a
replayed game's, the tab's own game's), their caps, bad input, stopping,
and what a seat of a hidden-information game is sent of a review."""

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
from crossridor.engine.views import view_in_seats  # noqa: E402
from crossridor.engine.web import searching  # noqa: E402
from crossridor.engine.web.app import create_app  # noqa: E402

# a 3x3 Quoridor game (no walls played) in which player 1 could win at ply 5
# (a2-a3 reaches its goal row) and walks back to a1 instead; player 2 then wins
THROWN = ["a1", "c3", "a2", "c2", "a1", "c1"]
# 9x9 Quoridor's first 24 plies between two depth-2 alpha-betas
MOVES = []


def setup_module():
    state = crossridor.load_game("quoridor").new_state()
    while len(MOVES) < 24 and not state.is_terminal():
        move = str(crossridor.search(state, "alphabeta", crossridor.Limits(depth=2)).move)
        state.play(move)
        MOVES.append(move)


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(host="testserver")) as c:
        yield c


def until(ws, kind):
    """The messages up to the first of type `kind` (returned last)."""
    seen = []
    while True:
        msg = ws.receive_json()
        seen.append(msg)
        if msg["type"] == kind:
            return seen
        assert msg["type"] != "error", msg


def until_state(ws):
    while True:
        msg = ws.receive_json()
        assert msg["type"] != "error", msg
        if msg["type"] == "state" and not msg.get("thinking"):
            return msg


def one_error(ws, msg) -> str:
    """The one-line error (or refusal) a bad message gets."""
    ws.send_json(msg)
    answer = ws.receive_json()
    assert answer["type"] in ("error", "refused"), answer
    text = answer["message"]
    assert "\n" not in text and "Traceback" not in text and "internal error" not in text, text
    return text


def test_analysis_info_carries_multipv_lines_and_the_bar(client):
    state = crossridor.load_game("quoridor", size=5).new_state("c2 c4")
    legal = {str(m) for m in state.legal_moves()}
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "analyse", "game": "quoridor", "options": {"size": 5}, "moves": ["c2", "c4"],
                      "engine": "alphabeta:depth=3", "multipv": 3})
        assert ws.receive_json()["type"] == "state"
        infos = until(ws, "bestmove")
        assert [m["depth"] for m in infos] == [1, 2, 3, 3]
        for msg in infos:
            lines = msg["lines"]
            assert [line["rank"] for line in lines] == [1, 2, 3]
            moves = [line["move"] for line in lines]
            assert len(set(moves)) == 3 and set(moves) <= legal and moves[0] == msg["move"]
            scores = [line["score"] for line in lines]
            assert scores == sorted(scores, reverse=True)
            assert all(sum(line["wdl"]) == 1000 and 0 <= line["expected"] <= 1 for line in lines)
            assert lines[0]["pv"] == msg["pv"] and lines[0]["expected"] == msg["expected"]
            # the bar: player 1 (to move) as two sides play, at the best line's expected score
            assert msg["eval"] == {"seat": 1, "expected": msg["expected"], "result_in": None}
            # the best line's arrows, and the two other lines' first moves fainter
            assert msg["svg"].count('class="arrow faint"') == 2
        # one line: as without multipv
        ws.send_json({"type": "analyse", "game": "quoridor", "options": {"size": 5}, "moves": ["c2", "c4"],
                      "engine": "alphabeta:depth=2", "multipv": 1})
        ws.receive_json()
        best = until(ws, "bestmove")[-1]
        assert len(best["lines"]) == 1 and 'arrow faint' not in best["svg"]
        # an algorithm without multipv gives its one line
        ws.send_json({"type": "analyse", "game": "quoridor", "moves": [], "engine": "random", "multipv": 3})
        ws.receive_json()
        assert len(until(ws, "bestmove")[-1]["lines"]) == 1
        # the second seat to move: the bar still shows player 1, the complement
        ws.send_json({"type": "analyse", "game": "quoridor", "options": {"size": 3}, "moves": ["b2"],
                      "engine": "alphabeta:depth=2"})
        ws.receive_json()
        best = until(ws, "bestmove")[-1]
        assert best["result_in"] == 1 and best["eval"] == {"seat": 1, "expected": 0.0, "result_in": -1}
        # the caps: at most 5 lines, from the field or the engine spec
        for msg, words in [({"multipv": 6}, "multipv must be an integer in 1..5"),
                           ({"multipv": "3"}, "multipv must be an integer in 1..5"),
                           ({"multipv": True}, "multipv must be an integer in 1..5"),
                           ({"engine": "alphabeta:depth=2,multipv=9"}, "multipv is at most 5 here")]:
            text = one_error(ws, {"type": "analyse", "game": "quoridor", "moves": [], "engine": "alphabeta:depth=2",
                                  **msg})
            assert words in text, text


def test_the_engines_evaluation_in_play(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "new", "game": "quoridor", "options": {"size": 3}, "seats": [1],
                      "engine": "alphabeta:depth=2"})
        assert "eval" not in until_state(ws)            # the engine has not searched yet
        ws.send_json({"type": "move", "move": "b2"})     # the engine jumps over to b1 and wins
        msg = until_state(ws)
        assert msg["result"] == "the engine (player 2) wins"
        assert msg["eval"] == {"seat": 1, "expected": 0.0, "result_in": 0}     # decided
        ws.send_json({"type": "undo"})
        assert "eval" not in ws.receive_json()


def test_review_of_a_replayed_game_marks_the_thrown_win(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "review", "game": "quoridor", "options": {"size": 3}, "moves": THROWN,
                      "engine": "alphabeta:depth=3", "search_seed": 1})
        seen = until(ws, "review")
        progress, rev = seen[:-1], seen[-1]
        assert [m["text"] for m in progress] == [f"ply {k} of 6" for k in range(7)]
        assert [p["ply"] for p in rev["plies"]] == [1, 2, 3, 4, 5, 6]
        assert [p["played"] for p in rev["plies"]] == THROWN and [p["seat"] for p in rev["plies"]] == [1, 2] * 3
        thrown = rev["plies"][4]
        assert thrown["mark"] == "blunder" and thrown["best"] == "a3" and thrown["result_in_before"] == 1
        assert thrown["expected_before"] == 1.0 and thrown["expected_after"] == 0.0 and thrown["loss"] == 1.0
        assert rev["two_sides"] and rev["sides"] == [[1], [2]] and rev["result"] == [0.0, 1.0]
        assert rev["summary"][0]["marks"]["blunder"] == 1 and not rev["interrupted"] and rev["message"] is None
        assert rev["settings"]["limits"]["depth"] == 3 and rev["settings"]["seed"] == 1
        # the same review again: searched by depth, the same answer
        ws.send_json({"type": "review", "game": "quoridor", "options": {"size": 3}, "moves": THROWN,
                      "engine": "alphabeta:depth=3", "search_seed": 1})
        assert until(ws, "review")[-1] == rev


def test_review_of_the_tabs_own_game_and_its_plies(client):
    with client.websocket_connect("/ws") as ws:
        assert "no game to review" in one_error(ws, {"type": "review"})
        ws.send_json({"type": "new", "game": "quoridor", "options": {"size": 3}, "seats": [1],
                      "engine": "alphabeta:depth=2"})
        until_state(ws)
        assert "not over" in one_error(ws, {"type": "review"})
        assert "finished game" in one_error(ws, {"type": "show", "ply": 0})
        ws.send_json({"type": "move", "move": "b2"})      # a blunder: the engine jumps to its goal
        until_state(ws)
        ws.send_json({"type": "review", "engine": "alphabeta:depth=3"})
        rev = until(ws, "review")[-1]
        assert [(p["ply"], p["seat"], p["played"], p["mark"]) for p in rev["plies"]] == \
            [(1, 1, "b2", "blunder"), (2, 2, "b1", None)]
        assert rev["plies"][0]["best"] != "b2" and rev["plies"][1]["result_in_before"] == 1
        # a graph point: the position after that ply, as the seat saw it
        for ply, history in [(1, ["b2"]), (0, []), (2, ["b2", "b1"])]:
            ws.send_json({"type": "show", "ply": ply})
            shown = ws.receive_json()
            assert shown["type"] == "position" and shown["ply"] == ply and shown["legal"] == []
            assert shown["view"]["history"] == history and shown["svg"].startswith("<svg")
        for ply in (3, -1, "1", True, None):
            assert "ply must be an integer in 0..2" in one_error(ws, {"type": "show", "ply": ply})


def test_review_bad_input_is_one_clear_error(client):
    base = {"type": "review", "game": "quoridor", "options": {"size": 3}, "moves": THROWN,
            "engine": "alphabeta:depth=2"}
    with client.websocket_connect("/ws") as ws:
        for change, words in [
            ({"moves": "a1 c3"}, "moves must be a list of move texts"),
            ({"moves": [1, 2]}, "moves must be a list of move texts"),
            ({"moves": []}, "no move to review"),
            ({"moves": ["a1", "a1"]}, "move 2"),
            ({"moves": ["a1"] * 401}, "at most 400 plies are reviewed here"),
            ({"game": "chess"}, "unknown game"),
            ({"options": {"size": 3, "table": "/etc/passwd"}}, "reads a file"),
            ({"engine": "alphabeta:depth=2,table=/etc/passwd"}, "reads a file"),
            ({"engine": "alphabeta:depth=2,eval_file=x.json"}, "reads a file"),
            ({"engine": "alphabeta:time=1000"}, "time is at most 30 here"),
            ({"engine": "alphabeta:depth=99"}, "depth is at most 64 here"),
            ({"engine": "alphabeta:tc=60+1"}, "not tc"),
            ({"engine": "alphabeta:depth=2,multipv=2"}, "the review sets multipv itself"),
            ({"engine": "uci:/bin/sh"}, "outside engines are for the command line only"),
            ({"engine": "random"}, "cannot review"),
            ({"engine": "nope"}, "unknown algorithm"),
            ({"seed": -1}, "seed must be an integer"),
            ({"search_seed": "x"}, "search_seed must be an integer"),
        ]:
            assert words in one_error(ws, {**base, **change}), (change, words)
        # the tab still works
        ws.send_json({**base, "moves": THROWN[:2]})
        assert len(until(ws, "review")[-1]["plies"]) == 2


def test_review_caps_and_stop():
    caps = searching.Caps(review_plies=5)
    with TestClient(create_app(host="testserver", caps=caps)) as c, c.websocket_connect("/ws") as ws:
        text = one_error(ws, {"type": "review", "game": "quoridor", "options": {"size": 3}, "moves": THROWN,
                              "engine": "alphabeta:depth=2"})
        assert "at most 5 plies are reviewed here, the game has 6" in text
        # stopped: the plies done are kept, and the message says so
        ws.send_json({"type": "review", "game": "quoridor", "moves": MOVES[:5], "engine": "alphabeta:depth=64"})
        assert ws.receive_json()["text"] == "ply 0 of 5"
        ws.send_json({"type": "stop"})
        rev = until(ws, "review")[-1]
        assert rev["interrupted"] and len(rev["plies"]) < 5 and "stopped" in rev["message"]
    # the whole review's time: review_time (10 x --max-time) in all
    with TestClient(create_app(host="testserver", caps=searching.Caps(time=1e-6))) as c, \
            c.websocket_connect("/ws") as ws:
        ws.send_json({"type": "review", "game": "quoridor", "moves": MOVES, "engine": "alphabeta:depth=64"})
        rev = until(ws, "review")[-1]
        assert rev["interrupted"] and "at most 1e-05 s a review here" in rev["message"]


def test_a_hidden_information_review_shows_only_the_seats_view(client):
    """Crosswise as seat 1 against the engine: the review of the tab's game
    gives seat 1's plies in full and of seat 2's only what seat 1 saw."""
    rng = random.Random(3)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "new", "game": "crosswise", "options": {"players": 2}, "seats": [1],
                      "engine": "greedy", "seed": 5})
        msg = until_state(ws)
        while "result" not in msg:
            assert "eval" not in msg           # the engine's evaluation reads its hidden tiles
            ws.send_json({"type": "move", "move": rng.choice(msg["legal"])["move"]})
            msg = until_state(ws)
        tab = next(t for t in client.app.state.tabs if t.state is not None and t.state.game.name == "crosswise")
        final = tab.state
        seen_history = msg["view"]["history"]
        ws.send_json({"type": "review", "engine": "greedy"})
        rev = until(ws, "review")[-1]
        ws.send_json({"type": "show", "ply": 3})
        shown = ws.receive_json()
    assert len(rev["plies"]) == len(seen_history) and not rev["interrupted"]
    for p, played in zip(rev["plies"], seen_history):
        assert p["played"] == played
        if p["seat"] == 1:
            assert p["best"] and "expected_before" in p
        else:
            assert set(p) == {"ply", "seat", "chance", "played"}
    assert [s["seat"] for s in rev["summary"]] == [1]
    text = json.dumps(rev)
    start = final.game.new_state(None, seed=5)
    assert "deal_seed" not in text and set(rev["settings"]) == {"algorithm", "limits", "seed", "marks"}
    assert start.position() not in text and start.position(viewer=1) not in text
    then = final.game.new_state(None, seed=5)
    for move in [str(m) for m in final.view(None)["history"]][:3]:
        then.play(move)
    assert shown["view"] == json.loads(json.dumps(view_in_seats(then.view(0))))
