"""The pure-Python search algorithms on tiny games whose values are known."""

from __future__ import annotations

import functools
import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import crossridor
from crossridor.engine.algorithms import alphabeta, common, greedy, ismcts, mcts, random_player
from crossridor.engine.errors import CrossridorError, UnsupportedGameError
from crossridor.engine.protocol import CHANCE, TERMINAL, GameTraits, Limits
from helpers import reference_value
from toy_games import ALL_GAMES, ChanceToy, Nim, NimMove, Peek, Race, RandomTree, Sticks, TicTacToe

WIN = alphabeta.WIN
MODULES = {"alphabeta": alphabeta, "mcts": mcts, "ismcts": ismcts, "random": random_player,
           "greedy": greedy}


# --- helpers ---------------------------------------------------------------------------

def search_with(algorithm, state, limits, seed=None, **options):
    """The algorithm as `crossridor.search` runs it: its options checked and
    completed with their declared defaults."""
    return crossridor.search(state, algorithm, limits, seed=seed, **options)


def ref(state, depth):
    traits = state.game.traits
    root = state.current_player
    sign = [1 if q == root else -1 for q in range(traits.num_players)]
    return reference_value(state.clone(), depth, root, sign, not traits.chance)


def random_position(game, rng, max_plies):
    """A position where a player is to move, reached by random play."""
    while True:
        s = game.new_state()
        for _ in range(rng.randrange(max_plies + 1)):
            if s.current_player == CHANCE:
                outs = s.chance_outcomes()
                s.play(outs[rng.randrange(len(outs))][0])
            elif s.current_player >= 0:
                moves = list(s.legal_moves())
                s.play(moves[rng.randrange(len(moves))])
        if s.current_player >= 0:
            return s


def nim_xor(heaps):
    return functools.reduce(lambda a, b: a ^ b, heaps, 0)


# --- the toy games implement the protocol ------------------------------------------------

@pytest.mark.parametrize("game_class", ALL_GAMES)
def test_toy_game_random_playouts_keep_invariants(game_class):
    game = game_class()
    rng = random.Random(7)
    for _ in range(30):
        s = game.new_state()
        keys = [s.key()]
        while s.current_player != TERMINAL:
            if s.current_player == CHANCE:
                outs = s.chance_outcomes()
                assert abs(sum(p for _, p in outs) - 1) < 1e-9
                m = outs[rng.randrange(len(outs))][0]
            else:
                moves = list(s.legal_moves())
                m = moves[rng.randrange(len(moves))]
                assert s.parse_move(str(m)) == m
            c = s.clone()
            s.play(str(m))
            assert c.key() == keys[-1]          # a clone is independent
            keys.append(s.key())
        assert abs(sum(s.returns())) < 1e-9
        assert s.is_terminal()
        while keys[:-1]:
            s.undo()
            keys.pop()
            assert s.key() == keys[-1]
        with pytest.raises(IndexError):
            s.undo()


# --- alphabeta ---------------------------------------------------------------------------

@pytest.mark.parametrize("heaps", [(1,), (2, 2), (1, 2, 3), (1, 1, 1), (3, 1), (2, 3, 1, 1), (1, 2, 4)])
def test_alphabeta_solves_nim(heaps):
    s = Nim(heaps).new_state()
    r = search_with("alphabeta", s, Limits(depth=20))
    assert r.extra["solved"]
    assert (r.score > 0) == (nim_xor(heaps) != 0)
    assert abs(r.score) >= alphabeta.MATE_BAND
    if nim_xor(heaps):
        s.play(r.move)
        assert nim_xor(s.heaps) == 0        # the winning move leaves xor 0
    assert r.score == ref(s if not nim_xor(heaps) else Nim(heaps).new_state(), 20)


