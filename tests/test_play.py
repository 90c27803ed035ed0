"""`crossridor play` driven through stdin, on the toy race game
(race_game.py: first to reach 10 adding 1..3) and on Quoridor."""

from __future__ import annotations

import io

import pytest

from crossridor.engine.cli.play import PlaySession
from crossridor.engine.match.specs import EngineSpec
from helpers import one_line_error, play_session, run_cli
from race_game import GAME, RaceGame


def session(commands, human=0, engine="greedy", moves=None, **params):
    return play_session(RaceGame(**params).new_state(moves), commands, EngineSpec.parse(engine), human)


def test_perfect_play_wins():
    # reply to the engine so that the total is always 2 (mod 4) after our move
    game = RaceGame()
    state = game.new_state()
    out = io.StringIO()

    class Replier(io.StringIO):
        def readline(self_inner):
            need = (10 - state.total) % 4
            return f"{need}\n"

    s = PlaySession(state, EngineSpec.parse("random"), human=0, seed=3, stdin=Replier(), stdout=out)
    assert s.run() == 0
    assert "game over: you win" in out.getvalue()
    assert state.is_terminal()


def test_engine_moves_first_when_the_human_plays_second():
    code, out, s = session([], human=1)
    # greedy starts with 2 (leaves 8), then the prompt sees end of input
    assert "engine (player 1) plays 2" in out
    assert out.index("engine (player 1) plays 2") < out.index("player 2 to move>")
    assert "end of input" in out and s.state.total == 2


def test_illegal_and_malformed_moves_keep_the_game_going():
    code, out, s = session(["banana", "7", "0", "3"])
    assert code == 0
    assert "'banana' is not a move" in out
    assert "'7' is not legal here" in out
    assert "you play 3" in out and s.state.history[0] == 3


def test_commands_moves_hint_help_board():
    code, out, s = session(["moves", "hint", "help", "board", "quit"])
    assert "1 2 3" in out
    assert "hint: 2" in out      # greedy's winning first move
    assert "commands:" in out
    assert out.count("total 0/10") >= 2
    assert "quitting" in out and s.state.total == 0


def test_undo_takes_back_the_human_move_and_the_engine_reply():
    code, out, s = session(["1", "undo", "undo", "3", "quit"])
    assert "took back 2 moves" in out
    assert "nothing to undo" in out
    assert s.state.history[0] == 3


def test_undo_stops_at_the_given_moves():
    code, out, s = session(["undo", "quit"], moves="1 1")
    assert "nothing to undo" in out and s.state.total == 2


def test_game_over_message_when_the_engine_wins():
    # target 6: 1 is a losing start (greedy answers 1 and leaves 4)
    code, out, s = session(["1", "1", "1", "1"], target=6)
    assert s.state.history[:2] == [1, 1]
    assert "game over" in out and "engine (player 2) wins" in out


def test_cli_play_through_stdin():
    code, out, err = run_cli("play", str(GAME), "--engine", "greedy", "--moves", "1", "--as", "2", "--seed", "4",
                             stdin="moves\n1\nundo\nquit\n")
    assert code == 0, err
    assert "you are player 2 of 2" in out and "1 2 3" in out
    assert "took back" in out


@pytest.mark.parametrize("argv, message", [
    (["--as", "3"], "--as"),
    (["--engine", "nope"], "unknown algorithm"),
    (["--moves", "9"], "9"),
    (["--target", "3"], "unrecognized"),
])
def test_cli_play_rejects_bad_input(argv, message):
    assert message in one_line_error("play", str(GAME), *argv)


def test_cli_play_quoridor():
    code, out, err = run_cli("play", "quoridor", "--size", "5", "--engine", "random", "--seed", "1",
                             stdin="z9\nc2\nhint\nundo\nquit\n")
    assert code == 0, err
    assert "z9" in out and "you play c2" in out and "hint:" in out and "took back 2 moves" in out


def test_undo_cannot_draw_a_chance_move_again():
    # the roll after "roll" is fixed by the session's seed: 100 undos see one roll only
    from toy_games import Race
    code, out, s = play_session(Race().new_state(), ["roll", "undo"] * 100, EngineSpec.parse("greedy"), human=0)
    lines = out.splitlines()
    rolls = [lines[i + 2] for i, line in enumerate(lines) if line.endswith("you play roll")]
    assert code == 0 and len(rolls) == 100 and all(r.startswith("chance: ") for r in rolls), out[-500:]
    assert len(set(rolls)) == 1, sorted(set(rolls))
