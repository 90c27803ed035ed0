"""The strength harnesses (bench/bench_crosswise.py, bench/bench_cards.py)
print every measurement with its game count, W/D/L and 95% interval; the
printed figures must agree with the W/D/L (recomputed here from the
trinomial variance, independently of engine.stats)."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from crossridor.engine.cli.main import main as cli_main
from crossridor.engine.match.stats import result_text
from helpers import HANG

BENCH = Path(__file__).resolve().parent.parent / "bench"
LINE = re.compile(r"(\d+) games?: W (\d+) D (\d+) L (\d+), score ([\d.]+)%"
                  r"(?: \+- ([\d.]+)% \(95%: ([\d.]+)%-([\d.]+)%\)| \(95% interval unknown: .*\))")


def check_line(text: str, games: int) -> tuple[int, int, int]:
    m = LINE.search(text)
    assert m, text
    n, w, d, lost = map(int, m.group(1, 2, 3, 4))
    assert n == games == w + d + lost
    mu = (w + d / 2) / n
    assert float(m.group(5)) == pytest.approx(100 * mu, abs=0.05)
    if max(w, d, lost) == n:
        assert m.group(6) is None
        return w, d, lost
    var = (w * (1 - mu) ** 2 + d * (0.5 - mu) ** 2 + lost * mu ** 2) / n
    half = 1.959964 * math.sqrt(var / n)
    assert float(m.group(6)) == pytest.approx(100 * half, abs=0.05)
    assert float(m.group(7)) == pytest.approx(100 * max(0.0, mu - half), abs=0.05)
    assert float(m.group(8)) == pytest.approx(100 * min(1.0, mu + half), abs=0.05)
    return w, d, lost


def run(*args: str) -> str:
    out = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=HANG)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()[-1]


def test_result_text_checked_by_the_parser():
    check_line(result_text(120, 18, 62), 200)
    check_line(result_text(3, 0, 1), 4)             # clipped at 100%
    check_line(result_text(0, 5, 0), 5)             # no variance: no interval
    with pytest.raises(AssertionError):             # the check can fail
        check_line(result_text(3, 0, 1), 5)
    with pytest.raises(AssertionError):
        check_line("4 games: W 3 D 0 L 1, score 75.0% +- 10.0% (95%: 65.0%-85.0%)", 4)


def test_bench_cards_prints_interval_and_games():
    line = run(str(BENCH / "bench_cards.py"), "qwatrobat", "ismcts:sims=30", "random", "4")
    assert line.startswith("ismcts:sims=30 vs random: ")
    check_line(line, 4)


def test_bench_crosswise_prints_interval_and_games():
    line = run(str(BENCH / "bench_crosswise.py"), "match", "--games", "2", "--sims", "100")
    assert line.startswith("ismcts:sims=100 vs greedy, 2 players, seed 1: 2 games: ")
    check_line(line, 2)


def test_records_score_counts_complete_rounds_of_a_match(tmp_path):
    rec = tmp_path / "r.jsonl"
    assert cli_main(["match", "qwatrobat", "--engine", "ismcts:sims=20", "--engine", "greedy", "--games", "6",
                     "--seed", "3", "--concurrency", "1", "--records", str(rec), "--json"]) == 0
    line = run(str(BENCH / "records_score.py"), str(rec))
    assert "ismcts:sims=20 vs greedy: 6 games: " in line
    w, d, lost = check_line(line, 6)
    records = [json.loads(x) for x in rec.read_text().splitlines()]
    assert w == sum(r["winner_engine"] == 0 for r in records)
    assert lost == sum(r["winner_engine"] == 1 for r in records)
    # a killed match: game 3 missing and a torn last line -> rounds 0 (games 0, 1) only
    lines = rec.read_text().splitlines()
    rec.write_text("\n".join(lines[:3] + lines[4:]) + "\n" + lines[5][:20])
    check_line(run(str(BENCH / "records_score.py"), str(rec)), 2)


def test_records_score_names_a_missing_file(tmp_path):
    out = subprocess.run([sys.executable, str(BENCH / "records_score.py"), str(tmp_path / "none.jsonl")],
                         capture_output=True, text=True, timeout=HANG)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "none.jsonl" in out.stderr and "Traceback" not in out.stderr


def test_records_blunders_counts_wins_thrown_away_by_the_table(tmp_path):
    # 3x3 with 1 wall each: a random player against a searching one; the
    # counts are checked against solving each position afresh
    from crossridor import load_game
    from crossridor.games.quoridor.solve import solve
    table, rec = tmp_path / "t", tmp_path / "r.jsonl"
    board = ["--size", "3", "--walls", "1"]
    assert cli_main(["solve", "quoridor", *board, "--write-table", str(table)]) == 0
    assert cli_main(["match", "quoridor", *board, "--engine", "alphabeta:depth=6", "--engine", "random",
                     "--games", "10", "--seed", "2", "--random-openings", "1", "--concurrency", "1",
                     "--records", str(rec)]) == 0
    out = subprocess.run([sys.executable, str(BENCH / "records_blunders.py"), str(rec), str(table)],
                         capture_output=True, text=True, timeout=HANG)
    assert out.returncode == 0, out.stderr
    counts = {}
    for line in out.stdout.splitlines():
        m = re.fullmatch(r"engine (\d): (\d+) moves, (\d+) in won positions, (\d+) threw the win away \(.*\)", line)
        assert m, line
        counts[int(m.group(1))] = tuple(map(int, m.group(2, 3, 4)))
    expected = {1: [0, 0, 0], 2: [0, 0, 0]}
    game = load_game("quoridor", size=3, walls=1)
    for record in map(json.loads, rec.read_text().splitlines()):
        state = game.new_state()
        for ply, move in enumerate(record["moves"]):
            if ply >= record["opening_plies"]:
                tally = expected[record["seats"][state.current_player] + 1]
                tally[0] += 1
                mover = state.current_player + 1
                if solve(state).winner == mover:
                    tally[1] += 1
                    after = state.clone()
                    after.play(move)
                    tally[2] += solve(after).winner != mover
            state.play(move)
    assert counts == {k: tuple(v) for k, v in expected.items()}
    assert counts[2][2] > 0 and counts[1][1] > 0          # the random player threw wins away
    missing = subprocess.run([sys.executable, str(BENCH / "records_blunders.py"), str(tmp_path / "none.jsonl"),
                              str(table)], capture_output=True, text=True, timeout=HANG)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "none.jsonl" in missing.stderr
    first = json.loads(rec.read_text().splitlines()[0])
    first["moves"][-1] = "zz9"
    (tmp_path / "bad.jsonl").write_text(json.dumps(first) + "\n")
    bad = subprocess.run([sys.executable, str(BENCH / "records_blunders.py"), str(tmp_path / "bad.jsonl"),
                          str(table)], capture_output=True, text=True, timeout=HANG)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "game 0: invalid move 'zz9'" in bad.stderr


def test_records_proofs_checks_each_first_early_stop_against_the_game(tmp_path):
    # 3x3 with 1 wall each (never selective: every proof is exact), a random player against a
    # searching one: a proven win the random player then lost is contradicted by the game (so is
    # the search's proven loss against a random player); the expected counts come from solving
    # each position afresh
    from crossridor import load_game
    from crossridor.games.quoridor.solve import solve
    rec = tmp_path / "r.jsonl"
    board = ["--size", "3", "--walls", "1"]
    assert cli_main(["match", "quoridor", *board, "--engine", "alphabeta:depth=6", "--engine", "random",
                     "--games", "10", "--seed", "2", "--random-openings", "1", "--concurrency", "1",
                     "--records", str(rec)]) == 0
    game, results = load_game("quoridor", size=3, walls=1), {}
    for engine in (1, 2):
        found, wrong = 0, []
        for record in map(json.loads, rec.read_text().splitlines()):
            state = game.new_state()
            for ply, move in enumerate(record["moves"]):
                if ply >= record["opening_plies"] and record["seats"][state.current_player] + 1 == engine:
                    found += 1
                    claim = solve(state).winner == state.current_player + 1
                    if claim != (record["winner"] == state.current_player + 1):
                        wrong.append(f"game {record['index']}, ply {ply}: a proven {'win' if claim else 'loss'} "
                                     "the game's end contradicts")
                    break
                state.play(move)
        # a 60 s move time: every move of the match took far less, and the proof on this board comes
        # in microseconds (the search stops at it), so no machine is slow enough to miss it
        out = subprocess.run([sys.executable, str(BENCH / "records_proofs.py"), str(rec), str(engine), "60"],
                             capture_output=True, text=True, timeout=HANG)
        assert out.returncode == 0, out.stderr
        assert out.stdout.splitlines() == wrong + [f"engine {engine}: {found} proofs at a first early stop, "
                                                   f"{len(wrong)} contradicted"]
        results[engine] = len(wrong)
    assert results[2] > 0                             # the random player threw proven wins away
    bad = subprocess.run([sys.executable, str(BENCH / "records_proofs.py"), str(rec), "3"],
                         capture_output=True, text=True, timeout=HANG)
    assert bad.returncode == 2 and bad.stderr.startswith("usage:")


def test_bench_crosswise_times_a_search_every_sixth_ply():
    import importlib.util

    import crossridor
    spec = importlib.util.spec_from_file_location("bench_crosswise", BENCH / "bench_crosswise.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    state, plies = crossridor.load_game("crosswise").new_state(seed=100), 0
    while not state.is_terminal():
        state.play(crossridor.search(state, "greedy").move)
        plies += 1
    times = mod.search_times(30, deals=1)
    assert len(times) == (plies + 4) // 6 and all(t > 0 for t in times)
    with pytest.raises(crossridor.CrossridorError):        # the options reach the search
        mod.search_times(30, deals=1, options={"root_k": -1})


def test_kreuzundquer_analyses_replay_match_records(tmp_path):
    """bench/kreuzundquer_prior_agreement.py: ISMCTS with one simulation plays the
    prior's move everywhere, the heuristic player does not; bench/kreuzundquer_leaf_fit.py
    finds one stage start at least per race."""
    recs = {}
    for name, engines in (("prior", ["ismcts:sims=1", "greedy"]), ("greedy", ["greedy", "ismcts:sims=1"])):
        recs[name] = rec = tmp_path / f"{name}.jsonl"
        assert cli_main(["match", "kreuzundquer", "-o", "races=1", "--engine", engines[0], "--engine", engines[1],
                         "--games", "2", "--seed", "5", "--concurrency", "1", "--records", str(rec)]) == 0

    def agreement(rec):
        out = subprocess.run([sys.executable, str(BENCH / "kreuzundquer_prior_agreement.py"), str(rec)],
                             capture_output=True, text=True, timeout=HANG)
        assert out.returncode == 0, out.stderr
        rows = re.findall(r"(\w+): (\d+) of (\d+) moves differ", out.stdout)
        assert [r[0] for r in rows] == ["build", "collect", "decide"] and int(rows[0][2]) == 2
        return {ph: (int(d), int(n)) for ph, d, n in rows}
    assert all(d == 0 and n > 0 for d, n in agreement(recs["prior"]).values())
    assert sum(d for d, _ in agreement(recs["greedy"]).values()) > 0
    out = subprocess.run([sys.executable, str(BENCH / "kreuzundquer_leaf_fit.py"), str(recs["prior"])],
                         capture_output=True, text=True, timeout=HANG)
    assert out.returncode == 0, out.stderr
    m = re.match(r"(\d+) stage starts; current mapping: .* log-likelihood (-[\d.]+)", out.stdout)
    assert m and int(m.group(1)) >= 2 and float(m.group(2)) < 0


def test_book_bound_searches_the_positions_a_match_deals(tmp_path):
    """bench/book_bound.py: its openings are those `match --random-openings 2`
    plays; a gain is the slow search's expected score minus the fast move's;
    the run writes each position once and is resumable."""
    sys.path.insert(0, str(BENCH))
    try:
        import book_bound
    finally:
        sys.path.remove(str(BENCH))
    import crossridor
    from crossridor.engine.match.runner import MatchConfig, run_match
    from crossridor.engine.match.specs import EngineSpec

    game = crossridor.load_game("quoridor", size=9, players=2)
    result = run_match(MatchConfig("quoridor", {"size": 9}, [EngineSpec.parse("random")] * 2, games=6,
                                   concurrency=1, seed=4101, random_openings=2, max_plies=4))
    for record in result.records:
        assert tuple(record.moves[:2]) == book_bound.opening(game, record.index // 2, 4101)
    same = {"fast": "e2", "slow": "e2", "moves": "a7v a1h"}
    assert book_bound.gain(game, same) == 0.0
    better = {"fast": "d1", "slow": "e2", "moves": "a7v a1h", "slow_score": 40, "fast_at_slow": -40}
    assert 0 < book_bound.gain(game, better) == -book_bound.gain(game, {**better, "slow_score": -40,
                                                                          "fast_at_slow": 40})
    out = tmp_path / "bound.jsonl"
    argv = [str(BENCH / "book_bound.py"), "--rounds", "2", "--fast", "0.01", "--slow", "0.02", "--out", str(out)]
    assert "one such move per game" in run(*argv)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["round"], r["kind"]) for r in rows] == [(0, "first"), (0, "second"), (1, "first"), (1, "second")]
    assert rows[0]["moves"] == " ".join(book_bound.opening(game, 0, 4101))
    assert rows[1]["moves"].startswith(rows[0]["moves"] + " ")
    run(*argv[:2], "3", *argv[3:])                  # one more round, the first two not searched again
    assert [json.loads(line)["round"] for line in out.read_text().splitlines()] == [0, 0, 1, 1, 2, 2]


def test_four_player_weights_fits_the_classic_terms(tmp_path):
    """bench/four_player_weights.py: the regression recovers known
    coefficients; each position gives one row per player, one of them the
    winner's; a 2-player records file is refused."""
    import numpy as np

    sys.path.insert(0, str(BENCH))
    try:
        import four_player_weights as fpw
    finally:
        sys.path.remove(str(BENCH))
    rng = np.random.default_rng(1)
    x = rng.normal(size=(20_000, 3))
    truth = np.array([-1.0, 0.5, 0.6, 0.1])
    y = (rng.random(20_000) < 1 / (1 + np.exp(-(truth[0] + x @ truth[1:])))).astype(float)
    assert np.allclose(fpw.fit(x, y), truth, atol=0.06)

    rec = tmp_path / "r4.jsonl"
    assert cli_main(["match", "quoridor", "--players", "4", "--engine", "alphabeta:depth=1", "--engine",
                     "alphabeta:depth=1", "--games", "2", "--random-openings", "4", "--seed", "1",
                     "--records", str(rec), "--json"]) == 0
    terms, labels, games = fpw.rows(str(rec))
    records = [json.loads(line) for line in rec.read_text().splitlines()]
    assert len(labels) == 4 * sum(r["plies"] - r["opening_plies"] for r in records)
    assert (labels.reshape(-1, 4).sum(axis=1) == 1).all()           # both games have a winner
    assert set(terms[:, 2]) == {-1.0, 1.0} and (terms[:, 2].reshape(-1, 4).sum(axis=1) == -2).all()
    assert "wall_value" in run(str(BENCH / "four_player_weights.py"), str(rec))

    two = tmp_path / "r2.jsonl"
    assert cli_main(["match", "quoridor", "--size", "5", "--engine", "random", "--engine", "random",
                     "--games", "2", "--seed", "1", "--records", str(two), "--json"]) == 0
    from crossridor.engine.errors import CrossridorError
    with pytest.raises(CrossridorError, match="not 4-player"):
        fpw.rows(str(two))
