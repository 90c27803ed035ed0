"""The learning interface of every game: action ids, masks, tensors, chance."""

from __future__ import annotations

import random

import numpy as np
import pytest

import crossridor
from crossridor.engine.errors import CrossridorError
from crossridor.games.learning import codec
from crossridor.games.quoridor.learning import observation_batch

CONFIGS = [
    ("quoridor", {"size": 3}), ("quoridor", {"size": 5, "players": 4}),
    ("quoridor", {"size": 9}), ("quoridor", {"size": 7, "players": 4, "max_plies": 60}),
    ("quoridor", {"size": "4x7"}), ("quoridor", {"size": "2x3", "walls": 2}), ("quoridor", {"size": "9x3"}),
    ("crosswise", {"players": 2}), ("crosswise", {"players": 3}), ("crosswise", {"players": 4}),
    ("crosswise", {"players": 2, "chance": True}), ("crosswise", {"players": 3, "chance": True}),
    ("crosswise", {"players": 4, "chance": True}),
    ("qwatrobat", {}), ("qwatrobat", {"cards": 10, "clear_four": False}),
    ("qwatrobat", {"open": True, "first": 2}), ("qwatrobat", {"last_round_points": 5}),
    ("kreuzundquer", {"players": 2, "races": 1}), ("kreuzundquer", {"players": 3, "races": 1}),
    ("kreuzundquer", {"players": 4, "races": 1, "max_stages": 3}),
    ("kreuzundquer", {"players": 3, "races": 1, "max_stages": 3, "chance": True}),
]


