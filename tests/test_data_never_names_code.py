"""Data never names code: a game named by a records
line, a PGN tag, a web request or a match task resolves only through the
registry. `module:function` names are refused with one line, and nothing is
imported: `canary_game` leaves a mark when it is imported or called."""

from __future__ import annotations

import json
import sys
import warnings

import pytest

from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.game_loop import GameRecord, GameTask, play_game, resolve_game
from crossridor.engine.match.records import RecordsFile
from crossridor.engine.match.specs import EngineSpec
from crossridor.engine.plugins import PluginGame
from helpers import run_cli

CANARY = "canary_game:load"
ATTACKS = [
    {"game": "os:system", "params": {"command": "touch {mark}"}},
    {"game": "numpy:loadtxt", "params": {"fname": "/etc/passwd"}},
    {"game": CANARY, "params": {}},
    {"game": "builtins:exec", "params": {}},
]


def record(game="quoridor", params=None, **extra):
    base = dict(index=0, seed=1, deal_seed=None, seats=[0, 1], engines=["random", "random"],
                result="1-0", returns=[1.0, -1.0], winner=0, winner_engine=0, reason="terminal",
                moves=["e2", "e8"], opening_plies=0, plies=2, seconds=0.1, game=game,
                params=params or {})
    return {**base, **extra}


@pytest.fixture
def canary(tmp_path, monkeypatch):
    """The file canary_game marks, and a check that it stays untouched."""
    mark = tmp_path / "canary.txt"
    monkeypatch.setenv("CROSSRIDOR_CANARY", str(mark))
    sys.modules.pop("canary_game", None)
    yield mark
    assert not mark.exists(), mark.read_text()
    assert "canary_game" not in sys.modules


def attacks(mark):
    return [json.loads(json.dumps(a).replace("{mark}", str(mark))) for a in ATTACKS]


def test_a_game_name_from_data_is_refused_before_any_import(canary):
    for attack in attacks(canary):
        with pytest.raises(CrossridorError, match="data never names code"):
            resolve_game(attack["game"], attack["params"])


def test_a_match_task_naming_code_is_refused(canary):
    # a task as a Dask worker or a process pool receives it
    engines = (EngineSpec.parse("random"), EngineSpec.parse("random"))
    for attack in attacks(canary):
        with pytest.raises(CrossridorError, match="data never names code"):
            play_game(GameTask(index=0, game=attack["game"], params=attack["params"], engines=engines,
                               seats=(0, 1)))


def test_a_plug_in_named_by_the_user_still_loads():
    # the command line and Python may name one: the race game of the match tests
    game = resolve_game(PluginGame.parse("race_game:race"), {})
    assert game.traits.num_players == 2
    with pytest.raises(CrossridorError, match="module:function"):
        PluginGame.parse("os:system; rm -rf /")


def test_replay_through_http_refuses_a_game_that_names_code(canary):
    pytest.importorskip("starlette", reason='the web app needs the web extra: pip install ".[web]"')
    pytest.importorskip("httpx", reason="Starlette's test client needs httpx (in the test extra)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from crossridor.engine.web.app import create_app
    lines = [json.dumps(record(**a)) for a in attacks(canary)] + [json.dumps(record())]
    with TestClient(create_app(host="testserver")) as client:
        reply = client.post("/api/replay", json={"records": "\n".join(lines)})
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert [g["game"] for g in data["games"]] == ["quoridor"]       # the honest line replays
    assert len(data["errors"]) == len(ATTACKS)
    for line, error in enumerate(data["errors"], 1):
        assert error.startswith(f"line {line}: record names the game") and "data never names code" in error
    assert "root:" not in reply.text                                  # no line of /etc/passwd


def test_resuming_from_records_that_name_code_is_refused(canary, tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record(**attacks(canary)[0])) + "\n")
    rec = RecordsFile(str(path)).load()[0]
    with pytest.raises(CrossridorError, match="data never names code"):
        resolve_game(rec.game, rec.params, "record")
    code, out, err = run_cli("match", "quoridor", "--size", "3", "--engine", "random", "--engine", "random",
                             "--games", "2", "--records", str(path), "--resume")
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_a_pgn_naming_code_is_refused(canary, tmp_path):
    pgn = tmp_path / "games.pgn"
    pgn.write_text(f'[Game "{CANARY}"]\n[Options ""]\n\n1. e2 e8 1-0\n\n')
    code, out, err = run_cli("show", CANARY, "--pgn", str(pgn))
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    code, out, err = run_cli("show", "quoridor", "--pgn", str(pgn))
    assert code == 2 and "not 'quoridor'" in err, err


def test_game_record_round_trip_keeps_a_plain_name():
    assert GameRecord.from_dict(record()).game == "quoridor"


def test_an_openings_file_holds_moves_only(canary, tmp_path):
    openings = tmp_path / "openings.txt"
    openings.write_text(f"{CANARY}\nos:system\n")
    code, out, err = run_cli("match", "quoridor", "--size", "3", "--engine", "random", "--engine", "random",
                             "--games", "2", "--openings", str(openings))
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "canary_game:load" in err, err           # named as a bad move, not imported


def test_an_rl_spec_names_registered_games_only(canary):
    pytest.importorskip("gymnasium", reason='the RL environments need the rl extra: pip install ".[rl]"')
    pytest.importorskip("pettingzoo", reason='the RL environments need the rl extra: pip install ".[rl]"')
    from crossridor.envs import CrossridorGymEnv, VectorGames
    for name in (CANARY, "os:system"):
        with pytest.raises(CrossridorError):
            CrossridorGymEnv(game=name)
        with pytest.raises(CrossridorError):
            VectorGames(name, num_envs=1)
