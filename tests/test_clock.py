"""Time management, game clocks and Lazy SMP threads (no wall-clock
assertions: allocation outputs, validation, loss on time with a tiny clock
or a slow outside engine, thread determinism and stopping)."""

from __future__ import annotations

import json
import os
import sys
import threading

import pytest

import crossridor
from crossridor import Limits
from crossridor.engine.clocks import SeatClock, TimeControl
from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.game_loop import GameRecord
from crossridor.engine.match.runner import Match, MatchConfig
from crossridor.engine.match.scoring import time_use
from crossridor.engine.match.specs import EngineSpec, move_budget
from crossridor.engine.protocol import Clock
from crossridor.engine.search_api import TimePlan, clock_as_time, time_for_move
from crossridor.engine.stop import Stop
from helpers import HANG, one_line_error, run_cli

HERE = os.path.dirname(os.path.abspath(__file__))
MIDDLEGAME = "e2 e8 e3 e7 e4 e6 d3h d6h f5v c4v"


# --- allocation -------------------------------------------------------------------

def test_time_for_move_soft_and_hard_limits():
    plan = time_for_move(60.0, 0.5)
    assert plan.soft == pytest.approx(59.95 / 20 + 0.45)
    assert plan.hard == pytest.approx(4 * plan.soft)            # 4 soft limits, below 40% of the clock
    assert time_for_move(10.0, 0, moves_to_go=5) == TimePlan(pytest.approx(9.95 / 5),
                                                              pytest.approx(0.4 * 9.95))
    one = time_for_move(10.0, 0, moves_to_go=1)                 # the last move before the control
    assert one.hard == pytest.approx(9.95) and one.soft == pytest.approx(9.95)
    big_inc = time_for_move(1.0, 5.0)                           # an increment beyond the clock
    assert big_inc.hard == pytest.approx(0.4 * 0.95) and big_inc.soft == big_inc.hard
    tiny = time_for_move(0.0001)
    assert tiny == TimePlan(0.001, 0.001)


@pytest.mark.parametrize("left", [0.01, 0.5, 3.0, 60.0, 3600.0])
@pytest.mark.parametrize("inc", [0.0, 0.1, 2.0])
@pytest.mark.parametrize("mtg", [None, 1, 2, 40])
def test_allocation_never_spends_the_clock(left, inc, mtg):
    plan = time_for_move(left, inc, mtg)
    assert 0 < plan.soft <= plan.hard
    assert plan.hard <= max(0.001, left - min(0.05, 0.05 * left))


def test_clock_as_time_for_searches_without_a_time_manager():
    limits = clock_as_time(Limits(clock=Clock(30.0), sims=50))
    assert limits.clock is None and limits.sims == 50
    assert limits.time == pytest.approx(time_for_move(30.0).soft)
    assert clock_as_time(Limits(time=0.2, clock=Clock(30.0))).time == 0.2   # time caps the share


@pytest.mark.parametrize("kwargs, word", [
    ({"time_left": float("nan")}, "time left"), ({"time_left": -1.0}, "time left"),
    ({"time_left": 0.0}, "time left"), ({"time_left": 1e300}, "time left"),
    ({"time_left": 1.0, "increment": -0.1}, "increment"),
    ({"time_left": 1.0, "increment": float("inf")}, "increment"),
    ({"time_left": 1.0, "moves_to_go": 0}, "moves to go"),
    ({"time_left": 1.0, "moves_to_go": 2.5}, "moves to go"),
])
def test_clock_validation(kwargs, word):
    with pytest.raises(ValueError, match=word):
        Clock(**kwargs)


def test_limits_take_a_clock_and_refuse_other_things():
    assert Limits(clock=Clock(5.0)).clock.time_left == 5.0
    with pytest.raises(ValueError, match="clock must be a Clock"):
        Limits(clock=5.0)
    with pytest.raises(ValueError, match="time"):
        Limits(time=float("nan"))


