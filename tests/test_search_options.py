"""The declared interface of the searches: every algorithm's options are
declared once (the algorithm modules' `OPTIONS`, each game's
`search_options.OPTIONS` for its own searches), checked in one place
(`search_api.search`) and handed complete to the search, which uses them as
given; the doors (UCI, the command line, the web app) read the same
declarations; the time plan of a clock is computed once and handed down."""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path

import pytest

import crossridor
from crossridor import Clock, CrossridorError, Limits
from crossridor.engine import registry, search_api
from crossridor.engine.algorithms import alphabeta
from crossridor.engine.cli.main import main
from crossridor.engine.options import check_params
from crossridor.engine.registry import algorithm_options, game_names
from crossridor.engine.search_api import clock_as_time, clock_plan, search_options
from crossridor.engine.uci import engine as uci_engine
from crossridor.engine.uci.engine import UciSession
from crossridor.games.crosswise import search_options as crosswise_options
from crossridor.games.quoridor import game as quoridor_game
from crossridor.games.quoridor import search_options as quoridor_options
from toy_games import TicTacToe

SRC = Path(__file__).resolve().parents[1] / "src"
# A/B switches of the measurements (docs/measurements.md), not options
REMOVED_SWITCHES = ["lmr", "lmp", "rfp", "null_move", "aspiration", "wall_gain", "tt"]


def quoridor(**params):
    return crossridor.load_game("quoridor", **params).new_state()


# --- one check ------------------------------------------------------------------------

@pytest.mark.parametrize("switch", REMOVED_SWITCHES)
def test_each_removed_switch_is_an_unknown_option(switch):
    with pytest.raises(CrossridorError, match=rf"unknown option\(s\) {switch} \(known: .*prune_walls"):
        crossridor.search(quoridor(), "alphabeta", Limits(depth=1), **{switch: False})


def test_the_table_of_the_generic_alphabeta_is_turned_off_by_hash_0():
    known = "evaluator, hash, multipv, on_iteration, searchmoves"
    with pytest.raises(CrossridorError, match=rf"unknown option\(s\) tt \(known: {known}\)"):
        crossridor.search(TicTacToe().new_state(), "alphabeta", Limits(depth=1), tt=False)
    assert crossridor.search(TicTacToe().new_state(), "alphabeta", Limits(depth=2), hash=0).extra["tt_entries"] == 0


@pytest.mark.parametrize("algorithm", ["alphabeta", "greedy", "mcts", "ismcts", "random"])
def test_an_unknown_option_names_the_known_ones(algorithm):
    state = quoridor(size=5)
    with pytest.raises(CrossridorError, match="unknown option") as refused:
        crossridor.search(state, algorithm, Limits(depth=1, sims=5), bogus=1)
    known = str(refused.value).partition("(known: ")[2]
    assert known.rstrip(")").split(", ") == sorted(p.name for p in search_options(state, algorithm)) or \
        (known == "none)" and not search_options(state, algorithm))


def test_heuristic_is_no_algorithm():
    state = crossridor.load_game("kreuzundquer").new_state(seed=1)
    with pytest.raises(CrossridorError, match=r"unknown algorithm 'heuristic' \(known: alphabeta, greedy"):
        crossridor.search(state, "heuristic", Limits(depth=1))


def test_the_compiled_core_gets_exactly_the_declared_options_with_their_defaults(monkeypatch):
    seen = []
    real = quoridor_game.q_native_search

    def spy(state, algorithm, limits, seed, options, plan, learned):
        seen.append(dict(options))
        return real(state, algorithm, limits, seed, options, plan, learned)

    monkeypatch.setattr(quoridor_game, "q_native_search", spy)
    state = quoridor(size=5)
    for algorithm, declared in quoridor_options.OPTIONS.items():
        seen.clear()
        crossridor.search(state, algorithm, Limits(depth=1, sims=10), seed=1)
        assert seen == [check_params(algorithm, {}, declared)]
        assert seen[0] == {p.name: p.default for p in declared}
    seen.clear()
    crossridor.search(state, "alphabeta", Limits(depth=1), hash=1, prune_walls=False)
    assert seen == [dict(check_params("alphabeta", {}, quoridor_options.ALPHABETA), hash=1, prune_walls=False)]


