"""PGN-style game records: `match --pgn FILE` and `show --pgn FILE --game K --ply N`."""

from __future__ import annotations

import json

import crossridor
from crossridor.engine.match.game_loop import new_game_state
from crossridor.engine.match.pgn import read_games
from helpers import run_cli


def test_match_pgn_round_trip_and_show(tmp_path):
    pgn, records = tmp_path / "g.pgn", tmp_path / "r.jsonl"
    code, out, err = run_cli("match", "quoridor", "--size", "5", "--engine", "alphabeta:depth=2",
                             "--engine", "random", "--games", "4", "--seed", "3", "--concurrency", "2",
                             "--random-openings", "2", "--pgn", str(pgn), "--records", str(records))
    assert code == 0, err
    recs = sorted((json.loads(line) for line in records.read_text().splitlines()), key=lambda r: r["index"])
    games = sorted(read_games(pgn.read_text()), key=lambda g: int(g.tags["Index"]))
    assert len(games) == 4
    for rec, g in zip(recs, games):
        assert g.moves == rec["moves"] and g.result == rec["result"] == g.tags["Result"]
        assert g.tags["Game"] == "quoridor" and g.params == {"size": 5}
        assert g.tags["Round"] == str(rec["index"] // 2 + 1)
        seats = [["alphabeta:depth=2", "random"][e] for e in rec["seats"]]
        assert g.tags["Players"] == " | ".join(seats)
        assert g.tags["TimeControl"] == " | ".join("depth 2" if s.startswith("alpha") else "-" for s in seats)
        assert g.tags["Termination"] == "terminal" and "DealSeed" not in g.tags
    text = pgn.read_text()
    assert "\n1. " in text and " 2. " in text
    # show: the final position of game K, and the position after N plies
    k = 2
    first = read_games(text)[k - 1]
    code, out, err = run_cli("show", "quoridor", "--pgn", str(pgn), "--game", str(k), "--json")
    assert code == 0, err
    final = crossridor.load_game("quoridor", size=5).new_state(" ".join(first.moves))
    assert json.loads(out)["position"] == final.position()
    code, out, err = run_cli("show", "quoridor", "--pgn", str(pgn), "--game", str(k), "--ply", "3", "--json")
    after3 = crossridor.load_game("quoridor", size=5).new_state(" ".join(first.moves[:3]))
    assert json.loads(out)["position"] == after3.position()
    for argv, message in ((["--game", "9"], "--game must be 1..4"), (["--ply", "999"], "--ply must be"),
                          (["--size", "7"], "takes the moves")):
        code, out, err = run_cli("show", "quoridor", "--pgn", str(pgn), *argv)
        assert code == 2 and message in err
    code, out, err = run_cli("show", "crosswise", "--pgn", str(pgn))
    assert code == 2 and "not 'crosswise'" in err


def test_moves_with_spaces_and_chance_games(tmp_path):
    # Crosswise: a dealt game (DealSeed), moves like "move c4>d5" written with "_"
    pgn = tmp_path / "c.pgn"
    code, out, err = run_cli("match", "crosswise", "--engine", "greedy", "--engine", "random", "--games", "2",
                             "--seed", "5", "--concurrency", "1", "--pgn", str(pgn))
    assert code == 0, err
    games = read_games(pgn.read_text())
    assert len(games) == 2 and "DealSeed" in games[0].tags
    game = crossridor.load_game("crosswise")
    state = new_game_state(game, games[0].moves, games[0].deal_seed)
    assert state.is_terminal()
    code, out, err = run_cli("show", "crosswise", "--pgn", str(pgn), "--json")
    assert code == 0 and json.loads(out)["position"] == state.position()


def test_read_games_quoting_comments_and_results():
    text = ('[Event "a \\"quoted\\" name"]\n[Options "size=5 players=4"]\n\n'
            '1. c2 {a comment} a3 c4 e3 2. c3 0-1-0-0\n\n[Event "b"]\n\n1. e2 e8 1/2-1/2\n')
    a, b = read_games(text)
    assert a.tags["Event"] == 'a "quoted" name' and a.params == {"size": 5, "players": 4}
    assert a.moves == ["c2", "a3", "c4", "e3", "c3"] and a.result == "0-1-0-0"
    assert b.moves == ["e2", "e8"] and b.result == "1/2-1/2"
