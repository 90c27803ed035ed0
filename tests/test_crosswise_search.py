"""Crosswise search: ismcts (a determinized search) and greedy through crossridor.search."""

from __future__ import annotations

import time

import pytest

import crossridor
from crossridor import Limits
from crosswise_positions import hidden_hand_twins, load
from helpers import TIME_SLACK


@pytest.mark.parametrize("algorithm", ["ismcts", "greedy"])
def test_takes_the_instant_win(algorithm):
    st = load({f"c{r}": 6 for r in range(1, 6)}, turn="2", hands=("1234", "1236"))
    r = crossridor.search(st, algorithm, Limits(sims=300), seed=1)
    assert str(r.move) == "6@c6"


def test_ismcts_team_play_four_players():
    # seat 2 (Rows, partner of 0) can complete rank 4 with a 3
    st = load({f"{f}4": 3 for f in "abcef"}, players=4, turn="3",
              hands=("1245", "1245", "1356", "1245"))
    r = crossridor.search(st, "ismcts", Limits(sims=100), seed=2)
    assert str(r.move) == "3@d4"


def test_greedy_blocks_a_six_and_else_maximises_the_difference():
    # Columns (seat 1) hold five 5s in file e; Rows to move cannot win
    st = load({f"e{r}": 5 for r in range(1, 6)}, turn="1", hands=("1234", "1234"))
    r = crossridor.search(st, "greedy", Limits(sims=1))
    assert str(r.move).endswith("@e6")
    # no threat: the move with the best Rows - Columns difference
    st = load({"a1": 2, "b1": 2, "a2": 4}, turn="1", hands=("2346", "1234"))
    r = crossridor.search(st, "greedy", Limits(sims=1))
    best = []
    for m in st.legal_moves():
        st.play(m)
        best.append(st.scores()[0] - st.scores()[1])
        st.undo()
    st.play(r.move)
    rows, cols = st.scores()
    assert rows - cols == max(best) == 3       # a third 2 in rank 1 off column a
    assert str(r.move) == "2@c1"               # the first of the ties in generation order


def test_search_rejects_bad_options():
    st = crossridor.load_game("crosswise").new_state(seed=3)
    with pytest.raises(crossridor.CrossridorError):
        crossridor.search(st, "ismcts", Limits(sims=10), seed=1, bogus=1)
    with pytest.raises(crossridor.CrossridorError):
        crossridor.search(st, "ismcts", Limits(depth=3), seed=1)


def test_match_scoring_is_the_match_runners():
    """Crosswise's `match X` / `sumof X` are the match runner's first_to /
    sum_of (engine/match.py); a finished game's points per seat come from
    game_loop.seat_points (team Rows: seats 0 and 2, Columns: 1 and 3)."""
    from crossridor.engine.match.game_loop import GameRecord, seat_points
    from crossridor.engine.match.runner import MatchConfig, MatchResult
    from crossridor.engine.match.scoring import FirstToStop, Tally
    from crossridor.engine.match.specs import EngineSpec
    game = crossridor.load_game("crosswise", players=4)
    st = game.new_state(seed=3)
    while not st.is_terminal():
        st.play(crossridor.search(st, "greedy", Limits(depth=1)).move)
    rows, cols = st.scores()
    assert rows != cols
    assert seat_points(game, st) == [rows, cols, rows, cols]

    def record(i, winner, pa, pb):
        return GameRecord(index=i, seed=0, deal_seed=None, seats=[0, 1], engines=["a", "b"],
                          result="", returns=[], winner=None if winner is None else winner + 1, winner_engine=winner,
                          reason="terminal", moves=[], opening_plies=0, plies=0, seconds=0.0,
                          points=[pa, pb])
    # (winning engine or None, engine 1's points, engine 2's)
    games = [(0, 20, 18), (None, 22, 22), (1, 10, 30), (0, 25, 24), (0, 19, 17), (1, 0, 9)]
    rule, tally, played = FirstToStop(3), Tally(), 0
    for i, g in enumerate(games):
        tally.add(record(i, *g))
        played += 1
        if rule.check(tally):
            break
    assert (tally.wins, tally.losses, tally.draws, played, rule.winner(tally)) == (3, 1, 1, 5, 1)
    # sum of 4: engine 2 scores more points with fewer wins, and wins the match
    tally = Tally()
    records = [record(i, *g) for i, g in enumerate(games[:4])]
    for r in records:
        tally.add(r)
    cfg = MatchConfig("crosswise", {}, [EngineSpec.parse("greedy"), EngineSpec.parse("random")],
                      sum_of=4)
    summary = MatchResult(cfg, 1, records, tally, None, None).summary()
    assert (summary["points"], summary["match_winner"], tally.wins, tally.losses) == ([77, 94], 2, 2, 1)