def _random_game(game, seed, max_steps=400):
    """Yield the states of a seeded random game (chance by its probabilities)."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    for _ in range(max_steps):
        yield state
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes = state.chance_action_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)


@pytest.mark.parametrize("name,params", CONFIGS, ids=[f"{n}-{p}" for n, p in CONFIGS])
def test_ids_masks_tensors_and_chance_over_a_random_game(name, params):
    game = crossridor.load_game(name, **params)
    n = game.traits.num_players
    num = game.num_distinct_actions()
    shape = game.observation_tensor_shape()
    info = hasattr(codec(game), "information_state_tensor")
    steps = chance_nodes = 0
    for state in _random_game(game, seed=len(name) + n):
        legal = state.legal_actions()
        moves = state.legal_moves()
        # ids <-> moves, both ways, and the mask
        assert legal == sorted(game.move_to_action(m) for m in moves)
        assert len(set(legal)) == len(moves)
        assert {game.action_to_move(a) for a in legal} == set(moves)
        assert all(game.move_to_action(str(game.action_to_move(a))) == a for a in legal)
        mask = state.legal_actions_mask()
        assert mask.shape == (num,) and mask.dtype == bool
        assert np.flatnonzero(mask).tolist() == legal
        if state.is_chance_node():
            chance_nodes += 1
            outcomes = state.chance_action_outcomes()
            assert [a for a, _ in outcomes] == legal
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert all(p > 0 for _, p in outcomes)
        else:
            assert state.chance_outcomes() == []
        for p in range(n):
            obs = state.observation_tensor(p)
            assert obs.shape == shape and obs.dtype == np.float32
            assert np.isfinite(obs).all()
        if info and steps % 5 == 0:
            t = state.information_state_tensor(steps % n)
            assert t.shape == game.information_state_tensor_shape() and t.dtype == np.float32
        steps += 1
    assert steps > 3
    assert (chance_nodes > 0) == game.traits.chance


@pytest.mark.parametrize("name,params", [("quoridor", {}), ("crosswise", {}), ("qwatrobat", {}),
                                         ("kreuzundquer", {})])
def test_bad_ids_and_players_are_clear_errors(name, params):
    game = crossridor.load_game(name, **params)
    state = game.new_state(seed=1)
    for bad in (-1, game.num_distinct_actions(), "3", 1.5, True):
        with pytest.raises(CrossridorError, match="action id"):
            game.action_to_move(bad)
    for bad in (-1, game.traits.num_players, "0"):
        with pytest.raises(CrossridorError, match="player"):
            state.observation_tensor(bad)


def test_action_layout_examples():
    q = crossridor.load_game("quoridor")
    assert q.num_distinct_actions() == 210
    assert q.move_to_action("e3h") == 81 + 2 * 8 + 4
    assert q.move_to_action("a1") == 0 and str(q.action_to_move(209)) == "--"
    assert crossridor.load_game("quoridor", size=5).num_distinct_actions() == 25 + 32 + 1
    r = crossridor.load_game("quoridor", size="4x7")          # 4 columns, 7 rows, 3 x 6 wall anchors
    assert r.num_distinct_actions() == 28 + 2 * 18 + 1
    assert r.move_to_action("d7") == 6 * 4 + 3 and r.move_to_action("b3h") == 28 + 2 * 3 + 1
    assert r.move_to_action("c6v") == 28 + 18 + 5 * 3 + 2 and str(r.action_to_move(64)) == "--"
    with pytest.raises(CrossridorError, match="not a move on the 4x7 board"):
        r.move_to_action("e1")
    c = crossridor.load_game("crosswise")
    assert c.num_distinct_actions() == 2373
    assert c.move_to_action("3@a1") == 2 and c.move_to_action("--") == 2358
    assert c.move_to_action("swap a1,c1") == 1728 + 1
    assert c.move_to_action("tile:S") == 2368 and c.move_to_action("start:4") == 2372
    w = crossridor.load_game("qwatrobat")
    assert w.move_to_action("4321/1234") == w.move_to_action("1234/4321")   # same columns
    assert str(w.action_to_move(126)) == "c1" and str(w.action_to_move(131)) == "first:2"
    k = crossridor.load_game("kreuzundquer")
    assert k.num_distinct_actions() == 378 + 4 + 8 + 8 + 8 + 28 + 28
    assert k.move_to_action("deal:1") == 434
    assert k.move_to_action("x1,2") == 0 and k.move_to_action("x2,1") == 0
    assert str(k.action_to_move(378)) == "flip"


# ------------------------------------------------------------------ hidden information

def test_crosswise_observation_hides_other_hands_and_the_bag():
    game = crossridor.load_game("crosswise", players=4)
    state = game.new_state("", seed=7)
    for _ in range(6):
        state.play(state.legal_moves()[0])
    other = state.sample_determinization(0, random.Random(3))
    assert other.hand(1) != state.hand(1) or other.hand(2) != state.hand(2)
    assert np.array_equal(state.observation_tensor(0), other.observation_tensor(0))
    assert not np.array_equal(state.observation_tensor(1), other.observation_tensor(1)) \
        or other.hand(1) == state.hand(1)


def _dealt(game, hands, moves):
    """A chance=True Crosswise state dealt `hands` (tile chars per seat), seat 0 first."""
    tiles = [f"tile:{t}" for h in hands for t in h]
    return game.new_state(tiles + ["start:1"] + moves)


def test_crosswise_information_state_hides_what_only_others_saw():
    game = crossridor.load_game("crosswise", players=2, chance=True)
    a = _dealt(game, ["1122", "3344"], ["1@a1", "tile:5", "3@b2", "tile:6", "2@c3", "tile:1"])
    b = _dealt(game, ["1122", "5566"], ["1@a1", "tile:5", "5@b2", "tile:3", "2@c3", "tile:1"])
    # seat 1 played different tiles from different hands: the boards differ
    assert not np.array_equal(a.information_state_tensor(0), b.information_state_tensor(0))
    c = _dealt(game, ["1122", "5566"], ["1@a1", "tile:5", "5@b2", "tile:4", "2@c3", "tile:1"])
    # b and c differ only in seat 1's draw, which seat 0 did not see
    assert np.array_equal(b.information_state_tensor(0), c.information_state_tensor(0))
    assert np.array_equal(b.observation_tensor(0), c.observation_tensor(0))
    assert not np.array_equal(b.information_state_tensor(1), c.information_state_tensor(1))
    assert b.information_state(0) == c.information_state(0)


def test_crosswise_chance_deal_probabilities():
    game = crossridor.load_game("crosswise", players=3, chance=True)
    state = game.new_state()
    first = dict(state.chance_outcomes())
    assert sum(first.values()) == pytest.approx(1.0)
    assert first[game.action_to_move(2359)] == pytest.approx(7 / 54)       # a 1 of 7
    assert first[game.action_to_move(2365)] == pytest.approx(3 / 54)       # a Remove of 3
    for _ in range(16):                                                      # 4 + 6 + 4 dealt... and more
        if state.legal_actions()[0] >= 2369:
            break
        state.apply_action(state.legal_actions()[0])
    assert state.legal_actions() == [2369, 2370, 2371]                        # the start seat
    state.undo()
    assert state.legal_actions()[0] < 2369


def test_qwatrobat_observation_hides_the_other_layout():
    game = crossridor.load_game("qwatrobat")
    a = game.new_state("1234/4321 2143/3412 first:1 c1 c1")
    b = game.new_state("1234/4321 2341/1342 first:1 c1 c1")   # same first card 2, rest differs
    for t in ("observation_tensor", "information_state_tensor"):
        assert np.array_equal(getattr(a, t)(0), getattr(b, t)(0))
        assert not np.array_equal(getattr(a, t)(1), getattr(b, t)(1))
    opened = crossridor.load_game("qwatrobat", open=True)
    a = opened.new_state("1234/4321 2143/3412 first:1 c1 c1")
    b = opened.new_state("1234/4321 2341/1342 first:1 c1 c1")
    assert not np.array_equal(a.observation_tensor(0), b.observation_tensor(0))   # face up


def test_qwatrobat_information_state_remembers_the_order_of_pushes():
    game = crossridor.load_game("qwatrobat", first=1)
    a = game.new_state("1234/1234 1234/1234 c1 c2 c2 c1")
    b = game.new_state("1234/1234 1234/1234 c2 c1 c1 c2")
    assert np.array_equal(a.observation_tensor(0), b.observation_tensor(0))
    assert not np.array_equal(a.information_state_tensor(0), b.information_state_tensor(0))


def test_kreuzundquer_observation_hides_what_the_player_cannot_see():
    game = crossridor.load_game("kreuzundquer", players=3, races=1)
    rng = random.Random(5)
    checked = 0
    for state in _random_game(game, seed=5, max_steps=150):
        if state.is_chance_node() or state.is_terminal():
            continue
        p = state.current_player
        other = state.sample_determinization(p, rng)
        assert np.array_equal(state.observation_tensor(p), other.observation_tensor(p))
        checked += 1
    assert checked > 20


# ------------------------------------------------------------------ Quoridor planes

def test_quoridor_planes_are_canonical_for_the_second_player():
    game = crossridor.load_game("quoridor")
    x = game.state_from_position("9x2:e2,e8:9,10:e3h:2")
    y = game.state_from_position("9x2:e2,e8:10,9:d6h:1")     # x turned 180 degrees, seats swapped
    assert np.array_equal(x.observation_tensor(1), y.observation_tensor(0))
    c = codec(game)
    assert sorted(c.canonical_action(a, 1) for a in x.legal_actions()) == y.legal_actions()
    assert all(c.absolute_action(c.canonical_action(a, 1), 1) == a for a in range(210))


def test_quoridor_planes_on_a_rectangle_are_rows_by_columns_and_canonical():
    game = crossridor.load_game("quoridor", size="4x7")
    x = game.state_from_position("4x7x2:c2,c6:9,10:b3h:2")
    y = game.state_from_position("4x7x2:b2,b6:10,9:b4h:1")   # x turned 180 degrees, seats swapped
    assert game.observation_tensor_shape() == (10, 7, 4)
    obs = x.observation_tensor(0)
    assert obs.shape == (10, 7, 4) and obs[0, 1, 2] == 1 and obs[1, 5, 2] == 1   # pawns on c2, c6: [row, col]
    assert obs[2, 2, 1] == 1 and obs[2].sum() == 1                                # b3h at its anchor
    assert obs[3 * 2 + 2, 1, 2] * 28 == pytest.approx(x.distances()[0])           # steps / (W * H)
    assert np.array_equal(x.observation_tensor(1), y.observation_tensor(0))
    c = codec(game)
    assert sorted(c.canonical_action(a, 1) for a in x.legal_actions()) == y.legal_actions()
    assert all(c.absolute_action(c.canonical_action(a, 1), 1) == a for a in range(65))
    assert str(c.action_to_move(c.canonical_action(c.move_to_action("a1"), 1))) == "d7"


def test_quoridor_four_player_start_looks_the_same_to_everyone():
    game = crossridor.load_game("quoridor", players=4)
    state = game.new_state("e1h")                            # seat 1 to move; a wall to turn
    obs = [state.observation_tensor(p) for p in range(4)]
    P = 4
    assert obs[0][0, 0, 4] == 1                              # the observer's pawn at e1
    for p in range(4):
        assert obs[p][0, 0, 4] == 1
        assert obs[p][2 * P + 2 + (1 - p) % 4].min() == 1      # seat to move, relative
        assert obs[p][P:P + 2].sum() == 1
    # e1h: anchor (4, 0); seat 1 sees it a quarter turn on, (7 - 0, 4), vertical
    assert obs[0][P, 0, 4] == 1 and obs[1][P + 1, 4, 7] == 1
    assert all(c.min() >= 0 and c.max() <= 1 for c in obs)


def test_quoridor_distance_planes():
    game = crossridor.load_game("quoridor", size=5)
    state = game.new_state("c2 c4")
    obs = state.observation_tensor(0)
    dist = obs[3 * 2 + 2] * 25
    assert dist[4].tolist() == [0] * 5 and dist[1, 2] == pytest.approx(state.distances()[0])
    assert obs[3 * 2 + 3][3, 2] * 25 == pytest.approx(state.distances()[1])   # seat 1 on c4


def test_quoridor_batch_matches_single_tensors():
    game = crossridor.load_game("quoridor", size=7, players=4)
    states = [s.clone() for s in _random_game(game, seed=2, max_steps=40)]
    players = [i % 4 for i in range(len(states))]
    out = observation_batch(states, players)
    for s, p, o in zip(states, players, out):
        assert np.array_equal(o, s.observation_tensor(p))
    again = observation_batch(states, out=np.zeros_like(out))
    assert np.array_equal(again[0], states[0].observation_tensor(states[0].current_player))
    with pytest.raises(ValueError, match="shape"):
        observation_batch(states, out=np.zeros((1, 3), np.float32))
    with pytest.raises(ValueError, match="one game"):
        observation_batch([states[0], crossridor.load_game("quoridor", size=7).new_state()])
    with pytest.raises(ValueError, match="player"):
        observation_batch(states[:1], [4])


def test_quoridor_has_no_information_state_tensor():
    game = crossridor.load_game("quoridor")
    with pytest.raises(CrossridorError, match="perfect information"):
        game.new_state().information_state_tensor(0)


def test_kreuzundquer_chance_deal():
    game = crossridor.load_game("kreuzundquer", players=2, chance=True)
    state = game.new_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 28
    deal = [f"deal:{c}" for c in range(1, 17)]
    for m in deal[:15]:
        state.play(m)
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    assert len(state.chance_outcomes()) == 13
    state.play(deal[15])
    assert state.current_player == 0 and state.hands[0] == tuple(range(1, 9))
    seeded = crossridor.load_game("kreuzundquer", players=2).new_state(seed=0)
    assert state.legal_actions() != [] and seeded.hands[0] != state.hands[1]
    a = state.observation_tensor(0)
    state.undo()
    assert state.is_chance_node() and state.legal_actions() == list(range(434 + 15, 434 + 28))
    b = state.observation_tensor(1)                        # seat 1 has seen only its 7 cards
    state.play("deal:16")
    other = game.new_state(deal[:8] + [f"deal:{c}" for c in range(20, 28)])
    assert np.array_equal(state.observation_tensor(0), other.observation_tensor(0))
    assert not np.array_equal(state.observation_tensor(1), other.observation_tensor(1))
    assert a.shape == b.shape


def test_kreuzundquer_has_no_information_state_tensor():
    game = crossridor.load_game("kreuzundquer")
    with pytest.raises(CrossridorError, match="no fixed length"):
        game.information_state_tensor_shape()


def test_chance_options_from_the_command_line(capsys):
    from crossridor.engine.cli.main import main
    assert main(["legal", "crosswise", "-o", "chance=true"]) == 0
    assert capsys.readouterr().out.split()[0] == "tile:1"
    assert main(["legal", "kreuzundquer", "-o", "chance=true", "--moves", "deal:3 deal:9"]) == 0
    assert "deal:3" not in capsys.readouterr().out.split()
    for game in ("crosswise", "kreuzundquer"):
        assert main(["legal", game, "-o", "chance=maybe"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "chance must be true or false" in err