def test_a_python_module_gets_exactly_its_declared_options(monkeypatch):
    seen = []
    real = alphabeta.search

    def spy(state, limits, seed=None, **options):
        seen.append(options)
        return real(state, limits, seed=seed, **options)

    entry = registry.algorithm_entry("alphabeta")
    monkeypatch.setitem(registry._ALGORITHMS, "alphabeta", dataclasses.replace(entry, search=spy))
    crossridor.search(TicTacToe().new_state(), "alphabeta", Limits(depth=1), hash=2)
    assert seen == [{"hash": 2, "evaluator": None, "on_iteration": None, "multipv": 1, "searchmoves": None}]


def test_the_classic_weights_are_declared_with_the_cores_values():
    from crossridor.engine._core import Q_CLASSIC_EVAL_WEIGHTS
    assert Q_CLASSIC_EVAL_WEIGHTS == {p.name: p.default for p in quoridor_options.CLASSIC_WEIGHT_OPTIONS}


def test_four_players_search_with_their_own_classic_weights():
    """4-player 9x9 Quoridor's declared defaults are its own weights (2
    players' and other boards' unchanged): a search without options is the search with them set, and
    the UCI engine of 4 players announces them."""
    two = crossridor.load_game("quoridor").new_state()
    four = crossridor.load_game("quoridor", players=4).new_state("e2 a4 e8 i6")
    weights = ("wall_value", "tempo")
    assert {k: defaults_of(two, "alphabeta")[k] for k in weights} == {"wall_value": 100, "tempo": 40}
    assert {k: defaults_of(four, "alphabeta")[k] for k in weights} == quoridor_options.FOUR_PLAYER_CLASSIC_WEIGHTS
    assert "wall_value" not in defaults_of(four, "mcts")
    for other in ({"players": 4, "size": 7}, {"players": 4, "walls": 10}):     # not measured there
        state = crossridor.load_game("quoridor", **other).new_state()
        assert {k: defaults_of(state, "alphabeta")[k] for k in weights} == {"wall_value": 100, "tempo": 40}

    def found(**options):
        r = crossridor.search(four, "alphabeta", Limits(depth=5), **options)
        return str(r.move), r.score, r.nodes
    assert found() == found(**quoridor_options.FOUR_PLAYER_CLASSIC_WEIGHTS)
    assert found() != found(wall_value=100, tempo=40)
    lines = uci_lines("uci", game=crossridor.load_game("quoridor", players=4))
    assert "option name wall_value type spin default 112 min 0 max 400" in lines
    assert "option name tempo type spin default 15 min 0 max 400" in lines


def defaults_of(state, algorithm):
    from crossridor.engine.search_api import search_options
    return {p.name: p.default for p in search_options(state, algorithm)}


def test_crosswise_searches_with_the_declared_defaults():
    state = crossridor.load_game("crosswise").new_state(seed=2)
    given = {p.name: p.default for p in crosswise_options.ISMCTS}
    assert given == {"root_k": 30, "halving": 1, "infer": 2, "multipv": 1, "searchmoves": None}
    a = crossridor.search(state, "ismcts", Limits(sims=60), seed=1)
    b = crossridor.search(state, "ismcts", Limits(sims=60), seed=1, **given)
    assert (a.move, a.extra["leaf_moves"]) == (b.move, b.extra["leaf_moves"])


# --- the time plan, computed once ----------------------------------------------------

