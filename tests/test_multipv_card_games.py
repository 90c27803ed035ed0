"""MultiPV (`multipv=N`) and `searchmoves` in the card games' own searches:
Qwatrobat's exact solver (each line's value exact), its greedy player and
its ISMCTS (the setup table's ranking; the tree's lines), Kreuz & Quer's
ISMCTS; hidden cards of the other seats change no line; Kreuz & Quer's
heuristic greedy ranks nothing and takes no root option."""

from __future__ import annotations

import pytest

import crossridor
from crossridor import CrossridorError, Limits
from crossridor.games.qwatrobat.rules import Push, Setup
from crossridor.games.qwatrobat.setups import SETUP_VALUES
from crossridor.games.qwatrobat.solver import solve, solve_value
from helpers import one_line_error, play

# round 3, player 2 to push its last card of the round (see test_qwatrobat.HAND)
HAND = "1234/1234;1234/1234;1100;1011;2@2,3@1,4@1;3;3;1;{}"


def qwatrobat(**kw):
    return crossridor.load_game("qwatrobat", **kw)


def kuq(**kw):
    return crossridor.load_game("kreuzundquer", **kw)


def check_lines(result, legal, n):
    moves = [line.move for line in result.lines]
    assert len(set(moves)) == len(moves) == n and all(m in legal for m in moves)
    assert result.lines[0].move == result.move and result.lines[0].score == result.score
    return moves


def exact_child_values(state, objective):
    """{push: its exact value for the player to move}: each child solved on its own."""
    sign = 1 if state.current_player == 0 else -1
    out = {}
    for m in state.legal_moves():
        child = state.clone()
        child.play(m)
        out[m] = sign * solve_value(child, objective)
    return out


# --- Qwatrobat: the exact solver ---------------------------------------------------------

SOLVER_POSITIONS = [
    dict(params=dict(open=True, first=1), position=HAND.format("2,3")),
    dict(params=dict(open=True, first=1), position=HAND.format("5,0")),
    dict(params=dict(open=True, first=1), position=HAND.format("3,2")),
    dict(params=dict(open=True, first=1), moves="1234/4321 1123/2443 c2 c1"),
    dict(params=dict(open=True, first=2), moves="1223/1443 1134/2234 c3"),
]


def solver_state(case):
    g = qwatrobat(**case["params"])
    return g.state_from_position(case["position"]) if "position" in case else g.new_state(case["moves"])


@pytest.mark.parametrize("case", SOLVER_POSITIONS)
@pytest.mark.parametrize("objective", ["result", "margin"])
def test_solver_lines_are_the_exact_values_of_every_push(case, objective):
    s = solver_state(case)
    exact = exact_child_values(s, objective)
    r = crossridor.search(s, "alphabeta", Limits(depth=1), objective=objective, multipv=4)
    check_lines(r, s.legal_moves(), len(exact))
    scores = [line.score for line in r.lines]
    assert scores == sorted(scores, reverse=True)
    assert all(line.score == exact[line.move] for line in r.lines)
    plain = solve(s, objective)
    assert (r.move, r.score) == (plain.move, plain.score) and r.extra["solved"]
    for line in r.lines:              # each pv replays to the end (or to a decided game) with its value
        t = s.clone()
        for m in line.pv:
            t.play(m)
        assert line.pv[0] == line.move and line.depth == len(line.pv)
        if objective == "margin":
            assert t.is_terminal()
            assert (t.scores[s.current_player] - t.scores[1 - s.current_player]) == line.score
    if objective == "result":
        assert all(line.extra["value"] == {1: "win", 0: "draw", -1: "loss"}[line.score] for line in r.lines)


def test_solver_multipv_1_is_the_plain_solve_and_searchmoves_restrict_it():
    s = solver_state(SOLVER_POSITIONS[3])
    plain = crossridor.search(s, "alphabeta", Limits(depth=1))
    one = crossridor.search(s, "alphabeta", Limits(depth=1), multipv=1)
    assert (one.move, one.score, one.nodes, one.pv) == (plain.move, plain.score, plain.nodes, plain.pv)
    exact = exact_child_values(s, "result")
    for m in s.legal_moves():
        r = crossridor.search(s, "alphabeta", Limits(depth=1), searchmoves=[m])
        assert r.move == m and r.score == exact[m] and [line.move for line in r.lines] == [m]
    two = crossridor.search(s, "alphabeta", Limits(depth=1), searchmoves=["c4", "c3"], multipv=3)
    assert sorted(map(str, check_lines(two, s.legal_moves(), 2))) == ["c3", "c4"]