def test_alphabeta_win_in_n_scores_and_depth():
    # (1,1,1): win in 3 plies; needs depth 3 to see it
    s = Nim((1, 1, 1)).new_state()
    assert search_with("alphabeta", s, Limits(depth=3)).score == WIN - 3
    assert search_with("alphabeta", s, Limits(depth=2)).score == 0.0
    # (1,): win in 1; (2,2): lost, in 2 plies at the earliest, in 4 at the latest
    assert search_with("alphabeta", Nim((1,)).new_state(), Limits(depth=5)).score == WIN - 1
    assert search_with("alphabeta", Nim((2, 2)).new_state(), Limits(depth=9)).score == -(WIN - 4)
    # prefers the faster win: (3,) take 3 now rather than anything else
    r = search_with("alphabeta", Nim((3, 1)).new_state(), Limits(depth=9))
    assert r.score == WIN - 3 and r.move == NimMove(0, 2)


def test_alphabeta_tictactoe_draw_win_and_block():
    s = TicTacToe().new_state()
    r = search_with("alphabeta", s, Limits(depth=9))
    assert r.score == 0.0 and r.extra["solved"]
    assert len(r.pv) == 9
    # X: 0 1 . / O: 3 4 -> X to move wins at 2
    s = TicTacToe().new_state("0 3 1 4")
    r = search_with("alphabeta", s, Limits(depth=4))
    assert r.move == 2 and r.score == WIN - 1 and r.pv[0] == 2
    # X on 0 and 1, O on 4: O to move must block at 2
    s = TicTacToe().new_state("0 4 1")
    r = search_with("alphabeta", s, Limits(depth=6))
    assert r.move == 2 and abs(r.score) < alphabeta.MATE_BAND


def test_alphabeta_chance_expectimax_value():
    s = ChanceToy().new_state()
    for table in ({}, {"hash": 0}):
        r = search_with("alphabeta", s, Limits(depth=4), **table)
        assert r.move == "B"
        assert r.score == pytest.approx(40.0)


def test_alphabeta_race_matches_reference_expectiminimax():
    rng = random.Random(3)
    for _ in range(6):
        s = random_position(Race(5), rng, 8)
        for d in (1, 2, 3):
            assert search_with("alphabeta", s, Limits(depth=d)).score == pytest.approx(ref(s, d))


def test_alphabeta_paranoid_three_players():
    # s=4 with 3 players: taking 1 costs nothing (0), taking 2 hands the win to
    # the next player and costs the mover -1
    s = Sticks(4, 3).new_state()
    r = search_with("alphabeta", s, Limits(depth=10))
    assert r.move == 1 and r.score == 0.0
    rng = random.Random(5)
    for _ in range(20):
        s = Sticks(rng.randrange(1, 9), 3).new_state()
        for _ in range(rng.randrange(3)):
            if s.sticks > 2:
                s.play(rng.choice([1, 2]))
        for d in (1, 3, 5):
            assert search_with("alphabeta", s, Limits(depth=d)).score == ref(s, d)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), depth=st.integers(1, 4),
       game=st.sampled_from(["ttt", "nim", "sticks", "race", "chancetoy", "tree", "tree"]))
def test_alphabeta_with_and_without_tt_agree_with_reference(seed, depth, game):
    g = {"ttt": TicTacToe(), "nim": Nim((2, 3, 4)), "sticks": Sticks(9, 3), "race": Race(5),
         "chancetoy": ChanceToy(), "tree": RandomTree(seed % 1000, 3, 7)}[game]
    s = random_position(g, random.Random(seed), 4 if game == "tree" else 6)
    with_tt = search_with("alphabeta", s, Limits(depth=depth))
    without = search_with("alphabeta", s, Limits(depth=depth), hash=0)
    expected = ref(s, depth)
    assert with_tt.score == pytest.approx(expected, abs=1e-9)
    assert without.score == pytest.approx(expected, abs=1e-9)
    legal = list(s.legal_moves())
    assert with_tt.move in legal and without.move in legal
    # the chosen move really achieves the value (one ply deeper: child search)
    if not g.traits.chance:
        c = s.clone()
        c.play(with_tt.move)
        if c.current_player == TERMINAL or depth == 1:
            pass
        else:
            root = s.current_player
            sign = [1 if q == root else -1 for q in range(g.traits.num_players)]
            assert reference_value(c, depth - 1, root, sign, True, 1) == pytest.approx(expected)


