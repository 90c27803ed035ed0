"""Reliability: stopping a search (Ctrl-C, SIGTERM, `Stop`, `crossridor.stop()`)
on the command line and in the Python API, bad input refused in one line,
results that respect the game's options, and the paths every algorithm and
the play session take."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
import threading
import time

import pytest

import crossridor
from crossridor import CrossridorError, Limits
from crossridor.engine import stop as stop_module
from crossridor.engine.cli.main import main
from crossridor.engine.perft import perft
from crossridor.engine.stop import Interrupted, Stop
from helpers import HANG, STOP_BOUND, handles_stop_signals, interrupt, one_line_error, play_session, run_cli

# ------------------------------------------------------------ Ctrl-C on the command line

def first_line(proc):
    """Ready once the search printed its first info line (it then runs for minutes)."""
    return bool(proc.stdout.readline())


def test_sigint_stops_best_depth_40_with_the_move_so_far():
    code, seconds, out, err = interrupt(["best", "quoridor", "--depth", "40", "--verbose"], first_line)
    assert code == 130
    assert seconds < STOP_BOUND
    lines = out.splitlines()
    assert lines[-4].startswith("bestmove ") and lines[-1].startswith("interrupted")
    depth = int(out.split("depth ")[1].split()[0])
    assert 1 <= depth < 40


def test_sigterm_stops_perft_depth_7():
    code, seconds, out, err = interrupt(["perft", "quoridor", "--depth", "7"], handles_stop_signals, signal.SIGTERM)
    assert code == 130 and seconds < STOP_BOUND and "perft 7" not in out
    assert err == "crossridor: interrupted\n"


def test_sigint_stops_perft_depth_7():
    code, seconds, out, err = interrupt(["perft", "quoridor", "--depth", "7"], handles_stop_signals)
    assert code == 130 and seconds < STOP_BOUND and err == "crossridor: interrupted\n"


@pytest.mark.parametrize("concurrency", ["1", "2"])
def test_sigint_stops_a_match_with_partial_statistics(concurrency, tmp_path):
    records = tmp_path / "games.jsonl"

    def two_games_played(proc):
        return records.exists() and records.read_text().count("\n") >= 2

    code, seconds, out, err = interrupt(
        ["match", "quoridor", "--size", "5", "--engine", "alphabeta:depth=3", "--engine", "random",
         "--games", "100000", "--concurrency", concurrency, "--seed", "1", "--records", str(records)],
        two_games_played)
    assert code == 130 and seconds < STOP_BOUND, err
    games = int(out.split("\ngames ")[1].split(":")[0])
    assert f"interrupted after {games} game" in out, out
    if concurrency == "1":      # in parallel, game 0 may still run while later ones are recorded
        assert games >= 1
    assert games <= records.read_text().count("\n"), (out, records.read_text().count("\n"))


def test_interrupted_match_counts_the_games_finished_before(tmp_path):
    from crossridor.engine.match.runner import Match, MatchConfig
    from crossridor.engine.match.specs import EngineSpec
    config = MatchConfig(game="quoridor", params={"size": 5},
                         engines=[EngineSpec.parse("greedy"), EngineSpec.parse("random")],
                         games=40, concurrency=1, seed=3)
    match = Match(config)
    seen = []

    def on_record(record, tally):
        seen.append(record)
        if len(seen) == 3:
            stop_module.interrupt()      # what the CLI's SIGINT handler does

    try:
        result = match.run(on_record=on_record)
    finally:
        stop_module._interrupted = False
    assert result.interrupted and result.tally.games == 3
    assert result.summary()["interrupted"] is True


# ------------------------------------------------------------ Stop in the Python API

def stop_later(token_or_none, seconds=0.3):
    def go():
        time.sleep(seconds)
        if token_or_none is None:
            crossridor.stop()
        else:
            token_or_none.set()
    t = threading.Thread(target=go)
    t.start()
    return t


SEARCHES = [
    ("quoridor", {}, "alphabeta", Limits(depth=40)),
    ("quoridor", {}, "mcts", Limits(sims=10 ** 12)),
    ("quoridor", {"size": 5}, "alphabeta", None),      # the Python alpha-beta (below)
    ("crosswise", {}, "ismcts", Limits(sims=10 ** 12)),
    ("qwatrobat", {}, "ismcts", Limits(sims=10 ** 12)),
    ("kreuzundquer", {}, "ismcts", Limits(sims=10 ** 12)),
]
# where each search starts: Qwatrobat's ISMCTS takes its layout from a table, so it searches once in play
MOVES = {"qwatrobat": "1234/4321 1122/3344 first:1"}


@pytest.mark.parametrize("name,params,algorithm,limits", SEARCHES)
def test_stop_token_ends_every_search(name, params, algorithm, limits):
    state = crossridor.load_game(name, **params).new_state(MOVES.get(name), seed=1)
    token = Stop()
    t = stop_later(token)
    start = time.perf_counter()
    if limits is None:
        from crossridor.engine.algorithms import alphabeta
        from crossridor.engine.options import check_params
        with stop_module.scope(token):     # the generic alpha-beta, with its declared defaults
            result = alphabeta.search(state, Limits(depth=60), **check_params("alphabeta", {}, alphabeta.OPTIONS))
        assert result.move in list(state.legal_moves())
    else:
        result = crossridor.search(state, algorithm, limits, seed=1, stop=token)
        assert result.extra["stopped"] is True
    t.join()
    assert time.perf_counter() - start < HANG     # stopped: unstopped, it would run for hours
    assert result.move in list(state.legal_moves())


@pytest.mark.parametrize("extra", [{"root_k": 0}, {}])
def test_stop_ends_crosswise_search(extra):
    state = crossridor.load_game("crosswise").new_state(seed=2)
    token = Stop()
    t = stop_later(token, 0.2)
    result = crossridor.search(state, "ismcts", Limits(sims=2 ** 31 - 1), seed=1, stop=token, **extra)
    t.join()
    assert result.extra["stopped"] and result.move in list(state.legal_moves())


def test_stop_all_stops_every_running_search_and_no_later_one():
    state = crossridor.load_game("quoridor").new_state()
    results = []
    started = [threading.Event() for _ in range(2)]

    def run(event):
        results.append(crossridor.search(state.clone(), "alphabeta", Limits(depth=40),
                                         on_iteration=lambda info: event.set()))
    threads = [threading.Thread(target=run, args=(event,)) for event in started]
    for t in threads:
        t.start()
    assert all(event.wait(HANG) for event in started)      # both are running: stop() reaches them
    crossridor.stop()
    for t in threads:
        t.join(HANG)
    assert len(results) == 2 and all(r.extra.get("stopped") for r in results)
    later = crossridor.search(state, "alphabeta", Limits(depth=3))
    assert "stopped" not in later.extra and later.depth == 3


def test_stopping_one_search_leaves_another_thread_running():
    state = crossridor.load_game("quoridor").new_state()
    mine, other = Stop(), Stop()
    out = {}

    def run_other():
        out["other"] = crossridor.search(state.clone(), "alphabeta", Limits(depth=6), stop=other)

    t = threading.Thread(target=run_other)
    t.start()
    t2 = stop_later(mine, 0.1)
    stopped = crossridor.search(state.clone(), "alphabeta", Limits(depth=40), stop=mine)
    t.join(HANG)
    t2.join()
    assert stopped.extra["stopped"]
    assert "stopped" not in out["other"].extra and out["other"].depth == 6


def test_a_set_token_returns_a_legal_move_at_once_until_cleared():
    state = crossridor.load_game("quoridor").new_state()
    token = Stop()
    token.set()
    r = crossridor.search(state, "alphabeta", Limits(depth=40), stop=token)
    assert r.extra["stopped"] and r.depth == 0 and r.move in list(state.legal_moves())
    token.clear()
    r = crossridor.search(state, "alphabeta", Limits(depth=2), stop=token)
    assert "stopped" not in r.extra and r.depth == 2


def test_stopped_perft_raises_instead_of_a_wrong_count():
    state = crossridor.load_game("quoridor").new_state()
    token = Stop()
    t = stop_later(token, 0.2)
    with pytest.raises(Interrupted):
        perft(state, 7, stop=token)
    t.join()
    small = crossridor.load_game("quoridor", size=5, max_plies=3).new_state()   # the Python counter
    token.set()
    with pytest.raises(Interrupted):
        perft(small, 3, stop=token)
    assert perft(small, 2) == perft(crossridor.load_game("quoridor", size=5).new_state(), 2)


def test_stopped_qwatrobat_solver_returns_a_legal_move():
    state = crossridor.load_game("qwatrobat", open=True, cards=10).new_state("12345/54321 11223/34455 first:1")
    token = Stop()
    token.set()
    r = crossridor.search(state, "alphabeta", Limits(depth=1), stop=token)
    assert r.extra["stopped"] and r.extra["solved"] is False and r.move in state.legal_moves()


def test_stop_must_be_a_stop():
    with pytest.raises(CrossridorError, match="crossridor.Stop"):
        crossridor.search(crossridor.load_game("quoridor").new_state(), limits=Limits(depth=1), stop=True)


# ------------------------------------------------------------ crashes and tracebacks

@pytest.mark.parametrize("option", ["root_k=nan", "infer=inf", "root_k=-inf"])
def test_crosswise_nan_options_are_refused(option):
    err = one_line_error("best", "crosswise", "--sims", "2000", "--seed", "1", "-e", option)
    assert option.split("=")[0] in err


def test_nan_crosswise_option_does_not_crash_a_subprocess():
    proc = subprocess.run([sys.executable, "-m", "crossridor", "best", "crosswise", "--sims", "2000",
                           "--seed", "1", "-e", "root_k=nan"], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


def test_negative_seed_is_a_seed():
    status, out, err = run_cli("best", "quoridor", "--algorithm", "mcts", "--seed", "-1", "--sims", "50")
    assert status == 0 and out.startswith("bestmove ")


def test_huge_node_limit_is_one_line():
    assert "nodes" in one_line_error("best", "quoridor", "--nodes", "100000000000000000000")


def test_huge_sims_on_crosswise_is_a_budget():
    status, out, err = run_cli("best", "crosswise", "--sims", "3000000000", "--time", "0.1", "--seed", "1")
    assert status == 0 and out.startswith("bestmove ")


def test_records_path_is_checked_before_the_first_game():
    err = one_line_error("match", "quoridor", "--engine", "alphabeta:depth=3", "--engine", "random",
                         "--games", "2", "--concurrency", "1", "--records", "/nonexistent/dir/x.jsonl")
    assert "records file" in err and "/nonexistent/dir/x.jsonl" in err


def test_pgn_path_is_checked_before_the_first_game(tmp_path):
    err = one_line_error("match", "quoridor", "--size", "5", "--engine", "random", "--engine", "random",
                         "--games", "2", "--records", str(tmp_path / "games.jsonl"),
                         "--pgn", "/nonexistent/dir/x.pgn")
    assert "pgn file" in err and "/nonexistent/dir/x.pgn" in err
    assert not (tmp_path / "games.jsonl").exists()      # no game was played


def test_records_path_that_is_a_folder(tmp_path):
    assert "a folder" in one_line_error("match", "quoridor", "--engine", "random", "--engine", "random",
                                        "--games", "1", "--records", str(tmp_path))


# ------------------------------------------------------------ wrong results

def test_c_searches_honour_max_plies_like_the_python_alpha_beta():
    # white walks to the goal in 2 moves (c2..c5 on 5x5: c3 c4 c5): with 2 plies left it is a draw
    moves = "c2 c4 c3 b4"
    limited = crossridor.load_game("quoridor", size=5, walls=0, max_plies=6).new_state(moves)
    free = crossridor.load_game("quoridor", size=5, walls=0).new_state(moves)
    from crossridor.engine.algorithms import alphabeta
    from crossridor.engine.options import check_params
    defaults = check_params("alphabeta", {}, alphabeta.OPTIONS)
    assert alphabeta.search(limited.clone(), Limits(depth=6), **defaults).score == 0.0
    assert alphabeta.search(free.clone(), Limits(depth=6), **defaults).score > 1000
    assert crossridor.search(limited, "alphabeta", Limits(depth=6)).score == 0
    assert crossridor.search(free, "alphabeta", Limits(depth=6)).score > 90000
    # MCTS: a child's first value is its leaf estimate, every deeper visit a draw
    assert abs(crossridor.search(limited, "mcts", Limits(sims=400), seed=1).score) < 0.05
    assert crossridor.search(free, "mcts", Limits(sims=400), seed=1).score > 0.5


def test_evaluation_stays_below_the_win_band_at_the_largest_weights():
    from crossridor.games.quoridor import search_options as quoridor
    from crossridor.games.quoridor.bounds import MAX_WALLS
    worst = 100 * 81 + 2 * quoridor.MAX_WEIGHT * MAX_WALLS + 2500 + quoridor.MAX_WEIGHT
    assert worst < quoridor.WIN_BAND
    game = crossridor.load_game("quoridor", walls=MAX_WALLS)
    state = game.new_state("e2 e8 " + " ".join(f"{c}{r}h" for c, r in zip("aceg", "1111")))
    w = quoridor.MAX_WEIGHT
    r = crossridor.search(state, "alphabeta", Limits(depth=3), wall_value=w, lone_wall_value=w, tempo=w)
    assert abs(r.score) < quoridor.WIN_BAND and r.depth == 3


@pytest.mark.parametrize("option", ["wall_value=10000", "lone_wall_value=10000", "tempo=100000"])
def test_evaluation_weights_past_the_bound_are_refused(option):
    one_line_error("best", "quoridor", "--depth", "2", "-e", option)


def test_walls_past_the_bound_are_refused():
    assert "walls" in one_line_error("best", "quoridor", "--walls", "1000", "--depth", "2")


def test_pimc_reads_the_clock_inside_a_round():
    state = crossridor.load_game("crosswise").new_state(seed=4)
    moves = list(state.legal_moves())
    r = crossridor.search(state, "ismcts", Limits(time=1e-6), seed=1, root_k=0)
    # the first round (one greedy playout of each root move, about 0.1 ms
    # each) always finishes; the clock, past by then on any machine, stops the
    # search at the second round's first evaluation (a clock read only between
    # rounds would finish that round too)
    assert r.extra["evals"] == len(moves) == 72
    assert r.move in moves


# ------------------------------------------------------------ broken paths

@pytest.mark.parametrize("argv", [
    ["quoridor", "--depth", "2"], ["quoridor", "--algorithm", "mcts", "--sims", "50"],
    ["quoridor", "--algorithm", "greedy"], ["quoridor", "--size", "5", "--algorithm", "alphabeta", "--depth", "2",
                                            "-e", "hash=0"],
    ["crosswise", "--sims", "30"], ["crosswise", "--algorithm", "greedy"],
    ["qwatrobat", "--sims", "30"], ["qwatrobat", "-o", "open=true", "--moves", "1234/4321 1122/3344 first:1"],
    ["kreuzundquer", "--sims", "5"], ["kreuzundquer", "--algorithm", "greedy"],
])
def test_verbose_works_for_every_algorithm(argv):
    status, out, err = run_cli("best", *argv, "--seed", "1", "--verbose")
    assert status == 0, err
    assert out.startswith("info depth ") and "\nbestmove " in out


def test_qwatrobat_open_game_in_play_is_solved_by_default():
    argv = ["best", "qwatrobat", "-o", "open=true", "--moves", "1234/4321 1122/3344 first:1", "--json"]
    outs = []
    for _ in range(2):
        status, out, err = run_cli(*argv)
        assert status == 0
        outs.append(json.loads(out))
    assert outs[0]["solved"] is True and outs[0]["score"] in (-1.0, 0.0, 1.0)
    assert outs[0]["score"] == outs[1]["score"] and outs[0]["move"] == outs[1]["move"]


def play_game_session(name, commands, human=0, seed=5, **params):
    state = crossridor.load_game(name, **params).new_state(seed=seed)
    code, out, _ = play_session(state, commands, human=human)
    assert code == 0
    return state, out


@pytest.mark.parametrize("name", ["crosswise", "qwatrobat", "kreuzundquer"])
def test_play_default_engine_gives_hints_in_hidden_information_games(name, monkeypatch):
    monkeypatch.setattr("crossridor.engine.cli.play.DEFAULT_THINK", "sims=20")
    state, out = play_game_session(name, ["hint", "quit"])
    assert "hint: " in out and "cannot search" not in out


def test_play_shows_crosswise_hand_of_the_human_only():
    state, out = play_game_session("crosswise", ["board", "quit"])
    from crossridor.games.crosswise.notation import _tiles_text
    mine = _tiles_text(state._c.hand(0))
    assert f"seat 1 (Rows): {mine}" in out
    assert "seat 2 (Columns): " in out and "hidden tiles" in out


def test_play_hides_the_qwatrobat_opponent_setup(monkeypatch):
    monkeypatch.setattr("crossridor.engine.cli.play.DEFAULT_THINK", "sims=20")
    # the human (player 2) lays out after the engine: the engine's setup must stay secret
    state, out = play_game_session("qwatrobat", ["board", "quit"], human=1, first=1)
    engine_setup = state.layout[0]
    assert engine_setup is not None
    assert "plays a secret setup" in out
    back = " ".join(str(v) for v in engine_setup.back)
    assert f"player 1: back  {back}" not in out and "? ? ? ?" in out


def test_play_hides_kreuzundquer_opponent_hand(monkeypatch):
    monkeypatch.setattr("crossridor.engine.cli.play.DEFAULT_THINK", "sims=5")
    state, out = play_game_session("kreuzundquer", ["board", "quit"], human=1)
    other = ",".join(map(str, state.hands[0])) if state.hands[0] is not None else None
    if other is not None:
        assert other not in out
    assert "hand: ?" in out or "returns 2 route cards" in out


# ------------------------------------------------------------ small things

def test_seats_are_numbered_from_one_in_printed_text():
    status, out, err = run_cli("show", "crosswise", "--seed", "1")
    to_move = crossridor.load_game("crosswise").new_state(seed=1).current_player
    assert f"to move: seat {to_move + 1} (" in out and "seat 0" not in out
    status, out, err = run_cli("show", "kreuzundquer", "--seed", "1")
    assert "player 1:" in out and "player 0" not in out


def test_random_deal_prints_its_seed():
    status, out, err = run_cli("show", "crosswise")
    assert status == 0 and err.startswith("crossridor: note: deal seed ")
    seed = err.split("deal seed ")[1].split()[0]
    status, again, err2 = run_cli("show", "crosswise", "--seed", seed)
    assert again == out and err2 == ""


def test_duplicate_wall_in_a_position_is_an_error():
    assert "given twice" in one_line_error("show", "quoridor", "--position", "9x2:e1,e9:10,10:e3h,e3h:1")


def test_invalid_position_names_the_reason():
    err = one_line_error("show", "quoridor", "--position", "9x2:e1,e9:10,10:i1v:1")
    assert "'i1v' is not a wall" in err


def test_game_option_given_twice_is_an_error():
    assert "size is given twice" in one_line_error("best", "quoridor", "-o", "size=7", "--size", "5")


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.strip() == f"crossridor {crossridor.__version__}"


def test_argument_errors_are_not_prefixed_twice():
    err = one_line_error("best", "quoridor", "--depth", "x")
    assert err.startswith("crossridor: error: best: argument --depth")


def test_one_game_wording():
    from crossridor.engine.cli.match import print_report
    from crossridor.engine.match.runner import Match, MatchConfig
    from crossridor.engine.match.specs import EngineSpec
    config = MatchConfig(game="quoridor", params={"size": 3}, engines=[EngineSpec.parse("greedy"),
                         EngineSpec.parse("random")], games=2, concurrency=1, seed=1, first_to=1)
    result = Match(config).run()
    buf = io.StringIO()
    from contextlib import redirect_stdout
    with redirect_stdout(buf):
        print_report(result.summary(), result)
    assert "1 games" not in buf.getvalue() and "after 1 game" in buf.getvalue()


def test_random_openings_error_is_short():
    err = one_line_error("match", "quoridor", "--engine", "random", "--engine", "random",
                         "--random-openings", "500")
    assert len(err) < 200 and "max plies" in err