def test_the_time_plan_is_computed_in_search_api_and_handed_down(monkeypatch):
    seen = []
    real = quoridor_game.q_native_search

    def spy(state, algorithm, limits, seed, options, plan, learned):
        seen.append((algorithm, limits, plan))
        return real(state, algorithm, limits, seed, options, plan, learned)

    monkeypatch.setattr(quoridor_game, "q_native_search", spy)
    state = quoridor(size=5)
    limits = Limits(clock=Clock(3.0, 0.1), depth=2)
    crossridor.search(state, "alphabeta", limits)
    crossridor.search(state, "mcts", Limits(clock=Clock(3.0, 0.1), sims=20), seed=1)
    (_, ab_limits, ab_plan), (_, mcts_limits, mcts_plan) = seen
    assert ab_plan == clock_plan(limits) and ab_limits == limits       # alpha-beta manages the clock itself
    assert mcts_plan is None and mcts_limits.clock is None              # MCTS: the soft share as a move time
    assert mcts_limits.time == clock_as_time(Limits(clock=Clock(3.0, 0.1), sims=20)).time
    assert clock_plan(Limits(clock=Clock(3.0), time=0.01)).hard == 0.01  # a move time caps the plan


def test_compiled_searches_read_nothing_above_the_core():
    imports = re.compile(r"^\s*(from|import)\s+crossridor\.(\S+)", re.MULTILINE)
    for pxi in sorted((SRC / "games").glob("*/*.pxi")):
        text = pxi.read_text(encoding="utf-8")
        allowed = {"engine.protocol", "engine.errors", "engine.stop"}
        assert {m.group(2) for m in imports.finditer(text)} <= allowed, pxi.name
        assert "state._" not in text, pxi.name


# --- the doors: UCI, the command line, the web app -----------------------------------

def uci_lines(*commands, game=None):
    out = io.StringIO()
    session = UciSession(game or crossridor.load_game("quoridor"), out)
    for command in commands:
        session.handle(command)
    session.finish()
    return out.getvalue().splitlines()


def test_uci_option_lines_come_from_the_declarations():
    options = [line for line in uci_lines("uci") if line.startswith("option name")]
    assert options == [
        f"option name Hash type spin default 16 min 0 max {uci_engine.MAX_HASH_MB}",
        f"option name Threads type spin default 1 min 1 max {uci_engine.THREADS_CAP}",
        "option name prune_walls type check default true",
        "option name eval type combo default auto var auto var classic var learned",
        "option name wall_value type spin default 100 min 0 max 400",
        "option name tempo type spin default 40 min 0 max 400",
        "option name lone_wall_value type spin default 100 min 0 max 400",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Algorithm type combo default alphabeta var alphabeta var greedy var ismcts var mcts var random",
        "option name UCI_ShowWDL type check default false",
        "option name Ponder type check default false",
    ]
    mcts = [line for line in uci_lines("setoption name Algorithm value mcts", "uci") if line.startswith("option")]
    assert mcts[:4] == ["option name rollout type combo default eval var eval var random",
                        "option name c type string default 1.0",
                        "option name widening type string default 1.5",
                        "option name rollout_depth type spin default 0 min 0 max 1000"]
    crosswise = uci_lines("uci", game=crossridor.load_game("crosswise"))
    assert "option name halving type check default true" in crosswise
    assert not [line for line in crosswise if line.startswith("option name Hash")]


def test_a_bad_setoption_value_is_one_clear_error_line():
    lines = uci_lines("setoption name prune_walls value maybe", "setoption name Hash value -3",
                      "setoption name Algorithm value mcts", "setoption name c value lots", "isready")
    assert lines == [
        "info string error setoption: prune_walls: option prune_walls must be true or false "
        "(or yes/no, on/off, 1/0), got 'maybe'",
        f"info string error setoption: Hash: option hash must be an integer in [0, {uci_engine.MAX_HASH_MB}], "
        "got -3",
        "info string error setoption: c: option c must be a number, got 'lots'",
        "readyok",
    ]


