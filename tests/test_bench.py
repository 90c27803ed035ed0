"""`crossridor bench`: the alpha-beta node count is a determinism signature
(as Stockfish's bench). A change that only makes the search faster leaves it
alone; a change that alters the search changes it.

If you change the search ON PURPOSE (move ordering, pruning, evaluation, the
bench positions), run
    python3 -c "from crossridor.engine.bench import bench_alphabeta as b; \
print([r[1] for r in b(depth=3)], sum(r[1] for r in b()))"
and update SIGNATURE_DEPTH3 / SIGNATURE_FULL below, saying why in the commit.
"""

from __future__ import annotations

from crossridor.engine.bench import POSITIONS, bench_alphabeta, bench_mcts

# per position at depth 3: opening, opening-walls, middlegame, 7x7, 4-players
SIGNATURE_DEPTH3 = [583, 463, 406, 299, 735]
SIGNATURE_FULL = 570388     # total nodes at the bench's own depths


def nodes(rows):
    return [n for _, n, _, _ in rows]


def test_bench_depth3_deterministic():
    first, second = bench_alphabeta(depth=3), bench_alphabeta(depth=3)
    assert nodes(first) == nodes(second)
    assert [r[3] for r in first] == [r[3] for r in second]          # same best moves
    assert [r[0] for r in first] == [p.name for p in POSITIONS]


def test_bench_depth3_signature():
    assert nodes(bench_alphabeta(depth=3)) == SIGNATURE_DEPTH3


def test_bench_full_signature():
    assert sum(nodes(bench_alphabeta())) == SIGNATURE_FULL


def test_bench_mcts_deterministic():
    first, second = bench_mcts(sims=300), bench_mcts(sims=300)
    assert nodes(first) == nodes(second) == [300, 300]
    assert [r[3] for r in first] == [r[3] for r in second]
