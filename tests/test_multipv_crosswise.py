"""MultiPV and searchmoves in Crosswise's compiled searches (ismcts, the
determinized PIMC search, and greedy) through crossridor.search."""

from __future__ import annotations

import pytest

import crossridor
from crossridor import Limits
from crosswise_positions import hidden_hand_twins, load

PIMC_VARIANTS = [dict(), dict(root_k=12, halving=0, infer=0), dict(halving=1, infer=0),
                 dict(halving=0, infer=2)]
LIMITS = {"ismcts": Limits(sims=300), "greedy": Limits(sims=1)}


def midgame(seed=3, plies=8, players=2):
    st = crossridor.load_game("crosswise", players=players).new_state(seed=seed)
    for _ in range(plies):
        st.play(crossridor.search(st, "greedy", Limits(sims=1)).move)
    return st


def check_lines(st, r, n):
    moves = [line.move for line in r.lines]
    scores = [line.score for line in r.lines]
    assert len(moves) == n == len(set(moves))
    assert all(m in st.legal_moves() for m in moves)
    assert scores == sorted(scores, reverse=True) and all(-1.0 <= s <= 1.0 for s in scores)
    assert r.lines[0].move == r.move and r.lines[0].score == r.score
    assert all(line.pv == (line.move,) and line.depth == 1 for line in r.lines)


@pytest.mark.parametrize("algorithm", ["ismcts", "greedy"])
def test_multipv_gives_distinct_legal_moves_best_first(algorithm):
    st = midgame()
    r = crossridor.search(st, algorithm, LIMITS[algorithm], seed=5, multipv=3)
    check_lines(st, r, 3)
    d = r.as_dict()
    assert [line["move"] for line in d["lines"]] == [str(line.move) for line in r.lines]


@pytest.mark.parametrize("opts", PIMC_VARIANTS)
def test_ismcts_multipv_one_is_the_default_search(opts):
    st = midgame(seed=4)
    a = crossridor.search(st, "ismcts", Limits(sims=200), seed=6, **opts)
    b = crossridor.search(st, "ismcts", Limits(sims=200), seed=6, multipv=1, **opts)
    assert (a.move, a.nodes, a.score, a.extra) == (b.move, b.nodes, b.score, b.extra)
    assert a.lines == b.lines and len(a.lines) == 1
    assert a.lines[0].extra["deals"] == a.extra["top"][0][1]


def test_greedy_multipv_one_is_the_default_search_and_greedys_move():
    for seed in range(1, 4):
        st = crossridor.load_game("crosswise", players=2 + seed % 3).new_state(seed=seed)
        while not st.is_terminal():
            a = crossridor.search(st, "greedy", Limits(sims=1))
            b = crossridor.search(st, "greedy", Limits(sims=1), multipv=1)
            assert a.move == b.move and a.nodes == b.nodes == len(st.legal_moves())
            assert a.move.code == st._c.greedy()
            st.play(a.move)


def test_greedy_lines_follow_greedys_order():
    # Columns (seat 1) hold five 5s in file e: Rows blocks e6 first, whatever the points
    st = load({f"e{r}": 5 for r in range(1, 6)}, turn="1", hands=("1234", "1234"))
    r = crossridor.search(st, "greedy", Limits(sims=1), multipv=256)
    check_lines(st, r, len(st.legal_moves()))
    keys = [(line.extra["threats"], -line.extra["gain"]) for line in r.lines]
    assert keys == sorted(keys)
    assert str(r.move).endswith("@e6") and r.lines[0].extra["threats"] < r.lines[-1].extra["threats"]
    # an own six: the win, scored 1
    st = load({f"c{r}": 6 for r in range(1, 6)}, turn="2", hands=("1234", "1236"))
    r = crossridor.search(st, "greedy", Limits(sims=1), multipv=2)
    assert str(r.move) == "6@c6" and r.score == 1.0 and r.lines[1].score < 1.0


def test_ismcts_lines_rank_the_moves_halving_kept_first():
    st = midgame(seed=7)
    r = crossridor.search(st, "ismcts", Limits(sims=400), seed=3, multipv=3, halving=1)
    check_lines(st, r, 3)
    deals = [line.extra["deals"] for line in r.lines]
    others = [n for _, n, _ in r.extra["top"][3:]]
    # the three lines were kept to the last phase: more deals than any move dropped earlier
    assert others and min(deals) > max(others) and sum(deals) <= r.nodes
    # root_k keeps at least multipv candidates
    r = crossridor.search(st, "ismcts", Limits(sims=400), seed=3, multipv=6, root_k=2)
    check_lines(st, r, 6)


