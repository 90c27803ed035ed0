"""The learned Quoridor evaluation: features, self-play data, training,
the weights file, and the searches with eval=learned."""

import numpy as np
import pytest

from crossridor import load_game
from crossridor.engine._core import Q_NUM_FEATURES, QuoridorWeights, q_fill_features, q_learned_eval


def features(state):
    out = np.zeros(Q_NUM_FEATURES, np.float32)
    q_fill_features(state.core, out)
    return out


def test_features_of_a_walled_position():
    # black to move after e3h: both detour around the wall to the d file
    f = features(load_game("quoridor").new_state("e2 e8 e3h"))
    assert f.tolist() == [1, 8, 8, 10, 9, 0, 0, 0, 12, 9, 1, 1, 0, 0]


def test_features_are_from_the_side_to_move():
    f = features(load_game("quoridor", size=5, walls=0).new_state("c2 c4"))
    # white to move, both 3 steps away, no walls: the race is white's
    assert f[[1, 2, 3, 4, 7]].tolist() == [3, 3, 0, 0, 1]
    f = features(load_game("quoridor", size=5, walls=0).new_state("c2 c4 c3"))
    # black to move, pawns side by side: a jump; black needs 3, white 2
    assert f[[1, 2, 7, 12]].tolist() == [3, 2, -1, 1]


def test_feature_buffer_and_players_are_checked():
    state = load_game("quoridor").new_state()
    with pytest.raises(ValueError, match="needs 14 floats"):
        q_fill_features(state.core, np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="2-player"):
        q_fill_features(load_game("quoridor", players=4).new_state().core, np.zeros(14, np.float32))


def test_learned_score_is_the_scaled_dot_product():
    w = QuoridorWeights([0, -0.3, 0.3, 0.1, -0.1] + [0] * 9)
    assert q_learned_eval(load_game("quoridor").new_state("e2 e8 e3h").core, w) == 20
    with pytest.raises(ValueError, match="14 weights"):
        QuoridorWeights([1.0])
    with pytest.raises(ValueError, match="finite"):
        QuoridorWeights([float("nan")] * 14)