def test_alphabeta_matches_minimax_on_random_trees():
    # continuous pseudo-random evaluations with transpositions: any window,
    # cut-off or TT-bound mistake shows up as a wrong value somewhere
    for seed in range(120):
        s = random_position(RandomTree(seed, 3, 7), random.Random(seed), 3)
        for d in (2, 3, 4):
            expected = ref(s, d)
            for table in ({}, {"hash": 0}):
                assert search_with("alphabeta", s, Limits(depth=d), **table).score == pytest.approx(expected), \
                    (seed, d, table)


def test_alphabeta_depth_and_node_limits_exact():
    s = TicTacToe().new_state()
    r = search_with("alphabeta", s, Limits(depth=1))
    assert r.depth == 1 and r.nodes == 1 + 9          # root + its 9 children
    r = search_with("alphabeta", s, Limits(depth=3))
    assert r.depth == 3 and len(r.pv) == 3
    for n in (1, 10, 137, 500):
        r = search_with("alphabeta", s, Limits(nodes=n))
        assert r.nodes == n
        assert r.move in s.legal_moves()
    r = search_with("alphabeta", s, Limits(nodes=1))
    assert r.move == 0 and r.depth == 0                # no iteration finished: first move
    # the result is that of the last finished iteration
    r5 = search_with("alphabeta", s, Limits(nodes=2000))
    full = search_with("alphabeta", s, Limits(depth=r5.depth))
    assert (r5.move, r5.score) == (full.move, full.score)
    assert full.nodes <= 2000


@pytest.fixture
def fake_clock(monkeypatch):
    """The searches' clock, advancing 1 ms at each reading: time limits are
    checked by what the search does, not by how fast the machine is."""
    ticks = itertools.count()
    clock = lambda: next(ticks) * 0.001          # noqa: E731
    for module in (common, alphabeta, mcts, ismcts):
        monkeypatch.setattr(module, "now", clock)


def test_alphabeta_time_limit(fake_clock):
    s = Nim((7, 7, 7, 6)).new_state()
    r = search_with("alphabeta", s, Limits(time=0.1, nodes=10 ** 6))   # the node cap: a failure, not a hang
    assert r.seconds <= 0.101 and r.nodes < 10 ** 5         # stopped by the deadline
    assert r.move in s.legal_moves() and r.depth >= 1


