"""`crossridor bench`: every line's signature (nodes, playout moves, ...) is
a determinism signature (as Stockfish's bench node count). A change that
only makes a search faster leaves it alone; a change that alters a search
changes it.

If you change a search ON PURPOSE (move ordering, pruning, evaluation,
playout policy, the bench positions), print the new values with
    python3 -c "from crossridor.engine import bench as b; \
print([r.signature for r in b.bench_alphabeta(depth=3)], \
sum(r.signature for r in b.bench_alphabeta()), \
[r.signature for r in b.bench_mcts(300)], \
[r.signature for r in b.bench_crosswise_pimc(60)], \
[r.signature for r in b.bench_qwatrobat_solver()])"
and update the constants below, saying why in the commit.
"""

from __future__ import annotations

import pytest

from crossridor.engine import bench
from crossridor.engine.bench import POSITIONS, bench_alphabeta, bench_mcts

# Quoridor alpha-beta, per position at depth 3: opening, opening-walls,
# middlegame, 7x7, 4-players; and the total at the bench's own depths.
# The 9x9 and 7x7 two-player positions search with the default learned
# evaluation (their boards' shipped weights; 4 players the classic one, with
# their own weights).
SIGNATURE_DEPTH3 = [573, 489, 399, 306, 735]
SIGNATURE_FULL = 656402
# Quoridor MCTS, 300 sims, seed 1: playout plies (random rollouts), visits
# of the chosen move (eval leaves)
SIGNATURE_MCTS_300 = [104358, 43]
# Crosswise, per deal (2p-deal, 4p-deal, 2p-midgame)
SIGNATURE_PIMC_60 = [2880, 2857, 1911]            # leaf moves, 60 evaluations (the defaults)
# Qwatrobat exact solver nodes (result, margin)
SIGNATURE_SOLVER = [4526, 14516]


def signatures(rows):
    return [r.signature for r in rows]


def test_bench_depth3_deterministic():
    first, second = bench_alphabeta(depth=3), bench_alphabeta(depth=3)
    assert signatures(first) == signatures(second)
    assert [r.move for r in first] == [r.move for r in second]          # same best moves
    assert [r.position for r in first] == [p.name for p in POSITIONS]
    assert all(r.count == r.signature for r in first)                   # alpha-beta: nodes


def test_bench_depth3_signature():
    assert signatures(bench_alphabeta(depth=3)) == SIGNATURE_DEPTH3


def test_bench_full_signature():
    assert sum(signatures(bench_alphabeta())) == SIGNATURE_FULL


def test_bench_mcts_signature():
    rows = bench_mcts(sims=300)
    assert [r.count for r in rows] == [300, 300]
    assert signatures(rows) == SIGNATURE_MCTS_300
    assert signatures(bench_mcts(sims=301)) != SIGNATURE_MCTS_300        # the budget is used


def test_bench_crosswise_signatures():
    pimc = bench.bench_crosswise_pimc(60)
    assert [r.count for r in pimc] == [60] * 3
    assert signatures(pimc) == SIGNATURE_PIMC_60


def test_bench_qwatrobat_solver_signature():
    rows = bench.bench_qwatrobat_solver()
    assert signatures(rows) == SIGNATURE_SOLVER
    assert [r.move for r in rows] == ["c1", "c2"]


def test_bench_sections_per_game():
    assert bench.BENCH_GAMES == ("quoridor", "crosswise", "qwatrobat")
    only = bench.run_sections("qwatrobat")
    assert list(only) == [("qwatrobat", "solver")]
    assert bench.bench_game_name("Crosswise") == "crosswise"


@pytest.mark.parametrize("name,message", [("kuq", "no compiled core"), ("chess", "unknown game")])
def test_bench_game_name_rejects(name, message):
    with pytest.raises(ValueError, match=message):
        bench.bench_game_name(name)
