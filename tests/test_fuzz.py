"""Fuzzing with hypothesis: move parsers, position strings, game (-o) and
search (-e) options of all four games, and random API call sequences (play,
undo, legal_moves, search with tiny limits) against the core.

After every step: no crash, only a CrossridorError (a ValueError) for bad
input; `undo` restores the position string; every legal move prints and
parses back to itself; a position string reads back to the same position.

Profiles: "quick" (the default; a few seconds, run in CI) and "long":

    CROSSRIDOR_FUZZ=long nice python -m pytest -q -s tests/test_fuzz.py

(CROSSRIDOR_FUZZ_SCALE=0.1 runs a tenth of the long profile; the number of
inputs tried is printed at the end with -s, and every 5,000 inputs written to
the file CROSSRIDOR_FUZZ_LOG names, if set; CROSSRIDOR_FUZZ_SEED=N gives the bulk
driver other inputs. Pytest's -k runs one fuzz target.)
"""

from __future__ import annotations

import functools
import math
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import crossridor
from crossridor import Limits

PROFILE = os.environ.get("CROSSRIDOR_FUZZ", "quick")
if PROFILE not in ("quick", "long"):
    raise ValueError(f"CROSSRIDOR_FUZZ must be quick or long, got {PROFILE!r}")
# examples per test: quick (CI), long (the default scale gives about 1,000,000 inputs)
EXAMPLES = {"parser": (60, 400_000), "position": (60, 400_000), "game": (60, 150_000),
            "search": (20, 6_000), "api": (40, 40_000)}
SCALE = float(os.environ.get("CROSSRIDOR_FUZZ_SCALE", 1.0))


def fuzz(kind: str):
    quick, long = EXAMPLES[kind]
    n = quick if PROFILE == "quick" else max(1, int(long * SCALE))
    return settings(max_examples=n, deadline=None, derandomize=PROFILE == "quick", database=None,
                    suppress_health_check=list(HealthCheck))

GAMES = {
    "quoridor": [{}, {"size": 5}, {"size": 3, "players": 4}, {"size": 7, "walls": 3, "max_plies": 30}],
    "crosswise": [{}, {"players": 4}],
    "qwatrobat": [{}, {"open": True, "first": 1}, {"cards": 10}],
    "kreuzundquer": [{}, {"players": 3}],
}
CASES = [(name, params) for name, plist in GAMES.items() for params in plist]
ALGORITHMS = ["alphabeta", "mcts", "ismcts", "greedy", "random"]
INPUTS = {"n": 0}
PROGRESS = os.environ.get("CROSSRIDOR_FUZZ_LOG")      # a file: the count so far, every 5,000 inputs


def tick(test: str) -> None:
    INPUTS["n"] += 1
    INPUTS[test] = INPUTS.get(test, 0) + 1
    if PROGRESS and INPUTS["n"] % 5000 == 0:
        with open(PROGRESS, "w") as f:
            f.write(" ".join(f"{k}={v}" for k, v in INPUTS.items()) + "\n")


@pytest.fixture(scope="module", autouse=True)
def _count_inputs():
    yield
    print(f"\nfuzz profile {PROFILE}: {INPUTS['n']} inputs tried "
          f"({', '.join(f'{k} {v}' for k, v in INPUTS.items() if k != 'n')})")


@functools.lru_cache(maxsize=None)
def _game(case):
    name, params = CASES[case]
    return crossridor.load_game(name, **params)


def _state(case: int, seed: int, plies: int):
    """A copy of a cached random position (so that most of the time goes into
    the inputs, not into reaching a position)."""
    key = (case, seed % 8, plies)
    if key not in _STATES:
        _STATES[key] = _random_state(_game(case), key[1], plies)
    return _STATES[key].clone()


_STATES: dict = {}


