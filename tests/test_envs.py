"""The reinforcement-learning environments (crossridor.envs): PettingZoo's
and Gymnasium's own API tests for every game and player count, seeding,
rewards, truncation, the hidden-information filter, rendering, the
opponent, the batch of games."""

import random

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")

import gymnasium as gym  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import crossridor  # noqa: E402
from crossridor import (
    CrossridorError,  # noqa: E402
    envs,  # noqa: E402
)
from helpers import HANG  # noqa: E402

# every game and player count (Quoridor: the sizes too)
AEC_CASES = [
    ("quoridor", dict(size=3, players=2)), ("quoridor", dict(size=5, players=2)),
    ("quoridor", dict(size=9, players=2)), ("quoridor", dict(size=5, players=4)),
    ("quoridor", dict(size=9, players=4)), ("quoridor", dict(size="4x7", players=2)),
    ("quoridor", dict(size="2x3", players=2)),
    ("crosswise", dict(players=2)), ("crosswise", dict(players=3)), ("crosswise", dict(players=4)),
    ("qwatrobat", {}), ("qwatrobat", dict(cards=10)),
    ("kreuzundquer", dict(players=2)), ("kreuzundquer", dict(players=3)), ("kreuzundquer", dict(players=4)),
]
MODULES = {"quoridor": envs.quoridor_v0, "crosswise": envs.crosswise_v0,
           "qwatrobat": envs.qwatrobat_v0, "kreuzundquer": envs.kreuzundquer_v0}
HIDDEN = [("crosswise", dict(players=2)), ("crosswise", dict(players=4)), ("qwatrobat", {}),
          ("kreuzundquer", dict(players=3)), ("crosswise", dict(players=3, chance=True))]


def _case_id(case):
    game, params = case
    return game + "".join(f"-{k}{v}" for k, v in params.items())