# -- ismcts: determinized search with greedy rollouts ---------------------------

PIMC_VARIANTS = [dict(), dict(root_k=12, halving=0, infer=0), dict(halving=1, infer=0),
                 dict(halving=0, infer=2)]


@pytest.mark.parametrize("opts", PIMC_VARIANTS)
def test_pimc_is_seeded_and_counts_evaluations(opts):
    st = crossridor.load_game("crosswise").new_state(seed=3)
    a = crossridor.search(st, "ismcts", Limits(sims=60), seed=5, **opts)
    b = crossridor.search(st, "ismcts", Limits(sims=60), seed=5, **opts)
    assert a.move in st.legal_moves() and a.move == b.move and a.nodes == 60 == b.nodes
    assert a.extra["top"] == b.extra["top"] and a.extra["evals"] == 60
    assert -1.0 <= a.score <= 1.0


@pytest.mark.parametrize("opts", PIMC_VARIANTS)
def test_pimc_does_not_look_at_hidden_tiles(opts):
    a = load({"a1": 1, "c3": 4, "d3": 4}, hands=("1234", "56MR"))
    b = load({"a1": 1, "c3": 4, "d3": 4}, hands=("1234", "556S"))
    assert a.information_state(0) == b.information_state(0)
    assert a.position() != b.position()
    ra = crossridor.search(a, "ismcts", Limits(sims=120), seed=9, **opts)
    rb = crossridor.search(b, "ismcts", Limits(sims=120), seed=9, **opts)
    assert ra.move == rb.move and ra.extra["top"] == rb.extra["top"]
    assert ra.extra["leaf_moves"] == rb.extra["leaf_moves"]


def test_pimc_time_limit():
    st = crossridor.load_game("crosswise").new_state(seed=3)
    t = time.perf_counter()
    r = crossridor.search(st, "ismcts", Limits(time=0.2), seed=1)
    elapsed = time.perf_counter() - t
    # with a time limit only, it searches until the limit (however fast the machine) and stops there
    assert 0.15 < elapsed < 0.2 + TIME_SLACK and r.nodes > 0


def test_a_pimc_search_out_of_time_at_once_still_scores_every_root_move():
    # a process starved past its whole budget still plays a searched move: the clock only counts
    # from the second round of deals
    st = crossridor.load_game("crosswise").new_state(seed=3)
    r = crossridor.search(st, "ismcts", Limits(time=1e-6), seed=1, root_k=0)    # every move a candidate
    assert r.extra["evals"] == len(st.legal_moves()) == r.nodes
    assert all(n == 1 for _, n, _ in r.extra["top"])
    # a limit on evaluations still holds exactly
    assert crossridor.search(st, "ismcts", Limits(sims=1), seed=1).extra["evals"] == 1


