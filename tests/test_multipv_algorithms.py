"""MultiPV (`multipv=N`) and `searchmoves` in the pure-Python searches
(alphabeta, mcts, ismcts, greedy) on tiny games whose values are known:
alpha-beta's lines hold the exact values of the N best root moves (against
plain minimax), the tree searches rank their root by visits, and with
multipv=1 every search is the plain one."""

from __future__ import annotations

import pytest

import crossridor
from crossridor.engine.errors import CrossridorError
from crossridor.engine.protocol import Limits
from helpers import one_line_error, reference_value
from toy_games import ChanceToy, Nim, NimMove, Peek, Race, RandomTree, Sticks, TicTacToe

WIN = 1_000_000.0


def root_values(state, depth):
    """{root move: its minimax value searched to `depth` plies in all}."""
    traits = state.game.traits
    root = state.current_player
    sign = [1 if q == root else -1 for q in range(traits.num_players)]
    st = state.clone()
    out = {}
    for m in list(st.legal_moves()):
        st.play(m)
        out[m] = reference_value(st, depth - 1, root, sign, not traits.chance, 1)
        st.undo()
    return out


def check_lines(result, legal):
    """What every search's lines must be: distinct legal moves, the first
    the result's move."""
    moves = [line.move for line in result.lines]
    assert len(set(moves)) == len(moves) and all(m in legal for m in moves)
    assert result.lines[0].move == result.move
    return moves


# --- alphabeta --------------------------------------------------------------------------

POSITIONS = [
    (TicTacToe, "4", 4), (TicTacToe, "", 9), (Nim, "", 6), (RandomTree, "", 5), (RandomTree, "1 2", 4),
    (Race, "", 3), (ChanceToy, "", 2), (Sticks, "", 5),
]


@pytest.mark.parametrize("game,moves,depth", POSITIONS)
@pytest.mark.parametrize("hash_mb", [0, 16])
@pytest.mark.parametrize("multipv", [2, 3])
def test_alphabeta_lines_are_the_exact_values_of_the_best_moves(game, moves, depth, hash_mb, multipv):
    state = game().new_state(moves)
    exact = root_values(state, depth)
    r = crossridor.search(state, "alphabeta", Limits(depth=depth), multipv=multipv, hash=hash_mb)
    moves_found = check_lines(r, exact)
    assert len(r.lines) == min(multipv, len(exact))
    scores = [line.score for line in r.lines]
    assert scores == sorted(scores, reverse=True)
    for line in r.lines:
        assert line.score == pytest.approx(exact[line.move], abs=1e-9)
        assert line.depth == depth and line.pv[0] == line.move
    # the N best values, whichever of equal moves were listed
    assert scores == pytest.approx(sorted(exact.values(), reverse=True)[:len(scores)], abs=1e-9)
    assert r.score == scores[0] and r.pv == r.lines[0].pv and r.depth == depth
    assert moves_found[0] == r.move


@pytest.mark.parametrize("game,moves,depth", POSITIONS)
def test_alphabeta_multipv_1_is_the_plain_search(game, moves, depth):
    state = game().new_state(moves)
    plain = crossridor.search(state, "alphabeta", Limits(depth=depth))
    one = crossridor.search(state, "alphabeta", Limits(depth=depth), multipv=1)
    assert (one.move, one.score, one.nodes, one.pv, one.depth) == (plain.move, plain.score, plain.nodes,
                                                                  plain.pv, plain.depth)
    assert len(one.lines) == 1 and one.lines[0].move == one.move


def test_alphabeta_plain_node_counts():
    # the plain search's work: MultiPV's bookkeeping must not change it
    ttt = TicTacToe().new_state()
    assert crossridor.search(ttt, "alphabeta", Limits(depth=9)).nodes == 5208
    tree = RandomTree(seed=3, branching=4, length=6).new_state()
    assert crossridor.search(tree, "alphabeta", Limits(depth=6)).nodes == 1100
    race = Race().new_state()
    assert crossridor.search(race, "alphabeta", Limits(depth=4)).nodes == 295


