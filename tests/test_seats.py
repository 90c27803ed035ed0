"""Seats are counted 1..n at every door (docs/notation.md, "Seats"): one
position with seat 2 to move and one game won by seat 2, read through the
command line, the Python API, UCI, the web app, records, PGN and the RL
environments. Underneath, the game protocol keeps player indices 0..n-1
(player index = seat - 1)."""

from __future__ import annotations

import io
import json
import random
import warnings

import pytest

import crossridor
from crossridor.engine.match.game_loop import RECORDS_FORMAT, GameRecord
from crossridor.engine.match.pgn import read_file
from crossridor.engine.match.records import RecordsFile
from crossridor.engine.uci.engine import UciSession
from crossridor.engine.views import player_index, seat, view_in_seats
from helpers import one_line_error, run_cli

# Quoridor 3x3 without walls: seat 1 steps to b2, and seat 2 (on b3) is to
# move; it wins at once by jumping over seat 1 to b1.
GAME = ("quoridor", "--size", "3", "--walls", "0")
TO_MOVE = "b2"
WON = "b2 b1"
POSITION = "3x2:b2,b3:0,0:-:2"


def game():
    return crossridor.load_game("quoridor", size=3, walls=0)


def run_json(*argv: str) -> dict:
    code, out, err = run_cli(*argv)
    assert code == 0, err
    return json.loads(out)


def test_the_conversion_at_the_doors():
    assert [seat(i) for i in (0, 1, 3)] == [1, 2, 4]
    assert seat(None) is None and seat(crossridor.CHANCE) is None and seat(crossridor.TERMINAL) is None
    assert player_index(2, 2) == 1
    for bad in (0, 3, True, "2", 1.0):
        with pytest.raises(crossridor.CrossridorError, match=r"the seat must be a seat 1\.\.2"):
            player_index(bad, 2)
    view = {"viewer": -1, "to_move": 0, "winner": None, "hands": [{"seat": 1, "count": 4}], "pawns": ["b2"]}
    assert view_in_seats(view) == {"viewer": "spectator", "to_move": 1, "winner": None,
                                   "hands": [{"seat": 2, "count": 4}], "pawns": ["b2"]}


def test_the_protocol_keeps_player_indices():
    state = game().new_state(TO_MOVE)
    assert state.current_player == 1 == seat(state.current_player) - 1
    won = game().new_state(WON)
    assert won.returns() == [-1.0, 1.0] and won.view()["winner"] == 1


def test_command_line_json_and_text():
    show = run_json("show", *GAME, "--moves", TO_MOVE, "--json")
    assert show["to_move"] == 2 and show["position"] == POSITION and "player 2 to move" in show["board"]
    assert "winner" not in show and not show["terminal"]
    legal = run_json("legal", *GAME, "--position", POSITION, "--json")
    assert legal["to_move"] == 2 and "b1" in legal["moves"]
    solved = run_json("solve", *GAME, "--moves", TO_MOVE, "--json")
    assert (solved["to_move"], solved["winner"], solved["moves"]) == (2, 2, ["b1"])
    best = run_json("best", *GAME, "--moves", TO_MOVE, "--depth", "2", "--json")
    assert best["move"] == "b1" and best["to_move"] == 2
    over = run_json("show", *GAME, "--moves", WON, "--json")
    assert over["terminal"] and over["to_move"] is None and over["winner"] == 2
    assert over["returns"] == [-1.0, 1.0] and "player 2 wins" in over["board"]
    code, out, _ = run_cli("solve", *GAME, "--moves", TO_MOVE)
    assert code == 0 and "(player 2 to move)" in out and "player 2 wins in 1 plies" in out


def test_best_from_a_solved_table_names_the_winning_seat(tmp_path):
    table = str(tmp_path / "table")
    assert run_cli("solve", *GAME, "--write-table", table)[0] == 0
    best = run_json("best", *GAME, "--moves", TO_MOVE, "--table", table, "--depth", "1", "--json")
    assert (best["move"], best["source"], best["winner"]) == ("b1", "table", 2)
    code, out, _ = run_cli("best", *GAME, "--moves", TO_MOVE, "--table", table, "--depth", "1")
    assert code == 0 and "winner 2" in out


def test_arguments_that_name_a_seat():
    code, out, _ = run_cli("play", *GAME, "--moves", TO_MOVE, "--as", "2", "--engine", "random", stdin="b1\n")
    assert code == 0 and "you are player 2 of 2" in out and "player 2 to move>" in out
    assert "game over: you win" in out
    assert "--as must be a seat 1..2, got 3" in one_line_error("play", *GAME, "--as", "3")
    seen = run_json("show", "crosswise", "--seed", "3", "--viewer", "2", "--json")
    full = crossridor.load_game("crosswise").new_state(seed=3)
    assert seen["board"] == full.render(1) != full.render(0)
    for bad in ("0", "3"):
        err = one_line_error("show", "crosswise", "--seed", "3", "--viewer", bad)
        assert "--viewer must be a seat 1..2, got " + bad in err


