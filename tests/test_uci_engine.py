"""Outside engines in `crossridor match` (`uci:COMMAND`): our own `crossridor
uci`, and a deliberately broken engine (tests/broken_engine.py) that
crashes, hangs or plays an illegal move; those games are lost, recorded with
the reason and the engine's last stderr lines, and the match goes on."""

from __future__ import annotations

import json
import os
import sys

import pytest

from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.runner import MatchConfig, run_match
from crossridor.engine.match.specs import EngineSpec
from helpers import IN_TIME, run_cli

HERE = os.path.dirname(os.path.abspath(__file__))
PY = sys.executable
OURS = f"uci:{PY} -m crossridor uci --size 5"


def broken(mode: str) -> str:
    """The broken engine; its first move comes at once, in time on a busy machine."""
    return f"uci:{PY} {os.path.join(HERE, 'broken_engine.py')} {mode};{IN_TIME}"


def test_uci_spec_parse_and_text():
    spec = EngineSpec.parse("uci:/opt/my engine --flag;time=0.5,margin=2,Hash=32")
    assert spec.algorithm == "uci" and spec.command == "/opt/my engine --flag"
    assert spec.limits.time == 0.5 and dict(spec.options) == {"Hash": "32", "margin": 2.0}
    assert str(spec) == "uci:/opt/my engine --flag;time=0.5,Hash=32,margin=2"
    assert EngineSpec.parse(str(spec)) == spec
    assert str(EngineSpec.parse("uci:engine")) == "uci:engine"
    assert EngineSpec.parse("uci:engine").limits.time == 1.0        # the default: 1 s a move
    for bad in ("uci:", "uci: ;time=1", "uci:e;time=x", "uci:e;time", "uci:e;depth=0", "uci:e;margin=-1"):
        with pytest.raises(CrossridorError):
            EngineSpec.parse(bad)


@pytest.mark.parametrize("players", [2, 4])
def test_match_against_our_own_uci_engine_equals_the_library(tmp_path, players):
    # crossridor uci at depth 2 plays the same moves as the built-in alphabeta:depth=2
    def play(engine, path):
        cfg = MatchConfig("quoridor", {"size": 5, "players": players},
                          [EngineSpec.parse(engine), EngineSpec.parse("alphabeta:depth=1")],
                          games=players, concurrency=2, seed=4, random_openings=2, records=str(path))
        return run_match(cfg)

    outside = play(OURS + f" --players {players};depth=2", tmp_path / "a.jsonl")
    inside = play("alphabeta:depth=2", tmp_path / "b.jsonl")
    assert [r.moves for r in outside.records] == [r.moves for r in inside.records]
    assert all(r.reason == "terminal" and r.failure is None for r in outside.records)
    assert outside.tally.wins == inside.tally.wins


@pytest.mark.parametrize("mode, reason", [("crash", "crash"), ("hang", "timeout"), ("illegal", "illegal_move")])
def test_a_broken_engine_loses_the_game_and_the_match_goes_on(tmp_path, mode, reason):
    path = tmp_path / "r.jsonl"
    code, out, err = run_cli("match", "quoridor", "--size", "5", "--engine", broken(mode),
                             "--engine", "random", "--games", "2", "--concurrency", "2", "--seed", "1",
                             "--records", str(path), "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["games"] == 2 and obj["losses"] == 2 and obj["engine_failures"] == {reason: 2}
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 2
    for rec in records:
        assert rec["reason"] == reason and rec["winner_engine"] == 1
        failure = rec["failure"]
        assert failure["engine"] == str(EngineSpec.parse(broken(mode)))
        assert failure["reason"] == reason and failure["seat"] == rec["seats"].index(0) + 1     # a seat, 1..n
        # the engine failed on its second move
        assert failure["ply"] in (3, 4) and len(rec["moves"]) == failure["ply"] - 1
        if mode != "illegal":
            assert any("on purpose" in line for line in failure["stderr"]), failure
    if mode == "illegal":
        assert "z9" in records[0]["failure"]["detail"]


def test_text_report_names_the_failures():
    code, out, err = run_cli("match", "quoridor", "--size", "5", "--engine", broken("crash"),
                             "--engine", "random", "--games", "2", "--concurrency", "1", "--seed", "1")
    assert code == 0, err
    assert "2 games lost by an engine's failure (crash 2)" in out


def test_an_engine_that_cannot_start_fails_before_the_match():
    code, out, err = run_cli("match", "quoridor", "--size", "5", "--engine", "uci:/nonexistent/engine",
                             "--engine", "random", "--games", "2")
    assert code == 2 and err.startswith("crossridor: error: engine uci:/nonexistent/engine fails before")
    assert len(err.splitlines()) == 1


def test_outside_engines_refuse_games_with_hidden_information():
    code, out, err = run_cli("match", "crosswise", "--engine", OURS, "--engine", "random", "--games", "2")
    assert code == 2 and "without chance or hidden information" in err