def test_alphabeta_more_lines_than_moves_gives_every_move():
    state = TicTacToe().new_state("4 0 8 2 6")      # four empty squares
    r = crossridor.search(state, "alphabeta", Limits(depth=4), multipv=9)
    assert sorted(check_lines(r, state.legal_moves())) == sorted(state.legal_moves())
    exact = root_values(state, 4)
    assert [line.score for line in r.lines] == sorted(exact.values(), reverse=True)


def test_alphabeta_searchmoves_restricts_the_root():
    state = TicTacToe().new_state("4")
    exact = root_values(state, 4)
    for m in state.legal_moves():
        r = crossridor.search(state, "alphabeta", Limits(depth=4), searchmoves=[m])
        assert r.move == m and r.score == pytest.approx(exact[m]) and [line.move for line in r.lines] == [m]
    # texts too; two moves asked, three lines wanted: the two, best first
    r = crossridor.search(state, "alphabeta", Limits(depth=4), searchmoves=["1", "0"], multipv=3)
    assert sorted(check_lines(r, [0, 1])) == [0, 1]
    assert [line.score for line in r.lines] == sorted((exact[0], exact[1]), reverse=True)


def test_alphabeta_lines_find_the_winning_moves_of_nim():
    # the winning moves (those leaving heaps that xor to 0) first, each with a win's score
    state = Nim((1, 2, 4)).new_state()
    exact = root_values(state, 7)
    wins = [m for m, v in exact.items() if v > 0]
    r = crossridor.search(state, "alphabeta", Limits(depth=7), multipv=len(exact))
    assert {line.move for line in r.lines[:len(wins)]} == set(wins)
    assert all(line.score < 0 for line in r.lines[len(wins):])
    assert r.lines[0].pv[0] == r.move and isinstance(r.move, NimMove)


def test_alphabeta_lines_at_every_depth_and_within_a_node_limit():
    state = TicTacToe().new_state("4")
    seen = []
    r = crossridor.search(state, "alphabeta", Limits(depth=5), multipv=3, on_iteration=seen.append)
    assert [info.depth for info in seen] == [1, 2, 3, 4, 5]
    for info in seen:
        exact = root_values(state, info.depth)
        assert [line.score for line in info.lines] == pytest.approx(sorted(exact.values(), reverse=True)[:3])
    assert seen[-1].lines == r.lines
    # a node limit: the lines of the last depth whose three searches all finished
    cut = crossridor.search(state, "alphabeta", Limits(depth=5, nodes=r.nodes - 1), multipv=3)
    assert cut.depth == 4 and cut.lines == seen[3].lines and cut.nodes <= r.nodes - 1


# --- mcts and ismcts --------------------------------------------------------------------

def visits(result):
    return [line.extra["visits"] for line in result.lines]


@pytest.mark.parametrize("algorithm,game,moves", [
    ("mcts", TicTacToe, "4"), ("mcts", Race, ""), ("mcts", Sticks, ""),
    ("ismcts", TicTacToe, "4"), ("ismcts", Peek, "c1"), ("ismcts", Sticks, ""),
])
def test_tree_search_lines_are_the_most_visited_root_moves(algorithm, game, moves):
    state = game().new_state(moves)
    legal = state.legal_moves()
    plain = crossridor.search(state, algorithm, Limits(sims=400), seed=3)
    r = crossridor.search(state, algorithm, Limits(sims=400), seed=3, multipv=4)
    # the same search: the lines are read off the same tree
    assert (r.move, r.score, r.nodes, r.pv) == (plain.move, plain.score, plain.nodes, plain.pv)
    check_lines(r, legal)
    assert len(r.lines) == min(4, len(legal))
    assert visits(r) == sorted(visits(r), reverse=True) and sum(visits(r)) <= 400
    assert r.lines[0].score == r.score and r.lines[0].pv == r.pv
    for line in r.lines:
        assert line.pv[0] == line.move and -1.0 <= line.score <= 1.0
    assert plain.lines[0] == r.lines[0]          # multipv=1: the first line alone


