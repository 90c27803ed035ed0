"""The Quoridor solver (src/games/quoridor/solve.pxi, games/quoridor/solve.py)
against the independent reference solver of quoridor_solve_reference.py:
3x3 from the start for every wall count, seeded random positions on 3x3
and 5x5 (including drawn ones), the small boards that are not square (and
the published table of them), stopping and the memory bound; the check of
a solution (solve --verify) and the command line."""

import functools
import json
import random
import re
from pathlib import Path

import pytest

import crossridor
import crossridor.games.quoridor.solve
from crossridor.engine._core import WIN_SCORE
from crossridor.engine.cli.main import main
from crossridor.engine.stop import Interrupted
from crossridor.games.quoridor import verify
from crossridor.games.quoridor.published import PUBLISHED
from crossridor.games.quoridor.solve import Solver, decode, solve
from helpers import STOP_BOUND, interrupt, one_line_error
from quoridor_solve_reference import Rules, first_moves, solve_all

COLS = "abcde"


def load(size, walls):
    return crossridor.load_game("quoridor", size=size, walls=walls)


@functools.lru_cache(maxsize=None)
def solved(size, walls):
    """solve() of the start with the default solver (computed once for the tests that
    compare with it)."""
    return solve(load(size, walls).new_state())


@functools.lru_cache(maxsize=None)
def reference_values(size, walls):
    """The reference's value of every position reachable from the start (computed once
    for the tests that share it)."""
    rules = Rules(size)
    return solve_all(rules, rules.start(walls))


@pytest.mark.parametrize("walls", range(11))
def test_3x3_start_agrees_with_the_reference(walls):
    rules = Rules(3)
    root = rules.start(walls)
    values = reference_values(3, walls)
    result = solved(3, walls)
    outcome, plies = values[root]
    assert result.plies == plies
    assert result.winner == (None if outcome == 0 else 1 if outcome == 1 else 2)
    if outcome == 1:
        assert sorted(result.moves) == first_moves(rules, root, values)
    # every first move's value agrees
    for name, child in rules.children(root):
        o, p = values[child]
        if (-o, p + 1) == (outcome, plies):
            assert name in result.moves
            assert result.move_plies[name] == p + 1


def compare_sample(size, root, walls, k, seed):
    """k seeded positions reachable from root: the solver's value equals the
    reference's. Returns the outcomes seen."""
    rules = Rules(size)
    values = reference_values(size, walls) if root == rules.start(walls) else solve_all(rules, root)
    game = load(size, walls)
    solver = Solver(size)
    positions = sorted(values, key=rules.position_string)
    seen = set()
    for pos in random.Random(seed).sample(positions, min(k, len(positions))):
        state = game.state_from_position(rules.position_string(pos))
        got = decode(solver.value(state.core))
        assert got == values[pos], rules.position_string(pos)
        seen.add(got[0])
    return seen


@pytest.mark.parametrize("walls", [1, 2, 3])
def test_3x3_random_positions_agree(walls):
    assert compare_sample(3, Rules(3).start(walls), walls, 300, seed=walls) == {1, -1}


def test_5x5_no_walls_agrees():
    assert compare_sample(5, Rules(5).start(0), 0, 300, seed=5) == {1, -1}


# the entries of the table that are not square and that the reference solves in
# about a second or less (3x5 with 1 wall or 4x3 with 2 take it several)
SMALL_BOARDS = [("2x3", w) for w in range(4)] + [
    ("4x3", 0), ("4x3", 1), ("5x3", 0), ("6x3", 0), ("3x5", 0), ("2x5", 0), ("2x5", 1), ("2x5", 2),
    ("2x7", 0), ("2x7", 1), ("2x9", 0)]


