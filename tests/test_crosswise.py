"""Crosswise: rules, scoring, notation, positions, hidden information."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import crossridor
from crossridor import IllegalMoveError, InvalidMoveError, InvalidPositionError, UnknownGameError
from crossridor.games.crosswise import notation as nt
from crossridor.games.crosswise.notation import CrosswiseMove
from crosswise_positions import TOTAL, game, load, tiles_of

# ------------------------------------------------------------------ loading

def test_load_validates_params():
    assert game(3).traits.teams == ((0, 2), (1,))
    assert game(4).traits.teams == ((0, 2), (1, 3))
    assert game(2).traits.hidden_information and not game(2).traits.chance
    for bad in (1, 5, "x", True, 2.5):
        with pytest.raises(UnknownGameError):
            crossridor.load_game("crosswise", players=bad)
    with pytest.raises(UnknownGameError, match="colour"):
        crossridor.load_game("crosswise", colour=1)


@pytest.mark.parametrize("players,sizes", [(2, [4, 4]), (3, [4, 6, 4]), (4, [4, 4, 4, 4])])
def test_deal(players, sizes):
    st = game(players).new_state(seed=5)
    assert [len(st.hand(p)) for p in range(players)] == sizes
    assert st._c.bag_count == 54 - sum(sizes)
    assert tiles_of(st) == TOTAL
    assert st.board() == [0] * 36


def test_seed_fixes_the_deal():
    g = game()
    a, b, c = g.new_state(seed=11), g.new_state(seed=11), g.new_state(seed=12)
    assert a.position() == b.position()
    assert a.position() != c.position()
    starts = {g.new_state(seed=s).current_player for s in range(40)}
    assert starts == {0, 1}


# ------------------------------------------------------------------ scoring

TABLE = {"111111": 6, "21111": 1, "2211": 2, "222": 3, "3111": 3, "321": 4, "33": 6,
         "411": 5, "42": 6, "51": 7}


def line_of(pattern):
    out, sym = [], 1
    for g in pattern:
        out += [str(sym)] * int(g)
        sym += 1
    return "".join(out)


@pytest.mark.parametrize("pattern,points", sorted(TABLE.items()))
def test_scoring_table_rows_and_columns(pattern, points):
    line = line_of(pattern)
    rng = random.Random(pattern)
    line = "".join(rng.sample(line, 6))
    st = load({f"{f}3": line[i] for i, f in enumerate("abcdef")}, hands=("-", "-"), bag="-",
              played="MMMRRRPPPSSS") if False else None
    # a row (rank 3) and, separately, a column (file d)
    st = load({f"{f}3": line[i] for i, f in enumerate("abcdef")})
    rows, cols = st.line_scores()
    assert rows == [0, 0, points, 0, 0, 0] and cols == [0] * 6
    assert st.scores() == (points, 0)
    st = load({f"d{r}": line[r - 1] for r in range(1, 7)})
    rows, cols = st.line_scores()
    assert cols == [0, 0, 0, points, 0, 0] and rows == [0] * 6
    assert st.scores() == (0, points)


def test_partial_lines_score_their_groups():
    st = load({"a1": 2, "b1": 2, "d1": 5, "e1": 5, "f1": 5})   # pair + triple, one gap
    assert st.line_scores()[0][0] == 4
    st = load({"a1": 1, "b1": 2, "c1": 3, "d1": 4, "e1": 5}, hands=("1236", "1234"))  # five different: not full
    assert st.line_scores()[0][0] == 0
    st.play("6@f1")
    assert st.line_scores()[0][0] == 6


@pytest.mark.parametrize("where,team", [("row", 0), ("column", 1)])
def test_six_identical_wins_for_the_line_owner(where, team):
    cells = [f"{f}2" for f in "abcde"] if where == "row" else [f"b{r}" for r in range(1, 6)]
    last = "f2" if where == "row" else "b6"
    # the *other* team completes the six: it still wins for the line's owner
    mover = 1 - team
    hands = ["1234", "1234"]
    st = load({c: 4 for c in cells}, turn=str(mover + 1), hands=hands)
    assert not st.is_terminal()
    st.play(f"4@{last}")
    assert st.is_terminal() and st.winner_team() == team
    assert st.returns() == [1.0 if p == team else -1.0 for p in range(2)]
    st.undo()
    assert not st.is_terminal() and st.returns() == [0.0, 0.0]


# The seed's worked example: rows 42, 411, 3111, 2211, 321, 2211 = 22;
# columns 2211, 2211, 51, 111111, 21111, 111111 = 24 (rank 1 / file a first).
EXAMPLE = [4, 2, 4, 4, 4, 2, 0, 3, 1, 0, 0, 0, 3, 0, 1, 3, 3, 5, 5, 5, 1, 2, 2, 3,
           4, 5, 1, 1, 4, 1, 0, 0, 1, 5, 5, 4]


def leftover_hands(ranks):
    """The symbols not on a full board, split between two hands."""
    left = "".join(s * (7 - "".join(ranks).count(s)) for s in "123456")
    return left[:3], left[3:]


def example_ranks():
    return ["".join(str(EXAMPLE[r * 6 + c] + 1) for c in range(6)) for r in range(5, -1, -1)]


def test_worked_example_from_the_seed():
    from crosswise_reference import line_points
    pats = ["".join(str(v) for v in sorted(Counter(EXAMPLE[r * 6:r * 6 + 6]).values(), reverse=True))
            for r in range(6)]
    assert pats == ["42", "411", "3111", "2211", "321", "2211"]
    st = load(example_ranks(), hands=leftover_hands(example_ranks()), bag="-", played="MMMRRRPPPSSS")
    assert st.is_terminal()
    rows, cols = st.line_scores()
    assert rows == [6, 5, 3, 2, 4, 2] and cols == [2, 2, 7, 6, 1, 6]
    assert st.scores() == (22, 24)
    assert st.winner_team() == 1 and st.returns() == [-1.0, 1.0]
    assert [line_points([EXAMPLE[r * 6 + c] for c in range(6)]) for r in range(6)] == rows


def test_full_board_draw():
    # every row and column six different (a Latin square): 36 each
    ranks = ["".join(str((r + c) % 6 + 1) for c in range(6)) for r in range(6)]
    st = load(ranks, hands=leftover_hands(ranks), bag="-", played="MMMRRRPPPSSS")
    assert st.is_terminal() and st.scores() == (36, 36) and st.winner_team() == 2
    assert st.returns() == [0.0, 0.0]


# ------------------------------------------------------------------ actions

def test_symbol_placement_and_refill():
    st = load({"c4": 1}, hands=("1256", "3344"))
    bag0 = st._c.bag_count
    assert "2@c4" not in {str(m) for m in st.legal_moves()}        # occupied
    assert "3@a1" not in {str(m) for m in st.legal_moves()}        # not in hand
    st.play("2@a1")
    assert st.board()[0] == 2 and len(st.hand(0)) == 4 and st._c.bag_count == bag0 - 1
    assert st.current_player == 1


def test_refill_stops_when_bag_is_empty():
    ranks = ["123456", "234561", "345612", "456123", "561234", "6....."]   # 31 tiles
    st = load(ranks, hands=("1234", "1234"), played="MMMRRRPPPSSS")       # bag: 54-31-12-8 = 3
    assert st._c.bag_count == 3
    sizes = []
    for _ in range(5):
        st.play(next(m for m in st.legal_moves() if m.kind == nt.KIND_PLACE))
        sizes.append((len(st.hand(0)), len(st.hand(1)), st._c.bag_count))
    assert sizes == [(4, 4, 2), (4, 4, 1), (4, 4, 0), (4, 3, 0), (3, 3, 0)]


def test_move_action():
    st = load({"c4": 3}, hands=("M123", "1234"))
    moves = {str(m) for m in st.legal_moves()}
    assert "move c4>d5" in moves and "move d5>c4" not in moves
    assert sum(m.startswith("move") for m in moves) == 35
    st.play("move c4>d5")
    b = st.board()
    assert b[nt.parse_cell("c4")] == 0 and b[nt.parse_cell("d5")] == 3
    assert st._c.played() == [1, 0, 0, 0] and "M" not in st.hand(0)
    st.undo()
    assert st.board()[nt.parse_cell("c4")] == 3 and "M" in st.hand(0)


def test_remove_action_takes_tile_into_hand_without_refill():
    st = load({"c4": 3, "a1": 5}, hands=("R123", "1234"))
    bag0 = st._c.bag_count
    assert {str(m) for m in st.legal_moves() if str(m).startswith("remove")} == {"remove c4", "remove a1"}
    st.play("remove c4")
    assert st.hand(0) == "1233" and st._c.bag_count == bag0 and st.board()[nt.parse_cell("c4")] == 0
    # the removed 3 is public: it shows in what seat 1 sees of seat 0
    assert st.position(viewer=1).split()[2].split(",")[0] == "?4:3"
    assert st._c.played() == [0, 1, 0, 0]


def test_replace_action():
    st = load({"c4": 3}, hands=("P135", "1234"))
    moves = {str(m) for m in st.legal_moves() if str(m).startswith("replace")}
    assert moves == {"replace c4=1", "replace c4=5"}                # not =3: a no-op
    st.play("replace c4=5")
    assert st.board()[nt.parse_cell("c4")] == 5
    assert Counter(st.hand(0)) >= Counter("133") and len(st.hand(0)) == 4
    with pytest.raises(IllegalMoveError, match="replace c4=3"):
        load({"c4": 3}, hands=("P135", "1234")).play("replace c4=3")


def test_swap_action():
    st = load({"c4": 3, "d5": 3, "a1": 6}, hands=("S111", "1234"))
    moves = {str(m) for m in st.legal_moves() if str(m).startswith("swap")}
    assert moves == {"swap a1,c4", "swap a1,d5"}                    # not the two 3s
    st.play("swap d5,a1")
    assert st.board()[0] == 3 and st.board()[nt.parse_cell("d5")] == 6
    assert st.history()[-1] == CrosswiseMove.parse("swap a1,d5")


def test_actions_without_target_are_illegal_and_pass_only_then():
    st = load({}, hands=("MRPS", "1234"))                           # empty board
    assert [str(m) for m in st.legal_moves()] == ["--"]
    hand = st.hand(0)
    st.play("--")
    assert st.hand(0) == hand and st.current_player == 1            # keeps the hand
    with pytest.raises(IllegalMoveError):
        load({}, hands=("1MRS", "1234")).play("--")
    # Replace needs a symbol in hand; Swap needs two different symbols
    st = load({"a1": 2, "b1": 2}, hands=("PSMM", "1234"))
    kinds = {str(m).split()[0] for m in st.legal_moves()}
    assert kinds == {"move"}


def test_everyone_passing_ends_the_game():
    st = load({}, hands=("MRPS", "MRPS"), played="MRPS")
    st.play("--")
    assert not st.is_terminal()
    st.play("--")
    assert st.is_terminal() and st.winner_team() == 2


def test_three_players_end_only_when_every_seat_has_passed():
    # the cycle 0,1,2,1: seats 1 and 2 are stuck (action tiles on an empty
    # board) but seat 0 is not, so passes from 1, 2, 1 must not end the game
    stuck = "....../....../....../....../....../...... 2>3 1234,MMMRRR,PPPS ?40 - 0"
    st = game(3).state_from_position(stuck)
    for seat in (1, 2, 1):
        assert st.current_player == seat and [str(m) for m in st.legal_moves()] == ["--"]
        st.play("--")
    assert not st.is_terminal() and st.current_player == 0
    assert any(str(m) != "--" for m in st.legal_moves())
    # a position string with those three passes reads back the same
    again = game(3).state_from_position(st.position())
    assert again.position() == st.position() and not again.is_terminal()
    # a count of passes that would mean everybody passed is not a position:
    # seat 2 to move after seats 1, 2, 3 passed; but three passes before
    # seat 1's turn (by 2, 3, 2) are
    with pytest.raises(InvalidPositionError, match="every seat has passed"):
        game(3).state_from_position("....../....../....../....../....../...... 2>3 1234,123456,1234 ?40 - 3")
    state = game(3).state_from_position("....../....../....../....../....../...... 1 1234,123456,1234 ?40 - 3")
    assert not state.is_terminal()


# ------------------------------------------------------------------ turn order

def test_three_player_order_and_teams():
    st = game(3).new_state(seed=3)
    order = []
    while len(order) < 12:
        order.append(st.current_player)
        st.play(st.legal_moves()[0])
    # T1, S, T2, S from whatever slot the deal starts in
    cyc = [0, 1, 2, 1]
    k = next(i for i in range(4) if all(order[j] == cyc[(i + j) % 4] for j in range(12)))
    assert k in (0, 1, 2, 3)
    assert len(st.hand(1)) == 6 or st._c.bag_count == 0
    end = load({f"{f}2": 5 for f in "abcde"}, players=3, turn="3", hands=("1234", "123456", "1235"))
    end.play("5@f2")
    assert end.returns() == [1.0, -1.0, 1.0]


def test_four_player_order_and_shared_returns():
    st = game(4).new_state(seed=9)
    first = st.current_player
    seen = []
    for _ in range(8):
        seen.append(st.current_player)
        st.play(st.legal_moves()[-1])
    assert seen == [(first + i) % 4 for i in range(8)]
    end = load({f"c{r}": 2 for r in range(1, 6)}, players=4, turn="4",
               hands=("1345", "1345", "1345", "1234"))
    end.play("2@c6")
    assert end.returns() == [-1.0, 1.0, -1.0, 1.0]


# ------------------------------------------------------------------ notation

def test_notation_round_trip_over_random_games():
    rng = random.Random(1)
    for players in (2, 3, 4):
        for seed in range(3):           # nine whole games: every kind of move, each of its texts
            st = game(players).new_state(seed=seed)
            while not st.is_terminal():
                moves = st.legal_moves()
                for m in moves:
                    assert st.parse_move(str(m)) == m
                    assert eval(repr(m), {"CrosswiseMove": CrosswiseMove}) == m
                st.play(rng.choice(moves))


@pytest.mark.parametrize("text", ["", "7@a1", "3@g1", "3@a7", "3a1", "move a1", "move a1>a1",
                                  "remove", "replace a1=0", "swap a1,a1", "swap a1 b1", "pass", "---"])
def test_invalid_move_text(text):
    st = game().new_state(seed=1)
    with pytest.raises(InvalidMoveError) as e:
        st.parse_move(text)
    assert repr(text) in str(e.value)


def test_illegal_move_names_input():
    st = load({"c4": 3}, hands=("1234", "1234"))
    for text in ("5@a1", "3@c4", "remove c4", "move c4>d5", "swap c4,d5", "--"):
        with pytest.raises(IllegalMoveError) as e:
            st.play(text)
        assert repr(text) in str(e.value)
    with pytest.raises(InvalidMoveError):
        st.play(12)
    assert CrosswiseMove.parse("SWAP D5 , C4") == CrosswiseMove.parse("swap c4,d5")
    assert str(CrosswiseMove.parse("swap d5,c4")) == "swap c4,d5"


def test_new_state_with_moves():
    g = game()
    st = g.new_state(seed=4)
    m1 = st.legal_moves()[3]
    st.play(m1)
    m2 = st.legal_moves()[7]
    assert g.new_state(f"{m1}; {m2}", seed=4).history() == [m1, m2]
    assert g.new_state([m1, str(m2)], seed=4).history() == [m1, m2]
    with pytest.raises(IllegalMoveError):
        g.new_state(f"{m1}; {m1}", seed=4)


# ------------------------------------------------------------------ positions

def test_position_round_trip_full_and_viewer():
    rng = random.Random(2)
    for players in (2, 3, 4):
        g = game(players)
        st = g.new_state(seed=7)
        for _ in range(60):
            if st.is_terminal():
                break
            full = st.position()
            assert g.state_from_position(full).position() == full
            for v in range(players):
                seen = st.position(viewer=v)
                back = g.state_from_position(seen, seed=rng.randrange(99))
                assert back.position(viewer=v) == seen
                assert back.legal_moves() == st.legal_moves() if v == st.current_player else True
            st.play(rng.choice(st.legal_moves()))


def test_start_position_example_in_docstring():
    st = game().new_state(seed=1)
    assert st.position() .startswith("....../....../....../....../....../...... 2 1556,124R ")
    assert st.position(viewer=0) == "....../....../....../....../....../...... 2 1556,?4 ?46 - 0"


@pytest.mark.parametrize("bad", [
    "", "x", "....../....../....../....../....../...... 1 1234,1234 ?46 - 0 extra",
    "....../....../....../....../....../..... 0 1234,1234 ?46 - 0",        # short rank
    "....../....../....../....../....../.....7 0 1234,1234 ?45 - 0",       # bad symbol
    "....../....../....../....../....../...... 3 1234,1234 ?46 - 0",       # no seat 3
    "....../....../....../....../....../...... 0 1234,1234 ?46 - 0",       # seats count from 1
    "....../....../....../....../....../...... 1 1234 ?46 - 0",            # one hand
    "....../....../....../....../....../...... 1 1234,1234 ?45 - 0",       # 53 tiles
    "....../....../....../....../....../...... 1 1111,1111 ?46 - 0",       # eight 1s
    "....../....../....../....../....../...... 1 12345,123 ?46 - 0",       # hand too big
    "....../....../....../....../....../...... 1 123,1234 ?47 - 0",        # short hand, bag left
    "....../....../....../....../....../...... 1 1234,1234 ?46 1 0",       # played a symbol
    "....../....../....../....../....../...... 1 1234,1234:5 ?46 - 0",     # known not in hand
    "....../....../....../....../....../...... 1 1234,1234 ?46 - 2",       # passes
    "....../....../....../....../....../...... 1 1234,1234 ?46 - x",
    "111111/222222/....../....../....../1..... 1 1234,1234 ?34 - 0",       # too many 1s
])
def test_bad_positions(bad):
    with pytest.raises(InvalidPositionError):
        game().state_from_position(bad)


def test_str_and_render_hide_what_they_must():
    st = load({"a1": 1, "f6": 6}, hands=("1234", "56MR"))
    text = str(st)
    assert "Rows 0  Columns 0" in text and "a b c d e f" in text
    r0 = st.render(0)
    assert "1234" in r0 and "56MR" not in r0 and "4 hidden tiles" in r0
    assert "56MR" in st.render(1) and "1234" not in st.render(1)
    assert "1234" in st.render() and "56MR" in st.render()


# ------------------------------------------------------------------ hidden information

def test_information_state_and_determinization():
    rng = random.Random(5)
    for players in (2, 3, 4):
        st = game(players).new_state(seed=21)
        for _ in range(45):
            if st.is_terminal():
                break
            for v in range(players):
                info = st.information_state(v)
                others = set()
                for _ in range(6):
                    d = st.sample_determinization(v, rng)
                    assert d.information_state(v) == info
                    assert d.hand(v) == st.hand(v) and d.board() == st.board()
                    assert tiles_of(d) == TOTAL
                    assert [len(d.hand(p)) for p in range(players)] == [len(st.hand(p)) for p in range(players)]
                    for p in range(players):
                        assert d.position(viewer=p).split()[2].split(",")[p].partition(":")[2] == \
                            st.position(viewer=p).split()[2].split(",")[p].partition(":")[2]
                    others.add(tuple(d.hand(p) for p in range(players) if p != v) + tuple(d._c.bag()))
                if st._c.bag_count > 2:
                    assert len(others) > 1      # the hidden part really is redealt
            st.play(rng.choice(st.legal_moves()))


def test_information_state_hides_other_hands_only():
    a = load({"a1": 1}, hands=("1234", "56MR"))
    b = load({"a1": 1}, hands=("1234", "556R"))
    assert a.information_state(0) == b.information_state(0)
    assert a.information_state(1) != b.information_state(1)
    with pytest.raises(crossridor.CrossridorError):
        a.information_state(2)


def test_known_tiles_survive_determinization():
    st = load({"c4": 3, "a1": 5}, turn="2", hands=("1234", "R124"))
    st.play("remove c4")                       # seat 1 now holds a 3, seen by seat 0
    rng = random.Random(0)
    for _ in range(50):
        assert "3" in st.sample_determinization(0, rng).hand(1)
