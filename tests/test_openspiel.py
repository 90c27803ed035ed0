"""crossridor's games inside OpenSpiel (the `openspiel` extra): OpenSpiel's
own consistency checks, get_all_states, MCTSBot and CFR on them."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open-spiel is not installed: pip install \".[test,openspiel]\" runs these tests")

from open_spiel.python.algorithms import cfr, exploitability, mcts  # noqa: E402
from open_spiel.python.algorithms.get_all_states import get_all_states  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import crossridor  # noqa: E402
import crossridor.openspiel  # noqa: E402,F401  (registers the games)

# a tiny Qwatrobat: round 3 of 4 under way, three cards left per player, the
# opponent's still hidden (the secret game)
QW_TINY = crossridor.load_game("qwatrobat").new_state(
    "1234/4321 2143/3412 first:1 c1 c1 c2 c2 c3 c3 c4 c4 c1 c4").position()

SIM_GAMES = ["crossridor_quoridor(size=5)", "crossridor_quoridor(size=5,players=4)",
             "crossridor_quoridor(width=4,height=7)",
             "crossridor_crosswise", "crossridor_crosswise(players=3)", "crossridor_crosswise(players=4)",
             "crossridor_qwatrobat", "crossridor_qwatrobat(cards=10,open=true)",
             "crossridor_qwatrobat(first=0,last_round_points=5,clear_four=false)",
             "crossridor_kreuzundquer(races=1)", "crossridor_kreuzundquer(players=4,races=1,max_stages=2)"]


@pytest.mark.parametrize("name", SIM_GAMES)
def test_openspiel_random_simulation_checks(name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_names_and_parameters():
    game = pyspiel.load_game("crossridor_quoridor(size=7)")
    assert game.num_distinct_actions() == 49 + 72 + 1
    assert game.observation_tensor_shape() == [10, 7, 7]
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    cw = pyspiel.load_game("crossridor_crosswise(players=4)")
    assert cw.num_players() == 4 and cw.max_chance_outcomes() == 14
    assert cw.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = cw.new_initial_state()
    assert state.is_chance_node()
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)


def test_a_rectangular_quoridor_board():
    game = pyspiel.load_game("crossridor_quoridor(width=4,height=7,walls=2)")
    assert game.observation_tensor_shape() == [10, 7, 4]
    assert game.num_distinct_actions() == 28 + 2 * 3 * 6 + 1 and game.max_game_length() == 4 * 28
    assert game.new_initial_state().inner.position() == "4x7x2:c1,c7:2,2:-:1"
    assert pyspiel.load_game("crossridor_quoridor(size=3,width=2)").observation_tensor_shape() == [10, 3, 2]
    with pytest.raises(crossridor.CrossridorError, match="size must be"):
        pyspiel.load_game("crossridor_quoridor(width=1,height=7)")


def test_get_all_states_on_tiny_configurations():
    game = pyspiel.load_game("crossridor_quoridor(size=3,walls=0,max_plies=6)")
    states = get_all_states(game, include_terminals=True, include_chance_states=True)
    terminals = [s for s in states.values() if s.is_terminal()]
    assert len(states) > 100 and terminals
    assert all(sum(s.returns()) == pytest.approx(0) for s in terminals)
    game = pyspiel.load_game("crossridor_qwatrobat", {"position": QW_TINY})
    states = get_all_states(game, include_terminals=True, include_chance_states=True)
    assert len(states) > 20


def test_observations_through_openspiel_equal_ours():
    game = pyspiel.load_game("crossridor_crosswise")
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while state.is_chance_node() or state.move_number() < 20:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    for obs_type, ours in ((None, "observation_tensor"),
                           (pyspiel.IIGObservationType(perfect_recall=True), "information_state_tensor")):
        obs = make_observation(game, obs_type)
        for p in range(2):
            obs.set_from(state, p)
            assert np.array_equal(obs.tensor, getattr(state.inner, ours)(p))
    # the perfect-recall string names the player's own moves, never the other's hand
    text = state.information_state_string(0)
    assert "played" in text and state.inner.inner.hand(1) not in text.split()


def test_mcts_bot_plays_crosswise_and_quoridor():
    for name in ("crossridor_crosswise", "crossridor_quoridor(size=5)"):
        game = pyspiel.load_game(name)
        rng = np.random.RandomState(1)
        bot = mcts.MCTSBot(game, 1.4, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        state = game.new_initial_state()
        for _ in range(2):
            while state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)


def test_cfr_on_a_tiny_qwatrobat():
    game = pyspiel.load_game("crossridor_qwatrobat", {"position": QW_TINY})
    solver = cfr.CFRSolver(game)
    before = exploitability.nash_conv(game, solver.average_policy())
    for _ in range(10):
        solver.evaluate_and_update_policy()
    after = exploitability.nash_conv(game, solver.average_policy())
    assert before > 0.5 and after < before / 4