@pytest.mark.parametrize("opts", PIMC_VARIANTS)
def test_pimc_takes_the_win_and_blocks_a_six(opts):
    st = load({f"c{r}": 6 for r in range(1, 6)}, turn="2", hands=("1234", "1236"))
    assert str(crossridor.search(st, "ismcts", Limits(sims=100), seed=1, **opts).move) == "6@c6"
    st = load({f"e{r}": 5 for r in range(1, 6)}, turn="1", hands=("1234", "1234"))
    assert str(crossridor.search(st, "ismcts", Limits(sims=200), seed=4, **opts).move).endswith("@e6")


def test_pimc_rejects_bad_options():
    st = crossridor.load_game("crosswise").new_state(seed=3)
    # names that are not PIMC's options (mode, roll, depth, width, eps, scale,
    # tree, c, margin, pbias, hexp, act) are refused, not ignored, as are bad values
    for bad in (dict(mode="pimc"), dict(mode="mcts"), dict(c=0.5), dict(roll=2), dict(depth=3),
                dict(width=10), dict(eps=20), dict(scale=5.0), dict(tree=0), dict(margin=0.0),
                dict(pbias=0.0), dict(hexp=0), dict(act=0), dict(root_k=-1), dict(infer=65)):
        with pytest.raises(crossridor.CrossridorError):
            crossridor.search(st, "ismcts", Limits(sims=10), seed=1, **bad)


def test_inferred_deals_guess_a_greedy_opponents_hand_better():
    # after greedy moves by both, deals that explain the opponent's last
    # moves as greedy share more tiles with its real hand than plain redeals
    g = crossridor.load_game("crosswise")
    shared = {0: 0, 2: 0}
    for seed in range(1, 5):
        st = g.new_state(seed=seed)
        for _ in range(10 + seed):
            st.play(crossridor.search(st, "greedy", Limits(sims=1)).move)
        c = st._c
        viewer, real = c.to_move, c.hand(1 - c.to_move)
        for infer in shared:
            for s in range(60):
                hand = c.determinize(viewer, s, infer).hand(1 - viewer)
                shared[infer] += sum(min(a, b) for a, b in zip(hand, real))
    assert shared[2] > 1.1 * shared[0]
    st = g.new_state(seed=1)            # no history: infer changes nothing
    assert st._c.determinize(0, 5, 2).hand(1) == st._c.determinize(0, 5, 0).hand(1)


def test_inference_does_not_look_at_hidden_tiles():
    # four players, the bag empty: the three hidden hands split the same tiles
    # differently in a and b, and every move since is the same in both
    a, b = hidden_hand_twins()
    ra = crossridor.search(a, "ismcts", Limits(sims=150), seed=2, infer=2)
    rb = crossridor.search(b, "ismcts", Limits(sims=150), seed=2, infer=2)
    assert ra.move == rb.move and ra.extra == rb.extra
    plain = crossridor.search(a, "ismcts", Limits(sims=150), seed=2, infer=0)
    assert plain.extra["top"] != ra.extra["top"]        # the moves seen did change the deals


def test_pimc_halving_keeps_the_best_two_alive():
    st = crossridor.load_game("crosswise").new_state(seed=7)
    r = crossridor.search(st, "ismcts", Limits(sims=200), seed=3, halving=1)
    top = r.extra["top"]
    assert r.nodes == 200 and str(r.move) == top[0][0]
    assert abs(top[0][1] - top[1][1]) <= 1 and all(n <= max(top[0][1], top[1][1]) for _, n, _ in top)


def test_default_options_are_the_documented_ones():
    """The docs and the docstring: root_k 30, halving, infer 2."""
    st = crossridor.load_game("crosswise").new_state(seed=3)
    default = crossridor.search(st, "ismcts", Limits(sims=40), seed=1)
    spelled = crossridor.search(st, "ismcts", Limits(sims=40), seed=1, root_k=30, halving=1, infer=2)
    assert (default.move, default.score, default.extra) == (spelled.move, spelled.score, spelled.extra)
    fewer = crossridor.search(st, "ismcts", Limits(sims=40), seed=1, root_k=12)
    assert fewer.extra["top"] != default.extra["top"]     # root_k matters
