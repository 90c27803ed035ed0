"""Undo in the web app is no oracle for hidden cards: a chance draw in a
played game (a Kreuz & Quer penalty draw, flip or goal, Qwatrobat's first
player) is the same however often, and along whichever line, the tab plays
up to it again, for the draws of the human's moves and of the engine's."""

import warnings

import pytest

pytest.importorskip("starlette", reason='the web app needs the web extra: pip install ".[web]"')
pytest.importorskip("httpx", reason="Starlette's test client needs httpx (in the test extra)")

with warnings.catch_warnings():     # newer Starlette suggests another HTTP client package
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from crossridor.engine.match.game_loop import chance_move
from crossridor.engine.web import sessions
from crossridor.engine.web.app import create_app

ROUNDS = 200
SEED = 1            # the deal: every chance outcome in a game is a function of it


@pytest.fixture
def client(monkeypatch):
    # the board picture is not what these tests are about, and drawing it is most of their time
    monkeypatch.setattr(sessions, "picture", lambda view, **kw: "<svg/>")
    with TestClient(create_app(host="testserver")) as c:
        yield c


def until_state(ws):
    while True:
        msg = ws.receive_json()
        if msg["type"] == "state" and not msg.get("thinking"):
            return msg
        assert msg["type"] == "state", msg


def play(ws, moves):
    for move in moves:
        ws.send_json({"type": "move", "move": move})
        msg = until_state(ws)
    return msg


def undo(ws, times):
    for _ in range(times):
        ws.send_json({"type": "undo"})
        msg = until_state(ws)
        assert msg.get("message") == "took back your last move", msg
    return msg


def the_tab(client, game):
    return next(t for t in client.app.state.tabs if t.state is not None and t.state.game.name == game)


def first(history, prefix):
    return next((m for m in history if m.startswith(prefix)), None)


def kreuzundquer_game(client, ws):
    """A game as seat 0 against the greedy engine; the builds seat 0 may make."""
    ws.send_json({"type": "new", "game": "kreuzundquer", "options": {"players": 2}, "seats": [1],
                  "engine": "greedy", "seed": SEED})
    builds = [m["move"] for m in until_state(ws)["legal"]]
    return the_tab(client, "kreuzundquer"), builds


def collecting(ws, build):
    """Build, then the goals are drawn and seat 0 collects first."""
    history = play(ws, [build])["view"]["history"]
    assert history[1] == "x?,?" and history[-1].startswith("goal:")     # the engine's build stays hidden
    return history


def test_kreuzundquer_stop_and_undo_see_one_penalty_draw(client):
    # a stopper who missed the goal draws a route card from the pile: if each
    # stop drew anew, stop, undo, stop... would sample the pile (and pin down
    # the engine's returned cards, the cards in neither)
    with client.websocket_connect("/ws") as ws:
        tab, builds = kreuzundquer_game(client, ws)
        start = collecting(ws, builds[0])
        draws, lines = set(), set()
        for _ in range(ROUNDS):
            seen = play(ws, ["stop"])["view"]["history"]
            draws.add(first(seen, "draw:"))
            lines.add(tuple(str(m) for m in tab.state.history))     # the engine's hidden flips too
            assert undo(ws, 1)["view"]["history"] == start
        assert len(draws) == 1 and None not in draws
        assert len(lines) == 1


def test_kreuzundquer_every_way_to_a_draw_sees_the_same_card(client):
    # whoever stops (the engine too) and whatever was flipped before, the
    # first penalty draw is one card and the first flip one terrain; the next
    # stage flips from its own shuffle (here the engine: hidden from seat 0),
    # the same however much of the last one was flipped
    ways = [["stop"], ["flip"], ["flip", "keep", "stop"], ["flip", "leave", "stop"]]
    with client.websocket_connect("/ws") as ws:
        tab, builds = kreuzundquer_game(client, ws)
        start = collecting(ws, builds[0])
        draws, flips, next_flips, lines = set(), set(), set(), {}
        for i in range(ROUNDS):
            way = ways[i % len(ways)]
            seen = play(ws, way)["view"]["history"]
            full = [str(m) for m in tab.state.history]
            stage_end = full.index(first(full, "draw:")) if way[-1] == "stop" else len(full)
            if way[0] == "flip":
                flips.add(first(full[:stage_end], "@"))
            if way[-1] == "stop":
                draws.add(first(seen, "draw:"))
                next_flips.add(first(full[stage_end:], "@"))
            lines.setdefault(tuple(way), set()).add(tuple(full))
            assert undo(ws, len(way))["view"]["history"] == start
        assert len(draws) == 1 and None not in draws
        assert len(flips) == 1 and None not in flips
        assert len(next_flips) == 1 and None not in next_flips
        assert all(len(replays) == 1 for replays in lines.values())      # every chance move replayed


def test_kreuzundquer_another_build_sees_the_same_goals(client):
    with client.websocket_connect("/ws") as ws:
        _, builds = kreuzundquer_game(client, ws)
        goals = set()
        for i in range(ROUNDS):
            history = collecting(ws, builds[i % len(builds)])
            goals.add(tuple(m for m in history if m.startswith("goal:")))
            assert undo(ws, 1)["view"]["history"] == []
        assert len(goals) == 1 and len(next(iter(goals))) == 2


def test_qwatrobat_undo_sees_one_first_player_draw(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "new", "game": "qwatrobat", "seats": [1], "engine": "random", "seed": SEED})
        setups = [m["move"] for m in until_state(ws)["legal"]]
        tab = the_tab(client, "qwatrobat")
        draws = set()
        for i in range(ROUNDS):
            seen = play(ws, [setups[i % len(setups)]])["view"]["history"]
            full = [str(m) for m in tab.state.history]
            assert seen[1] == "setup" and full[2] == seen[2]       # the draw is public, the layout is not
            draws.add(seen[2])
            assert undo(ws, 1)["view"]["history"] == []
        assert len(draws) == 1 and draws <= {"first:1", "first:2"}


class Die:
    """A chance node that comes again and again with the same outcomes."""

    def chance_outcomes(self):
        return [(face, 1 / 6) for face in range(1, 7)]


def test_a_draw_that_comes_again_is_a_new_draw_and_replays_the_same():
    def rolls(count):
        earlier, faces = [], []
        for _ in range(count):
            draw, face = chance_move(Die(), SEED, earlier)
            earlier.append(draw)
            faces.append(face)
        return faces

    faces = rolls(60)
    assert set(faces) == set(range(1, 7))       # not one roll dealt again and again
    assert rolls(60) == faces
