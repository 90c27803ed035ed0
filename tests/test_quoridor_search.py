"""The compiled Quoridor searches (alpha-beta, greedy, MCTS in C) reached through
`crossridor.search`: wins found at the right depth, agreement with an exact solver
and across options, limits kept, determinism, option checking, and the core's
random playouts. Positions are 'SIZExPLAYERS:pawns:walls-left:walls:to-move'."""

from __future__ import annotations

import math
import subprocess
import sys
import time

import pytest

import crossridor
from crossridor import Limits
from crossridor.engine._core import q_random_playout
from crossridor.engine.algorithms import mcts as py_mcts
from crossridor.engine.options import check_params
from crossridor.games.quoridor.game import _code_table
from helpers import HANG, TIME_SLACK

WIN = 99000          # alpha-beta scores beyond this are forced wins (S_WIN_BOUND)
S_WIN = 100000       # a win at ply p scores S_WIN - p
# where the imported package lives (src/ in a checkout, site-packages once installed)


def quoridor(**params):
    return crossridor.load_game("quoridor", **params)


def pos(text, **params):
    size, players = (int(x) for x in text.split(":")[0].split("x"))
    return quoridor(size=size, players=players, **params).state_from_position(text)


def ab(state, depth=None, **options):
    return crossridor.search(state, "alphabeta", Limits(depth=depth), **options)


def solve(state, depth, memo):
    """Exact full-width value within `depth` plies, for the side to move:
    +1 it forces a win, -1 the opponent forces one, 0 neither (2 players)."""
    key = (state.core.hash, depth)
    if key not in memo:
        best = 0
        if depth > 0:
            best = -1
            for move in state.legal_moves():
                state.play(move)
                v = 1 if state.is_terminal() else -solve(state, depth - 1, memo)
                state.undo()
                best = max(best, v)
                if best == 1:
                    break
        memo[key] = best
    return memo[key]


# ------------------------------------------------------------ wins in n

@pytest.mark.parametrize("position,winning,depth", [
    ("9x2:e8,a5:10,10:-:1", {"e9"}, 1),                # a step to the goal
    ("5x2:b4,b5:0,0:-:1", {"a5", "c5"}, 1),            # diagonal jump at the edge wins
    ("3x2:a2,c2:0,1:-:1", {"a3"}, 1),                  # else player 2 wins on c1
    ("9x4:e8,a4,d9,i4:5,5,5,5:-:1", {"e9"}, 1),        # 4 players
])
def test_alphabeta_win_in_one(position, winning, depth):
    state = pos(position)
    for d in (1, 3):
        r = ab(state, d)
        assert str(r.move) in winning
        assert r.score == S_WIN - 1
        assert r.depth == 1                            # a forced win stops the deepening
        assert [str(m) for m in r.pv] == [str(r.move)]


@pytest.mark.parametrize("position,first", [
    ("9x2:e7,a5:10,0:-:1", "e8"),     # two steps; player 2 has no walls to stop it
    ("5x2:c3,a4:10,0:-:1", "c4"),
])
def test_alphabeta_win_in_two_needs_depth_three(position, first):
    state = pos(position)
    assert ab(state, 2).score < WIN                    # not visible at depth 2
    r = ab(state, 3)
    assert r.score == S_WIN - 3
    assert str(r.move) == first
    assert len(r.pv) == 3 and state.clone().parse_move(str(r.pv[0]))
    r5 = ab(state, 5)
    assert (r5.score, r5.depth, str(r5.move)) == (S_WIN - 3, 3, first)


def test_alphabeta_no_win_when_walls_can_stop_it():
    # the same race as above, but player 2 has walls
    state = pos("9x2:e7,a5:10,10:-:1")
    for d in (3, 4):
        r = ab(state, d)
        assert abs(r.score) < WIN
        assert r.depth == d


@pytest.mark.parametrize("position", ["5x2:c3,a2:0,10:-:1", "9x2:e7,a2:0,10:-:1"])
def test_alphabeta_sees_forced_loss(position):
    # player 2 is one step from row 1; player 1 is further and has no walls
    r = ab(pos(position), 4)
    assert r.score == -(S_WIN - 2)
    assert r.depth == 2