@pytest.mark.parametrize("board, walls", SMALL_BOARDS)
def test_boards_not_square_agree_with_the_reference_and_the_published_table(board, walls):
    width, height = (int(n) for n in board.split("x"))
    rules = Rules(width, height)
    root = rules.start(walls)
    values = solve_all(rules, root)
    outcome, plies = values[root]
    game = crossridor.load_game("quoridor", size=board, walls=walls)
    result = crossridor.solve(game.new_state())
    assert result.winner == (None if outcome == 0 else 1 if outcome == 1 else 2)
    assert result.plies == plies
    assert PUBLISHED[width, height, walls] == ("D" if result.winner is None else str(result.winner))
    if outcome == 1:
        assert sorted(result.moves) == first_moves(rules, root, values)
    # every first move: the same position, valued alike by both solvers
    solver = Solver(board)
    children = rules.children(root)
    assert sorted(name for name, _ in children) == sorted(str(m) for m in game.new_state().legal_moves())
    for name, child in children:
        state = game.new_state(name)
        assert state.position() == rules.position_string(child)
        assert decode(solver.value(state.core)) == values[child], name
        if name in result.move_plies:
            assert result.move_plies[name] == values[child][1] + 1


def parse(names):
    return frozenset((COLS.index(w[0]), int(w[1]) - 1) for w in names.split())


def test_5x5_positions_with_draws_agree():
    # player 2 has no wall left and player 1 one: some positions are draws
    # (neither side can force a win: a cycle), others are won
    hw, vw = parse("c1 a3 d3 c4"), parse("d1 a2 d4")
    root = ((4, 0), (0, 3), 0, hw, vw, 1, 0)
    assert compare_sample(5, root, 1, 400, seed=7) == {1, 0, -1}
    result = solve(load(5, 1).state_from_position("5x2:e1,a4:1,0:c1h,d1v,a2v,a3h,d3h,c4h,d4v:1"))
    assert result.winner is None and result.plies is None and result.moves


def docs_rows():
    """(width, height, walls) -> (winner, plies, moves column, positions) of the solved entries in the
    tables of docs/solving.md (the rows `solve --sweep` prints)."""
    page = Path(__file__).resolve().parents[1] / "docs" / "solving.md"
    rows = {}
    for line in page.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        board = re.fullmatch(r"(\d)×(\d)", cells[0]) if len(cells) == 9 else None
        if board and (cells[2].startswith("player ") or cells[2] == "draw"):
            rows[int(board[1]), int(board[2]), int(cells[1])] = (
                cells[2], None if cells[3] == "—" else int(cells[3]), cells[4], int(cells[5].replace(",", "")))
    return rows


def documented_entries():
    """The documented entries that take seconds: the smallest first, up to 30 million
    positions in all."""
    out, total = [], 0
    for key, row in sorted(docs_rows().items(), key=lambda item: (item[1][3], item[0])):
        total += row[3]
        if total > 30_000_000:
            break
        out.append(key)
    return out


def test_the_docs_tables_are_read():
    rows = docs_rows()
    # the squares, the published table (its draw and its open entries solved here), the even heights
    assert {(3, 3, w) for w in range(11)} | {(5, 5, 10), (7, 7, 2), (8, 3, 3), (4, 7, 7), (3, 9, 10),
                                            (2, 4, 10), (4, 6, 4)} <= set(rows)
    assert rows[8, 3, 3][0] == "draw"
    assert all(rows[4, 7, w][:2] == ("player 1", 31) for w in (7, 8, 9, 10))
    assert rows[3, 9, 9][:2] == rows[3, 9, 10][:2] == ("player 1", 35)
    assert rows[7, 7, 3][:2] == ("player 2", 30)
    run = set(documented_entries())
    assert {(3, 3, w) for w in range(11)} | {(2, 3, w) for w in range(11)} | {(2, 7, 2), (2, 4, 0)} <= run


@pytest.mark.parametrize("width, height, walls", documented_entries())
def test_the_docs_table(width, height, walls):
    """The tables of docs/solving.md, for the entries that take seconds."""
    result = solved(width if width == height else f"{width}x{height}", walls)
    winner, plies, moves, positions = docs_rows()[width, height, walls]
    assert winner == ("draw" if result.winner is None else f"player {result.winner}") and plies == result.plies
    listed = " ".join(result.moves)
    assert moves == (f"none (drawing moves: {listed})" if result.winner is None
                     else listed if result.winner == result.to_move else f"none (slowest losses: {listed})")
    assert positions == result.nodes and result.memory > 0