def _play_random(env, seed, until=None):
    """Play an AEC env with random legal actions to its end (or `until` steps)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if until is not None and steps >= until:
            return steps
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps


@pytest.mark.parametrize("case", AEC_CASES, ids=_case_id)
def test_pettingzoo_api_and_seed_tests(case):
    game, params = case
    module = MODULES[game]
    api_test(module.env(**params), num_cycles=1000)
    seed_test(lambda: module.env(**params), num_cycles=200)
    raw = module.raw_env(**params)
    assert raw.possible_agents == [f"player_{i + 1}" for i in range(raw.game.traits.num_players)]
    assert str(raw) == f"{game}_v0"


@pytest.mark.parametrize("game,params", [("crosswise", dict(players=4)), ("qwatrobat", {}),
                                         ("crosswise", dict(players=2, chance=True))])
def test_information_state_observations(game, params):
    api_test(MODULES[game].env(observation_type="information_state", **params), num_cycles=1000)
    env = MODULES[game].raw_env(observation_type="information_state", **params)
    assert env.observation_space("player_1")["observation"].shape == env.game.information_state_tensor_shape()
    env.reset(seed=0)
    assert np.array_equal(env.observe("player_2")["observation"], env.episode.state.information_state_tensor(1))
    with pytest.raises(CrossridorError, match="no information-state tensor"):
        envs.quoridor_v0.raw_env(observation_type="information_state")
    with pytest.raises(CrossridorError, match="observation_type must be"):
        gym.make("crossridor/Qwatrobat-v0", observation_type="full")


@pytest.mark.parametrize("gym_id", envs.GYM_IDS)
def test_gymnasium_check_env(gym_id):
    env = gym.make(gym_id, opponent="greedy")
    check_env(env.unwrapped)
    env.close()


def test_gymnasium_check_env_four_player_quoridor_random_seat():
    check_env(gym.make("crossridor/Quoridor-v0", size=5, players=4, seat="random").unwrapped)


@pytest.mark.parametrize("size", ["4x7", "9x3"])
def test_gymnasium_on_a_rectangular_board(size):
    env = gym.make("crossridor/Quoridor-v0", size=size, opponent="greedy", seat=2)
    check_env(env.unwrapped)
    w, h = (int(x) for x in size.split("x"))
    assert env.observation_space["observation"].shape == (10, h, w)
    assert env.action_space.n == w * h + 2 * (w - 1) * (h - 1) + 1
    obs, info = env.reset(seed=0)
    assert obs["observation"].shape == (10, h, w) and obs["observation"][0].sum() == 1
    assert env.unwrapped.render_mode is None
    env.close()


def test_gym_ids_are_registered_on_import():
    assert set(envs.GYM_IDS) == {"crossridor/Quoridor-v0", "crossridor/Crosswise-v0",
                                 "crossridor/Qwatrobat-v0", "crossridor/KreuzUndQuer-v0"}
    assert all(i in gym.registry for i in envs.GYM_IDS)


@pytest.mark.parametrize("case", AEC_CASES, ids=_case_id)
def test_aec_rewards_are_the_games_returns(case):
    game, params = case
    env = MODULES[game].raw_env(**params, max_plies=None)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    total = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        agent = env.agent_selection
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            assert term and not trunc
            total[agent] = env._cumulative_rewards[agent]
            env.step(None)
            continue
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].any()
        for other in env.possible_agents:      # only the agent to move has a mask
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        state = env.episode.state
        assert env._index[agent] == state.current_player and agent == f"player_{state.current_player + 1}"
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    returns = env.episode.state.returns()
    assert [total[a] for a in env.possible_agents] == pytest.approx(returns)
    if env.game.traits.num_players == 2:
        assert sorted(returns) in ([-1, 1], [0, 0])


def test_aec_truncation_at_the_ply_cap():
    env = envs.quoridor_v0.env(size=9, max_plies=4)
    env.reset(seed=0)
    assert _play_random(env, 0) == 4 + 2        # four moves, then each agent's step(None)
    raw = env.unwrapped
    assert raw.episode.plies == 4 and not raw.episode.state.is_terminal()
    # default cap from the declaration: 2 * 81 * 2 plies
    assert envs.quoridor_v0.raw_env().max_plies == 324
    with pytest.raises(CrossridorError, match="max_plies"):
        envs.quoridor_v0.raw_env(max_plies=0)


def test_truncated_agents_get_zero_reward():
    env = envs.quoridor_v0.raw_env(size=9, max_plies=3)
    env.reset(seed=1)
    for _ in range(3):
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert set(env._cumulative_rewards.values()) == {0.0}


def test_aec_illegal_action():
    raw = envs.quoridor_v0.raw_env(size=5)
    raw.reset(seed=0)
    illegal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(CrossridorError, match="cannot play action"):
        raw.step(illegal)
    wrapped = envs.quoridor_v0.env(size=5)
    wrapped.reset(seed=0)
    first = wrapped.agent_selection
    wrapped.step(illegal)          # the classic games' wrapper: the game ends, -1 for the agent
    assert wrapped.rewards[first] == -1 and all(wrapped.terminations.values())


@pytest.mark.parametrize("game,params", [("crosswise", {}), ("kreuzundquer", {}), ("qwatrobat", {})])
def test_aec_seed_fixes_the_deal_and_chance(game, params):
    def trajectory(seed):
        env = MODULES[game].raw_env(**params)
        env.reset(seed=seed)
        rng = np.random.default_rng(0)      # the same actions policy for every seed
        seen = []
        while env.agents:
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            seen.append(obs["observation"].tobytes())
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return seen, env.episode.actions

    assert trajectory(7) == trajectory(7)
    # other seeds, other deals or draws (Qwatrobat's only chance is who starts)
    assert len({tuple(trajectory(seed)[1]) for seed in range(8)}) > 1


@pytest.mark.parametrize("case", HIDDEN, ids=_case_id)
def test_no_observation_changes_with_another_seats_hidden_information(case):
    """Swap the state for one that differs only in what seat p cannot see
    (the game's sample_determinization for p): p's observation must not
    change, while another seat's does in some sample (the hidden part really
    changed)."""
    game, params = case
    env = MODULES[game].raw_env(**params)
    n = env.game.traits.num_players
    checked = others_changed = 0
    for seed in range(4):
        for until in (0, 3, 9, 20):
            env.reset(seed=seed)
            _play_random(env, seed, until=until)
            if not env.agents or any(env.terminations.values()):
                continue
            state = env.episode.state
            for p in range(n):
                before = {q: env.observe(f"player_{q + 1}")["observation"].copy() for q in range(n)}
                for k in range(3):
                    other = state.sample_determinization(p, random.Random(1000 * seed + k))
                    env.episode.state = other
                    try:
                        assert np.array_equal(env.observe(f"player_{p + 1}")["observation"], before[p]), \
                            f"seat {p}'s observation changed with hidden information it cannot see"
                        checked += 1
                        others_changed += any(not np.array_equal(env.observe(f"player_{q + 1}")["observation"],
                                                                 before[q]) for q in range(n) if q != p)
                    finally:
                        env.episode.state = state
    assert checked > 0
    assert others_changed > 0, "no determinization changed another seat's hidden information"


def test_information_state_observations_hide_what_only_others_saw():
    """The perfect-recall observations (a determinization has no history, so
    these positions are built by hand): two games that differ only in what
    seat 1 holds or drew look the same to player_1, not to player_2."""
    cases = [
        (envs.crosswise_v0.raw_env(players=2, chance=True, observation_type="information_state"),
         # dealt hands 1122 / 5566, then seat 1 draws a 3 or a 4 (seat 0 does not see it)
         "tile:1 tile:1 tile:2 tile:2 tile:5 tile:5 tile:6 tile:6 start:1 1@a1 tile:5 5@b2 tile:{} 2@c3 tile:1",
         ("3", "4")),
        (envs.qwatrobat_v0.raw_env(observation_type="information_state"),
         "1234/4321 {} first:1 c1 c1", ("2143/3412", "2341/1342")),   # seat 1's layouts, same first card
    ]
    for env, moves, (x, y) in cases:
        env.reset(seed=0)
        seen = {}
        for hidden in (x, y):
            env.episode.state = env.game.new_state(moves.format(hidden).split())
            seen[hidden] = [env.observe(a)["observation"].copy() for a in ("player_1", "player_2")]
        assert np.array_equal(seen[x][0], seen[y][0])
        assert not np.array_equal(seen[x][1], seen[y][1])


def _gym_trajectory(gym_id, seed, **kw):
    env = gym.make(gym_id, **kw)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(0)
    out = [obs["observation"].tobytes()]
    rewards = []
    while True:
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        out.append(obs["observation"].tobytes())
        rewards.append(reward)
        if term or trunc:
            return out, rewards, info


@pytest.mark.parametrize("gym_id,kw", [("crossridor/Quoridor-v0", dict(size=5, opponent="random")),
                                       ("crossridor/Crosswise-v0", dict(opponent="random")),
                                       ("crossridor/Qwatrobat-v0", dict(opponent="greedy")),
                                       ("crossridor/KreuzUndQuer-v0", dict(opponent="random"))])
def test_gym_seed_fixes_the_trajectory(gym_id, kw):
    a = _gym_trajectory(gym_id, 11, **kw)
    assert a[:2] == _gym_trajectory(gym_id, 11, **kw)[:2]
    assert a[0] != _gym_trajectory(gym_id, 12, **kw)[0]
    rewards, info = a[1], a[2]
    assert all(r == 0 for r in rewards[:-1])
    if "returns" in info:
        assert rewards[-1] == info["returns"][info["seat"] - 1]      # returns are in seat order


def test_gym_episode_against_an_engine_spec_and_a_callable():
    env = gym.make("crossridor/Quoridor-v0", size=5, opponent="alphabeta:depth=2")
    _, info = env.reset(seed=0)
    assert env.unwrapped.opponent.name == "alphabeta:depth=2"
    calls = []

    def first_legal(state):
        calls.append(state.current_player)
        return state.legal_actions()[0]

    env = gym.make("crossridor/Qwatrobat-v0", opponent=first_legal, seat=2)
    _, info = env.reset(seed=0)
    while True:
        _, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        if term or trunc:
            break
    assert calls and set(calls) == {0}          # the opponent is player index 0, seat 1
    assert info["seat"] == 2 and len(info["returns"]) == 2


def test_gym_bad_options_are_clear_errors():
    with pytest.raises(CrossridorError, match="unknown algorithm"):
        gym.make("crossridor/Quoridor-v0", opponent="nosuch:depth=2")
    for seat in (0, 3):
        with pytest.raises(CrossridorError, match=r"seat must be 1\.\.2"):
            gym.make("crossridor/Quoridor-v0", seat=seat)
    with pytest.raises(CrossridorError, match="render_mode"):
        envs.CrossridorGymEnv("quoridor", render_mode="picture")
    for size in (10, "4x2", "4x7x2"):
        with pytest.raises(crossridor.UnknownGameError, match="size"):
            gym.make("crossridor/Quoridor-v0", size=size)
    with pytest.raises(CrossridorError, match="four-player board is square"):
        gym.make("crossridor/Quoridor-v0", size="4x7", players=4)


def test_gym_illegal_action_ends_the_episode():
    env = gym.make("crossridor/Quoridor-v0", size=5)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, term, trunc, info = env.step(illegal)
    assert (reward, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    assert not obs["action_mask"].any()
    with pytest.raises(CrossridorError, match="reset"):
        env.unwrapped.step(0)


def test_render_ansi_and_svg_hide_what_the_viewer_cannot_see():
    env = envs.crosswise_v0.raw_env(render_mode="ansi", render_viewer=1)     # seat 1: player index 0
    env.reset(seed=3)
    state = env.episode.state
    assert env.render() == state.render(0) != state.render(1)
    env = envs.crosswise_v0.raw_env(render_mode="svg", render_viewer=None)
    env.reset(seed=3)
    assert env.render().lstrip().startswith("<svg") and env.render() == env.episode.state.to_svg(viewer=None)
    genv = gym.make("crossridor/Crosswise-v0", render_mode="ansi", seat=2)
    genv.reset(seed=3)
    assert genv.render() == genv.unwrapped.episode.state.render(1)
    qenv = envs.quoridor_v0.raw_env(size=5, render_mode="ansi")
    qenv.reset(seed=0)
    assert qenv.render() == str(qenv.episode.state)


def test_render_rgb_array():
    env = envs.quoridor_v0.raw_env(size=5, render_mode="rgb_array")
    env.reset(seed=0)
    try:                       # what the rasteriser needs (episode.svg_to_rgb)
        import cairocffi  # noqa: F401
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        with pytest.raises(CrossridorError, match="cairosvg"):
            env.render()
        return
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert picture.shape[0] > 50 and picture.shape[1] > 50
    assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 2      # a drawing, not a blank


@pytest.mark.parametrize("game,params", [("quoridor", dict(size=5, players=4)), ("qwatrobat", {})])
def test_vector_games(game, params):
    vg = envs.VectorGames(game, num_envs=6, seed=3, **params)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(60):
        obs, mask, to_move = vg.observe()
        for k, ep in enumerate(vg.episodes):
            assert to_move[k] == ep.to_move
            assert np.array_equal(obs[k], ep.state.observation_tensor(int(to_move[k])))
            assert np.array_equal(np.flatnonzero(mask[k]), ep.state.legal_actions())
        actions = [rng.choice(np.flatnonzero(m)) for m in mask]
        rewards, term, trunc = vg.step(actions)
        finished += int(term.sum() + trunc.sum())
        assert not rewards[~(term | trunc)].any()
        assert np.allclose(rewards[term].sum(axis=1), 0) if vg.game.traits.zero_sum and game == "qwatrobat" else True
    assert finished == vg.games_finished > 0
    with pytest.raises(CrossridorError, match="not legal"):
        vg.step([int(np.flatnonzero(m == 0)[0]) for m in vg.observe()[1]])


def test_vector_games_are_deterministic_by_seed():
    def run(seed):
        vg = envs.VectorGames("quoridor", num_envs=4, seed=seed, size=5)
        out = []
        for _ in range(30):
            obs, mask, _ = vg.observe()
            out.append(obs.copy())
            vg.step([int(np.flatnonzero(m)[len(np.flatnonzero(m)) // 2]) for m in mask])
        return np.stack(out)
    assert np.array_equal(run(1), run(1))


def test_the_example_learns_and_plots(tmp_path):
    """examples/q_learning_quoridor.py runs (a short training) and writes its PNG."""
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).parents[1] / "examples" / "q_learning_quoridor.py"
    spec = importlib.util.spec_from_file_location("q_learning_quoridor", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    curve = example.train(episodes=40, every=20, eval_games=10, opponent="random", size=3, seed=0)
    assert [e for e, _ in curve] == [0, 20, 40] and all(0 <= r <= 1 for _, r in curve)
    png = tmp_path / "curve.png"
    example.plot(curve, 0.5, str(png), "random", 3)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_envs_pickle_as_their_arguments():
    import pickle
    env = envs.crosswise_v0.raw_env(players=3, render_mode="ansi")
    env.reset(seed=1)
    copy = pickle.loads(pickle.dumps(env))
    copy.reset(seed=1)
    assert copy.possible_agents == ["player_1", "player_2", "player_3"]
    assert copy.render() == env.render()


def test_gymnasium_vector_envs_and_make_by_module_path():
    vec = gym.make_vec("crossridor/Quoridor-v0", num_envs=3, size=5)
    obs, info = vec.reset(seed=0)
    assert obs["observation"].shape == (3, 10, 5, 5) and info["action_mask"].shape == (3, 58)
    vec.close()
    import subprocess
    import sys
    code = ("import gymnasium as gym; e = gym.make('crossridor.envs:crossridor/Qwatrobat-v0'); "
            "o, i = e.reset(seed=0); print(o['observation'].shape)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=HANG)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "(148,)"
