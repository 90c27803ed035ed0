"""crossridor's games inside OpenSpiel (the optional
`openspiel` extra, which brings the `open-spiel` package).

Importing this module registers four Python games with pyspiel:

    import crossridor.openspiel, pyspiel
    game = pyspiel.load_game("crossridor_quoridor(size=7)")

| pyspiel name               | parameters (defaults)                                          |
|----------------------------|----------------------------------------------------------------|
| crossridor_quoridor        | size=9, players=2, walls=-1 (the rules' 10 / 5), max_plies=0   |
|                            | (0: a draw after 4 * W * H plies; OpenSpiel needs a bound),    |
|                            | width=0, height=0 (a board of W columns and H rows, 0: size;   |
|                            | OpenSpiel's size is an integer: width=4,height=7 for 4x7)      |
| crossridor_crosswise       | players=2 (deal and draws as chance nodes: chance=True)        |
| crossridor_qwatrobat       | open, clear_four, last_round_points, cards as the game;        |
|                            | first=-1 (drawn), position="" (start from a position string)  |
| crossridor_kreuzundquer    | players=2, races=0 (= players), deck_seed=0, max_stages=20     |
|                            | (the route-card deal as chance nodes: chance=True)            |

Actions are the game's action ids (games.learning.<game>): player actions
keep their id; a chance outcome's OpenSpiel action is its id minus the
first chance id (OpenSpiel numbers chance outcomes from 0). Observations are
the game's observation tensors and `information_state(player)` strings; the
information state (string, and tensor where the game has one) has perfect
recall: the player's own actions and every view they had, in order.
"""

from __future__ import annotations

import numpy as np

from crossridor.engine.extras import install_hint

try:
    import pyspiel
except ImportError as exc:   # pragma: no cover - depends on the environment
    raise ImportError(f"crossridor.openspiel needs OpenSpiel, {install_hint('openspiel')}") from exc

import crossridor
from crossridor.engine.protocol import CHANCE, TERMINAL
from crossridor.games.learning import codec as _codec


def _quoridor(p):
    width, height = p["width"] or p["size"], p["height"] or p["size"]
    game = crossridor.load_game("quoridor", size=(width, height), players=p["players"],
                                walls=None if p["walls"] < 0 else p["walls"],
                                max_plies=p["max_plies"] or 4 * width * height)
    return game, game.max_plies


def _crosswise(p):
    game = crossridor.load_game("crosswise", players=p["players"], chance=True)
    n = p["players"]
    # the deal, the start seat, at most 54 tile-using moves with a draw each
    # and fewer than n passes between two of them, then n passes
    return game, (4 * n + 2) + 1 + 54 * (n + 1) + n


def _qwatrobat(p):
    game = crossridor.load_game("qwatrobat", open=p["open"], clear_four=p["clear_four"],
                                last_round_points=p["last_round_points"], cards=p["cards"],
                                first=None if p["first"] < 0 else p["first"] + 1)   # OpenSpiel's player -> seat
    return game, 2 + 1 + 2 * p["cards"]


def _kreuzundquer(p):
    n = p["players"]
    races = p["races"] or n
    game = crossridor.load_game("kreuzundquer", players=n, races=races, chance=True,
                                deck_seed=p["deck_seed"], max_stages=p["max_stages"])
    # per stage: at most 48 flips (flip, reveal, keep/leave), 48 takes, a stop
    # per player and a penalty draw; per race the goals
    stage = 48 * 3 + 48 + n + 1
    return game, n * game.deal + n + races * (n + p["max_stages"] * stage)


_GAMES = {
    "crossridor_quoridor": ("Quoridor", _quoridor,
                            {"size": 9, "players": 2, "walls": -1, "max_plies": 0, "width": 0, "height": 0}),
    "crossridor_crosswise": ("Crosswise", _crosswise, {"players": 2}),
    "crossridor_qwatrobat": ("Qwatrobat", _qwatrobat,
                             {"open": False, "clear_four": True, "last_round_points": 6,
                              "cards": 8, "first": -1, "position": ""}),
    "crossridor_kreuzundquer": ("Kreuz & Quer", _kreuzundquer,
                                {"players": 2, "races": 0, "deck_seed": 0, "max_stages": 20}),
}


class CrossridorGame(pyspiel.Game):
    """A crossridor game seen through pyspiel's Game interface."""

    def __init__(self, params=None):
        short = type(self).SHORT_NAME
        _, build, defaults = _GAMES[short]
        p = dict(defaults)
        p.update(params or {})
        self.cr_params = p
        self.cr_game, max_length = build(p)
        self.codec = _codec(self.cr_game)
        traits = self.cr_game.traits
        super().__init__(_game_type(short, traits),
                         pyspiel.GameInfo(num_distinct_actions=self.codec.chance_base,
                                          max_chance_outcomes=self.codec.num_distinct_actions()
                                          - self.codec.chance_base,
                                          num_players=traits.num_players,
                                          min_utility=traits.min_return,
                                          max_utility=traits.max_return,
                                          utility_sum=0.0 if traits.zero_sum else None,
                                          max_game_length=max_length),
                         p)

    def new_initial_state(self):
        return CrossridorState(self)

    def cr_start(self):
        """A copy of the crossridor state the game starts from (pyspiel makes
        a new initial state for every clone: it is built once)."""
        start = self.__dict__.get("_cr_start")
        if start is None:
            p = self.cr_params
            if p.get("position"):
                start = self.cr_game.state_from_position(p["position"])
            else:
                start = self.cr_game.new_state()
            self._cr_start = start
        return start.clone()

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"crossridor observers take no parameters, got {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return CrossridorObserver(self, perfect_recall)


