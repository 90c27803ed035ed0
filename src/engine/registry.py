"""The one registry: every game and every search algorithm, by name, with
what each declares (parameters, options, picture, environment). Every door
(CLI, Python, UCI, web, RL, records, Dask) resolves names here and nowhere
else; a name read from data resolves only to what is registered.

The engine registers its own algorithms (`crossridor.engine.algorithms.catalog`);
the games register themselves (`crossridor.games.<game>.entry`). Both are
imported by the `crossridor` package, so every door sees them. Users add
theirs with `crossridor.register_game` / `crossridor.register_algorithm`.
This module imports no game and no algorithm."""

from __future__ import annotations

import importlib.resources
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from crossridor.engine.environments import EnvDeclaration
from crossridor.engine.errors import CrossridorError, UnknownGameError
from crossridor.engine.options import Param, check_params
from crossridor.engine.options import read_params as read_values
from crossridor.engine.protocol import Game, GameTraits

# a registered name: never `module:function`, which is how a user names a plug-in
_NAME = re.compile(r"[a-z][a-z0-9_-]*\Z")


def _searches_every_game(traits: GameTraits) -> None:
    """The default of `AlgorithmEntry.check_game`: no game is refused."""


@dataclass(frozen=True)
class AlgorithmEntry:
    """A search algorithm written once over the game protocol.
    `search(state, limits, seed=None, **options) -> SearchResult`;
    `check_game(traits)` raises UnsupportedGameError for a game it cannot
    search (a game's own fast path may still search it, see
    `GameEntry.options`)."""

    name: str
    search: Callable[..., Any]
    options: tuple[Param, ...]
    doc: str
    check_game: Callable[[GameTraits], None] = _searches_every_game


@dataclass(frozen=True)
class GameEntry:
    """A game as the registry knows it.

    `load(**params)` receives the parameters checked against `params` and
    completed with their defaults. `options[algorithm]`, where given,
    replaces the algorithm's own options for this game (a fast path of the
    game's own, with options of its own; an empty tuple: it takes none).
    `picture(view, last_move=True, arrows=())` draws `state.view(viewer)` as
    SVG text, and `click_paths(move)` lists the ids of the picture's
    elements to click, in order, to make a move (the web page). `codec(game)`
    is the game's learning codec (`crossridor.games.learning`),
    `environment` its reinforcement-learning declaration, and `outlook()`
    its `crossridor.engine.outlook.Calibration` (what its searches' scores
    mean: fitted constants, proven results), loaded on first use."""

    name: str
    load: Callable[..., Game]
    params: tuple[Param, ...]
    doc: str
    aliases: tuple[str, ...] = ()
    options: Mapping[str, tuple[Param, ...]] = field(default_factory=dict)
    rules_file: str | None = None        # docs/rules/<file>, installed as crossridor/rules/<file>
    picture: Callable[..., str] | None = None
    click_paths: Callable[[str], list[list[str]]] | None = None
    codec: Callable[[Any], Any] | None = None
    environment: EnvDeclaration | None = None
    outlook: Callable[[], Any] | None = None


_GAMES: dict[str, GameEntry] = {}
_ALIASES: dict[str, str] = {}
_ALGORITHMS: dict[str, AlgorithmEntry] = {}


def _check_declared(where: str, params: tuple[Param, ...]) -> None:
    if not isinstance(params, tuple) or not all(isinstance(p, Param) for p in params):
        raise CrossridorError(f"{where}: declare the parameters as a tuple of Param")
    names = [p.name for p in params]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise CrossridorError(f"{where}: {twice[0]!r} is declared twice")


def register_game(entry: GameEntry) -> None:
    """Add a game (a name or alias already taken, or not a plain lower-case
    name, raises CrossridorError)."""
    if not isinstance(entry, GameEntry):
        raise CrossridorError(f"register_game takes a GameEntry, got {type(entry).__name__}")
    names = [entry.name.lower(), *(a.lower() for a in entry.aliases)]
    for name in names:
        if not _NAME.match(name):
            raise CrossridorError(f"register_game: {name!r} is not a name (lower-case letters, digits, _ and -)")
    taken = [n for n in names if n in _GAMES or n in _ALIASES]
    if taken:
        raise CrossridorError(f"register_game: the name {taken[0]!r} is taken")
    _check_declared(f"register_game {names[0]}", entry.params)
    # the option declarations themselves may be built on first use (LazyOptions)
    for algorithm in entry.options:
        if not isinstance(algorithm, str):
            raise CrossridorError(f"register_game {names[0]}: options are keyed by algorithm name")
    _GAMES[names[0]] = entry
    for alias in names[1:]:
        _ALIASES[alias] = names[0]


def register_algorithm(entry: AlgorithmEntry) -> None:
    """Add a search algorithm (a name already taken raises CrossridorError)."""
    if not isinstance(entry, AlgorithmEntry):
        raise CrossridorError(f"register_algorithm takes an AlgorithmEntry, got {type(entry).__name__}")
    if not _NAME.match(entry.name):
        raise CrossridorError(f"register_algorithm: {entry.name!r} is not a name "
                              f"(lower-case letters, digits, _ and -)")
    if entry.name in _ALGORITHMS:
        raise CrossridorError(f"register_algorithm: the name {entry.name!r} is taken")
    _check_declared(f"register_algorithm {entry.name}", entry.options)
    _ALGORITHMS[entry.name] = entry


# --- games ----------------------------------------------------------------------------

def game_names() -> list[str]:
    return sorted(_GAMES)


def game_aliases() -> dict[str, str]:
    """alias -> registered name."""
    return dict(_ALIASES)