def test_a_finished_game():
    state = load(3, 0).new_state("a1 b2 a2 b1")
    result = solve(state)
    assert (result.winner, result.plies, result.moves, result.to_move) == (2, 0, [], None)


def test_stop_and_memory_bound():
    state = load(5, 1).new_state()
    token = crossridor.Stop()
    token.set()
    with pytest.raises(Interrupted):
        solve(state, stop=token)
    with pytest.raises(crossridor.CrossridorError, match="do not fit in"):
        solve(state, memory_gb=1e-5)
    assert solve(state, memory_gb=1).plies == 12


def test_unsupported_positions():
    with pytest.raises(crossridor.UnsupportedGameError, match="two-player"):
        solve(crossridor.load_game("quoridor", size=5, players=4).new_state())
    with pytest.raises(crossridor.UnsupportedGameError, match="only Quoridor"):
        solve(crossridor.load_game("crosswise").new_state(seed=1))
    with pytest.raises(crossridor.CrossridorError, match="memory"):
        solve(load(3, 0).new_state(), memory_gb=0)


# ------------------------------------------------------------ solve --verify

@pytest.mark.parametrize("walls", range(11))
def test_verify_3x3_against_every_reply(walls):
    state = load(3, walls).new_state()
    solver = Solver(3)
    result = solve(state, solver=solver)
    check = verify.verify(solver, state, result)
    assert check.ok and check.mode == "exhaustive" and check.positions > 0
    # the check can fail: the same strategy does not win one ply sooner,
    # and the loser has no strategy that holds a draw
    assert not verify.exhaustive(solver, state, result.winner - 1, result.plies - 1).ok
    assert not verify._prove_hold(solver, state, 2 - result.winner).ok


def test_verify_a_draw_exhaustively_and_sampled():
    state = load(5, 1).state_from_position("5x2:e1,a4:1,0:c1h,d1v,a2v,a3h,d3h,c4h,d4v:1")
    solver = Solver(5)
    result = solve(state, solver=solver)
    assert result.winner is None
    check = verify.exhaustive(solver, state, None, None)
    assert check.ok and check.positions > 0
    check = verify.sampled(solver, state, None, None, games=1, seed=3, max_plies=30)
    assert check.ok and check.games == 2 * len(verify.OPPONENTS)


def test_verify_5x5_sampled():
    state = load(5, 1).new_state()
    solver = Solver(5)
    result = solve(state, solver=solver)
    check = verify.verify(solver, state, result, games=2, seed=1)
    assert check.ok and check.mode == "sampled" and check.games == 2 * len(verify.OPPONENTS)
    # a claim one ply short is caught by some game
    short = verify.sampled(solver, state, 1, result.plies - 1, games=1, seed=1)
    assert not short.ok and "not won in" in short.failure


# ------------------------------------------------------------ the command line

def test_cli_solve_json_and_text(capsys):
    status = main(["solve", "quoridor", "--size", "3", "--walls", "2", "--verify", "--json"])
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert status == 0 and err == ""
    assert (data["winner"], data["plies"], data["moves"], data["to_move"]) == (2, 12, ["a2h", "b2h"], 1)
    assert data["verify"]["ok"] and data["nodes"] > 0 and data["memory"] > 0 and data["seconds"] >= 0
    status = main(["solve", "quoridor", "--size", "5", "--walls", "1", "--position",
                   "5x2:e1,a4:1,0:c1h,d1v,a2v,a3h,d3h,c4h,d4v:1"])
    out, err = capsys.readouterr()
    assert status == 0 and "draw: neither side can force a win" in out and "drawing moves: e2" in out