@pytest.mark.parametrize("algorithm", ["mcts", "ismcts"])
def test_tree_search_searchmoves(algorithm):
    state = TicTacToe().new_state("4")
    r = crossridor.search(state, algorithm, Limits(sims=200), seed=1, searchmoves=["1", "3"], multipv=5)
    assert sorted(check_lines(r, [1, 3])) == [1, 3]
    assert sum(visits(r)) == 200          # every simulation went through one of the two
    only = crossridor.search(state, algorithm, Limits(sims=50), seed=1, searchmoves=[7])
    assert only.move == 7 and visits(only) == [50]


def test_mcts_multipv_takes_every_visited_move():
    state = TicTacToe().new_state("4 0 8")
    r = crossridor.search(state, "mcts", Limits(sims=300), seed=2, multipv=256)
    assert sorted(check_lines(r, state.legal_moves())) == sorted(state.legal_moves())


def test_ismcts_lines_come_from_the_movers_view_only():
    # player 0 cannot see the card (c0 or c2): the same information state,
    # so the same lines from the same seed
    a, b = Peek().new_state("c0"), Peek().new_state("c2")
    assert a.information_state(0) == b.information_state(0) and a.card != b.card
    ra = crossridor.search(a, "ismcts", Limits(sims=600), seed=5, multipv=5)
    rb = crossridor.search(b, "ismcts", Limits(sims=600), seed=5, multipv=5)
    assert ra.lines == rb.lines and len(ra.lines) == 5
    assert ra.move == "peek"              # peeking is worth 0.5; a blind guess 1/3 - 2/3


# --- greedy -----------------------------------------------------------------------------

def test_greedy_lines_are_its_one_ply_values():
    state = TicTacToe().new_state("0 4")
    r = crossridor.search(state, "greedy", Limits(depth=1), multipv=4)
    check_lines(r, state.legal_moves())
    values = {}
    for m in state.legal_moves():
        state.play(m)
        values[m] = state.evaluate()[0]
        state.undo()
    assert [line.score for line in r.lines] == sorted(values.values(), reverse=True)[:4]
    assert all(line.score == values[line.move] and line.pv == (line.move,) for line in r.lines)
    plain = crossridor.search(state, "greedy", Limits(depth=1))
    assert (plain.move, plain.score, plain.nodes) == (r.move, r.score, r.nodes)
    only = crossridor.search(state, "greedy", Limits(depth=1), searchmoves=["5"], multipv=3)
    assert only.move == 5 and [line.move for line in only.lines] == [5] and only.score == values[5]


def test_greedy_random_ties_puts_the_chosen_move_first():
    state = Nim((2, 2)).new_state()       # no evaluation: every move is worth 0
    for seed in range(4):
        r = crossridor.search(state, "greedy", Limits(depth=1), seed=seed, random_ties=True, multipv=4)
        assert r.lines[0].move == r.move and len(r.lines) == 4
        assert [line.score for line in r.lines] == [0.0] * 4


# --- bad input --------------------------------------------------------------------------

@pytest.mark.parametrize("algorithm", ["alphabeta", "mcts", "ismcts", "greedy"])
@pytest.mark.parametrize("bad,message", [
    (["9"], "searchmoves: .*illegal"), ([4], "not a legal move here"), (["x"], "searchmoves: .*not a move"),
    ([], "at least one"), ("1", "must be a list"), (7, "must be a list"),
])
def test_bad_searchmoves_are_one_clear_error(algorithm, bad, message):
    state = TicTacToe().new_state("4")
    with pytest.raises(CrossridorError, match=message):
        crossridor.search(state, algorithm, Limits(depth=2, sims=10), searchmoves=bad)


@pytest.mark.parametrize("bad", [0, 257, -1, 2.5, "3", True])
def test_bad_multipv_is_refused(bad):
    with pytest.raises(CrossridorError, match="multipv"):
        crossridor.search(TicTacToe().new_state(), "alphabeta", Limits(depth=1), multipv=bad)


def test_random_takes_no_root_options():
    state = TicTacToe().new_state()
    for option in (dict(multipv=3), dict(searchmoves=[0])):
        with pytest.raises(CrossridorError, match="unknown option"):
            crossridor.search(state, "random", Limits(depth=1), seed=1, **option)
    err = one_line_error("best", "quoridor", "--algorithm", "random", "--multipv", "3")
    assert "unknown option" in err and "multipv" in err
