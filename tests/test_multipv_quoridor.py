"""MultiPV and searchmoves in Quoridor's compiled searches (alpha-beta,
greedy, MCTS) and in the solved table's answers, through `crossridor.search`:
the N best root moves with their scores and lines, best first; the root
restricted to the moves asked; and with multipv=1 the very search of no
option (node counts)."""

from __future__ import annotations

import pytest

import crossridor
from crossridor import Limits
from crossridor.engine._core import WIN_SCORE
from crossridor.engine.bench import POSITIONS
from crossridor.engine.cli.main import main
from crossridor.engine.errors import CrossridorError
from crossridor.engine.protocol import Line
from crossridor.games.quoridor.solve import Solver, solve

MIDDLEGAME = next(p.moves for p in POSITIONS if p.name == "middlegame")
FOUR_PLAYERS = next(p.moves for p in POSITIONS if p.name == "4-players")


def state(moves="", **params):
    return crossridor.load_game("quoridor", **params).new_state(moves)


def check_lines(s, result, n):
    """`n` lines of distinct legal moves, best first, the first the result's."""
    lines = result.lines
    assert len(lines) == n
    moves = [line.move for line in lines]
    assert len(set(moves)) == n and all(m in s.legal_moves() for m in moves)
    assert all(a.score >= b.score for a, b in zip(lines, lines[1:]))
    assert (lines[0].move, lines[0].score, lines[0].pv) == (result.move, result.score, result.pv)
    assert all(line.pv and line.pv[0] == line.move for line in lines)


# ------------------------------------------------------------ alpha-beta and greedy

@pytest.mark.parametrize("moves", ["", MIDDLEGAME])
def test_three_lines_of_alphabeta(moves):
    s = state(moves)
    r = crossridor.search(s, "alphabeta", Limits(depth=5), multipv=3)
    check_lines(s, r, 3)
    assert all(line.depth == 5 for line in r.lines) and r.depth == 5


@pytest.mark.parametrize("name", ["opening", "opening-walls", "middlegame", "7x7", "4-players"])
def test_multipv_1_is_the_search_without_it(name):
    p = next(p for p in POSITIONS if p.name == name)
    s = state(p.moves, **p.params)
    depth = min(p.depth, 6)
    plain = crossridor.search(s, "alphabeta", Limits(depth=depth))
    one = crossridor.search(s, "alphabeta", Limits(depth=depth), multipv=1)
    assert (one.nodes, one.move, one.score, one.pv) == (plain.nodes, plain.move, plain.score, plain.pv)
    assert one.lines == plain.lines == (Line(plain.move, plain.score, depth, plain.pv),)
    # a depth cut short by the node limit too
    plain = crossridor.search(s, "alphabeta", Limits(nodes=7777))
    one = crossridor.search(s, "alphabeta", Limits(nodes=7777), multipv=1)
    assert (one.move, one.score, one.depth, one.pv) == (plain.move, plain.score, plain.depth, plain.pv)


@pytest.mark.parametrize("name", ["opening-walls", "middlegame", "7x7"])
def test_the_first_pv_index_is_the_one_line_search(name):
    """The lines after the first give the move-ordering heuristics back: without a
    table and with the classic evaluation (no cache), the one-line search's line is
    one of the N lines, exactly (sorting may put another above it)."""
    p = next(p for p in POSITIONS if p.name == name)
    s = state(p.moves, **p.params)
    options = {"hash": 0, "eval": "classic"}
    plain = crossridor.search(s, "alphabeta", Limits(depth=5), **options)
    lines = crossridor.search(s, "alphabeta", Limits(depth=5), multipv=4, **options).lines
    assert Line(plain.move, plain.score, 5, plain.pv) in lines