def test_alphabeta_blocks_with_a_wall():
    # player 2 is one step from row 1; player 1 must wall it off
    state = pos("9x2:e5,a2:10,10:-:1")
    r = ab(state, 3)
    assert r.move.is_wall
    assert r.score > -WIN
    state.play(r.move)
    assert state.distances()[1] > 1


# ------------------------------------------------------------ solved tiny games

@pytest.mark.parametrize("params", [dict(size=3, walls=1), dict(size=5, walls=0)])
def test_alphabeta_agrees_with_exact_solver(params):
    """Both tiny games: the first player is lost in exactly 8 plies."""
    state = quoridor(**params).new_state()
    memo = {}
    assert solve(state, 7, memo) == 0
    assert solve(state, 8, memo) == -1
    for options in ({}, {"hash": 0}, {"prune_walls": False}, {"hash": 1}):
        r = ab(state, 12, **options)
        assert r.score == -(S_WIN - 8), options
        assert r.depth == 8, options


@pytest.mark.parametrize("position,depth", [
    ("3x2:b1,b3:2,2:-:1", 12),
    ("3x2:b1,b3:1,1:-:1", 10),
    ("5x2:c1,c5:0,0:-:1", 10),
    ("5x2:c3,a2:0,10:-:1", 4),
    ("9x2:e7,a5:10,0:-:1", 5),
])
def test_alphabeta_tt_does_not_change_resolved_scores(position, depth):
    state = pos(position)
    with_tt, without_tt = ab(state, depth), ab(state, depth, hash=0)
    assert abs(with_tt.score) > WIN
    assert with_tt.score == without_tt.score
    assert with_tt.depth == without_tt.depth


# ------------------------------------------------------------ limits

@pytest.mark.parametrize("d", [1, 2, 3, 4, 5])
def test_depth_limit_exact(d):
    state = quoridor().new_state("e2 e8")
    seen = []
    r = ab(state, d, on_iteration=seen.append)
    assert r.depth == d
    assert [i.depth for i in seen] == list(range(1, d + 1))
    assert seen[-1].nodes == r.nodes and str(seen[-1].move) == str(r.move)
    assert all(a.nodes < b.nodes for a, b in zip(seen, seen[1:]))


def test_on_iteration_not_called_when_a_win_ends_the_search_early():
    seen = []
    r = ab(pos("9x2:e7,a5:10,0:-:1"), 9, on_iteration=seen.append)
    assert [i.depth for i in seen] == [1, 2, 3] and r.depth == 3
    assert seen[-1].score == S_WIN - 3


@pytest.mark.parametrize("n", [1, 5000])
def test_node_limit_never_exceeded(n):
    r = crossridor.search(quoridor().new_state("e2 e8"), "alphabeta", Limits(nodes=n))
    assert 1 <= r.nodes <= n
    assert r.move is not None


@pytest.mark.parametrize("n", [2, 50, 1000, 20000])
def test_node_limit_never_exceeded_mid_iteration(n):
    r = crossridor.search(quoridor().new_state("e2 e8"), "alphabeta", Limits(nodes=n))
    assert r.nodes <= n


@pytest.mark.parametrize("rollout", ["eval", "random"])
@pytest.mark.parametrize("sims", [1, 7, 300])
def test_mcts_sims_exact(rollout, sims):
    r = crossridor.search(quoridor().new_state("e2 e8"), "mcts", Limits(sims=sims), seed=1,
                      rollout=rollout)
    assert r.nodes == sims
    assert r.extra["sims"] == sims


def test_mcts_nodes_limit_is_sims():
    r = crossridor.search(quoridor().new_state(), "mcts", Limits(nodes=123), seed=1)
    assert r.nodes == 123