def test_setoption_values_are_read_by_their_declared_kind(monkeypatch):
    asked = []
    real = uci_engine.search

    def spy(state, algorithm, limits, **options):
        asked.append({k: v for k, v in options.items() if k not in ("memory", "on_iteration", "stop")})
        return real(state, algorithm, limits, **options)

    monkeypatch.setattr(uci_engine, "search", spy)
    lines = uci_lines("setoption name prune_walls value 0", "setoption name wall_value value 90",
                      "setoption name Hash value 2", "position startpos moves e2 e8", "go depth 1",
                      "setoption name Algorithm value mcts", "setoption name c value 2", "go sims 30")
    assert not [line for line in lines if "error" in line], lines
    assert asked == [{"prune_walls": False, "wall_value": 90, "hash": 2}, {"c": 2.0}]


def run_cli(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_engine_options_are_read_by_their_declared_kind(monkeypatch, capsys):
    from crossridor.engine.cli import main as cli_main
    asked = []
    real = cli_main.search

    def spy(state, algorithm, limits, seed=None, **options):
        asked.append(options)
        return real(state, algorithm, limits, seed=seed, **options)

    monkeypatch.setattr(cli_main, "search", spy)
    assert run_cli(capsys, "best", "quoridor", "--size", "5", "--depth", "1", "-e", "prune_walls=0",
                   "-e", "hash=1", "-e", "eval=classic")[0] == 0
    assert run_cli(capsys, "best", "quoridor", "--size", "5", "--sims", "20", "--algorithm", "mcts",
                   "-e", "c=2", "-e", "rollout=random")[0] == 0
    assert asked == [{"prune_walls": False, "hash": 1, "eval": "classic"}, {"c": 2.0, "rollout": "random"}]
    status, out, err = run_cli(capsys, "best", "quoridor", "--depth", "1", "-e", "lmr=false")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "quoridor alphabeta: unknown option lmr (known: eval, eval_file, hash, lone_wall_value" in err
    status, _, err = run_cli(capsys, "best", "quoridor", "--depth", "1", "-e", "prune_walls=maybe")
    assert status == 2 and "option prune_walls must be true or false (or yes/no, on/off, 1/0), got 'maybe'" in err


def test_every_budget_option_has_a_web_cap():
    from crossridor.engine.web.searching import Caps, budget_options
    assert {"hash", "threads"} <= budget_options() <= set(Caps().budget())
    with pytest.raises(CrossridorError, match="hash is at most 8"):
        Caps(hash=8).check("alphabeta:depth=1,hash=9")
    with pytest.raises(CrossridorError, match="threads is at most 2"):
        Caps(threads=2).check("alphabeta:depth=1,threads=3")
    assert Caps(hash=8).check("alphabeta:depth=1,hash=8").options == (("hash", 8),)


def test_every_file_option_is_one_the_outside_doors_refuse():
    from crossridor.engine.options import FILE_OPTIONS
    declared = [p for _, params in every_declaration() for p in params]
    assert {p.name for p in declared if p.file} <= FILE_OPTIONS
    assert not [p for p in declared if p.name in FILE_OPTIONS and not p.file]


def every_declaration():
    for algorithm in search_api.algorithm_names():
        yield algorithm, search_api.module_options(algorithm)
        for game in game_names():
            yield f"{game} {algorithm}", algorithm_options(game, algorithm)


def test_search_api_alone_resolves_a_states_options():
    """A state without a fast path takes the module's options, whatever its
    game is called; a registered game's fast path takes the game's."""
    assert search_options(TicTacToe().new_state(), "mcts") == search_api.module_options("mcts")
    assert search_options(quoridor(), "mcts") == quoridor_options.MCTS
    chance = crossridor.load_game("crosswise", chance=True).new_state()
    assert search_options(chance, "ismcts") == search_api.module_options("ismcts")