def test_position_strings_and_moves_name_seats():
    # Crosswise: seat 2 to move is turn 2
    crosswise = run_json("show", "crosswise", "--seed", "1", "--json")
    assert crosswise["to_move"] == 2 and crosswise["position"].split()[1] == "2"
    assert "to move: seat 2" in crosswise["board"]
    three = crossridor.load_game("crosswise", players=3).new_state(seed=1)
    three.play(three.legal_moves()[0])
    assert three.current_player == 1 and three.position().split()[1] in ("2>1", "2>3")
    # Qwatrobat: the draw names the seat that starts, and so does the position
    qwatrobat = crossridor.load_game("qwatrobat").new_state("1234/4321 1122/3344")
    assert [str(m) for m in qwatrobat.legal_moves()] == ["first:1", "first:2"]
    qwatrobat.play("first:2")
    qwatrobat.play("c1")
    assert qwatrobat.position().split(";")[4:8] == ["1@2", "1", "1", "2"]
    assert qwatrobat.game.state_from_position(qwatrobat.position()).position() == qwatrobat.position()
    # Kreuz & Quer: the stopper is a seat
    rng = random.Random(0)
    kq = crossridor.load_game("kreuzundquer").new_state(seed=0)
    while kq.phase != "penalty":
        kq.play(rng.choice(kq.legal_moves()))
    assert kq.position().split(";")[6] == str(kq.stopper + 1)


def test_python_result_objects():
    result = crossridor.solve(game().new_state(TO_MOVE))
    assert (result.to_move, result.winner, result.moves) == (2, 2, ["b1"])
    assert crossridor.solve(game().new_state(WON)).winner == 2


def uci_lines(commands: str) -> list[str]:
    out = io.StringIO()
    session = UciSession(game(), out)
    for line in commands.splitlines():
        session.handle(line)
        session.wait()
    session.finish()
    return out.getvalue().splitlines()


def test_uci_reads_the_seat_to_move_of_a_position_string():
    # UCI says nothing of seats but the position string's to-move field
    for position in (f"position pos {POSITION}", f"position startpos moves {TO_MOVE}"):
        lines = uci_lines(f"{position}\ngo depth 2\n")
        assert [line for line in lines if line.startswith("bestmove")] == ["bestmove b1"], lines


@pytest.fixture
def match_files(tmp_path):
    """A two-game match from the opening b2 (seats swapped): both games
    are won by seat 2 at once. (records path, PGN path)."""
    openings = tmp_path / "openings.txt"
    openings.write_text(f"{TO_MOVE}\n")
    records, pgn = tmp_path / "r.jsonl", tmp_path / "g.pgn"
    code, out, err = run_cli("match", *GAME, "--engine", "alphabeta:depth=2", "--engine", "alphabeta:depth=1",
                             "--games", "2", "--concurrency", "1", "--seed", "1", "--openings", str(openings),
                             "--records", str(records), "--pgn", str(pgn), "--json")
    assert code == 0, err
    return records, pgn


def test_records_and_pgn(match_files):
    records, pgn = match_files
    lines = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(lines) == 2
    for rec in lines:
        assert rec["format"] == RECORDS_FORMAT and rec["moves"] == ["b2", "b1"]
        assert rec["winner"] == 2 and rec["result"] == "0-1" and rec["returns"] == [-1.0, 1.0]
        assert [t[0] for t in rec["think"]] == [2]           # the one engine move, by seat 2
        assert rec["winner_engine"] == rec["seats"][rec["winner"] - 1]
    assert [r.winner for r in RecordsFile(str(records)).load()] == [2, 2]
    games = read_file(str(pgn))
    assert [g.tags["Result"] for g in games] == ["0-1", "0-1"]
    over = run_json("show", "quoridor", "--pgn", str(pgn), "--game", "2", "--json")
    assert over["winner"] == 2 and over["to_move"] is None
    at = run_json("show", "quoridor", "--pgn", str(pgn), "--ply", "1", "--json")
    assert at["to_move"] == 2


def test_a_record_without_a_format_counts_players_from_0():
    old = {"index": 0, "seed": 1, "deal_seed": None, "seats": [1, 0], "engines": ["x", "y"], "result": "0-1",
           "returns": [-1.0, 1.0], "winner": 1, "winner_engine": 0, "reason": "illegal_move",
           "moves": ["b2"], "opening_plies": 0, "plies": 1, "seconds": 0.1,
           "failure": {"seat": 0, "engine": "y", "ply": 2, "reason": "illegal_move", "detail": "z9"},
           "think": [[0, 0.1, None, None]]}
    rec = GameRecord.from_dict(old)
    assert (rec.winner, rec.failure["seat"], rec.think[0][0], rec.format) == (2, 1, 1, RECORDS_FORMAT)
    assert GameRecord.from_json(json.dumps(rec.as_dict())) == rec          # written again as seats
    with pytest.raises(ValueError, match="record format 9"):
        GameRecord.from_dict(dict(old, format=9))