@pytest.mark.parametrize("algorithm", ["alphabeta", "mcts"])
def test_time_limit_loosely(algorithm):
    limit = 0.15
    start = time.perf_counter()
    r = crossridor.search(quoridor().new_state("e2 e8"), algorithm, Limits(time=limit), seed=1)
    elapsed = time.perf_counter() - start
    assert elapsed < limit + TIME_SLACK      # stopped by its time, not by finishing a depth
    assert r.nodes > 0 and r.move in quoridor().new_state("e2 e8").legal_moves()


def test_a_search_out_of_time_at_once_still_plays_a_searched_move():
    # a process starved past its whole budget before the first node (a busy
    # machine): alpha-beta still finishes depth 1, MCTS one simulation
    st = quoridor().new_state("e2 e8")
    late = crossridor.search(st, "alphabeta", Limits(time=1e-6))
    one = crossridor.search(st, "alphabeta", Limits(depth=1))
    assert (late.depth, late.move, late.nodes) == (1, one.move, one.nodes)
    assert crossridor.search(st, "mcts", Limits(time=1e-6), seed=1).nodes >= 1


# ------------------------------------------------------------ determinism

@pytest.mark.parametrize("moves", ["", "e2 e8 e3 e7 e4h", "e2 e8 c3h f6v e3 e7"])
def test_alphabeta_node_counts_deterministic(moves):
    runs = [ab(quoridor().new_state(moves), 4) for _ in range(2)]
    assert runs[0].nodes == runs[1].nodes
    assert runs[0].as_dict()["pv"] == runs[1].as_dict()["pv"]
    assert runs[0].score == runs[1].score


@pytest.mark.parametrize("rollout", ["eval", "random"])
def test_mcts_same_seed_same_result(rollout):
    state = quoridor().new_state("e2 e8 e3")
    runs = [crossridor.search(state, "mcts", Limits(sims=400), seed=42, rollout=rollout)
            for _ in range(2)]
    a, b = (r.as_dict() for r in runs)
    for key in ("seconds", "nps"):
        a.pop(key), b.pop(key)
    assert a == b
    assert runs[0].score == runs[1].score


def test_mcts_seed_matters_for_random_rollouts():
    state = quoridor().new_state("e2 e8")
    plies = {crossridor.search(state, "mcts", Limits(sims=50), seed=s,
                           rollout="random").extra["playout_plies"] for s in range(4)}
    assert len(plies) > 1


# ------------------------------------------------------------ 4 players, greedy

def test_four_player_search():
    state = quoridor(players=4).new_state("e2 b5 e8 h5")
    legal = state.legal_moves()
    r = ab(state, 4)
    assert r.depth == 4 and r.move in legal and abs(r.score) < WIN
    m = crossridor.search(state, "mcts", Limits(sims=200), seed=1)
    assert m.move in legal and m.nodes == 200 and -1 <= m.score <= 1
    # player 2 to move, nobody has walls; player 1 (on e8) reaches e9 at ply 4
    threat = pos("9x4:e8,a4,d4,i4:0,0,0,0:-:2")
    assert abs(ab(threat, 3).score) < WIN
    scores = {}
    r = ab(threat, 4, on_iteration=lambda it: scores.setdefault(it.depth, it.score))
    assert scores[4] == -(S_WIN - 4)
    # a proven loss is not played: the move of the last depth that proved none is
    assert r.depth == 3 and r.score == scores[3] > -WIN


def test_four_players_play_the_last_depth_without_a_proven_loss():
    # The paranoid tree proves a loss at depth 6 (the three others together) and
    # would delay it with a wall; the depth-5 move, chosen by the evaluation, is played.
    # (Player 2 went on to win this game of a match.)
    state = pos("9x4:d1,f1,a3,f3:0,1,1,0:f1v,a2v,b2h,c2v,d2h,e2v,g2h,g3h,e4v,f4v,e5h,a6v,b6h,e6v,h6h,"
                "a8v,e8v,g8h:2")
    found = []
    r = ab(state, 7, on_iteration=found.append)
    assert [it.depth for it in found] == list(range(1, 7))      # every line lost: deeper would not change it
    assert all(it.score > -WIN for it in found[:5]) and all(it.score < -WIN for it in found[5:])
    assert str(found[5].move) != str(found[4].move)
    assert (r.move, r.score, r.depth, r.pv) == (found[4].move, found[4].score, 5, found[4].pv)


