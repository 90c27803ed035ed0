"""Every rule of docs/rules/quoridor.md through the core's Python API
(`crossridor.load_game("quoridor", ...)`). The hand-made positions are the same
table (RULE_CASES) the reference is held to in test_quoridor_reference.py."""

from __future__ import annotations

import pytest

import crossridor
from helpers import quoridor_state as new_state
from quoridor_reference import RULE_CASES, check_case


def legal_set(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


@pytest.mark.parametrize("case", RULE_CASES, ids=[c["id"] for c in RULE_CASES])
def test_rule_case(case):
    state = new_state(case["size"], case["players"], case.get("walls"), case["setup"])
    legal = legal_set(state)
    pawn = {m for m in legal if m[-1] not in "hv"}
    to_move = None if state.is_terminal() else state.current_player
    check_case(case, legal, pawn, to_move, state.winner)
    if "winner" in case:
        assert state.is_terminal()
        return
    assert not state.is_terminal()
    # what is legal parses and plays; what is illegal raises a ValueError and
    # leaves the position untouched
    for text in case.get("legal", []) + sorted(case.get("pawn_moves", ())):
        move = state.parse_move(text)
        assert str(move) == text
        clone = state.clone()
        clone.play(text)
        assert clone.current_player != state.current_player or clone.is_terminal()
    before = (tuple(state.pawns), tuple(state.walls_left), state.current_player, legal)
    for text in case.get("illegal", []):
        with pytest.raises(ValueError):
            state.parse_move(text)
        with pytest.raises(ValueError):
            state.play(text)
    assert (tuple(state.pawns), tuple(state.walls_left), state.current_player,
            legal_set(state)) == before


def test_start_positions_and_defaults():
    s = new_state()
    assert s.pawns == ("e1", "e9") and tuple(s.walls_left) == (10, 10) and s.current_player == 0
    s = new_state(players=4)
    assert s.pawns == ("e1", "a5", "e9", "i5") and tuple(s.walls_left) == (5, 5, 5, 5)
    s = new_state(size=5, players=4)
    assert s.pawns == ("c1", "a3", "c5", "e3")
    s = new_state(size=3)
    assert s.pawns == ("b1", "b3")
    s = new_state(size=7, walls=3)
    assert s.pawns == ("d1", "d7") and tuple(s.walls_left) == (3, 3)


def test_boards_that_are_not_square():
    game = crossridor.load_game("quoridor", size="4x7")
    assert (game.size, game.width, game.height) == ("4x7", 4, 7)
    assert game.new_state().pawns == ("c1", "c7")
    assert crossridor.load_game("quoridor", size=(9, 3)).new_state().pawns == ("e1", "e3")
    # a square board is spelled N, however it was given
    assert crossridor.load_game("quoridor", size="5x5").size == 5
    for bad in ("2x2", "10x3", "1x5", "4x", (3, 10), 10):
        with pytest.raises(crossridor.CrossridorError, match="2 to 9 columns wide and 3 to 9 rows high"):
            crossridor.load_game("quoridor", size=bad)
    for bad in ("5x7", 4, "4x7"):
        with pytest.raises(crossridor.CrossridorError, match="four-player board is square and odd"):
            crossridor.load_game("quoridor", size=bad, players=4)


@pytest.mark.parametrize("size,players,count", [(9, 2, 131), (7, 2, 75), (5, 2, 35), (3, 2, 11),
                                                 (9, 4, 131), (3, 4, 11)])
def test_start_move_count(size, players, count):
    # 3 pawn moves + 2 * (N-1)^2 walls
    assert len(new_state(size, players).legal_moves()) == count


def test_wall_counts_and_turns():
    s = new_state(moves="e3h e7h")
    assert tuple(s.walls_left) == (9, 9) and s.current_player == 0
    s = new_state(players=4, moves="a1h c1h e1h g1h")
    assert tuple(s.walls_left) == (4, 4, 4, 4) and s.current_player == 0


def test_no_wall_moves_with_no_walls_left():
    s = new_state(5, 2, 1, "a1h")
    assert tuple(s.walls_left) == (0, 1)
    s.play("c4")
    assert legal_set(s) == {"b1", "d1", "c2"}
    with pytest.raises(crossridor.IllegalMoveError):
        s.parse_move("c3h")


def test_win_ends_game():
    s = new_state(3, 2, None, "b2 a3")
    s.play("b3")
    assert s.is_terminal() and s.winner == 0 and list(s.legal_moves()) == []
    with pytest.raises(crossridor.IllegalMoveError):
        s.play("a3")
    s.undo()
    assert not s.is_terminal() and s.winner is None and "b3" in legal_set(s)


def test_win_four_players_column():
    s = new_state(5, 4, None, "c2 a4 d5 e2 c1 b4 c5 e3 c2 c4 d5 e2 c1 d4 c5 e3 c2")
    assert not s.is_terminal()
    s.play("e4")
    assert s.is_terminal() and s.winner == 1 and legal_set(s) == set()


def test_pass_only_when_boxed():
    s = new_state(3, 4, 1, "b1v b2 a1v c1")
    assert legal_set(s) == {"--"}
    s.play("--")
    assert s.current_player == 1 and s.pawns == ("b1", "b2", "b3", "c1")
    s.undo()
    assert s.current_player == 0 and legal_set(s) == {"--"}
    with pytest.raises(crossridor.IllegalMoveError):
        new_state(9, 4).parse_move("--")


def test_undo_and_clone():
    s = new_state(moves="e2 e8 e3h")
    c = s.clone()
    s.undo()
    assert tuple(s.walls_left) == (10, 10) and tuple(c.walls_left) == (9, 10)
    s.undo()
    s.undo()
    assert s.pawns == ("e1", "e9") and legal_set(s) == legal_set(new_state())
    with pytest.raises(IndexError):
        s.undo()
    assert c.pawns == ("e2", "e8") and "e3h" not in legal_set(c)


# ---------------------------------------------------------------- notation

@pytest.mark.parametrize("text,out", [("E3H", "e3h"), ("e3h", "e3h"), ("E2", "e2"), (" e2 ", "e2"),
                                      ("A1V", "a1v"), ("h8h", "h8h"), ("D1", "d1")])
def test_notation_round_trip(text, out):
    s = new_state()
    move = s.parse_move(text)
    assert str(move) == out
    assert s.parse_move(str(move)) == move
    assert hash(move) == hash(s.parse_move(out))


def test_every_legal_move_round_trips():
    for size, players, moves in [(9, 2, "e2 e8 e3 e7 e4 e6 a1h e5"), (5, 4, "c2 b3 c4 d3 c3"),
                                 (3, 4, "b1v b2 a1v c1")]:
        s = new_state(size, players, 1 if size == 3 else None, moves)
        for move in s.legal_moves():
            text = str(move)
            assert text == text.lower() and s.parse_move(text) == move
            assert s.parse_move(text.upper()) == move
            assert eval(repr(move), {type(move).__name__: type(move)}) == move


def test_numbered_game_record_input():
    a = new_state(moves="1. e2 e8 2. e3 e7 3. e4h")
    b = new_state(moves="e2 e8 e3 e7 e4h")
    assert a.pawns == b.pawns == ("e3", "e7") and tuple(a.walls_left) == (9, 10)
    assert legal_set(a) == legal_set(b)
    c = new_state(players=4, moves="1. e2 b5 e8 h5 2. e3")
    assert c.pawns == ("e3", "b5", "e8", "h5") and c.current_player == 1


@pytest.mark.parametrize("text", ["z9", "e3x", "", "e", "ee3", "e3hh", "e0", "e10", "3e",
                                  "e2 e3", "-", "j1"])
def test_malformed_moves_9x9(text):
    with pytest.raises(crossridor.InvalidMoveError):
        new_state().parse_move(text)


@pytest.mark.parametrize("text", ["a9h", "i9v", "h9h", "i1h", "i1v", "a9v"])
def test_wall_anchor_out_of_range_is_invalid(text):
    # Wall anchors run from a1 to h8 on 9x9 (rule file, Notation): 'a9h' is
    # no wall of the notation, so an InvalidMoveError ("text that is not a
    # move in the game's notation"), as the brief lists it among parse errors.
    with pytest.raises(crossridor.InvalidMoveError):
        new_state().parse_move(text)


@pytest.mark.parametrize("text", ["f1", "a6", "e1h", "a5h", "e4v", "i9"])
def test_off_board_5x5_rejected(text):
    # outside the 5x5 board: not a move here (InvalidMoveError or
    # IllegalMoveError — both ValueErrors), and never legal
    s = new_state(size=5)
    with pytest.raises(ValueError):
        s.parse_move(text)
    with pytest.raises(ValueError):
        s.play(text)
    assert s.pawns == ("c1", "c5")


@pytest.mark.parametrize("moves,text", [("", "e3"), ("", "e1"), ("", "e9"), ("", "d2"),
                                        ("e3h", "e3h"), ("e3h", "d3h"), ("e3h", "e3v"),
                                        ("e2 e8", "e4")])
def test_illegal_moves_raise(moves, text):
    s = new_state(moves=moves)
    with pytest.raises(crossridor.IllegalMoveError):
        s.parse_move(text)
    with pytest.raises(crossridor.IllegalMoveError):
        s.play(text)


def test_errors_are_value_errors_and_name_the_input():
    s = new_state()
    with pytest.raises(ValueError, match="z9"):
        s.parse_move("z9")
    with pytest.raises(ValueError, match="e5"):
        s.parse_move("e5")
    with pytest.raises(crossridor.IllegalMoveError):
        crossridor.load_game("quoridor").new_state("e2 e3")   # player 2 cannot reach e3
    with pytest.raises(crossridor.InvalidMoveError):
        crossridor.load_game("quoridor").new_state("e2 zz")