@pytest.mark.parametrize("algorithm", ["alphabeta", "greedy"])
@pytest.mark.parametrize("moves", ["", MIDDLEGAME])
def test_a_line_at_depth_1_scores_its_move_searched_alone(algorithm, moves):
    """At depth 1 a line's score is its move's exact value, as searched alone."""
    s = state(moves)
    r = crossridor.search(s, algorithm, Limits(depth=1), multipv=6, hash=0) if algorithm == "alphabeta" \
        else crossridor.search(s, algorithm, Limits(depth=1), multipv=6)
    check_lines(s, r, 6)
    for line in r.lines:
        options = {"hash": 0} if algorithm == "alphabeta" else {}
        alone = crossridor.search(s, algorithm, Limits(depth=1), searchmoves=[line.move], **options)
        assert (alone.move, alone.score) == (line.move, line.score)


def test_searchmoves_restricts_the_root():
    s = state(MIDDLEGAME)
    for algorithm, limits in (("alphabeta", Limits(depth=4)), ("greedy", Limits(depth=1)),
                              ("mcts", Limits(sims=400))):
        only = s.legal_moves()[-1]
        r = crossridor.search(s, algorithm, limits, seed=1, searchmoves=[str(only)])
        assert r.move == only and [line.move for line in r.lines] == [only]
    some = [str(m) for m in s.legal_moves()[::30]]
    r = crossridor.search(s, "alphabeta", Limits(depth=4), multipv=10, searchmoves=some)
    check_lines(s, r, len(some))
    assert sorted(str(line.move) for line in r.lines) == sorted(some)


def test_more_lines_than_moves_gives_every_move():
    s = state(size=5, walls=0)      # the pawn's steps only
    legal = s.legal_moves()
    for algorithm in ("alphabeta", "greedy"):
        r = crossridor.search(s, algorithm, Limits(depth=3), multipv=256)
        check_lines(s, r, len(legal))


def test_lines_of_a_depth_cut_short():
    """A node limit stops the search inside a depth: the lines are the last
    complete depth's, updated with those finished, still N distinct and best first."""
    s = state(MIDDLEGAME)
    for nodes in (3000, 20000, 50000):
        r = crossridor.search(s, "alphabeta", Limits(nodes=nodes), multipv=4)
        check_lines(s, r, 4)
        assert r.nodes == nodes and all(r.depth <= line.depth <= r.depth + 1 for line in r.lines)


def test_every_iteration_reports_its_lines():
    s = state()
    reports = []
    r = crossridor.search(s, "alphabeta", Limits(depth=4), multipv=3, on_iteration=reports.append)
    assert [len(info.lines) for info in reports] == [3, 3, 3, 3]
    assert [info.depth for info in reports] == [1, 2, 3, 4]
    for info in reports:
        check_lines(s, info, 3)
    assert reports[-1].lines == r.lines


def test_four_players():
    s = state(FOUR_PLAYERS, players=4)
    r = crossridor.search(s, "alphabeta", Limits(depth=3), multipv=3)
    check_lines(s, r, 3)
    m = crossridor.search(s, "mcts", Limits(sims=600), seed=2, multipv=3)
    assert len(m.lines) == 3 and m.lines[0].move == m.move


def test_lazy_smp_with_lines():
    """Helpers search one line (the searchmoves' root); the main thread the N."""
    s = state(MIDDLEGAME)
    r = crossridor.search(s, "alphabeta", Limits(depth=5), multipv=3, threads=2)
    check_lines(s, r, 3)
    some = [str(m) for m in s.legal_moves()[:5]]
    r = crossridor.search(s, "alphabeta", Limits(depth=5), multipv=2, threads=2, searchmoves=some)
    check_lines(s, r, 2)
    assert {str(line.move) for line in r.lines} <= set(some)


# ------------------------------------------------------------ MCTS

