"""The pure-Python reference rules (quoridor_reference.py) against known perft
counts and the hand-made rule positions of RULE_CASES. Needs no compiled core."""

from __future__ import annotations

import random

import pytest

from quoridor_reference import PASS, RULE_CASES, RefQuoridor, check_case, new_ref

# (size, players, walls per player, depth, count). Published/agreed values:
# 9x9: 131, 16677; 5x5: 35, 1109; 7x7: 75, 5357; four players with 5 walls
# each coincide with two players for two plies.
PERFT = [
    (9, 2, None, 1, 131),
    (9, 2, None, 2, 16677),
    (7, 2, None, 1, 75),
    (7, 2, None, 2, 5357),
    (5, 2, None, 1, 35),
    (5, 2, None, 2, 1109),
    (9, 4, 5, 1, 131),
    (9, 4, 5, 2, 16677),
]


@pytest.mark.parametrize("size,players,walls,depth,count", PERFT,
                         ids=[f"{s}x{s}-{p}p-d{d}" for s, p, _, d, _ in PERFT])
def test_perft(size, players, walls, depth, count):
    assert RefQuoridor(size, players, walls).perft(depth) == count


def test_perft_small_boards_consistent():
    # 3x3: 3 pawn moves + 8 walls at the start; perft(2) counted by hand from
    # perft(1) of every child must equal the recursive count.
    ref = RefQuoridor(3, 2)
    assert ref.perft(1) == 11
    total = 0
    for m in sorted(ref.legal_moves()):
        ref.play(m)
        total += len(ref.legal_moves())
        ref.undo()
    assert ref.perft(2) == total


@pytest.mark.parametrize("case", RULE_CASES, ids=[c["id"] for c in RULE_CASES])
def test_rule_case(case):
    ref = new_ref(case["size"], case["players"], case.get("walls"), case["setup"])
    legal = ref.legal_moves()
    pawn = {m for m in legal if m[-1] not in "hv"}
    check_case(case, legal, pawn, ref.current_player, ref.winner)
    # the slow wall check (a search for every wall) agrees with the fast one
    assert ref.legal_moves(slow=True) == legal


def test_illegal_play_raises():
    ref = RefQuoridor(9, 2)
    with pytest.raises(ValueError):
        ref.play("e3")
    with pytest.raises(ValueError):
        ref.play("--")
    ref.play("e3h")
    with pytest.raises(ValueError):
        ref.play("e3h")


def test_undo_restores_and_root_raises():
    ref = RefQuoridor(5, 2)
    with pytest.raises(IndexError):
        ref.undo()
    start = ref.key()
    for m in "c2 c4 b2h c3".split():
        ref.play(m)
    assert ref.pawns == ["c2", "c3"] and ref.walls_left == [9, 10]
    for _ in range(4):
        ref.undo()
    assert ref.key() == start


def test_no_moves_after_win_and_undo_reopens():
    ref = new_ref(3, 2, None, "b2 a3 b3")
    assert ref.is_terminal() and ref.winner == 0 and ref.legal_moves() == set()
    with pytest.raises(ValueError):
        ref.play("a2")
    ref.undo()
    assert not ref.is_terminal() and ref.winner is None and "a2" in ref.legal_moves()


def test_pass_play_and_undo():
    ref = new_ref(3, 4, 1, "b1v b2 a1v c1")
    assert ref.legal_moves() == {PASS}
    before = ref.key()
    ref.play(PASS)
    assert ref.current_player == 1 and ref.pawns == ["b1", "b2", "b3", "c1"]
    ref.undo()
    assert ref.key() == before


def test_four_player_goals():
    ref = RefQuoridor(9, 4)
    g = ref.is_goal
    assert g(0, (3, 8)) and not g(0, (3, 0)) and not g(0, (8, 3))
    assert g(1, (8, 3)) and not g(1, (0, 3)) and not g(1, (3, 8))
    assert g(2, (3, 0)) and not g(2, (3, 8))
    assert g(3, (0, 5)) and not g(3, (8, 5))
    assert ref.pawns == ["e1", "a5", "e9", "i5"] and ref.walls_left == [5] * 4
    assert RefQuoridor(5, 4).pawns == ["c1", "a3", "c5", "e3"]
    assert RefQuoridor(3, 2).pawns == ["b1", "b3"] and RefQuoridor(3, 2).walls_left == [10, 10]


def test_boards_that_are_not_square():
    # W columns, H rows: both pawns on column W // 2, player 1 on row 1, player 2 on row H
    assert RefQuoridor("4x7").pawns == ["c1", "c7"]
    assert RefQuoridor((2, 3)).pawns == ["b1", "b3"]
    assert RefQuoridor("9x3").pawns == ["e1", "e3"]
    assert RefQuoridor(4).pawns == ["c1", "c4"]
    ref = RefQuoridor("4x7")
    assert (ref.width, ref.height) == (4, 7)
    assert ref.is_goal(0, (3, 6)) and not ref.is_goal(0, (3, 5)) and ref.is_goal(1, (0, 0))
    assert ref.on_board((3, 6)) and not ref.on_board((4, 0)) and not ref.on_board((0, 7))
    anchors = list(ref.all_wall_anchors())
    assert len(anchors) == 2 * 3 * 6 and (2, 5, "v") in anchors and (3, 0, "h") not in anchors
    assert ref.position() == "4x7x2:c1,c7:10,10:-:1"
    assert RefQuoridor(5).position() == "5x2:c1,c5:10,10:-:1"


def test_a_wall_across_a_two_wide_board_cuts_every_path():
    # no horizontal wall is legal on a board two columns wide, even on an empty board
    for height in range(3, 10):
        ref = RefQuoridor((2, height))
        assert ref.legal_moves() == {"a1", "b2"} | {f"a{r}v" for r in range(1, height)}
        assert ref.legal_moves(slow=True) == ref.legal_moves()


@pytest.mark.parametrize("bad", [dict(size=11), dict(size=1), dict(size="10x3"), dict(size="1x5"),
                                 dict(size="4x2"), dict(size="5x10"), dict(size=4, players=4),
                                 dict(size="5x7", players=4), dict(players=3), dict(walls=-1)])
def test_bad_options(bad):
    with pytest.raises(ValueError):
        RefQuoridor(**bad)


@pytest.mark.parametrize("size,players,seed", [(3, 2, 1), (5, 2, 2), (5, 4, 3), (7, 2, 4),
                                                ("2x6", 2, 5), ("3x5", 2, 6), ("4x7", 2, 7), ("8x3", 2, 8)])
def test_fast_wall_check_equals_slow(size, players, seed):
    """The path-cut shortcut of wall_moves() against a full search for every
    wall, along wall-heavy random games."""
    rng = random.Random(seed)
    checked = games = 0
    while checked < 50:
        games += 1
        ref = RefQuoridor(size, players)
        while not ref.is_terminal() and ref.ply < 60:
            legal = ref.legal_moves()
            assert legal == ref.legal_moves(slow=True), (ref.key(), ref.ply)
            checked += 1
            walls = sorted(m for m in legal if m[-1] in "hv")
            moves = walls if walls and rng.random() < 0.7 else sorted(legal)
            ref.play(rng.choice(moves))
    assert games < 40