class CrossridorState(pyspiel.State):
    """A crossridor state seen through pyspiel's State interface."""

    # pyspiel clones a Python state by deep-copying its attributes: `inner`
    # copies itself with clone(), the rest is immutable and shared (_Shared).

    def __init__(self, game):
        super().__init__(game)
        self.inner = game.cr_start()
        self._game = _Shared(game)
        # per player, a linked list (previous, item) of what they saw and did
        views = game.__dict__.get("_cr_views")
        if views is None:
            n = game.cr_game.traits.num_players
            views = game._cr_views = _Shared(tuple((None, self._view(p)) for p in range(n)))
        self._views = views

    @property
    def cr_game(self):
        return self._game.value

    @property
    def views(self):
        return self._views.value

    def _view(self, player):
        hidden = self.inner.game.traits.hidden_information
        return self.inner.information_state(player) if hidden else self.inner.position()

    def current_player(self):
        p = self.inner.current_player
        if p == CHANCE:
            return pyspiel.PlayerId.CHANCE
        if p == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return p

    def _legal_actions(self, player):
        return self.inner.legal_actions()

    def chance_outcomes(self):
        base = self.cr_game.codec.chance_base
        return [(a - base, p) for a, p in self.inner.chance_action_outcomes()]

    def _apply_action(self, action):
        mover = self.inner.current_player
        if mover == CHANCE:
            action += self.cr_game.codec.chance_base
        move = self.cr_game.codec.action_to_move(action)
        self.inner.play(move)
        views = []
        for p, v in enumerate(self.views):
            if p == mover:
                v = (v, f"played {move}")
            views.append((v, self._view(p)))
        self._views = _Shared(tuple(views))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            action += self.cr_game.codec.chance_base
        return str(self.cr_game.codec.action_to_move(action))

    def is_terminal(self):
        return self.inner.is_terminal()

    def returns(self):
        return list(self.inner.returns())

    def information_history(self, player) -> str:
        items, v = [], self.views[player]
        while v is not None:
            v, item = v
            items.append(item)
        return "\n".join(reversed(items))

    def __str__(self):
        return str(self.inner)


class _Shared:
    """An immutable value that copies share (deepcopy returns it as is)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __deepcopy__(self, memo):
        return self


class CrossridorObserver:
    """pyspiel's observer protocol: `tensor`, `dict`, `set_from`, `string_from`.
    perfect_recall selects the information state, else the observation."""

    def __init__(self, game, perfect_recall):
        self.game = game
        self.perfect_recall = perfect_recall
        c = game.codec
        if perfect_recall:
            shape = c.information_state_tensor_shape() if hasattr(c, "information_state_tensor") else (0,)
        else:
            shape = c.observation_tensor_shape()
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"information_state" if perfect_recall else "observation": self.tensor.reshape(shape)}

    def set_from(self, state, player):
        if not self.tensor.size:
            return
        c = self.game.codec
        if self.perfect_recall:
            self.tensor[:] = c.information_state_tensor(state.inner, player).ravel()
        else:
            self.tensor[:] = c.observation_tensor(state.inner, player).ravel()

    def string_from(self, state, player):
        if self.perfect_recall:
            return state.information_history(player)
        return state._view(player)


def _game_type(short, traits):
    long_name, _, defaults = _GAMES[short]
    c = pyspiel.GameType
    chance = c.ChanceMode.EXPLICIT_STOCHASTIC if traits.chance else c.ChanceMode.DETERMINISTIC
    info = (c.Information.IMPERFECT_INFORMATION if traits.hidden_information
            else c.Information.PERFECT_INFORMATION)
    utility = c.Utility.ZERO_SUM if traits.zero_sum else c.Utility.GENERAL_SUM
    return c(short_name=short, long_name=f"crossridor {long_name}", dynamics=c.Dynamics.SEQUENTIAL,
             chance_mode=chance, information=info, utility=utility,
             reward_model=c.RewardModel.TERMINAL, max_num_players=4, min_num_players=2,
             provides_information_state_string=True,
             provides_information_state_tensor=_has_info_tensor(short),
             provides_observation_string=True, provides_observation_tensor=True,
             parameter_specification=defaults)


def _has_info_tensor(short):
    return short in ("crossridor_crosswise", "crossridor_qwatrobat")


def _register():
    registered = set(pyspiel.registered_names())
    for short in _GAMES:
        if short in registered:
            continue
        cls = type(f"Game_{short}", (CrossridorGame,), {"SHORT_NAME": short})
        # registered with the default configuration's traits; a game loaded
        # with other parameters (qwatrobat first=0: no chance) reports its own
        traits = _default_traits(short)
        pyspiel.register_game(_game_type(short, traits), cls)


def _default_traits(short):
    _, build, defaults = _GAMES[short]
    game, _ = build(dict(defaults))
    return game.traits


_register()