@pytest.mark.parametrize("rollout", ["eval", "random"])
def test_mcts_lines_are_the_most_visited_children(rollout):
    s = state()
    plain = crossridor.search(s, "mcts", Limits(sims=1500), seed=3, rollout=rollout)
    one = crossridor.search(s, "mcts", Limits(sims=1500), seed=3, rollout=rollout, multipv=1)
    assert (one.move, one.score, one.pv, one.nodes, one.extra) == (plain.move, plain.score, plain.pv,
                                                                   plain.nodes, plain.extra)
    r = crossridor.search(s, "mcts", Limits(sims=1500), seed=3, rollout=rollout, multipv=4)
    assert (r.move, r.score, r.pv, r.nodes) == (plain.move, plain.score, plain.pv, plain.nodes)
    visits = [line.extra["visits"] for line in r.lines]
    assert len(r.lines) == 4 and visits == sorted(visits, reverse=True)
    assert visits[0] == plain.extra["root_visits"] and sum(visits) <= 1500
    assert len({line.move for line in r.lines}) == 4 and all(line.move in s.legal_moves() for line in r.lines)
    assert all(-1 <= line.score <= 1 and line.pv[0] == line.move and line.depth == len(line.pv)
               for line in r.lines)


def test_mcts_searchmoves_are_the_only_root_children():
    s = state(MIDDLEGAME)
    some = [str(m) for m in s.legal_moves()[10:13]]
    r = crossridor.search(s, "mcts", Limits(sims=900), seed=4, multipv=5, searchmoves=some)
    assert sorted(str(line.move) for line in r.lines) == sorted(some)
    assert sum(line.extra["visits"] for line in r.lines) == 900


# ------------------------------------------------------------ the solved table

@pytest.fixture(scope="module")
def table(tmp_path_factory):
    folder = tmp_path_factory.mktemp("table") / "t"
    assert main(["solve", "quoridor", "--size", "5", "--walls", "1", "--write-table",
                            str(folder)]) == 0
    return str(folder)


def test_table_lines_by_perfect_values(table):
    s = state("c2", size=5, walls=1)
    one = crossridor.search(s, "alphabeta", Limits(depth=1), table=table)
    r = crossridor.search(s, "alphabeta", Limits(depth=1), table=table, multipv=256)
    check_lines(s, r, len(s.legal_moves()))
    assert r.extra["source"] == "table" and (one.move, one.score) == (r.move, r.score)
    solver = Solver.read(table)
    mover = s.core.to_move + 1
    for line in r.lines:
        s.play(line.move)
        after = solve(s, solver=solver)        # the value after the move, as `solve` reads it
        s.undo()
        outcome = 0 if after.winner is None else 1 if after.winner == mover else -1
        plies = after.plies + 1 if outcome else 0
        assert (line.score, line.depth) == (outcome * (WIN_SCORE - plies), plies)
        if outcome:
            assert len(line.pv) == plies        # the perfect line, to the end
    # wins faster first, losses slower first
    ranks = [(1, -line.depth) if line.score > 0 else (0, 0) if line.score == 0 else (-1, line.depth)
             for line in r.lines]
    assert ranks == sorted(ranks, reverse=True) and ranks[0][0] == 1 and ranks[-1][0] == -1
    loser = r.lines[-1].move
    only = crossridor.search(s, "alphabeta", Limits(depth=1), table=table, searchmoves=[loser], multipv=3)
    assert (only.move, only.score, only.extra["source"], len(only.lines)) == (loser, r.lines[-1].score,
                                                                              "table", 1)


def test_a_position_not_in_the_table_is_searched(table):
    s = state(size=5, walls=2)
    r = crossridor.search(s, "alphabeta", Limits(depth=2), table=table, multipv=2)
    assert "source" not in r.extra and len(r.lines) == 2


# ------------------------------------------------------------ bad input

@pytest.mark.parametrize("given, said", [(["z9"], "searchmoves"), (["e2", "e5"], "searchmoves: illegal move 'e5'"),
                                         ([], "at least one move"), ("e2", "a list of moves")])
def test_bad_searchmoves(given, said):
    for algorithm in ("alphabeta", "greedy", "mcts"):
        with pytest.raises(CrossridorError) as e:
            crossridor.search(state(), algorithm, Limits(depth=2, sims=10) if algorithm == "mcts"
                              else Limits(depth=2), searchmoves=given)
        assert said in str(e.value) and "\n" not in str(e.value)


def test_bad_multipv():
    with pytest.raises(CrossridorError, match="multipv"):
        crossridor.search(state(), "alphabeta", Limits(depth=2), multipv=0)
