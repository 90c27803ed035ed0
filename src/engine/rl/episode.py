"""What every environment shares: a game's declaration (`EnvDeclaration`,
from its registry entry), one episode of it (`Episode`: the deal from a seed, the chance outcomes
drawn inside, the ply cap, per-seat observations and masks), the spaces,
and rendering (text, SVG, RGB through cairosvg)."""

from __future__ import annotations

import io

import numpy as np

from crossridor.engine.environments import EnvDeclaration
from crossridor.engine.errors import CrossridorError, UnknownGameError
from crossridor.engine.extras import install_hint
from crossridor.engine.options import check_params
from crossridor.engine.protocol import CHANCE, SPECTATOR
from crossridor.engine.registry import environment, game_entry, read_params

RENDER_MODES = ("ansi", "svg", "rgb_array")
# what an agent observes: the game's observation tensor (now), or its
# information-state tensor (everything the seat has seen since the deal;
# Crosswise and Qwatrobat), both filtered by seat
OBSERVATION_TYPES = ("observation", "information_state")


def declaration(game: str) -> EnvDeclaration:
    """The environment declaration of a registered game (its registry entry's)."""
    return environment(game)



def load_environment_game(decl: EnvDeclaration, params: dict):
    """(the game, its parameters completed with their defaults) for the
    environment keywords `params` (text values read by their kind)."""
    entry = game_entry(decl.game)
    given = read_params(decl.game, {**decl.defaults, **params})
    full = check_params(entry.name, given, entry.params, UnknownGameError)
    return entry.load(**full), full


def check_observation_type(game, kind: str) -> tuple:
    """The tensor shape of observation type `kind` (a clear error if the game has none)."""
    if kind not in OBSERVATION_TYPES:
        raise CrossridorError(f"observation_type must be one of {', '.join(OBSERVATION_TYPES)}, got {kind!r}")
    if kind == "observation":
        return tuple(game.observation_tensor_shape())
    return tuple(game.information_state_tensor_shape())     # raises, saying why, where there is none


def spaces_for(game, high: float, kind: str = "observation"):
    """(observation space, action space) of one seat, as PettingZoo's classic
    games have them: Dict(observation=Box, action_mask=Box int8), Discrete."""
    from gymnasium import spaces
    n = game.num_distinct_actions()
    obs = spaces.Dict({
        "observation": spaces.Box(0.0, high, shape=check_observation_type(game, kind), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
    })
    return obs, spaces.Discrete(n)


def check_cap(max_plies) -> int | None:
    if max_plies is not None and (isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1):
        raise CrossridorError(f"max_plies must be a positive integer or None, got {max_plies!r}")
    return max_plies


class Episode:
    """One game being played: the state, its seeded chance, its ply cap.
    Chance nodes are resolved as soon as they come up, so that
    `state.current_player` is always a seat or TERMINAL."""

    def __init__(self, game, rng: np.random.Generator, max_plies: int | None, kind: str = "observation"):
        self.game = game
        self.kind = kind
        self.rng = rng
        self.max_plies = max_plies
        # the deal (Crosswise's tiles, Kreuz & Quer's route cards) from the episode's seed
        self.state = game.new_state(None, seed=int(rng.integers(2 ** 63)))
        self.plies = 0          # moves made by the seats (chance outcomes not counted)
        self.actions: list[int] = []   # every action applied since the deal, chance included
        self._legal: list[int] | None = None      # the legal actions now (the mask and the step's check share them)
        self.resolve_chance()

    def resolve_chance(self) -> None:
        state = self.state
        while state.current_player == CHANCE:
            outcomes = state.chance_action_outcomes()
            p = np.array([q for _, q in outcomes], dtype=np.float64)
            action = outcomes[int(self.rng.choice(len(outcomes), p=p / p.sum()))][0]
            state.apply_action(action)
            self.actions.append(action)

    @property
    def to_move(self) -> int:
        return self.state.current_player

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self.state.legal_actions()
        return self._legal

    def legal(self, action) -> bool:
        return action in self.legal_actions()

    def play(self, action: int) -> None:
        """The seat to move plays `action` (legal), then chance is resolved."""
        self._legal = None
        self.state.apply_action(int(action))
        self.actions.append(int(action))
        self.plies += 1
        self.resolve_chance()

    @property
    def terminated(self) -> bool:
        return self.state.is_terminal()

    @property
    def truncated(self) -> bool:
        return not self.terminated and self.max_plies is not None and self.plies >= self.max_plies

    def returns(self) -> list[float]:
        """The game's returns at its end (±1 with two seats); zeros when truncated."""
        return [float(r) for r in self.state.returns()] if self.terminated else [0.0] * self.game.traits.num_players

    def observation(self, seat: int, mask: bool) -> dict:
        """Seat `seat`'s observation (the game's per-seat tensor, which holds
        only what that seat may see) and its action mask (zeros unless it is
        the seat to move)."""
        m = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if mask and self.to_move == seat:
            m[self.legal_actions()] = 1
        state = self.state
        tensor = state.observation_tensor(seat) if self.kind == "observation" else state.information_state_tensor(seat)
        return {"observation": tensor, "action_mask": m}


def render(decl: EnvDeclaration, state, mode: str | None, viewer: int | None):
    """The state as `mode` shows it to `viewer` (None: everything, SPECTATOR:
    the public part, a seat: that seat's view)."""
    if mode is None:
        return None
    if mode == "ansi":
        return decl.render_text(state, viewer)
    svg = state.to_svg(viewer=viewer)
    if mode == "svg":
        return svg
    return svg_to_rgb(svg)


def svg_to_rgb(svg: str) -> np.ndarray:
    """An SVG picture as an (H, W, 3) uint8 array (cairosvg, the `png` extra)."""
    try:
        import cairocffi
        import cairosvg
    except (ImportError, OSError) as exc:
        raise CrossridorError(f"render_mode='rgb_array' needs cairosvg, {install_hint('png')}: {exc}") from None
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    surface = cairocffi.ImageSurface.create_from_png(io.BytesIO(png))
    h, w, stride = surface.get_height(), surface.get_width(), surface.get_stride()
    bgra = np.frombuffer(surface.get_data(), dtype=np.uint8).reshape(h, stride // 4, 4)[:, :w]
    # cairo's ARGB32 is premultiplied, little-endian BGRA: composite on white
    alpha = bgra[..., 3:4].astype(np.float32) / 255
    rgb = bgra[..., 2::-1].astype(np.float32) + 255 * (1 - alpha)
    return np.clip(rgb, 0, 255).astype(np.uint8)


def check_render_mode(mode, modes=RENDER_MODES) -> None:
    if mode is not None and mode not in modes:
        raise CrossridorError(f"render_mode must be one of {', '.join(modes)} or None, got {mode!r}")


__all__ = ["OBSERVATION_TYPES", "RENDER_MODES", "SPECTATOR", "EnvDeclaration", "Episode", "check_cap",
           "check_observation_type", "check_render_mode", "declaration", "render", "spaces_for", "svg_to_rgb"]