def test_alphabeta_options_and_state_untouched(monkeypatch):
    s = TicTacToe().new_state("4")
    key = s.key()
    monkeypatch.setattr(alphabeta, "ENTRY_BYTES", 1024 * 1024 // 10)     # hash=1: a table of 10 entries
    r_small = search_with("alphabeta", s, Limits(depth=4), hash=1)
    r_big = search_with("alphabeta", s, Limits(depth=4))
    assert r_small.extra["tt_entries"] <= 10 and r_big.extra["tt_entries"] > 10
    assert r_small.score == r_big.score
    assert s.key() == key
    calls = []

    def ev(state):
        calls.append(1)
        return [0.0, 0.0]
    r = search_with("alphabeta", s, Limits(depth=2), evaluator=ev)
    assert calls and r.score == 0.0


# --- MCTS ---------------------------------------------------------------------------------

def test_mcts_finds_win_and_block():
    s = TicTacToe().new_state("0 3 1 4")
    assert search_with("mcts", s, Limits(sims=300), seed=1).move == 2
    s = TicTacToe().new_state("0 4 1")
    assert search_with("mcts", s, Limits(sims=1500), seed=1).move == 2


def test_mcts_nim_winning_move():
    for heaps in [(1, 2), (3, 1), (1, 2, 2)]:
        s = Nim(heaps).new_state()
        r = search_with("mcts", s, Limits(sims=2000), seed=2)
        s.play(r.move)
        assert nim_xor(s.heaps) == 0
        assert r.score > 0.5


def test_mcts_chance_game_value():
    r = search_with("mcts", ChanceToy().new_state(), Limits(sims=3000), seed=3)
    assert r.move == "B"
    assert r.score == pytest.approx(0.4, abs=0.08)


def test_mcts_three_players_each_maximises_own_return():
    r = search_with("mcts", Sticks(4, 3).new_state(), Limits(sims=2000), seed=4)
    assert r.move == 1 and abs(r.score) < 0.1
    # player 1 to move with 2 sticks takes both and wins
    s = Sticks(3, 3).new_state("1")
    r = search_with("mcts", s, Limits(sims=200), seed=4)
    assert r.move == 2 and r.score == 1.0


def test_mcts_sims_nodes_depth_limits_exact():
    s = TicTacToe().new_state()
    r = search_with("mcts", s, Limits(sims=123), seed=0)
    assert r.nodes == 123 and r.extra["sims"] == 123 and r.extra["tree_nodes"] == 124
    r = search_with("mcts", s, Limits(nodes=77), seed=0)
    assert r.nodes == 77
    r = search_with("mcts", s, Limits(sims=500, depth=2), seed=0)
    assert r.extra["tree_depth"] == 2 and r.nodes == 500
    assert r.extra["tree_nodes"] == 1 + 9 + 9 * 8


def test_mcts_time_limit(fake_clock):
    r = search_with("mcts", TicTacToe().new_state(), Limits(time=0.1, sims=10 ** 4), seed=0)
    assert 0.1 <= r.seconds <= 0.102 and r.nodes > 0        # ran to the deadline, stopped at it


def test_mcts_deterministic_for_a_seed():
    s = TicTacToe().new_state("4")
    a = search_with("mcts", s, Limits(sims=400), seed=9)
    b = search_with("mcts", s, Limits(sims=400), seed=9)
    assert (a.move, a.score, a.pv, a.extra) == (b.move, b.score, b.pv, b.extra)
    others = {search_with("mcts", s, Limits(sims=400), seed=k).score for k in range(5)}
    assert len(others) > 1      # the seed matters


def test_mcts_eval_rollouts_and_pluggable_evaluator():
    s = TicTacToe().new_state()
    calls = []

    def likes_corner_8(state):     # player 0 is very happy when X stands on square 8
        calls.append(1)
        return [1.0, -1.0] if state.board[8] == 1 else [-1.0, 1.0]
    r = search_with("mcts", s, Limits(sims=200), seed=1, evaluator=likes_corner_8)
    assert r.move == 8 and len(calls) == 200
    r = search_with("mcts", s, Limits(sims=200), seed=1, rollout="eval", rollout_depth=2)
    assert r.nodes == 200 and r.move in s.legal_moves()
    with pytest.raises(CrossridorError, match="evaluate"):
        search_with("mcts", Nim().new_state(), Limits(sims=10), rollout="eval")


# --- ISMCTS -----------------------------------------------------------------------------------

@pytest.mark.parametrize("card", ["c0", "c1", "c2"])
def test_ismcts_respects_the_information_set(card):
    s = Peek().new_state(card)
    r = search_with("ismcts", s, Limits(sims=2000), seed=5)
    assert r.move == "peek"                        # not the (unknowable) right guess
    assert r.score == pytest.approx(0.5, abs=0.15)
    # after peeking the card is known: the right guess
    s.play("peek")
    assert search_with("ismcts", s, Limits(sims=300), seed=5).move == "g" + card[1]


def test_ismcts_result_does_not_depend_on_the_hidden_card():
    # strictly equal apart from timing
    dicts = [search_with("ismcts", Peek().new_state(c), Limits(sims=500), seed=8) for c in ("c0", "c1", "c2")]
    assert len({(d.move, d.score, d.pv, str(d.extra)) for d in dicts}) == 1


def test_perfect_information_peek_guesses_the_card():
    for c in ("c0", "c1", "c2"):
        s = Peek(open=True).new_state(c)
        assert search_with("mcts", s, Limits(sims=1000), seed=1).move == "g" + c[1]
        assert search_with("ismcts", s, Limits(sims=1000), seed=1).move == "g" + c[1]
        assert search_with("alphabeta", s, Limits(depth=2)).move == "g" + c[1]


def test_ismcts_utility_maps_the_returns():
    # "safe" (0) is worse than "peek" then guess (+0.5) unless a utility makes it +1
    assert search_with("ismcts", Peek().new_state("c0"), Limits(sims=600), seed=5).move == "peek"

    def prefer_safe(r):
        return [1.0, -1.0] if r == [0.0, 0.0] else r

    r = search_with("ismcts", Peek().new_state("c0"), Limits(sims=600), seed=5, utility=prefer_safe)
    assert r.move == "safe" and r.score == 1.0


def test_ismcts_perfect_information_games():
    assert search_with("ismcts", TicTacToe().new_state("0 3 1 4"), Limits(sims=300), seed=1).move == 2
    assert search_with("ismcts", Sticks(4, 3).new_state(), Limits(sims=2000), seed=1).move == 1
    r = search_with("ismcts", ChanceToy().new_state(), Limits(sims=3000), seed=1)
    assert r.move == "B" and r.score == pytest.approx(0.4, abs=0.08)


def test_ismcts_limits_and_determinism():
    s = Peek().new_state("c1")
    r = search_with("ismcts", s, Limits(sims=250), seed=2)
    assert r.nodes == 250 and r.extra["sims"] == 250
    assert search_with("ismcts", s, Limits(nodes=31), seed=2).nodes == 31
    r = search_with("ismcts", TicTacToe().new_state(), Limits(sims=400, depth=1), seed=2)
    assert r.extra["tree_depth"] == 1 and r.extra["tree_nodes"] == 10
    a = search_with("ismcts", TicTacToe().new_state("4"), Limits(sims=300), seed=3)
    b = search_with("ismcts", TicTacToe().new_state("4"), Limits(sims=300), seed=3)
    assert (a.move, a.score, a.pv) == (b.move, b.score, b.pv)


def test_ismcts_time_limit(fake_clock):
    r = search_with("ismcts", Peek().new_state("c0"), Limits(time=0.1, sims=10 ** 4), seed=0)
    assert 0.1 <= r.seconds <= 0.102 and r.nodes > 0


# --- greedy and random ---------------------------------------------------------------------------

def test_greedy_takes_the_win_and_breaks_ties_by_order():
    s = TicTacToe().new_state("0 3 1 4")
    r = search_with("greedy", s, Limits(depth=1))
    assert r.move == 2 and r.score == 1.0 and r.nodes == 1 + 5
    s = Nim((2, 2)).new_state()            # no evaluate, no win in 1: all moves 0
    assert search_with("greedy", s, Limits(depth=1)).move == NimMove(0, 1)
    picks = {search_with("greedy", s, Limits(depth=1), seed=k, random_ties=True).move for k in range(20)}
    assert len(picks) > 1
    assert search_with("greedy", s, Limits(depth=1), seed=3, random_ties=True).move == \
        search_with("greedy", s, Limits(depth=1), seed=3, random_ties=True).move


def test_greedy_uses_evaluate_and_chance_expectation():
    s = TicTacToe().new_state()
    assert search_with("greedy", s, Limits(depth=1)).move == 4      # centre keeps most lines
    s = Race(6).new_state()
    # step: +1 square for sure; roll: expected 1.75 squares
    r = search_with("greedy", s, Limits(depth=1))
    assert r.move == "roll" and r.score == pytest.approx(1.75 / 12)


def test_random_player_is_seeded_and_uniform_enough():
    s = TicTacToe().new_state()
    picks = [search_with("random", s, Limits(depth=1), seed=k).move for k in range(200)]
    assert set(picks) == set(range(9))
    assert search_with("random", s, Limits(depth=1), seed=11).move == \
        search_with("random", s, Limits(depth=1), seed=11).move
    assert search_with("random", s, Limits(depth=1)).nodes == 1


# --- refusals, options, roots, dispatcher -----------------------------------------------------------

def test_algorithms_refuse_games_they_cannot_handle():
    s = Peek().new_state("c0")
    with pytest.raises(UnsupportedGameError, match="hidden information"):
        search_with("alphabeta", s, Limits(depth=2))
    with pytest.raises(UnsupportedGameError, match="hidden information"):
        search_with("mcts", s, Limits(sims=10))
    hidden = GameTraits("cards", 4, chance=True, hidden_information=True)
    for mod in (alphabeta, mcts):
        with pytest.raises(UnsupportedGameError):
            mod.check_game(hidden)
    for mod in (ismcts, greedy, random_player):
        mod.check_game(hidden)
    alphabeta.check_game(GameTraits("nim", 2))
    mcts.check_game(GameTraits("kreuzundquer", 4, chance=True))


@pytest.mark.parametrize("name", sorted(MODULES))
def test_unknown_options_are_rejected(name):
    with pytest.raises(CrossridorError, match="bogus"):
        search_with(name, TicTacToe().new_state(), Limits(depth=1, sims=5), bogus=1)


@pytest.mark.parametrize("name, options", [
    ("alphabeta", {"hash": -1}), ("alphabeta", {"hash": "yes"}), ("alphabeta", {"evaluator": 3}),
    ("mcts", {"c": -1}), ("mcts", {"rollout": "smart"}), ("mcts", {"rollout_depth": 1.5}),
    ("ismcts", {"c": float("nan")}), ("mcts", {"evaluator": lambda s: [0, 0], "rollout": "random"}),
    ("greedy", {"random_ties": 1}),
])
def test_bad_option_values_are_rejected(name, options):
    with pytest.raises(CrossridorError, match=next(iter(options))):
        search_with(name, TicTacToe().new_state(), Limits(depth=1, sims=5), **options)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_roots_that_cannot_be_searched(name):
    with pytest.raises(CrossridorError, match="chance"):
        search_with(name, ChanceToy().new_state("A"), Limits(depth=1, sims=5))
    with pytest.raises(CrossridorError, match="finished"):
        search_with(name, Nim((1,)).new_state("0:1"), Limits(depth=1, sims=5))


def test_limits_an_algorithm_cannot_use():
    with pytest.raises(CrossridorError, match="sims"):
        search_with("alphabeta", Nim().new_state(), Limits(sims=10))
    with pytest.raises(CrossridorError, match="depth"):
        search_with("mcts", Nim().new_state(), Limits(depth=3))


@pytest.mark.parametrize("name", sorted(MODULES))
def test_dispatcher_runs_every_algorithm(name):
    s = TicTacToe().new_state("0 3 1 4")
    r = crossridor.search(s, name, Limits(depth=2, sims=200), seed=1)
    assert r.move in s.legal_moves()
    if name != "random":
        assert r.move == 2
    assert r.as_dict()["move"] == str(r.move)


def test_ismcts_prior_progressive_bias():
    s = TicTacToe().new_state("4")
    base = search_with("ismcts", s, Limits(sims=200), seed=3)
    same = search_with("ismcts", s, Limits(sims=200), seed=3, prior=lambda st: None)
    assert (base.move, base.score, base.pv) == (same.move, same.score, same.pv)
    # a heavy bias makes the favoured (legal, not best) move the most visited
    r = search_with("ismcts", s, Limits(sims=200), seed=3, prior=lambda st: 1 if 1 in st.legal_moves() else None,
                      prior_weight=1000.0)
    assert r.move == 1
    with pytest.raises(CrossridorError, match="prior"):
        search_with("ismcts", s, Limits(sims=10), seed=3, prior=3)
    with pytest.raises(CrossridorError, match="prior_weight"):
        search_with("ismcts", s, Limits(sims=10), seed=3, prior=lambda st: None, prior_weight=-1)
