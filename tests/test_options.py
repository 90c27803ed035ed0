"""The one option checker (engine/options.py) over the declared options:
NaN, infinities, huge, negative and wrong-type values for every option of
every algorithm of every game are refused with a CrossridorError before any
search runs, and the values it accepts run."""

from __future__ import annotations

import math

import pytest

import crossridor
from crossridor import CrossridorError, Limits
from crossridor.engine.options import C_INT, C_LLONG, CALLABLE_OR_NONE, FLAG, check_value
from crossridor.engine.registry import algorithm_options, game_names
from crossridor.engine.search_api import algorithm_names, module_options, search_options
from crossridor.games.crosswise import search_options as crosswise

BAD = [math.nan, math.inf, -math.inf, 10 ** 30, -(10 ** 30), -1, "x", [], True, 0.5]

# (game, game params, algorithm, limits): every algorithm of every game
CASES = [
    ("quoridor", {"size": 5}, "alphabeta", Limits(depth=1)),
    ("quoridor", {"size": 5}, "greedy", Limits(depth=1)),
    ("quoridor", {"size": 5}, "mcts", Limits(sims=20)),
    ("quoridor", {"size": 5}, "ismcts", Limits(sims=5)),
    ("quoridor", {"size": 5}, "random", Limits(depth=1)),
    ("crosswise", {}, "ismcts", Limits(sims=20)),
    ("crosswise", {}, "greedy", Limits(depth=1)),
    ("crosswise", {}, "random", Limits(depth=1)),
    ("qwatrobat", {"open": True, "first": 1}, "alphabeta", Limits(depth=1)),
    ("qwatrobat", {}, "greedy", Limits(depth=1)),
    ("qwatrobat", {}, "ismcts", Limits(sims=5)),
    ("kreuzundquer", {}, "ismcts", Limits(sims=2)),
    ("kreuzundquer", {}, "greedy", Limits(depth=1)),
    ("kreuzundquer", {}, "random", Limits(depth=1)),
]
QWATROBAT_IN_PLAY = "1234/4321 1122/3344"


def state_for(name, params, algorithm):
    game = crossridor.load_game(name, **params)
    if name == "qwatrobat":
        return game.new_state(QWATROBAT_IN_PLAY + ("" if "first" in params else " first:1"), seed=1)
    return game.new_state(seed=1)


def checked_kinds(params):
    """The declared options whose values the checker reads by kind (not the
    Python objects: functions, memories)."""
    return [p for p in params if not p.python_only and p.kind not in (callable, CALLABLE_OR_NONE)]


IDS = [f"{c[0]}-{c[2]}" for c in CASES]


@pytest.mark.parametrize("name,params,algorithm,limits", CASES, ids=IDS)
def test_every_option_refuses_bad_values(name, params, algorithm, limits):
    state = state_for(name, params, algorithm)
    declared = search_options(state, algorithm)
    tried = 0
    for param in declared:
        for value in BAD:
            try:
                param.check(value, algorithm)
            except CrossridorError:
                pass
            else:
                continue        # a value this kind accepts (e.g. 0.5 for a float): not a bad value
            tried += 1
            with pytest.raises(CrossridorError, match=param.name):
                crossridor.search(state.clone(), algorithm, limits, seed=1, **{param.name: value})
    assert tried >= len(declared) * 5


@pytest.mark.parametrize("name,params,algorithm,limits", CASES, ids=IDS)
def test_unknown_option_is_refused_and_the_bounds_run(name, params, algorithm, limits):
    state = state_for(name, params, algorithm)
    declared = search_options(state, algorithm)
    with pytest.raises(CrossridorError, match="unknown option") as refused:
        crossridor.search(state.clone(), algorithm, limits, seed=1, no_such_option=1)
    assert all(p.name in str(refused.value) for p in declared)     # the known ones are named
    for param in checked_kinds(declared):
        kind = param.kind
        if param.file or not isinstance(kind, tuple):
            continue
        if all(isinstance(k, str) for k in kind):
            values = list(kind)
        else:
            typ, low, high = kind
            # the largest values of counts would take forever; the bounds that shape the search run
            values = [low] if typ is int and high > 1000 else [low, high]
        for value in values:
            if param.name == "rollout" and value == "eval" and name != "quoridor":
                continue    # needs an evaluate() these games do not all have
            if param.name == "eval" and value == "learned" and name == "quoridor":
                continue    # 5x5 has no shipped weights
            result = crossridor.search(state.clone(), algorithm, limits, seed=1, **{param.name: value})
            assert result.move in list(state.legal_moves())


def every_declaration():
    for algorithm in algorithm_names():
        yield f"{algorithm}", module_options(algorithm)
        for game in game_names():
            yield f"{game} {algorithm}", algorithm_options(game, algorithm)


def test_every_declaration_is_complete_and_its_defaults_pass_its_check():
    for where, params in every_declaration():
        names = [p.name for p in params]
        assert len(names) == len(set(names)), where
        for p in params:
            assert p.doc and "\n" not in p.doc, (where, p.name)
            assert p.check(p.default, where) == p.default, (where, p.name)


def test_int_bounds_fit_c_types():
    for where, params in every_declaration():
        for p in params:
            if isinstance(p.kind, tuple) and p.kind and p.kind[0] is int:
                assert -C_LLONG <= p.kind[1] <= p.kind[2] <= C_LLONG, (where, p.name)
    for p in crosswise.ISMCTS:      # C ints
        if isinstance(p.kind, tuple) and p.kind and p.kind[0] is int:
            assert p.kind[2] <= C_INT, p.name


def test_float_options_come_back_as_floats_and_flags_as_ints():
    assert check_value("a", "c", 1, (float, 0.0, 2.0)) == 1.0
    assert isinstance(check_value("a", "c", 1, (float, 0, 2)), float)
    assert check_value("a", "f", True, FLAG) == 1 and check_value("a", "f", 0, FLAG) == 0
    with pytest.raises(CrossridorError):
        check_value("a", "f", 2, FLAG)


@pytest.mark.parametrize("limit", ["depth", "nodes", "sims"])
@pytest.mark.parametrize("value", [0, -1, 2 ** 63, 10 ** 30, 1.5, True, "3"])
def test_limits_fit_c_types(limit, value):
    with pytest.raises(ValueError, match=limit):
        Limits(**{limit: value})


@pytest.mark.parametrize("value", [math.nan, math.inf, -1.0, 0, 1e8])
def test_time_limit_is_finite_and_positive(value):
    with pytest.raises(ValueError, match="time"):
        Limits(time=value)


@pytest.mark.parametrize("seed", [1.5, "1", True])
def test_seed_must_be_an_integer(seed):
    with pytest.raises(CrossridorError, match="seed"):
        crossridor.search(crossridor.load_game("quoridor").new_state(), "random", Limits(depth=1), seed=seed)