def test_greedy_is_one_ply_best():
    state = quoridor().new_state("e2 e8 e3 e7")
    g = crossridor.search(state, "greedy", Limits(depth=3))
    assert g.move in state.legal_moves()
    assert g.depth == 1
    # greedy evaluates with the classic evaluation unless told
    one_ply = ab(state, 1, prune_walls=False, hash=0, eval="classic")
    assert g.score == one_ply.score
    # with a win on the board, greedy takes it
    win = pos("9x2:e8,a5:10,10:-:1")
    assert str(crossridor.search(win, "greedy", Limits(depth=1)).move) == "e9"



def test_evaluate_is_the_documented_score():
    # e3 vs e8, player 2 to move: one step ahead (100), equal walls, no tempo (-40)
    assert quoridor().new_state("e2 e8 e3").evaluate() == pytest.approx(
        [math.tanh(60 / 400), -math.tanh(60 / 400)])
    # 4 players, all 7 steps away but player 4 (i5: 8), who is to move: each
    # against the nearest other, walls equal; less the mean (zero-sum)
    raw = [math.tanh(-40 / 400)] * 3 + [math.tanh((-100 + 40) / 400)]
    mean = sum(raw) / 4
    assert quoridor(players=4).new_state("e2 b5 e8").evaluate() == pytest.approx(
        [v - mean for v in raw])


def test_one_evaluation_for_alphabeta_and_python():
    """greedy (alpha-beta to depth 1, in C) scores the best move by q_eval;
    Python's evaluate() of each child gives the same best value."""
    state = quoridor().new_state("e2 e8 e3 e7 d3h")
    me = state.current_player            # player 2, after the wall
    g = crossridor.search(state, "greedy", Limits(depth=1), eval="classic")   # evaluate() is classic
    best = -1.0
    for move in state.legal_moves():
        state.play(move)
        best = max(best, state.evaluate()[me])
        state.undo()
    assert math.tanh(g.score / 400) == pytest.approx(best)


# ------------------------------------------------------------ errors

@pytest.mark.parametrize("algorithm,options", [
    ("alphabeta", {"foo": 1}),
    ("mcts", {"foo": 1}),
    ("greedy", {"depth": 2}),
    ("alphabeta", {"hash": -1}),
    ("alphabeta", {"hash": "x"}),
    ("alphabeta", {"hash": True}),
    ("alphabeta", {"hash": 10 ** 6}),
    ("mcts", {"rollout": "x"}),
    ("mcts", {"rollout": None}),
    ("mcts", {"c": -1}),
    ("mcts", {"widening": 0}),
    ("mcts", {"rollout_depth": -1}),
])
def test_bad_options_raise(algorithm, options):
    limits = Limits(sims=10) if algorithm == "mcts" else Limits(depth=1)
    with pytest.raises(crossridor.CrossridorError):
        crossridor.search(quoridor().new_state(), algorithm, limits, **options)


@pytest.mark.parametrize("algorithm,options", [
    ("mcts", {"c": "x"}),
    ("mcts", {"widening": "x"}),
    ("mcts", {"rollout_depth": 1.5}),
    ("alphabeta", {"on_iteration": 5}),
    ("alphabeta", {"prune_walls": "x"}),
    ("alphabeta", {"hash": "no"}),
    ("alphabeta", {"rollout": "x"}),
    ("greedy", {"hash": -1}),
])
def test_bad_option_values_raise_crossridor_error(algorithm, options):
    limits = Limits(sims=10) if algorithm == "mcts" else Limits(depth=1)
    with pytest.raises(crossridor.CrossridorError):
        crossridor.search(quoridor().new_state(), algorithm, limits, **options)


