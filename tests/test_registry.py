"""The one registry (engine/registry.py): a game registered with a Python
call is known by name to every door; every game's parameters are declared
once and read the same way at every door (booleans in any of the usual
spellings, a bad value refused in one line naming the parameter);
`crossridor options` shows the declarations, and docs/options.md is
generated from them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import crossridor
from crossridor import CrossridorError, Limits, UnknownGameError
from crossridor.engine import registry
from crossridor.engine.cli.options import options_page
from crossridor.engine.match.game_loop import GameTask, play_game, resolve_game
from crossridor.engine.match.specs import EngineSpec
from crossridor.engine.options import FILE_OPTIONS
from helpers import one_line_error, run_cli

ROOT = Path(__file__).resolve().parents[1]
TRUE, FALSE = ("true", "yes", "on", "1", "TRUE", " Yes "), ("false", "no", "off", "0", "False")


@pytest.fixture
def scratch_registry(monkeypatch):
    """The registry as it is, with whatever a test registers taken back after it."""
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    monkeypatch.setattr(registry, "_ALIASES", dict(registry._ALIASES))
    monkeypatch.setattr(registry, "_ALGORITHMS", dict(registry._ALGORITHMS))


def register_nim_as_the_docs_do(monkeypatch):
    """Runs the registration block of docs/add-a-game.md as it is written."""
    monkeypatch.syspath_prepend(str(ROOT / "examples"))
    page = (ROOT / "docs" / "add-a-game.md").read_text(encoding="utf-8")
    block = [b for b in re.findall(r"```text\n(.*?)```", page, re.S) if "register_game" in b]
    assert len(block) == 1
    scope: dict = {}
    exec(block[0], scope)
    return scope["game"]


def test_a_game_registered_in_python_is_known_to_every_door(scratch_registry, monkeypatch):
    game = register_nim_as_the_docs_do(monkeypatch)
    assert game.params == {"sticks": 9}
    assert "nim" in crossridor.game_names()
    # Python: checked against the declaration, defaults filled in
    assert crossridor.load_game("nim").params == {"sticks": 10}
    with pytest.raises(UnknownGameError, match=r"^nim: option sticks must be an integer in \[1, 1000\], got 0$"):
        crossridor.load_game("nim", sticks=0)
    # text, as the command line, the web page and the records give it
    assert registry.read_params("nim", {"sticks": " 9 "}) == {"sticks": 9}
    # the command line: its options, and a search of it by name
    status, out, err = run_cli("options", "nim")
    assert status == 0 and err == "" and "sticks" in out and "alphabeta" in out and "ismcts" in out
    status, out, _ = run_cli("options", "nim", "--json")
    assert json.loads(out) == [p.describe() for p in registry.game_entry("nim").params]
    status, out, _ = run_cli("best", "nim", "-o", "sticks=9", "--depth", "9", "--json")
    assert status == 0 and json.loads(out)["move"] == "1"           # leave 8, a multiple of 4
    assert "sticks" in one_line_error("legal", "nim", "-o", "sticks=many")
    # a match task and a records line name it, and it plays
    engines = (EngineSpec.parse("random"), EngineSpec.parse("greedy"))
    record = play_game(GameTask(index=0, game="nim", params={"sticks": "5"}, engines=engines, seats=(0, 1)))
    assert record.game == "nim" and record.moves
    assert resolve_game("nim", {"sticks": 3}, "record").params == {"sticks": 3}
    # ... but data still names no code
    with pytest.raises(CrossridorError, match="data never names code"):
        resolve_game("add_a_game:Nim", {}, "record")


def test_the_web_page_offers_a_registered_game(scratch_registry, monkeypatch):
    pytest.importorskip("starlette", reason='the web app needs the web extra: pip install ".[web]"')
    from crossridor.engine.web.app import page_games
    from crossridor.engine.web.sessions import make_state
    register_nim_as_the_docs_do(monkeypatch)
    offered = page_games()["nim"]
    assert offered["params"] == [registry.game_entry("nim").params[0].describe()]
    assert offered["engine"] == "alphabeta:time=1"
    assert make_state({"game": "nim", "options": {"sticks": "6"}, "moves": "1"}).sticks == 5


def test_an_algorithm_registered_in_python_is_searched_by_name(scratch_registry):
    def first_move(state, limits, seed=None, **options):
        move = state.legal_moves()[0]
        return crossridor.SearchResult(move=move, score=0.0, depth=1, nodes=1, seconds=0.0, nps=0.0, pv=(move,))

    crossridor.register_algorithm(crossridor.AlgorithmEntry("first", first_move, (), "the first legal move"))
    state = crossridor.load_game("quoridor", size=5).new_state()
    assert crossridor.search(state, "first", Limits(depth=1)).move == state.legal_moves()[0]
    assert "first" in crossridor.algorithm_names() and "first" in registry.algorithms_for("quoridor")
    status, out, _ = run_cli("options", "quoridor", "first")
    assert status == 0 and "(none)" in out


def test_registration_refuses_taken_and_malformed_names(scratch_registry):
    entry = registry.game_entry("quoridor")
    for name, aliases in (("quoridor", ()), ("mine", ("kuq",)), ("my:game", ()), ("", ()), ("Spaced out", ())):
        with pytest.raises(CrossridorError, match="register_game"):
            crossridor.register_game(crossridor.GameEntry(name, entry.load, (), "x", aliases=aliases))
    with pytest.raises(CrossridorError, match="declared twice"):
        p = crossridor.Param("n", (int, 0, 9), 0, "n")
        crossridor.register_game(crossridor.GameEntry("twice", entry.load, (p, p), "x"))
    with pytest.raises(CrossridorError, match="taken"):
        crossridor.register_algorithm(registry.algorithm_entry("mcts"))


# ------------------------------------------------------------ parameters

def bool_params():
    return [(g, p.name) for g in registry.game_names() for p in registry.game_entry(g).params if p.kind is bool]


def test_the_boolean_parameters_checked_below():
    assert {g for g, _ in bool_params()} == {"crosswise", "kreuzundquer", "qwatrobat"}   # Quoridor has none


@pytest.mark.parametrize("game,name", bool_params())
def test_every_boolean_reads_the_same_spellings_at_every_door(game, name):
    for texts, value in ((TRUE, True), (FALSE, False)):
        for text in texts:
            assert registry.read_params(game, {name: text}) == {name: value}, text
            assert resolve_game(game, {name: text}, "record").params.get(name, value) == value
    # Python values are checked as they are: a bool, not a number or a word
    for bad in (1, 0, "maybe", 2.0):
        with pytest.raises(UnknownGameError, match=f"option {name} must be true or false"):
            if isinstance(bad, str):
                registry.read_params(game, {name: bad})
            else:
                crossridor.load_game(game, **{name: bad})


def test_the_command_line_reads_booleans_by_their_kind():
    # seat 2 sees seat 1's layout once both are down only in the open game
    for texts, seen in ((TRUE[:4], "back  4 3 2 1"), (FALSE[:4], "back  ? ? ? ?")):
        for text in texts:
            status, out, _ = run_cli("show", "qwatrobat", "-o", f"open={text}", "-o", "first=1", "--seed", "1",
                                     "--moves", "1234/4321 1122/3344", "--viewer", "2")
            assert status == 0 and f"player 1: {seen}" in out, text


def bad_texts():
    """(game, parameter, a text its kind refuses)."""
    out = []
    for game in registry.game_names():
        for p in registry.game_entry(game).params:
            if p.kind is not str:
                out.append((game, p.name, "x1"))
                out.append((game, p.name, "12345678901234567890123"))
    return out


@pytest.mark.parametrize("game,name,text", bad_texts())
def test_a_bad_value_is_one_line_naming_the_parameter_and_its_values(game, name, text):
    with pytest.raises(UnknownGameError) as info:
        registry.read_params(game, {name: text})
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"{game}: option {name} must be ")
    assert re.search(r"true or false|one of|integer|number|N or WxH, 2 to 9 columns", message)
    line = one_line_error("legal", game, "-o", f"{name}={text}", "--seed", "1")
    assert f"option {name} must be" in line


def test_unknown_parameters_and_games_are_one_line():
    assert one_line_error("legal", "quoridor", "-o", "colour=red").strip() == \
        "crossridor: error: quoridor: unknown option(s) colour (known: max_plies, players, size, walls)"
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        crossridor.load_game("chess")
    with pytest.raises(UnknownGameError, match="kreuzundquer: unknown option.s. colour .known: chance, deck_file"):
        registry.read_params("kuq", {"colour": "red"})


def test_qwatrobat_first_names_a_seat():
    for seat in (1, 2):
        game = crossridor.load_game("qwatrobat", first=seat)
        state = game.new_state("1234/4321 1122/3344")
        assert state.current_player == seat - 1 and game.params["first"] == seat
        assert registry.read_params("qwatrobat", {"first": str(seat)}) == {"first": seat}
    for bad in (0, 3, True):
        with pytest.raises(UnknownGameError, match="option first must be one of 1, 2"):
            crossridor.load_game("qwatrobat", first=bad)


def test_parameters_that_read_a_file_are_refused_by_data():
    declared = {p.name for g in registry.game_names() for p in registry.game_entry(g).params if p.file}
    assert declared == {"deck_file"} and declared <= FILE_OPTIONS
    pytest.importorskip("starlette", reason='the web app needs the web extra: pip install ".[web]"')
    from crossridor.engine.web.sessions import make_state
    with pytest.raises(CrossridorError, match="reads a file"):
        make_state({"game": "kreuzundquer", "options": {"deck_file": "/etc/passwd"}})


def test_environment_keywords_are_the_game_parameters():
    pytest.importorskip("pettingzoo", reason='the environments need the rl extra: pip install ".[rl]"')
    from crossridor.envs import CrossridorAEC
    env = CrossridorAEC("qwatrobat", open="yes", first=2)
    assert env.params["open"] is True and env.game.first == 1
    with pytest.raises(UnknownGameError, match="option open must be true or false"):
        CrossridorAEC("qwatrobat", open="maybe")
    with pytest.raises(UnknownGameError, match="unknown option"):
        CrossridorAEC("quoridor", colour="red")


# ------------------------------------------------------------ crossridor options

@pytest.mark.parametrize("game", ["quoridor", "crosswise", "qwatrobat", "kreuzundquer"])
def test_options_lists_every_parameter_and_algorithm(game):
    entry = registry.game_entry(game)
    status, out, err = run_cli("options", game)
    assert status == 0 and err == ""
    for p in entry.params:
        assert re.search(rf"^  {p.name} ", out, re.M), p.name
    algorithms = registry.algorithms_for(game)
    assert f"algorithms: {', '.join(algorithms)} " in out
    status, out, _ = run_cli("options", game, "--json")
    assert json.loads(out) == [p.describe() for p in entry.params]
    for algorithm in algorithms:
        status, out, _ = run_cli("options", game, algorithm, "--json")
        assert status == 0
        assert json.loads(out) == [p.describe() for p in registry.algorithm_options(game, algorithm)]
        status, out, _ = run_cli("options", game, algorithm)
        assert status == 0 and out.startswith(f"{algorithm} on {game}")


def test_options_of_the_searches_by_game():
    assert registry.algorithms_for("quoridor") == ["alphabeta", "greedy", "ismcts", "mcts", "random"]
    for hidden in ("crosswise", "kreuzundquer"):
        assert registry.algorithms_for(hidden) == ["greedy", "ismcts", "random"]
    assert registry.algorithms_for("qwatrobat") == ["alphabeta", "greedy", "ismcts", "random"]  # the solver
    names = [p.name for p in registry.algorithm_options("qwatrobat", "alphabeta")]
    assert names == ["objective", "multipv", "searchmoves"]
    assert "setup" in [p.name for p in registry.algorithm_options("qwatrobat", "ismcts")]
    assert [p.name for p in registry.algorithm_options("crosswise", "ismcts")] == ["root_k", "halving", "infer",
                                                                                 "multipv", "searchmoves"]
    assert registry.algorithm_options("kuq", "greedy") == ()


@pytest.mark.parametrize("argv,words", [
    (["options", "chess"], "unknown game 'chess'"),
    (["options", "quoridor", "minimax"], "unknown algorithm 'minimax'"),
    (["options", "crosswise", "alphabeta"], "cannot search"),
    (["options", "kuq", "mcts", "--json"], "cannot search"),
    (["options"], "give a GAME"),
    (["options", "quoridor", "--markdown"], "--markdown"),
])
def test_options_refuses_in_one_line(argv, words):
    assert words in one_line_error(*argv)


def test_options_takes_an_alias():
    assert run_cli("options", "kuq")[1] == run_cli("options", "kreuzundquer")[1]


def test_the_options_page_is_generated_from_the_declarations():
    page = (ROOT / "docs" / "options.md").read_text(encoding="utf-8")
    assert page == options_page(), "regenerate it: crossridor options --markdown > docs/options.md"
    status, out, _ = run_cli("options", "--markdown")
    assert status == 0 and out == page


# ------------------------------------------------------------ where names resolve

def test_importing_crossridor_registers_every_game_without_loading_one():
    code = ("import sys, crossridor; print(sorted(crossridor.game_names()));"
            "print(sorted(m for m in sys.modules if m.startswith('crossridor.games.') and "
            "not m.endswith(('.entry', '.bounds')) and m.count('.') == 3))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    names, loaded = out.splitlines()
    assert names == "['crosswise', 'kreuzundquer', 'quoridor', 'qwatrobat']"
    assert loaded == "[]"


def test_games_declare_environments_without_importing_them_and_the_svg_helpers_no_game():
    games = ROOT / "src" / "games"
    environments = re.compile(r"^\s*(from|import)\s+crossridor\.engine\.rl\b", re.M)
    for path in games.rglob("*.py"):
        assert not environments.search(path.read_text(encoding="utf-8")), path
    helpers = (games / "svg.py").read_text(encoding="utf-8")
    assert not re.search(r"crossridor\.games\.\w+", helpers)