@pytest.mark.parametrize("argv, message", [
    (["--size", "5", "--walls", "1", "--memory", "0.00001"], "do not fit in 1e-05 GB"),
    (["--size", "3", "--memory", "0"], "--memory must be > 0"),
    (["--size", "5", "--players", "4"], "two-player"),
    (["--size", "3", "-o", "max_plies=10"], "ply cap"),
    (["--size", "3", "--games", "0"], "--games"),
    (["--size", "3", "--threads", "0"], "--threads must be >= 1"),
    (["--size", "3", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --write-table"),
])
def test_cli_solve_bad_input(argv, message):
    err = one_line_error("solve", "quoridor", *argv)
    assert message in err


def test_cli_solve_other_game(capsys):
    assert "only quoridor" in one_line_error("solve", "crosswise")


def test_cli_solve_stops_on_ctrl_c(tmp_path):
    # the signal once the solve has begun (its folder is made), while it counts 7x7's layers
    table = tmp_path / "t"
    code, seconds, out, err = interrupt(["solve", "quoridor", "--size", "7", "--walls", "3", "--write-table",
                                         str(table)], ready=lambda proc: (table / "table.json").exists())
    assert code == 130 and seconds < STOP_BOUND
    assert err == f"crossridor: the levels solved so far are in {table} (the same --write-table resumes)\n" \
                  "crossridor: interrupted\n"


# ------------------------------------------------------------ the solved table

def test_table_written_read_and_played_from(capsys, tmp_path):
    table = str(tmp_path / "t")
    data = run_json_solve(capsys, "--size", "5", "--walls", "1", "--write-table", table)
    fresh = data["nodes"]
    again = run_json_solve(capsys, "--size", "5", "--walls", "1", "--table", table)
    assert again["nodes"] == 0 and again["layers"] == data["layers"]
    assert (again["winner"], again["plies"], again["moves"]) == (data["winner"], data["plies"], data["moves"])
    # best plays the table's move in a position of the table, and says so
    status = main(["best", "quoridor", "--size", "5", "--walls", "1", "--moves", "c2 c4", "--table", table,
                   "--json"])
    out = json.loads(capsys.readouterr()[0])
    state = load(5, 1).new_state("c2 c4")
    expected = solve(state)
    assert status == 0 and out["source"] == "table" and out["move"] in expected.moves
    assert (out["winner"], out["plies"], out["depth"]) == (expected.winner, expected.plies, expected.plies)
    assert out["score"] == -(WIN_SCORE - expected.plies)       # player 1 to move loses
    # the same from a match engine spec's option, in text
    spec = crossridor.search(state, "alphabeta", crossridor.Limits(depth=1), table=table)
    assert spec.extra["source"] == "table" and str(spec.move) == out["move"]
    assert main(["best", "quoridor", "--size", "5", "--walls", "1", "--moves", "c2 c4", "--table", table]) == 0
    assert f"bestmove {out['move']}" in capsys.readouterr()[0]
    # a position with more walls left is not in it: the search answers
    status = main(["best", "quoridor", "--size", "5", "--walls", "2", "--table", table, "--depth", "1",
                   "--json"])
    out = json.loads(capsys.readouterr()[0])
    assert status == 0 and "source" not in out and out["depth"] == 1
    assert fresh > 0


def test_levels_on_disk_need_memory_for_one_level(capsys, tmp_path):
    # 5x5 with 2 walls, coded: the keys (0.24 MB) and levels 3 and 4 (0.96 + 0.97 MB) do not fit in
    # 1.6 MB at once, the keys and level 4 alone do
    status = main(["solve", "quoridor", "--size", "5", "--walls", "2", "--memory", "0.0015"])
    err = capsys.readouterr()[1]
    assert status == 2 and "level 3" in err and "--write-table DIR keeps the levels on disk" in err
    # on disk, the level being solved is written as it is solved: memory holds the level below
    table = tmp_path / "t"
    out = run_json_solve(capsys, "--size", "5", "--walls", "2", "--memory", "0.0015", "--write-table", str(table))
    full = solved(5, 2)
    assert (out["winner"], out["plies"], out["moves"]) == (full.winner, full.plies, full.moves)
    assert out["memory"] < 0.0015 * 2 ** 30 < full.memory and full.disk == 0
    assert out["disk"] == sum((table / f"values-{k:02d}.npy").stat().st_size - 128 for k in range(5))
    assert not list(table.glob("*.tmp"))


def test_a_level_that_does_not_fit_on_the_disk_is_refused(capsys, tmp_path, monkeypatch):
    from crossridor.games.quoridor.solve_table import TableFolder
    monkeypatch.setattr(TableFolder, "free_bytes", lambda self: 1000)
    status = main(["solve", "quoridor", "--size", "5", "--walls", "2", "--write-table", str(tmp_path / "t")])
    err = capsys.readouterr()[1]
    assert status == 2 and "do not fit on the disk" in err and "level 4 (5,307 layers)" in err
    assert "1e-06 GB are free" in err
    # a level's file left half written by a stopped run is written again
    monkeypatch.undo()
    (tmp_path / "t" / "values-04.tmp").write_bytes(b"torn")
    out = run_json_solve(capsys, "--size", "5", "--walls", "2", "--write-table", str(tmp_path / "t"))
    assert (out["winner"], out["plies"]) == (solved(5, 2).winner, solved(5, 2).plies)
    assert not list((tmp_path / "t").glob("*.tmp"))


def test_a_run_stopped_by_the_memory_bound_resumes_from_its_folder(capsys, tmp_path):
    table = str(tmp_path / "t")
    # 5x5 with 2 walls: level 4 (5,307 layers, 0.97 MB coded) is written to disk as it is solved;
    # level 3 reads it at random, from memory, and with the keys (0.24 MB) it does not fit in 1.07 MB
    status = main(["solve", "quoridor", "--size", "5", "--walls", "2", "--memory", "0.001",
                   "--write-table", table])
    err = capsys.readouterr()[1]
    assert status == 2 and "do not fit in 0.001 GB" in err and "level 3" in err and "resumes" in err
    assert len(err.strip().splitlines()) == 2
    kept = Solver.read(table)
    assert kept.stats[1] == 5307 and not kept.knows(load(5, 2).new_state())
    resumed = run_json_solve(capsys, "--size", "5", "--walls", "2", "--write-table", table)
    full = solved(5, 2)
    assert 0 < kept.stats[1] < full.layers == resumed["layers"]
    assert 0 < resumed["nodes"] < full.nodes
    assert (resumed["winner"], resumed["plies"], resumed["moves"]) == (full.winner, full.plies, full.moves)
    assert Solver.read(table).knows(load(5, 2).new_state())


def test_a_stopped_run_resumes_from_its_finished_levels(tmp_path):
    state = load(5, 2).new_state()
    levels = []

    def stop_after_two(line):            # stop once two levels are solved
        levels.append(line)
        if sum("solved" in x for x in levels) == 2:
            token.set()

    token = crossridor.Stop()
    with pytest.raises(Interrupted):
        solve(state, stop=token, solver=Solver(5, folder=tmp_path / "t", progress=stop_after_two))
    assert Solver.read(tmp_path / "t").stats[1] == 5307 + 1912
    solver = Solver(5, folder=tmp_path / "t", progress=levels.append)
    result = solve(state, solver=solver)
    assert "level 4: 5,307 layers (read from" in "\n".join(levels)
    assert result.plies == 18 and result.layers == 7594 and result.nodes < solved(5, 2).nodes


def test_threads_keep_and_folders_give_the_same_values(tmp_path):
    """One thread, two threads, every level kept or not, in memory or in a
    folder: the same values for a sample of positions of 5x5 with 2 walls."""
    state = load(5, 2).new_state()
    solvers = [Solver(5, threads=1), Solver(5, threads=2), Solver(5, threads=2, folder=tmp_path / "t")]
    results = [solve(state, solver=s) for s in solvers] + [solved(5, 2)]
    assert len({(r.winner, r.plies, tuple(r.moves), r.nodes, r.layers) for r in results}) == 1
    rng = random.Random(3)
    st = state
    for _ in range(40):                  # a random game: every position valued alike
        values = {s.value(st.core) for s in solvers}
        assert len(values) == 1
        if st.is_terminal():
            break
        st.play(rng.choice(st.legal_moves()))
    a, b = solvers[0]._runs[0], solvers[2]._runs[0]
    for level in a.keys:
        assert (a.keys[level] == b.keys[level]).all()
        assert (a.values[level].offsets == b.values[level].offsets).all()
        assert (a.values[level].codes == b.values[level].codes).all()


def test_a_folder_holds_one_position(capsys, tmp_path):
    table = str(tmp_path / "t")
    run_json_solve(capsys, "--size", "3", "--walls", "1", "--write-table", table)
    assert "another position" in one_line_error("solve", "quoridor", "--size", "3", "--walls", "2",
                                                "--write-table", table)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "x").write_text("x")
    assert "not empty" in one_line_error("solve", "quoridor", "--size", "3", "--write-table",
                                         str(tmp_path / "other"))


def test_bad_tables(capsys, tmp_path):
    junk = tmp_path / "junk"
    junk.write_text("not a table")
    assert "is not a solved table" in one_line_error("solve", "quoridor", "--size", "3",
                                                     "--table", str(junk))
    assert "cannot read solved table" in one_line_error("best", "quoridor", "--size", "3",
                                                        "--table", str(tmp_path / "none"))
    import numpy as np
    old = tmp_path / "old.npz"              # a table of format 1
    np.savez(old, format=1, size=3, keys=np.zeros((0, 4), np.int64), values=np.zeros(0, np.int16))
    assert "older format" in one_line_error("best", "quoridor", "--size", "3", "--table", str(old))
    table = str(tmp_path / "t3")
    run_json_solve(capsys, "--size", "3", "--walls", "1", "--write-table", table)
    assert "table is for the board 3x3, the position is on 5x5" in one_line_error(
        "solve", "quoridor", "--size", "5", "--table", table)


def run_json_solve(capsys, *argv):
    status = main(["solve", "quoridor", *argv, "--json"])
    out, err = capsys.readouterr()
    assert status == 0 and err == "", err
    return json.loads(out)


def test_a_table_is_checked_when_read(tmp_path):
    import shutil

    import numpy as np
    good = tmp_path / "good"
    solve(load(3, 1).new_state(), solver=Solver(3, folder=good))
    assert Solver.read(good).stats[1] == solve(load(3, 1).new_state()).layers

    def keys_off_the_board(folder):
        keys = np.load(folder / "keys-01.npy")
        keys[0, 0] = 1 << 40
        np.save(folder / "keys-01.npy", keys)

    def short_values(folder):
        np.save(folder / "values-01.npy", np.load(folder / "values-01.npy")[:-1])

    def offsets_out_of_order(folder):
        offsets = np.load(folder / "offsets-01.npy")
        offsets[1], offsets[2] = offsets[2], offsets[1]
        np.save(folder / "offsets-01.npy", offsets)

    def unsorted(folder):
        np.save(folder / "keys-01.npy", np.load(folder / "keys-01.npy")[::-1].copy())

    def other_format(folder):
        meta = json.loads((folder / "table.json").read_text())
        (folder / "table.json").write_text(json.dumps({**meta, "format": 9}))

    older = tmp_path / "older"
    shutil.copytree(good, older)
    meta = json.loads((older / "table.json").read_text())
    (older / "table.json").write_text(json.dumps({**meta, "format": 2}))
    with pytest.raises(crossridor.CrossridorError, match="an older format .* solve again"):
        Solver.read(older)

    for change in (keys_off_the_board, short_values, offsets_out_of_order, unsorted, other_format):
        bad = tmp_path / change.__name__
        shutil.copytree(good, bad)
        change(bad)
        with pytest.raises(crossridor.CrossridorError, match="is not a solved table"):
            Solver.read(bad)
    # a code that is not one: each layer's is read when it is used, one clear error then
    bad = tmp_path / "bad_codes"
    shutil.copytree(good, bad)
    codes = np.load(bad / "values-00.npy")
    np.save(bad / "values-00.npy", np.full_like(codes, 0x7F))       # runs past the layer's end
    with pytest.raises(crossridor.CrossridorError, match="solved table is corrupt: level 0"):
        Solver.read(bad).value(load(3, 1).new_state().core)


def test_count_gives_the_layers_a_solve_solves(capsys):
    count = run_json_solve(capsys, "--size", "5", "--walls", "2", "--count")
    full = solved(5, 2)
    assert count["layers"] == full.layers == 7594
    assert count["levels"] == {"0": 1, "1": 16, "2": 358, "3": 1912, "4": 5307}
    assert count["table_bytes"] == 7594 * 1250 and count["two_levels_bytes"] == (1912 + 5307) * 1250