# --- searching on a clock -----------------------------------------------------------

def test_search_on_a_clock_returns_a_legal_move_for_every_algorithm():
    state = crossridor.load_game("quoridor", size=5).new_state("c2 c4")
    for algorithm in ("alphabeta", "mcts", "greedy"):
        result = crossridor.search(state, algorithm, Limits(clock=Clock(0.5, 0.01)), seed=1)
        assert result.move in state.legal_moves(), algorithm


def test_one_legal_move_on_the_clock_returns_after_depth_1():
    # player 2 boxed in a corner with no walls left: one move
    state = crossridor.load_game("quoridor", size=5).state_from_position("5x2:d3,a5:0,0:d1v,b2v,a3v,a4h:2")
    assert len(state.legal_moves()) == 1
    result = crossridor.search(state, limits=Limits(clock=Clock(1000.0)))
    assert result.depth == 1
    # with a depth limit (no clock) the search goes on as asked
    assert crossridor.search(state, limits=Limits(depth=3)).depth == 3


def test_best_cli_on_a_clock(tmp_path):
    code, out, err = run_cli("best", "quoridor", "--size", "5", "--wtime", "0.3", "--btime", "0.2",
                             "--inc", "0.01", "--movestogo", "10", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert crossridor.load_game("quoridor", size=5).new_state().parse_move(data["move"])
    # player 2 to move takes --btime; without it: an error naming it
    assert "--btime" in one_line_error("best", "quoridor", "--size", "5", "--moves", "c2", "--wtime", "1")


# --- match clocks --------------------------------------------------------------------

def test_time_control_parse_and_text():
    assert TimeControl.parse("60+0.5") == TimeControl(60.0, 0.5)
    assert TimeControl.parse("10") == TimeControl(10.0)
    assert TimeControl.parse("40/60+0") == TimeControl(60.0, 0.0, 40)
    assert str(TimeControl.parse("40/60+0.25")) == "40/60+0.25"
    for bad in ("", "abc", "0+1", "60+-1", "60+nan", "inf", "0/60", "60+1+2", "1e300"):
        with pytest.raises(CrossridorError, match="time control"):
            TimeControl.parse(bad)


def test_seat_clock_charges_adds_increments_and_periods():
    clock = SeatClock(TimeControl(10.0, 1.0, moves=2))
    assert clock.for_search() == Clock(10.0, 1.0, 2)
    assert clock.charge(3.0, margin=0.0) and clock.left == pytest.approx(8.0)
    assert clock.for_search().moves_to_go == 1
    assert clock.charge(3.0, margin=0.0) and clock.left == pytest.approx(16.0)   # + inc + a new period
    assert not clock.charge(16.05, margin=0.01)      # out of time past the margin
    assert SeatClock(TimeControl(1.0)).charge(1.04, margin=0.05)   # within the margin


def test_engine_spec_tc_and_match_tc():
    spec = EngineSpec.parse("alphabeta:tc=10+0.1,threads=2")
    assert spec.tc == TimeControl(10.0, 0.1) and dict(spec.options) == {"threads": 2}
    assert str(spec) == "alphabeta:tc=10+0.1,threads=2"
    assert EngineSpec.parse(str(spec)) == spec
    with pytest.raises(CrossridorError, match="time control"):
        EngineSpec.parse("alphabeta:tc=fast")
    config = MatchConfig("quoridor", {"size": 5}, [EngineSpec.parse("alphabeta:depth=3"), spec], tc="5+0")
    assert [str(e) for e in config.engines] == ["alphabeta:depth=3,tc=5+0", "alphabeta:tc=10+0.1,threads=2"]
    uci = EngineSpec.parse("uci:engine --x;tc=40/60+1")
    assert str(uci) == "uci:engine --x;tc=40/60+1" and uci.open  # opened only in a game


def test_move_budget_of_an_engine():
    state = crossridor.load_game("quoridor", size=5).new_state()
    plan = time_for_move(10.0, 0.1)
    spec = EngineSpec.parse("alphabeta:tc=10+0.1")
    assert move_budget(spec, state, Clock(10.0, 0.1)) == (plan.soft, plan.hard)
    mcts = EngineSpec.parse("mcts:tc=10+0.1")
    assert move_budget(mcts, state, Clock(10.0, 0.1)) == (plan.soft, plan.soft)
    assert move_budget(EngineSpec.parse("alphabeta:time=0.2"), state, None) == (0.2, 0.2)
    assert move_budget(EngineSpec.parse("alphabeta:depth=2"), state, None) is None


def test_a_tiny_clock_loses_on_time(tmp_path):
    # mcts searches its whole (1 ms) share, so with no margin every move is too slow
    config = MatchConfig("quoridor", {"size": 5}, [EngineSpec.parse("mcts:sims=100000,tc=0.001+0"),
                                                    EngineSpec.parse("alphabeta:depth=1")],
                         games=2, concurrency=1, seed=3, time_margin=0.0, records=str(tmp_path / "r.jsonl"))
    result = Match(config).run()
    assert [r.reason for r in result.records] == ["time", "time"]
    assert all(r.winner_engine == 1 for r in result.records)
    assert result.summary()["engine_failures"] == {"time": 2}
    assert all(r.failure["engine"] == "mcts:sims=100000,tc=0.001+0" for r in result.records)
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    assert [json.loads(line)["reason"] for line in lines] == ["time", "time"]


def test_an_outside_engine_gets_the_clock_and_loses_on_time():
    engine = f"uci:{sys.executable} {os.path.join(HERE, 'broken_engine.py')} slow"
    config = MatchConfig("quoridor", {"size": 5}, [EngineSpec.parse(engine), EngineSpec.parse("random")],
                         games=1, concurrency=1, seed=1, tc="1+0.01")
    # its first move, at once, is in time even on a busy machine; its second, after 1.5 s, is not
    [record] = Match(config).run(preflight=False).records
    assert record.reason == "time" and record.winner_engine == 1
    # its second `go` (the first it thinks over) carried the clocks
    go = [line for line in record.failure["stderr"] if line.startswith("go ")]
    assert go and go[0].split()[1::2] == ["wtime", "btime", "winc", "binc"]
    assert go[0].split()[5:] == ["winc", "10", "binc", "10"]


def test_records_carry_think_times_and_the_summary_budget_use(tmp_path):
    code, out, err = run_cli("match", "quoridor", "--size", "5", "--engine", "alphabeta:time=0.01",
                             "--engine", "alphabeta:depth=1", "--tc", "20+0", "--games", "2",
                             "--concurrency", "1", "--seed", "2", "--json", "--records", str(tmp_path / "r.jsonl"))
    assert code == 0, err
    summary = json.loads(out)
    use = {u["engine"]: u for u in summary["time_use"]}
    assert use[1]["moves"] > 0 and use[1]["budget_used"] is not None and use[1]["max_overrun"] is not None
    assert use[2]["budget_used"] is not None       # depth 1 on a clock: its clock share is the budget
    records = [GameRecord.from_dict(json.loads(line)) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    for r in records:
        assert len(r.think) == r.plies - r.opening_plies
        assert all(len(t) == 4 and t[1] >= 0 for t in r.think)
        assert len(r.clocks) == 2
    code, text, err = run_cli("match", "quoridor", "--size", "5", "--engine", "alphabeta:time=0.01",
                              "--engine", "random", "--games", "2", "--concurrency", "1", "--seed", "2")
    assert "time engine 1:" in text and "% of its budget on average" in text


def test_time_use_from_records():
    record = GameRecord(index=0, seed=0, deal_seed=None, seats=[1, 0], engines=["b", "a"], result="1-0",
                        returns=[1.0, -1.0], winner=1, winner_engine=1, reason="terminal", moves=[],
                        opening_plies=0, plies=3, seconds=1.0,
                        think=[[1, 0.1, 0.2, 0.2], [2, 0.3, 0.2, 0.25], [1, 0.2, 0.2, 0.2]])
    a, b = time_use([record], 2)
    assert a == {"engine": 1, "moves": 1, "mean_seconds": 0.3, "budget_used": 1.5, "max_overrun": 0.05}
    assert b["moves"] == 2 and b["budget_used"] == pytest.approx(0.75) and b["max_overrun"] == 0.0


@pytest.mark.parametrize("argv, word", [
    (["--tc", "abc"], "time control"), (["--tc", "0+1"], "base time"),
    (["--tc", "60+1", "--time-margin", "-1"], "--time-margin"),
    (["--tc", "60+1", "--time-margin", "nan"], "--time-margin"),
])
def test_match_clock_errors(argv, word):
    assert word in one_line_error("match", "quoridor", "--size", "5", "--engine", "random", "--engine", "random",
                                  "--games", "2", *argv)


# --- threads ---------------------------------------------------------------------------

def test_one_thread_is_deterministic():
    state = crossridor.load_game("quoridor").new_state(MIDDLEGAME)
    a = crossridor.search(state, limits=Limits(depth=5), threads=1)
    b = crossridor.search(state, limits=Limits(depth=5))
    assert (a.move, a.score, a.nodes, a.pv) == (b.move, b.score, b.nodes, b.pv)
    assert "threads" not in a.extra


@pytest.mark.parametrize("players", [2, 4])
def test_two_threads_return_a_legal_move(players):
    state = crossridor.load_game("quoridor", players=players, size=7).new_state("d2")
    result = crossridor.search(state, limits=Limits(depth=4), threads=2)
    assert result.move in state.legal_moves() and result.depth == 4
    assert result.extra["threads"] == 2
    one = crossridor.search(state, limits=Limits(depth=4))
    assert abs(result.score - one.score) < 1000 or result.move in state.legal_moves()


def test_two_threads_respect_a_stop_token():
    state = crossridor.load_game("quoridor").new_state(MIDDLEGAME)
    token = Stop()
    started = threading.Event()

    def report(info):
        if info.depth >= 2:
            started.set()

    results = []
    worker = threading.Thread(target=lambda: results.append(crossridor.search(
        state, limits=Limits(time=1e6), threads=2, stop=token, on_iteration=report)))
    worker.start()
    assert started.wait(HANG)
    token.set()
    worker.join(HANG)
    assert not worker.is_alive()
    [result] = results
    assert result.extra["stopped"] is True and result.move in state.legal_moves()


def test_threads_are_refused_where_there_are_none():
    state = crossridor.load_game("quoridor", size=5).new_state()
    with pytest.raises(CrossridorError, match=r"quoridor mcts: unknown option\(s\) threads"):
        crossridor.search(state, "mcts", Limits(sims=10), threads=2)
    with pytest.raises(CrossridorError, match=r"option threads must be an integer in \[1, 256\]"):
        crossridor.search(state, limits=Limits(depth=1), threads=0)


def test_clock_words_for_outside_engines():
    from crossridor.engine.match.outside_engine import clock_words
    two = [Clock(5.0, 0.1), Clock(4.0, 0.2, 7)]
    assert clock_words(two, 0) == ["wtime", "5000", "btime", "4000", "winc", "100", "binc", "200"]
    assert clock_words(two, 1) == ["wtime", "5000", "btime", "4000", "winc", "100", "binc", "200",
                                   "movestogo", "7"]
    four = [Clock(1.0), Clock(2.0), Clock(3.0), Clock(4.0)]
    # player 3 (seat 2) moves as white; black is the next seat's clock
    assert clock_words(four, 2)[:4] == ["wtime", "3000", "btime", "4000"]
    assert clock_words(four, 3)[:4] == ["wtime", "1000", "btime", "4000"]