def _random_state(game, seed: int, plies: int):
    """A position `plies` random moves (chance by its odds) from a seeded deal."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.current_player == crossridor.CHANCE:
            outcomes = state.chance_outcomes()
            state.play(rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.play(rng.choice(list(state.legal_moves())))
    return state


# text near the games' notations, so that the parsers' deeper branches are reached
NOTATION = hs.text(alphabet="abcdefghijk0123456789hvHV-@>=,:/xX .MRPSmoverplacswaktfilgn#\t", max_size=24)
ANY_TEXT = hs.one_of(NOTATION, hs.text(max_size=30))


@fuzz("parser")
@given(case=hs.integers(0, len(CASES) - 1), seed=hs.integers(0, 2 ** 32), plies=hs.integers(0, 40),
       text=ANY_TEXT)
def test_move_parser(case, seed, plies, text):
    tick("move_parser")
    check_move_parser(case, seed, plies, text)


def check_move_parser(case, seed, plies, text):
    state = _state(case, seed, plies)
    before = state.position()
    try:
        move = state.parse_move(text)
    except ValueError:
        assert state.position() == before
        return
    assert move in list(state.legal_moves())
    assert state.position() == before


def _mutations(text: str):
    """Position-string mutations: a character replaced, dropped or doubled,
    a field cut, numbers made huge or negative."""
    return hs.one_of(
        hs.tuples(hs.integers(0, max(0, len(text) - 1)), NOTATION).map(
            lambda t: text[:t[0]] + t[1] + text[t[0] + 1:]),
        hs.integers(0, max(0, len(text) - 1)).map(lambda i: text[:i] + text[i + 1:]),
        hs.integers(0, max(0, len(text) - 1)).map(lambda i: text[:i] + text[i:i + 5] + text[i:]),
        hs.sampled_from(["99999999999999999999", "-1", "nan", "", ":", ","]).flatmap(
            lambda s: hs.integers(0, max(0, len(text))).map(lambda i: text[:i] + s + text[i:])),
    )


@fuzz("position")
@given(case=hs.integers(0, len(CASES) - 1), seed=hs.integers(0, 2 ** 32), plies=hs.integers(0, 40),
       data=hs.data())
def test_position_strings(case, seed, plies, data):
    tick("position_strings")
    text = _state(case, seed, plies).position()
    check_position(case, text, data.draw(hs.one_of(_mutations(text), ANY_TEXT)))


def check_position(case, text, mutated):
    game = _game(case)
    assert game.state_from_position(text).position() == text
    try:
        other = game.state_from_position(mutated)
    except ValueError:
        return
    # whatever reads back is a consistent position
    again = other.position()
    assert game.state_from_position(again).position() == again
    if not other.is_terminal():
        moves = list(other.legal_moves())
        assert moves or other.current_player == crossridor.CHANCE
        for m in moves[:20]:
            assert other.parse_move(str(m)) == m


VALUES = hs.one_of(hs.integers(-2 ** 70, 2 ** 70), hs.floats(allow_nan=True, allow_infinity=True),
                   hs.booleans(), hs.none(), hs.text(max_size=8), hs.sampled_from([[], {}, (1,)]))
GAME_KEYS = ["size", "players", "walls", "max_plies", "open", "first", "cards", "clear_four",
             "last_round_points", "races", "deck_seed", "deck_file", "nonsense"]


@fuzz("game")
@given(name=hs.sampled_from(sorted(GAMES)),
       params=hs.dictionaries(hs.sampled_from(GAME_KEYS), VALUES, max_size=3))
def test_game_options(name, params):
    tick("game_options")
    check_game_options(name, params)


def check_game_options(name, params):
    try:
        game = crossridor.load_game(name, **params)
    except ValueError:
        return
    state = game.new_state(seed=1)
    assert isinstance(state.position(), str)


SEARCH_KEYS = ["hash", "threads", "prune_walls", "eval", "wall_value", "tempo", "lone_wall_value", "rollout", "c",
               "widening", "rollout_depth", "mode", "depth", "width", "root_k", "scale", "roll", "eps", "halving",
               "infer", "tree", "margin", "pbias", "hexp", "act", "objective", "samples", "prior_weight",
               "random_ties", "setup", "setup_top", "endgame", "deny", "take_deny", "lmr", "tt", "bogus"]
OPTION_VALUES = hs.one_of(VALUES, hs.sampled_from(["eval", "random", "pimc", "mcts", "result", "margin"]),
                          hs.integers(0, 3))
LIMITS = hs.sampled_from([Limits(depth=1), Limits(nodes=50), Limits(sims=10), Limits(time=0.01),
                          Limits(sims=5, depth=2)])


@fuzz("search")
@given(case=hs.integers(0, len(CASES) - 1), seed=hs.integers(0, 2 ** 32), plies=hs.integers(0, 30),
       algorithm=hs.sampled_from(ALGORITHMS), limits=LIMITS,
       options=hs.dictionaries(hs.sampled_from(SEARCH_KEYS), OPTION_VALUES, max_size=3),
       search_seed=hs.one_of(hs.none(), hs.integers(-2 ** 70, 2 ** 70)))
def test_search_options(case, seed, plies, algorithm, limits, options, search_seed):
    tick("search_options")
    state = _state(case, seed, plies)
    if state.is_terminal() or state.current_player == crossridor.CHANCE:
        return
    before = state.position()
    try:
        result = crossridor.search(state, algorithm, limits, seed=search_seed, **options)
    except ValueError:
        assert state.position() == before
        return
    assert state.position() == before
    assert result.move in list(state.legal_moves())
    assert not (isinstance(result.score, float) and math.isnan(result.score))


OPS = hs.lists(hs.tuples(hs.sampled_from(["play", "play", "play", "undo", "legal", "search", "position"]),
                         hs.integers(0, 2 ** 16)), max_size=30)


@fuzz("api")
@given(case=hs.integers(0, len(CASES) - 1), seed=hs.integers(0, 2 ** 32), ops=OPS)
def test_api_sequences(case, seed, ops):
    tick("api_sequences")
    game = _game(case)
    state = game.new_state(seed=seed)
    history = [state.position()]     # position before each played move, and the current one
    for op, k in ops:
        terminal = state.is_terminal()
        if op == "play" and not terminal:
            if state.current_player == crossridor.CHANCE:
                outcomes = state.chance_outcomes()
                move = outcomes[k % len(outcomes)][0]
            else:
                moves = list(state.legal_moves())
                move = moves[k % len(moves)]
                assert state.parse_move(str(move)) == move
            state.play(move)
            history.append(state.position())
        elif op == "undo" and len(history) > 1:
            state.undo()
            history.pop()
            assert state.position() == history[-1]
        elif op == "legal" and not terminal and state.current_player != crossridor.CHANCE:
            for move in state.legal_moves():
                assert state.parse_move(str(move)) == move
        elif op == "search" and not terminal and state.current_player != crossridor.CHANCE:
            algorithm = ALGORITHMS[k % len(ALGORITHMS)]
            limits = Limits(sims=8, depth=2) if algorithm in ("mcts", "ismcts") else Limits(depth=1, nodes=200)
            try:
                result = crossridor.search(state, algorithm, limits, seed=k)
            except crossridor.UnsupportedGameError:
                pass
            else:
                assert result.move in list(state.legal_moves())
            assert state.position() == history[-1]
        elif op == "position":
            assert game.state_from_position(state.position()).position() == history[-1]
        clone = state.clone()
        assert clone.position() == state.position()


# --- bulk: the same checks on seeded random inputs, without hypothesis's
# generation cost per input (about 100 times more inputs a second); quick: a
# few thousand, long: CROSSRIDOR_FUZZ_BULK inputs (default 900,000).

ALPHABET = "abcdefghijk0123456789hvHV-@>=,:/xX .MRPSmoverplacswaktfilgn#\t\u00e9\u4e2d\x00"
NUMBERS = ["99999999999999999999", "-1", "nan", "inf", "", ":", ",", "0", "1e999", "-0"]


def _random_text(rng, n=24):
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(n)))


def _mutate(rng, text):
    i = rng.randrange(len(text) + 1)
    kind = rng.randrange(4)
    if kind == 0:
        return text[:i] + _random_text(rng, 4) + text[i + 1:]
    if kind == 1:
        return text[:i] + text[i + 1:]
    if kind == 2:
        return text[:i] + text[i:i + 5] + text[i:]
    return text[:i] + rng.choice(NUMBERS) + text[i:]


def _random_value(rng):
    return rng.choice([rng.randrange(-2 ** 70, 2 ** 70), rng.randrange(-3, 12), rng.random() * 10,
                       math.nan, math.inf, -math.inf, True, False, None, _random_text(rng, 6), [], "eval"])


def test_bulk_random_inputs():
    n = 3000 if PROFILE == "quick" else int(int(os.environ.get("CROSSRIDOR_FUZZ_BULK", 900_000)) * SCALE)
    rng = random.Random(int(os.environ.get("CROSSRIDOR_FUZZ_SEED", 20261130)))
    for i in range(n):
        case = rng.randrange(len(CASES))
        seed, plies = rng.randrange(8), rng.randrange(41)
        kind = i % 3
        if kind == 0:
            tick("bulk_move_parser")
            state = _state(case, seed, plies)
            moves = list(state.legal_moves()) if not state.is_terminal() else []
            text = _mutate(rng, str(rng.choice(moves))) if moves and rng.random() < 0.5 else _random_text(rng)
            check_move_parser(case, seed, plies, text)
        elif kind == 1:
            tick("bulk_position")
            text = _state(case, seed, plies).position()
            mutated = text
            for _ in range(1 + rng.randrange(3)):
                mutated = _mutate(rng, mutated)
            check_position(case, text, mutated)
        else:
            tick("bulk_game_options")
            params = {rng.choice(GAME_KEYS): _random_value(rng) for _ in range(rng.randrange(4))}
            check_game_options(rng.choice(sorted(GAMES)), params)