# --- the web app ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def client():
    pytest.importorskip("starlette", reason='the web app needs the web extra: pip install ".[web]"')
    pytest.importorskip("httpx", reason="Starlette's test client needs httpx (in the test extra)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from crossridor.engine.web.app import create_app
    with TestClient(create_app(host="testserver")) as c:
        yield c


def render(client, **body) -> dict:
    r = client.post("/api/render", json=body)
    assert r.status_code == 200, r.json()
    return r.json()


def test_web_api(client, match_files):
    options = {"size": 3, "walls": 0}
    best = client.post("/api/best", json={"game": "quoridor", "options": options, "moves": TO_MOVE,
                                          "engine": "alphabeta:depth=2"}).json()
    assert best["move"] == "b1" and best["to_move"] == 2
    view = render(client, game="quoridor", options=options, moves=TO_MOVE.split())["view"]
    assert view["to_move"] == 2 and view["winner"] is None and view["last"]["player"] == 1
    view = render(client, game="quoridor", options=options, moves=WON.split())["view"]
    assert view["to_move"] is None and view["winner"] == 2 and view["last"]["player"] == 2
    hidden = render(client, game="crosswise", seed=3, viewer=2)["view"]
    assert hidden["viewer"] == 2 and [h["seat"] for h in hidden["hands"]] == [1, 2]
    assert "tiles" in hidden["hands"][1] and "tiles" not in hidden["hands"][0]
    public = render(client, game="qwatrobat", seed=3, moves=["1234/4321"], viewer="spectator")["view"]
    assert public["viewer"] == "spectator" and public["to_move"] == 2 and public["history"] == ["setup"]
    for bad in (0, 3):
        r = client.post("/api/render", json={"game": "crosswise", "seed": 3, "viewer": bad})
        assert r.status_code == 400 and "viewer must be a seat 1..2" in r.json()["error"]
    records, _ = match_files
    replayed = client.post("/api/replay", json={"records": records.read_text()}).json()
    assert [g["winner"] for g in replayed["games"]] == [2, 2]


def test_web_game_at_seat_2(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "new", "game": "quoridor", "options": {"size": 3, "walls": 0}, "seats": [2],
                      "engine": "alphabeta:depth=1"})
        while True:
            msg = ws.receive_json()
            assert msg["type"] == "state", msg
            if not msg["thinking"]:
                break
        assert msg["seat"] == 2 and msg["humans"] == [2] and msg["view"]["to_move"] == 2
        assert msg["view"]["viewer"] == 2 and msg["legal"]


# --- the RL environments ----------------------------------------------------------------------

def action_of(state, move: str) -> int:
    return state.game.move_to_action(state.parse_move(move))


def test_pettingzoo_agents_and_rewards():
    pytest.importorskip("pettingzoo", reason='the RL environments need the rl extra: pip install ".[rl]"')
    from crossridor import envs
    env = envs.quoridor_v0.raw_env(size=3, walls=0, render_mode="ansi")
    env.reset(seed=0)
    assert env.possible_agents == ["player_1", "player_2"] and env.agent_selection == "player_1"
    env.step(action_of(env.episode.state, "b2"))
    assert env.agent_selection == "player_2" and "player 2 to move" in env.render()
    env.step(action_of(env.episode.state, "b1"))
    assert env.rewards == {"player_1": -1.0, "player_2": 1.0} and "player 2 wins" in env.render()
    with pytest.raises(crossridor.CrossridorError, match=r"render_viewer must be a seat 1\.\.2"):
        envs.crosswise_v0.raw_env(render_mode="ansi", render_viewer=0)


def test_gymnasium_seat_and_info():
    pytest.importorskip("gymnasium", reason='the RL environments need the rl extra: pip install ".[rl]"')
    from crossridor.engine.rl.gymnasium_env import CrossridorGymEnv

    def opens_b2(state):          # the opponent, at seat 1
        return action_of(state, "b2")

    env = CrossridorGymEnv("quoridor", opponent=opens_b2, seat=2, size=3, walls=0, render_mode="ansi")
    _, info = env.reset(seed=0)
    assert info["seat"] == env.seat == 2 and "player 2 to move" in env.render()
    _, reward, terminated, _, info = env.step(action_of(env.episode.state, "b1"))
    assert terminated and reward == 1.0 and info["seat"] == 2 and info["returns"] == [-1.0, 1.0]
    assert "player 2 wins" in env.render()


def test_a_record_without_a_format_has_its_chance_moves_in_seats():
    base = {"index": 0, "seed": 1, "deal_seed": 5, "seats": [0, 1], "engines": ["x", "y"], "result": "1-0",
            "returns": [1.0, -1.0], "winner": 0, "winner_engine": 0, "reason": "terminal",
            "opening_plies": 0, "plies": 3, "seconds": 0.1}
    rec = GameRecord.from_dict(dict(base, game="qwatrobat", moves=["1234/4321", "1122/3344", "first1"]))
    assert rec.moves[2] == "first:2" and rec.winner == 1
    rec = GameRecord.from_dict(dict(base, game="crosswise", params={"chance": True}, moves=["tile:1", "start:0"]))
    assert rec.moves == ["tile:1", "start:1"]
    new = GameRecord.from_dict(dict(base, game="qwatrobat", moves=["first:2"], winner=1, format=2))
    assert new.moves == ["first:2"] and new.winner == 1
