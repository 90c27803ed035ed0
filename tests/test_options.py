"""The one option checker (engine/options.py): NaN, infinities, huge,
negative and wrong-type values for every option of every algorithm of every
game are refused with a CrossridorError before any search runs, and the
values it accepts run."""

from __future__ import annotations

import math

import pytest

import crossridor
from crossridor import CrossridorError, Limits
from crossridor.engine.algorithms import alphabeta, common, greedy
from crossridor.engine.options import C_INT, C_LLONG, CALLABLE_OR_NONE, FLAG, check_value
from crossridor.games.crosswise import game as crosswise
from crossridor.games.kreuzundquer import search as kreuzundquer_search
from crossridor.games.quoridor import game as quoridor
from crossridor.games.qwatrobat import players as qwatrobat

BAD = [math.nan, math.inf, -math.inf, 10 ** 30, -(10 ** 30), -1, "x", [], True, 0.5]


def _ismcts_schema():
    return {**common.MCTS_SCHEMA, "prior": CALLABLE_OR_NONE, "prior_weight": (float, 0.0, 1e6),
            "utility": CALLABLE_OR_NONE}


# (game, game params, algorithm, limits, schema, options every case needs)
CASES = [
    ("quoridor", {"size": 5}, "alphabeta", Limits(depth=1), quoridor.NATIVE_OPTIONS["alphabeta"], {}),
    ("quoridor", {"size": 5}, "greedy", Limits(depth=1), quoridor.NATIVE_OPTIONS["greedy"], {}),
    ("quoridor", {"size": 5}, "mcts", Limits(sims=20), quoridor.NATIVE_OPTIONS["mcts"], {}),
    ("quoridor", {"size": 5}, "ismcts", Limits(sims=5), _ismcts_schema(), {}),
    ("quoridor", {"size": 5}, "random", Limits(depth=1), {}, {}),
    ("crosswise", {}, "ismcts", Limits(sims=20), crosswise.ISMCTS_OPTIONS, {}),
    ("crosswise", {}, "greedy", Limits(depth=1), {}, {}),
    ("crosswise", {}, "random", Limits(depth=1), {}, {}),
    ("qwatrobat", {"open": True, "first": 1}, "alphabeta", Limits(depth=1), qwatrobat.SOLVER_OPTIONS, {}),
    ("qwatrobat", {}, "greedy", Limits(depth=1), qwatrobat.GREEDY_OPTIONS, {}),
    ("qwatrobat", {}, "ismcts", Limits(sims=5), {**_ismcts_schema(), **qwatrobat.ISMCTS_OPTIONS}, {}),
    ("kreuzundquer", {}, "ismcts", Limits(sims=2), {**_ismcts_schema(), **kreuzundquer_search.ISMCTS_OPTIONS}, {}),
    ("kreuzundquer", {}, "greedy", Limits(depth=1), {}, {}),
    ("kreuzundquer", {}, "random", Limits(depth=1), {}, {}),
]
QWATROBAT_IN_PLAY = "1234/4321 1122/3344"


def state_for(name, params, algorithm):
    game = crossridor.load_game(name, **params)
    if name == "qwatrobat":
        return game.new_state(QWATROBAT_IN_PLAY + ("" if "first" in params else " first:1"), seed=1)
    return game.new_state(seed=1)


def valid_example(kind):
    """A value the kind accepts (for the 'unknown option' and 'runs' checks)."""
    if kind is bool:
        return False
    if kind == FLAG:
        return 1
    if kind is callable or kind == CALLABLE_OR_NONE:
        return None if kind == CALLABLE_OR_NONE else (lambda info: None)
    if isinstance(kind, tuple) and all(isinstance(k, str) for k in kind):
        return kind[-1]
    typ, low, high = kind
    return typ(low)


IDS = [f"{c[0]}-{c[2]}-{c[5].get('mode', '')}" for c in CASES]


@pytest.mark.parametrize("name,params,algorithm,limits,schema,base", CASES, ids=IDS)
def test_every_option_refuses_bad_values(name, params, algorithm, limits, schema, base):
    state = state_for(name, params, algorithm)
    tried = 0
    for option, kind in schema.items():
        if option in base:
            continue
        for value in BAD:
            try:
                check_value(algorithm, option, value, kind)
            except CrossridorError:
                pass
            else:
                continue        # a value this kind accepts (e.g. 0.5 for a float): not a bad value
            tried += 1
            with pytest.raises(CrossridorError, match=option):
                crossridor.search(state.clone(), algorithm, limits, seed=1, **base, **{option: value})
    assert tried >= len([o for o in schema if o not in base]) * 5


@pytest.mark.parametrize("name,params,algorithm,limits,schema,base", CASES, ids=IDS)
def test_unknown_option_is_refused_and_the_bounds_run(name, params, algorithm, limits, schema, base):
    state = state_for(name, params, algorithm)
    with pytest.raises(CrossridorError, match="unknown option"):
        crossridor.search(state.clone(), algorithm, limits, seed=1, **base, no_such_option=1)
    for option, kind in schema.items():
        if option in base or option in ("on_iteration", "evaluator", "prior", "utility") or not isinstance(kind, tuple):
            continue
        if all(isinstance(k, str) for k in kind):
            values = list(kind)
        else:
            typ, low, high = kind
            # the largest values of counts would take forever; the bounds that shape the search run
            values = [low] if typ is int and high > 1000 else [low, high]
        for value in values:
            if option == "rollout" and value == "eval" and name != "quoridor":
                continue    # needs an evaluate() these games do not all have
            if option == "hash" and value == high:
                continue    # 64 GB
            result = crossridor.search(state.clone(), algorithm, limits, seed=1, **base, **{option: value})
            assert result.move in list(state.legal_moves())


def test_int_bounds_fit_c_types():
    schemas = [*quoridor.NATIVE_OPTIONS.values(), crosswise.ISMCTS_OPTIONS,
               qwatrobat.GREEDY_OPTIONS, common.MCTS_SCHEMA, alphabeta.SCHEMA, greedy.SCHEMA]
    for schema in schemas:
        for option, kind in schema.items():
            if isinstance(kind, tuple) and kind and kind[0] is int:
                assert -C_LLONG <= kind[1] <= kind[2] <= C_LLONG, option
    for option, kind in crosswise.ISMCTS_OPTIONS.items():   # C ints
        if isinstance(kind, tuple) and kind and kind[0] is int:
            assert kind[2] <= C_INT, option


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