def test_solver_lines_cost_a_few_root_solves():
    # every push valued with a full window: at most a few times the plain solve, one table shared
    g = qwatrobat(open=True, first=1)
    s = g.new_state("1234/4321 4321/1234")
    plain = crossridor.search(s, "alphabeta", Limits(depth=1))
    lines = crossridor.search(s, "alphabeta", Limits(depth=1), multipv=4)
    assert len(lines.lines) == 4 and lines.move == plain.move
    assert plain.nodes < lines.nodes <= 4 * plain.nodes


# --- Qwatrobat: greedy and ISMCTS ----------------------------------------------------------

def test_greedy_lines_rank_the_pushes_by_its_estimate():
    s = qwatrobat(first=1).new_state("1234/4321 4321/1234 c1")
    plain = crossridor.search(s, "greedy", Limits(depth=1), seed=2, samples=12)
    r = crossridor.search(s, "greedy", Limits(depth=1), seed=2, samples=12, multipv=3)
    assert (r.move, r.score, r.nodes) == (plain.move, plain.score, plain.nodes)
    check_lines(r, s.legal_moves(), 3)
    scores = [line.score for line in r.lines]
    assert scores == sorted(scores, reverse=True)
    # each line's value is the estimate of its push searched alone (the same samples drawn first)
    for line in r.lines:
        alone = crossridor.search(s, "greedy", Limits(depth=1), seed=2, samples=12, searchmoves=[line.move])
        assert alone.move == line.move and len(alone.lines) == 1
    # setup: a layout drawn at random, one line (a draw ranks nothing)
    setup = crossridor.search(qwatrobat().new_state(), "greedy", Limits(depth=1), seed=1, multipv=3)
    assert isinstance(setup.move, Setup) and len(setup.lines) == 1


def test_greedy_last_push_lines():
    s = qwatrobat(first=1).state_from_position(HAND.format("2,3"))
    r = crossridor.search(s, "greedy", Limits(depth=1), seed=1, multipv=4)
    assert {str(m) for m in check_lines(r, s.legal_moves(), 3)[:2]} == {"c3", "c4"}   # the 4 points now


def test_ismcts_setup_lines_come_from_the_table():
    g = qwatrobat()
    ranked = sorted(SETUP_VALUES, key=lambda k: (-SETUP_VALUES[k], k))
    r = crossridor.search(g.new_state(), "ismcts", Limits(sims=20), seed=1, multipv=3)
    assert [str(line.move) for line in r.lines] == ranked[:3] and str(r.move) == ranked[0]
    assert [line.score for line in r.lines] == [SETUP_VALUES[k] for k in ranked[:3]]
    asked = ["3344/1122", "1122/3344"]
    r = crossridor.search(g.new_state(), "ismcts", Limits(sims=20), seed=1, searchmoves=asked, multipv=5)
    assert [str(line.move) for line in r.lines] == ["1122/3344", "3344/1122"]     # best by the table
    # by the tree (setup=search): the searchmoves alone
    r = crossridor.search(g.new_state(), "ismcts", Limits(sims=20), seed=1, setup="search", searchmoves=asked,
                          multipv=2)
    assert str(r.move) in asked and sum(line.extra["visits"] for line in r.lines) == 20
    # multipv=1 without searchmoves: the table's seeded draw, as always
    assert crossridor.search(g.new_state(), "ismcts", Limits(sims=20), seed=1).move == \
        crossridor.search(g.new_state(), "ismcts", Limits(sims=20), seed=1, multipv=1).move


def test_ismcts_lines_in_play():
    s = qwatrobat(first=1).new_state("1234/4321 4321/1234 c1")
    plain = crossridor.search(s, "ismcts", Limits(sims=120), seed=4)
    r = crossridor.search(s, "ismcts", Limits(sims=120), seed=4, multipv=4)
    assert (r.move, r.score, r.nodes) == (plain.move, plain.score, plain.nodes)
    check_lines(r, s.legal_moves(), 4)
    seen = [line.extra["visits"] for line in r.lines]
    assert seen == sorted(seen, reverse=True) and sum(seen) == 120
    only = crossridor.search(s, "ismcts", Limits(sims=30), seed=4, searchmoves=["c2"])
    assert str(only.move) == "c2" and only.lines[0].extra["visits"] == 30