def run_isolated(call: str) -> int:
    """Run `crossridor.search(s, <call>)` on the 9x9 start in a child process (a search
    given these values could crash the interpreter or never return): 0 = CrossridorError,
    1 = returned."""
    code = ("import crossridor\n"
            "s = crossridor.load_game('quoridor').new_state()\n"
            "try:\n"
            f"    crossridor.search(s, {call})\n"
            "except crossridor.CrossridorError:\n"
            "    raise SystemExit(0)\n"
            "raise SystemExit(1)\n")
    try:
        proc = subprocess.run([sys.executable, "-c", code],
                              timeout=HANG, capture_output=True)
    except subprocess.TimeoutExpired:
        pytest.fail(f"crossridor.search(s, {call}) did not return in {HANG} s")
    assert proc.returncode != -11, f"crossridor.search(s, {call}) crashed (SIGSEGV)"
    return proc.returncode


@pytest.mark.parametrize("option", ["c=float('nan')", "widening=float('nan')",
                                    "widening=float('inf')"])
def test_mcts_non_finite_options_raise(option):
    assert run_isolated(f"'mcts', crossridor.Limits(sims=10), {option}") == 0


def test_bad_algorithm_limits_and_terminal_state_raise():
    state = quoridor().new_state()
    with pytest.raises(crossridor.CrossridorError):
        crossridor.search(state, "nosuch", Limits(depth=1))
    with pytest.raises(crossridor.CrossridorError):
        crossridor.search(state, "mcts", Limits(depth=3))        # mcts needs sims/nodes/time
    with pytest.raises(crossridor.CrossridorError):
        crossridor.search(state, "alphabeta", {"depth": 1})
    over = quoridor(size=3).new_state("b2 a3 b3")
    assert over.is_terminal()
    for algorithm in ("alphabeta", "mcts", "greedy"):
        with pytest.raises(crossridor.CrossridorError):
            crossridor.search(over, algorithm, Limits(depth=1, sims=5))
    drawn = quoridor(size=5, max_plies=2).new_state("c2 c4")
    with pytest.raises(crossridor.CrossridorError):
        crossridor.search(drawn, "alphabeta", Limits(depth=1))


def test_alphabeta_with_sims_only_raises():
    assert run_isolated("'alphabeta', crossridor.Limits(sims=10)") == 0


# ------------------------------------------------------------ core random playouts

@pytest.mark.parametrize("params", [dict(), dict(size=3), dict(size=5, walls=3),
                                    dict(players=4), dict(size=3, players=4, walls=1),
                                    dict(size=7, walls=0)])
def test_core_random_playout_is_legal_and_ends_in_a_win(params):
    game = quoridor(**params)
    from_code = _code_table(game.width, game.height)[1]
    walls_played = 0
    for seed in range(8):
        state = game.new_state()
        codes, winner = q_random_playout(state.core, seed)
        assert state.ply == 0                                  # the core works on a copy
        for code in codes:
            move = from_code[code]
            assert move in state.legal_moves()
            state.play(move)
            walls_played += move.is_wall
        assert state.is_terminal()
        assert winner == state.winner >= 0
    if game.walls:
        assert walls_played > 0


def test_core_random_playout_is_seeded():
    core = quoridor().new_state().core
    assert q_random_playout(core, 5) == q_random_playout(core, 5)
    assert len({len(q_random_playout(core, s)[0]) for s in range(6)}) > 1


# ------------------------------------------------------------ MCTS vs pure-Python MCTS

@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mcts_core_and_python_find_the_win(seed):
    # 3x3: player 1 on a2 wins with a3; anything else and player 2 (c2) wins on c1
    state = pos("3x2:a2,c2:0,1:-:1")
    assert len(state.legal_moves()) == 3
    py = py_mcts.search(state, Limits(sims=300), seed=seed, **check_params("mcts", {}, py_mcts.OPTIONS))
    assert str(py.move) == "a3"
    for rollout in ("eval", "random"):
        c = crossridor.search(state, "mcts", Limits(sims=300), seed=seed, rollout=rollout)
        assert str(c.move) == "a3"
        assert c.score > 0.9