@pytest.mark.parametrize("algorithm", ["ismcts", "greedy"])
def test_searchmoves_restricts_the_root(algorithm):
    st = midgame()
    best = crossridor.search(st, algorithm, LIMITS[algorithm], seed=5).move
    other = next(m for m in reversed(st.legal_moves()) if m != best)
    r = crossridor.search(st, algorithm, LIMITS[algorithm], seed=5, searchmoves=[other])
    assert r.move == other and [line.move for line in r.lines] == [other]
    chosen = [m for m in st.legal_moves() if m != best][:4]
    r = crossridor.search(st, algorithm, LIMITS[algorithm], seed=5, multipv=10,
                          searchmoves=[str(m) for m in chosen])
    assert sorted(line.move.code for line in r.lines) == sorted(m.code for m in chosen)


def test_searchmoves_wins_and_blocks_are_chosen_among_them():
    # Rows must block e6: among searched moves without a block, one of them is
    # played; with a block among them, the block
    st = load({f"e{r}": 5 for r in range(1, 6)}, turn="1", hands=("1234", "1234"))
    allowed = [m for m in st.legal_moves() if not str(m).endswith("@e6")][:5]
    block = next(m for m in st.legal_moves() if str(m).endswith("@e6"))
    for algorithm, opts in (("ismcts", dict(seed=4, root_k=1)), ("greedy", {})):
        r = crossridor.search(st, algorithm, LIMITS[algorithm], searchmoves=allowed, **opts)
        assert r.move in allowed
        r = crossridor.search(st, algorithm, LIMITS[algorithm], searchmoves=allowed + [block], **opts)
        assert r.move == block


@pytest.mark.parametrize("opts", PIMC_VARIANTS)
def test_lines_do_not_look_at_hidden_tiles(opts):
    a = load({"a1": 1, "c3": 4, "d3": 4}, hands=("1234", "56MR"))
    b = load({"a1": 1, "c3": 4, "d3": 4}, hands=("1234", "556S"))
    assert a.information_state(0) == b.information_state(0) and a.position() != b.position()
    for algorithm in ("ismcts", "greedy"):
        ra = crossridor.search(a, algorithm, LIMITS[algorithm], seed=9, multipv=4, **opts)
        rb = crossridor.search(b, algorithm, LIMITS[algorithm], seed=9, multipv=4, **opts)
        assert ra.lines == rb.lines and len(ra.lines) == 4
        opts = {}       # greedy has no PIMC options


def test_lines_do_not_look_at_hidden_tiles_after_moves():
    # four players, the bag empty: the three hidden hands split the same tiles
    # differently in a and b, and the moves since (read by infer) are the same
    a, b = hidden_hand_twins()
    ra = crossridor.search(a, "ismcts", Limits(sims=150), seed=2, multipv=3)
    rb = crossridor.search(b, "ismcts", Limits(sims=150), seed=2, multipv=3)
    assert ra.lines == rb.lines and len(ra.lines) == 3


def test_four_players():
    # seat 2 (Rows, partner of 0) can complete rank 4 with a 3
    st = load({f"{f}4": 3 for f in "abcef"}, players=4, turn="3",
              hands=("1245", "1245", "1356", "1245"))
    for algorithm in ("ismcts", "greedy"):
        r = crossridor.search(st, algorithm, LIMITS[algorithm], seed=2, multipv=3)
        check_lines(st, r, 3)
        assert str(r.move) == "3@d4"
    st = midgame(players=4)
    check_lines(st, crossridor.search(st, "ismcts", Limits(sims=300), seed=1, multipv=5), 5)


def test_bad_searchmoves_is_one_clear_error():
    st = midgame()
    for bad, said in ((["z9"], "searchmoves"), (["6@c6", "nonsense"], "searchmoves"), ([], "at least one"),
                      ("1@a1", "list of moves")):
        for algorithm in ("ismcts", "greedy"):
            with pytest.raises(crossridor.CrossridorError, match=said) as e:
                crossridor.search(st, algorithm, LIMITS[algorithm], seed=1, searchmoves=bad)
            assert "\n" not in str(e.value)
    occupied = next(m for m in st.history() if str(m)[0] in "123456")
    with pytest.raises(crossridor.CrossridorError, match="not a legal move"):
        crossridor.search(st, "greedy", Limits(sims=1), searchmoves=[occupied])
    with pytest.raises(crossridor.CrossridorError, match="multipv"):
        crossridor.search(st, "ismcts", Limits(sims=10), seed=1, multipv=0)