def game_key(name: str) -> str:
    """The registered name of a game name or alias; UnknownGameError if none."""
    key = str(name).lower()
    key = _ALIASES.get(key, key)
    if key not in _GAMES:
        raise UnknownGameError(f"unknown game {str(name)[:80]!r} (known: {', '.join(game_names())})")
    return key


def game_entry(name: str) -> GameEntry:
    return _GAMES[game_key(name)]


def load_game(name: str, **params: Any) -> Game:
    """`load_game("quoridor", size=7, players=4)` -> a Game. An unknown
    game, or an unknown or bad parameter, raises UnknownGameError naming it."""
    entry = game_entry(name)
    checked = check_params(entry.name, params, entry.params, UnknownGameError)
    return entry.load(**checked)


def read_params(name: str, given: Mapping[str, Any], where: str | None = None) -> dict[str, Any]:
    """The parameters of game `name` as a door received them (`-o key=value`,
    a web form, a PGN Options tag, an environment's keywords): a text value
    is read by its parameter's declared kind (`Param.parse`: `yes`, `on`
    and `1` are true for every boolean), any other value is checked as it
    is. Only the names given come back (`load_game` adds the defaults);
    UnknownGameError names an unknown or bad one."""
    entry = game_entry(name)
    return read_values(where or entry.name, given, entry.params, UnknownGameError)


def _rules_folders() -> Iterator[Traversable]:
    # a source checkout (an editable install): docs/rules itself, always current
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file():
        yield checkout / "docs" / "rules"
    # the installed package: CMakeLists.txt installs docs/rules as crossridor/rules
    yield importlib.resources.files("crossridor").joinpath("rules")


def rules_text(name: str) -> str:
    """The rules of a game as this project implements them (Markdown)."""
    entry = game_entry(name)
    if entry.rules_file is None:
        raise CrossridorError(f"{entry.name} has no rules file")
    for folder in _rules_folders():
        try:
            return folder.joinpath(entry.rules_file).read_text(encoding="utf-8")
        except OSError:
            continue
    raise CrossridorError(f"no rules file for {name} ({entry.rules_file} is not installed)")


def picture(view: dict, last_move: bool = True, arrows=()) -> str:
    """The SVG of a game's `state.view(...)`: a function of the view alone,
    so a picture cannot show more than the view holds."""
    entry = game_entry(view["game"])
    if entry.picture is None:
        raise CrossridorError(f"{entry.name} has no picture")
    return entry.picture(view, last_move=last_move, arrows=arrows)


def click_paths(game: str, move: str) -> list[list[str]]:
    """The element ids to click, in order, to make `move` on the game's
    picture (none for a game without one)."""
    entry = game_entry(game)
    return entry.click_paths(move) if entry.click_paths is not None else []


def environment(name: str) -> EnvDeclaration:
    """The reinforcement-learning declaration of a registered game."""
    entry = game_entry(name)
    if entry.environment is None:
        raise CrossridorError(f"{entry.name} declares no reinforcement-learning environment")
    return entry.environment


def environment_games() -> list[str]:
    """The games with a reinforcement-learning environment."""
    return [name for name in game_names() if _GAMES[name].environment is not None]


# --- algorithms -----------------------------------------------------------------------

def algorithm_names() -> list[str]:
    return sorted(_ALGORITHMS)


def algorithm_entry(name: str) -> AlgorithmEntry:
    if not isinstance(name, str) or name not in _ALGORITHMS:
        raise CrossridorError(f"unknown algorithm {str(name)[:80]!r} (known: {', '.join(algorithm_names())})")
    return _ALGORITHMS[name]


def algorithm_options(game: str, algorithm: str) -> tuple[Param, ...]:
    """The options `algorithm` takes on `game`, declared once."""
    entry = game_entry(game)
    found = algorithm_entry(algorithm)
    if algorithm in entry.options:
        options = entry.options[algorithm]
        _check_declared(f"{entry.name}: options of {algorithm}", options)
        return options
    return found.options


def check_searchable(game: str, algorithm: str, traits: GameTraits | None = None) -> None:
    """UnsupportedGameError when `algorithm` cannot search `game` (its
    traits with the default parameters unless given): the game's own fast
    path searches it, or the algorithm accepts the game's traits."""
    entry = game_entry(game)
    found = algorithm_entry(algorithm)
    if algorithm in entry.options:
        return
    found.check_game(traits if traits is not None else load_game(entry.name).traits)


def algorithms_for(game: str) -> list[str]:
    """The algorithms that can search `game` (with its default parameters)."""
    traits = load_game(game).traits
    out = []
    for name in algorithm_names():
        try:
            check_searchable(game, name, traits)
        except CrossridorError:
            continue
        out.append(name)
    return out


class LazyOptions(Mapping):
    """algorithm -> options, built by `build()` on first use (a game's entry
    stays light); `algorithms`, its keys, are known before, and a build that
    declares other keys is refused."""

    def __init__(self, build: Callable[[], Mapping[str, tuple[Param, ...]]], algorithms: tuple[str, ...]):
        self._build = build
        self._keys = algorithms          # known without building
        self._built: Mapping[str, tuple[Param, ...]] | None = None

    def _options(self) -> Mapping[str, tuple[Param, ...]]:
        if self._built is None:
            built = self._build()
            if set(built) != set(self._keys):
                raise CrossridorError(f"the options are declared for {sorted(built)}, the entry lists "
                                      f"{sorted(self._keys)}")
            self._built = built
        return self._built

    def __getitem__(self, algorithm: str) -> tuple[Param, ...]:
        if algorithm not in self._keys:
            raise KeyError(algorithm)
        return self._options()[algorithm]

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, algorithm: object) -> bool:
        return algorithm in self._keys