# --- hidden information: the lines are the mover's own ------------------------------------

def test_qwatrobat_ismcts_lines_ignore_the_other_layout():
    g = qwatrobat(first=1)
    a = g.new_state("1234/4321 4321/1234 c1 c2")
    b = g.new_state("1234/4321 2341/1234 c1 c2")     # player 2's column 2 shows the same 3
    assert a.current_player == b.current_player == 0
    assert a.information_state(0) == b.information_state(0) and a.position() != b.position()
    for opts in (dict(), dict(endgame=0), dict(searchmoves=["c2", "c3"])):
        ra = crossridor.search(a, "ismcts", Limits(sims=80), seed=6, multipv=3, **opts)
        rb = crossridor.search(b, "ismcts", Limits(sims=80), seed=6, multipv=3, **opts)
        assert ra.lines == rb.lines and len(ra.lines) >= 2
    for opts in (dict(), dict(searchmoves=["c2", "c3"])):
        ga = crossridor.search(a, "greedy", Limits(depth=1), seed=6, samples=6, multipv=3, **opts)
        gb = crossridor.search(b, "greedy", Limits(depth=1), seed=6, samples=6, multipv=3, **opts)
        assert ga.lines == gb.lines and len(ga.lines) >= 2


def test_kreuzundquer_ismcts_lines_ignore_the_other_hand():
    g = kuq()
    a, b = g.new_state(seed=4), g.new_state(seed=4)
    h = a.hands[0]
    a.play(f"x{h[5]},{h[1]}")
    b.play(f"x{h[0]},{h[2]}")
    assert a.current_player == b.current_player == 1
    assert a.information_state(1) == b.information_state(1) and a.position() != b.position()
    ra = crossridor.search(a, "ismcts", Limits(sims=60), seed=2, multipv=4)
    rb = crossridor.search(b, "ismcts", Limits(sims=60), seed=2, multipv=4)
    assert ra.lines == rb.lines
    check_lines(ra, a.legal_moves(), 4)
    seen = [line.extra["visits"] for line in ra.lines]
    assert seen == sorted(seen, reverse=True)


def test_kreuzundquer_ismcts_searchmoves_and_multipv_1():
    s = kuq().new_state(seed=3)
    plain = crossridor.search(s, "ismcts", Limits(sims=40), seed=1)
    one = crossridor.search(s, "ismcts", Limits(sims=40), seed=1, multipv=1)
    assert (one.move, one.score, one.nodes, one.pv) == (plain.move, plain.score, plain.nodes, plain.pv)
    asked = s.legal_moves()[3:5]
    r = crossridor.search(s, "ismcts", Limits(sims=40), seed=1, searchmoves=asked, multipv=3)
    assert sorted(map(str, check_lines(r, asked, 2))) == sorted(map(str, asked))


def test_kreuzundquer_greedy_takes_no_root_options():
    s = kuq().new_state(seed=3)
    for option in (dict(multipv=2), dict(searchmoves=[s.legal_moves()[0]])):
        with pytest.raises(CrossridorError, match="unknown option"):
            crossridor.search(s, "greedy", Limits(depth=1), **option)
    assert "unknown option" in one_line_error("best", "kreuzundquer", "--seed", "3", "--algorithm", "greedy",
                                                 "--multipv", "2")


def test_bad_searchmoves_on_the_card_games():
    s = qwatrobat(open=True, first=1).new_state("1234/4321 4321/1234")
    for bad, message in ((["c9"], "searchmoves"), (["1234/4321"], "searchmoves: qwatrobat: .*push"),
                         ([Push(7)], "not a legal move here"), ([], "at least one")):
        for algorithm in ("alphabeta", "greedy", "ismcts"):
            with pytest.raises(CrossridorError, match=message):
                crossridor.search(s, algorithm, Limits(sims=5), searchmoves=bad)
    play(s, "c1")
    assert crossridor.search(s, "alphabeta", Limits(depth=1), searchmoves=["c3"]).move == Push(2)
