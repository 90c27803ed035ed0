"""Kreuz & Quer: the rules of docs/rules/kreuzundquer.md, the options,
the deck file, the path helper, hidden information, bad input, and seeded
random playouts with invariants."""

import random

import pytest

import crossridor
from crossridor import CHANCE, TERMINAL, CrossridorError
from crossridor.engine.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, UnknownGameError
from crossridor.games.kreuzundquer.deck import TERRAIN_COUNTS, TERRAINS, deck_to_text, generate_deck, parse_deck_text
from crossridor.games.kreuzundquer.moves import Move
from crossridor.games.kreuzundquer.paths import GOAL, START, Track, extensions, reach, walk
from crossridor.games.kreuzundquer.policy import heuristic_move
from helpers import play

T = {ch: i for i, ch in enumerate(TERRAINS)}

# A hand-made deck. Card 1 (row 1 = nearest the start, lanes left to right):
#   r0 s g c / r1 w m f / r2 s s s / r3 g g g / r4 c c c / r5 b e w
# card 2: r0 m f e, then sand; cards 3..16: all sand.
CARD1 = "sgc wmf sss ggg ccc bew"
CARD2 = "mfe sss sss sss sss sss"
SAND = "sss sss sss sss sss sss"
DECK = "# test deck\ngoals: w s g c\n" + f"card: {CARD1}\ncard: {CARD2}\n" + f"card: {SAND}\n" * 14


def kuq(**kw):
    return crossridor.load_game("kreuzundquer", **kw)


def tdeck(**kw):
    return kuq(deck_text=DECK, **kw)


def track12(goal="w"):
    g = tdeck()
    return g.track((1, 2), T[goal])


def room(row, lane):
    return row * 3 + lane


def pile(text):
    return [T[ch] for ch in text]


# ----------------------------------------------------------------------------- options and deck


def test_defaults():
    g = kuq()
    assert g.params["players"] == 2 and g.races == 2 and g.max_stages == 20
    assert len(g.deck.routes) == 28 and all(len(c) == 18 for c in g.deck.routes)
    assert len(set(g.deck.goals)) == 4
    assert g.traits.chance and g.traits.hidden_information and g.traits.num_players == 2
    assert kuq(players=3).races == 3 and kuq(players=4, races=1).races == 1


def test_terrain_cards():
    assert sum(TERRAIN_COUNTS) == 48
    assert dict(zip(TERRAINS, TERRAIN_COUNTS)) == {"b": 2, "e": 3, "m": 4, "f": 5, "w": 6, "c": 8, "g": 10, "s": 10}


def test_generated_deck_is_seeded_and_weighted():
    assert generate_deck(5) == generate_deck(5)
    assert generate_deck(5) != generate_deck(6)
    rooms = [t for seed in range(10) for card in generate_deck(seed).routes for t in card]
    share = [rooms.count(t) / len(rooms) for t in range(8)]
    # blue tiles (2/48) much rarer than sand (10/48)
    assert share[T["b"]] < 0.07 and share[T["s"]] > 0.15


def test_deck_file_round_trip(tmp_path):
    d = generate_deck(3)
    assert parse_deck_text(deck_to_text(d)) == d
    f = tmp_path / "deck.txt"
    f.write_text(DECK)
    g = kuq(deck_file=str(f))
    assert g.deck.card_text(1) == CARD1 and g.deck.goals == tuple(T[c] for c in "wsgc")
    assert len(g.deck.routes) == 16


@pytest.mark.parametrize("text,msg", [
    ("goals: w s g c\n" + f"card: {SAND}\n" * 15, "16..99"),
    ("goals: w s g\n" + f"card: {SAND}\n" * 16, "distinct"),
    ("goals: w s g g\n" + f"card: {SAND}\n" * 16, "distinct"),
    ("goals: w s g c\ncard: sss\n" + f"card: {SAND}\n" * 16, "18 rooms"),
    ("goals: w s g c\ncard: xxx sss sss sss sss sss\n", "unknown terrain"),
    ("goals: w s g c\nrooms: sss\n", "unknown line"),
    ("goals w s g c\n", "expected"),
    (f"card: {SAND}\n" * 16, "no 'goals:'"),
])
def test_bad_deck_text(text, msg):
    with pytest.raises(UnknownGameError, match=msg):
        kuq(deck_text=text)


@pytest.mark.parametrize("bad", [
    {"players": 1}, {"players": 5}, {"players": True}, {"races": 0}, {"deck_seed": -1},
    {"deck_seed": "x"}, {"max_stages": 0}, {"colour": "red"}, {"deck_file": "/nonexistent/deck.txt"},
    {"deck_file": 3}, {"deck_text": DECK, "deck_file": "x"},
])
def test_bad_params(bad):
    with pytest.raises(UnknownGameError, match="kreuzundquer"):
        kuq(**bad)


def test_deck_too_small_for_players():
    with pytest.raises(UnknownGameError, match="dealt"):
        tdeck(players=3)


# ----------------------------------------------------------------------------- the path helper


def test_start_enters_first_row():
    tr = track12()
    assert reach(tr, START, pile("g")) == (False, room(0, 1), 1)
    assert reach(tr, START, pile("m")) == (False, START, 0)          # row 2 cannot be entered


def test_diagonal_inside_a_card():
    tr = track12()
    assert reach(tr, START, pile("gw")) == (False, room(1, 0), 2)    # (0,1) -> (1,0)
    assert reach(tr, START, pile("cw")) == (False, room(0, 2), 1)    # (0,2) -> no water next to it


def test_no_diagonal_across_cards():
    tr = track12()
    # (5,1) e: (6,0) m is diagonal across the border; (6,1) f is straight ahead
    assert reach(tr, room(5, 1), pile("m")) == (False, room(5, 1), 0)
    assert reach(tr, room(5, 1), pile("f")) == (False, room(6, 1), 1)
    # (5,2) w: e fits (5,1) inside the card and (6,2) straight ahead: the farther is taken
    assert reach(tr, room(5, 2), pile("e")) == (False, room(6, 2), 1)
    assert tr.neighbours(room(6, 1), T["e"]) == (room(5, 1), room(6, 2))   # straight back, sideways
    assert room(5, 0) not in tr.neighbours(room(6, 1), T["b"])


def test_moving_back_is_allowed():
    tr = track12()
    assert reach(tr, room(3, 1), pile("s")) == (False, room(2, 1), 1)
    assert START not in tr.neighbours(room(0, 1), T["s"])            # the start is not a room


def test_goal_needs_goal_terrain_from_last_row():
    tr = track12("w")
    assert reach(tr, room(11, 1), pile("w")) == (True, GOAL, 1)
    assert reach(tr, room(10, 1), pile("w")) == (False, room(10, 1), 0)
    assert reach(tr, room(10, 1), pile("sw")) == (True, GOAL, 2)
    assert reach(track12("g"), room(11, 1), pile("w")) == (False, room(11, 1), 0)


def test_first_card_that_fits_nothing_ends_the_turn():
    tr = track12()
    # g -> (0,1), m -> (1,1), b fits nothing: the turn ends, the s after it is wasted
    w = walk(tr, START, pile("gmbs"))
    assert (w.goal_step, w.end, w.used) == (None, room(1, 1), 2)
    assert not w.frontier


def test_player_chooses_the_farthest_room():
    tr = track12()
    assert reach(tr, room(1, 1), pile("s")) == (False, room(2, 1), 1)   # middle of row 2


def test_extensions():
    tr = track12()
    assert set(extensions(tr, START, [])) == {T["s"], T["g"], T["c"]}
    assert extensions(tr, room(5, 1), []) == {T["f"]: room(6, 1)}
    assert extensions(tr, room(11, 0), []) == {T["w"]: GOAL}
    assert extensions(tr, START, pile("gmb")) == {}        # a wasted card: nothing helps any more
    assert T["w"] in extensions(tr, START, pile("g"))     # (0,1) -> (1,0)


# ----------------------------------------------------------------------------- building and goals


def test_deal_and_build():
    g = kuq()
    s = g.new_state(seed=4)
    assert all(len(h) == 8 for h in s.hands) and len(s.pile) == 12
    assert sorted(s.pile + list(s.hands[0]) + list(s.hands[1])) == list(range(1, 29))
    assert g.new_state(seed=4).position() == s.position() != g.new_state(seed=5).position()
    moves = s.legal_moves()
    assert len(moves) == 28 and s.current_player == 0
    h = s.hands[0]
    s.play(f"x{h[5]},{h[1]}")
    assert s.box[0] == [h[1], h[5]] and s.route[0] == [c for c in h if c not in (h[1], h[5])]
    assert s.current_player == 1
    # player 1 cannot see player 0's hand, choice, or route
    other = g.new_state(seed=4)
    other.play(f"x{h[0]},{h[2]}")
    assert s.information_state(1) == other.information_state(1)
    assert s.information_state(0) != other.information_state(0)
    assert "hidden" in s.render(1)
    assert kuq(players=3).new_state().hands[0].__len__() == 7


@pytest.mark.parametrize("text,err", [
    ("x1", InvalidMoveError), ("x3,3", InvalidMoveError), ("xa,b", InvalidMoveError),
    ("flip", IllegalMoveError), ("take:q", InvalidMoveError), ("jump", InvalidMoveError), (7, InvalidMoveError),
])
def test_bad_moves_while_building(text, err):
    s = kuq().new_state(seed=1)
    with pytest.raises(err, match="kreuzundquer"):
        s.parse_move(text)


def test_card_not_in_hand():
    s = kuq().new_state(seed=1)
    c = s.pile[0]
    with pytest.raises(IllegalMoveError, match="not in player 0's hand"):
        s.play(f"x{c},{s.hands[0][0]}")


def test_goal_draw():
    g = kuq()
    s = g.new_state(seed=2)
    play(s, f"x{s.hands[0][0]},{s.hands[0][1]}")
    play(s, f"x{s.hands[1][0]},{s.hands[1][1]}")
    assert s.current_player == CHANCE and s.phase == "goal"
    outs = s.chance_outcomes()
    assert sorted(m.arg for m, _ in outs) == sorted(g.deck.goals) and all(p == 0.25 for _, p in outs)
    s.play(outs[2][0])
    assert len(s.chance_outcomes()) == 3 and outs[2][0] not in [m for m, _ in s.chance_outcomes()]
    s.play(s.chance_outcomes()[0][0])
    assert s.phase == "collect" and s.current_player == 0 and len(set(s.goal)) == 2


# ----------------------------------------------------------------------------- collection

def started(seed=0, **kw):
    g = tdeck(**kw) if kw.pop("test_deck", True) else kuq(**kw)
    s = g.new_state(seed=seed)
    for p in range(g.n):
        h = s.hands[p]
        s.play(f"x{h[0]},{h[1]}")
    while s.current_player == CHANCE:
        s.play(s.chance_outcomes()[0][0])
    return s


def test_flip_keep_leave_take_and_tick_rotation():
    s = started()
    assert s.legal_moves() == [Move("flip"), Move("stop")]
    s.play("flip")
    assert s.current_player == CHANCE
    outs = dict((str(m), p) for m, p in s.chance_outcomes())
    assert outs["@b"] == pytest.approx(2 / 48) and outs["@s"] == pytest.approx(10 / 48)
    s.play("@g")
    assert s.current_player == 0 and s.legal_moves() == [Move("keep"), Move("leave")]
    s.play("keep")
    assert s.tp[0] == [T["g"]] and s.tk[0] == [False]
    assert s.current_player == 1
    play(s, "flip @s leave")
    assert s.up[T["s"]] == 1 and sum(s.down) == 46
    # tick 2 starts with player 1 (rotating first player)
    assert s.current_player == 1
    s.play("take:s")
    assert s.tp[1] == [T["s"]] and s.tk[1] == [True] and s.up[T["s"]] == 0
    assert s.current_player == 0
    with pytest.raises(IllegalMoveError, match="no face-up"):
        s.play("take:s")
    # player 0 sees player 1's face-up take, player 1 does not see player 0's kept card
    assert "/S" in s.information_state(0).split("|")[-1]
    assert "?" in s.information_state(1).split("|")[-2]
    assert "g" not in s.information_state(1).split("|")[-2].split("/")[-1]


def test_decide_requires_keep_or_leave():
    s = started()
    play(s, "flip @c")
    with pytest.raises(IllegalMoveError, match="keep or leave"):
        s.play("flip")
    with pytest.raises(IllegalMoveError, match="chance outcome"):
        started().apply("flip").play("keep")


def test_collection_ends_when_no_face_down_card_is_left():
    g = tdeck()
    up = "".join(ch * n for ch, n in zip(TERRAINS, TERRAIN_COUNTS))[:-1]     # every card but one sand
    rest = ",".join(str(c) for c in range(5, 17))
    pos = f"collect;1;1;0;0;-;-;{up};{rest};-/1,2/-/-/w/-1/-/0;-/3,4/-/-/s/-1/-/0"
    s = g.state_from_position(pos)
    assert sum(s.down) == 1
    play(s, "flip @s keep")
    # movement happened, a new stage began with all 48 face down
    assert s.phase == "collect" and s.stage == 1 and sum(s.down) == 48 and s.pos[0] == room(0, 0)


# ----------------------------------------------------------------------------- movement, penalty, races

REST = ",".join(str(c) for c in range(5, 17))


def pos_collect(p0, p1, turn=0, stage=1, race=1, pile=REST, up="-"):
    return f"collect;{race};{stage};0;{turn};-;-;{up};{pile};{p0};{p1}"


def test_stop_and_win_at_once():
    g = tdeck(races=1)
    # player 0 stands on the last row of card 2 (room 31 = row 10, lane 1): s then w reaches the goal
    s = g.state_from_position(pos_collect("-/1,2/-/-/w/31/sw/0", "-/3,4/-/-/s/-1/s/0"))
    s.play("stop")
    assert s.is_terminal() and s.current_player == TERMINAL
    assert s.pos[0] == GOAL and s.aside[0] == [1, 2] and s.pts == [2, 0]
    assert s.returns() == [1.0, -1.0]
    assert s.pos[1] == START          # the race ended before player 1 moved


def test_stopper_moves_first_and_breaks_ties():
    g = tdeck(races=1)
    # both piles reach the goal; player 1 stops (turn 1), moves first, and wins
    s = g.state_from_position(pos_collect("-/1,2/-/-/w/31/sw/0", "-/3,4/-/-/s/33/s/0", turn=1))
    assert s.current_player == 1
    s.play("stop")
    # player 0 did not move, but card 1 was already behind its pawn: set aside, 1 point
    assert s.pts == [1, 2] and s.returns() == [-1.0, 1.0] and s.pos[0] == 31 - 18
    # without a stop (collection runs out) the order starts with player (race + stage) mod n = 0
    assert s.undo() is None and s.phase == "collect"


def test_penalty_and_set_aside():
    g = tdeck(races=1)
    # player 0 on card 1 calls stop with a pile that does not reach the goal: penalty
    s = g.state_from_position(pos_collect("-/1,2/-/-/w/16/f/0", "-/3,4/-/-/s/-1/s/0"))
    s.play("stop")
    assert s.phase == "penalty" and s.current_player == CHANCE
    outs = s.chance_outcomes()
    assert [str(m) for m, _ in outs] == [f"draw:{c}" for c in range(5, 17)]
    assert all(p == pytest.approx(1 / 12) for _, p in outs)
    s.play("draw:9")
    # pawn moved (5,1) -> (6,1): card 1 is crossed and set aside; card 9 ends the route
    assert s.route[0] == [2, 9] and s.aside[0] == [1] and s.pos[0] == room(0, 1)
    assert s.pos[1] == room(0, 1) and s.route[1] == [3, 4]
    assert s.phase == "collect" and s.stage == 1 and 9 not in s.pile
    assert s.current_player == 1          # stage 2 starts with player 1


def test_no_penalty_without_stop_or_when_the_pile_is_empty():
    g = tdeck(races=1)
    s = g.state_from_position(pos_collect("-/1,2/-/-/w/16/f/0", "-/3,4/-/-/s/-1/s/0", pile="-",
                                          ).replace("-/1,2/-/-/w", "-/1,2/-/" + REST + "/w"))
    s.play("stop")
    assert s.phase == "collect" and s.route[0] == [2]


def test_races_score_and_pass_routes_left():
    g = tdeck(races=2)
    s = g.state_from_position(pos_collect("-/1,2/-/-/w/31/sw/0", "-/3,4/-/-/s/20/-/0"))
    s.play("stop")
    # race 1: player 0 scores both cards; player 1 had crossed card 3 (room 20 is on card 4)
    assert s.pts == [2, 1] and s.race == 1 and s.phase == "collect"
    # routes pass to the left: player 0 gets player 1's whole route and goal, and vice versa
    assert s.route[1] == [1, 2] and s.goal[1] == T["w"]
    assert s.route[0] == [3, 4] and s.goal[0] == T["s"]
    assert s.pos == [START, START] and s.aside == [[], []]
    assert s.current_player == 1          # race 2, stage 1: player (1 + 0 + 0) mod 2


def test_max_stages_ends_the_race():
    g = tdeck(races=1, max_stages=2)
    s = g.new_state(seed=0)
    for p in range(2):
        h = s.hands[p]
        s.play(f"x{h[0]},{h[1]}")
    while s.current_player == CHANCE:
        s.play(s.chance_outcomes()[0][0])
    s.play("stop")
    while s.current_player == CHANCE:
        s.play(s.chance_outcomes()[0][0])
    assert s.stage == 1
    s.play("stop")
    while s.current_player == CHANCE:
        s.play(s.chance_outcomes()[0][0])
    assert s.is_terminal() and s.returns() == [0.0, 0.0]


def test_three_players():
    g = kuq(players=3, races=1)
    s = g.new_state(seed=9)
    assert len(s.pile) == 7
    rng = random.Random(1)
    while not s.is_terminal():
        if s.current_player == CHANCE:
            s.play(rng.choice(s.chance_outcomes())[0])
        else:
            s.play(heuristic_move(s))
    r = s.returns()
    assert abs(sum(r)) < 1e-9 and max(r) > 0


# ----------------------------------------------------------------------------- heuristic player


def test_heuristic_decisions():
    g = tdeck(races=1)
    s = g.state_from_position(pos_collect("-/1,2/-/-/w/31/sw/0", "-/3,4/-/-/s/-1/-/0"))
    assert heuristic_move(s) == Move("stop")
    # player 0 at (5,1): only field (straight ahead) helps; a face-up field is taken
    s = g.state_from_position(pos_collect("-/1,2/-/-/w/16/-/0", "-/3,4/-/-/s/-1/-/0", up="fs"))
    assert heuristic_move(s) == Move("take", T["f"])
    r = crossridor.search(s, algorithm="greedy", limits=crossridor.Limits(depth=1))
    assert r.move == Move("take", T["f"])
    s = g.state_from_position(pos_collect("-/1,2/-/-/w/16/-/0", "-/3,4/-/-/s/-1/-/0", up="s"))
    assert heuristic_move(s) == Move("flip")
    s.play("flip")
    s.play("@m")
    assert heuristic_move(s) == Move("leave")
    s.undo()
    s.play("@f")
    assert heuristic_move(s) == Move("keep")


def test_heuristic_build_prefers_an_easy_route():
    # player 0 holds cards 1 and 2 (rare terrains) and six all-sand cards: it returns 1 and 2
    g = tdeck()
    s = g.state_from_position("build;1;1;0;0;-;-;-;-;1,2,3,4,5,6,7,8/-/-/-/-/-1/-/0;"
                              "9,10,11,12,13,14,15,16/-/-/-/-/-1/-/0")
    assert heuristic_move(s) == Move("build", (1, 2))
    s.play("x3,4")
    assert heuristic_move(s).kind == "build" and s.current_player == 1


# ----------------------------------------------------------------------------- text, positions, bad input


def test_move_text_round_trip():
    s = started(test_deck=False)
    for m in s.legal_moves():
        assert s.parse_move(str(m)) == m and eval(repr(m), {"Move": Move}) == m
    for t in ("x3,17", "goal:w", "@s", "take:g", "draw:5", "flip", "keep", "leave", "stop"):
        assert str(Move.parse(t)) == t
    assert Move.parse("x17,3") == Move.parse("x3,17")


def test_render():
    s = started()
    play(s, "flip @g keep")
    full = str(s)
    assert "collected" in full and "player 1:" in full and "face down: 47" in full
    assert "collected (first first, upper case = taken face up): ?" in s.render(1)


@pytest.mark.parametrize("mutate,msg", [
    (lambda f: f[:5], "fields"),
    (lambda f: ["dance"] + f[1:], "phase"),
    (lambda f: f[:8] + ["5,6"] + f[9:], "once"),
    (lambda f: f[:7] + ["bbb"] + f[8:], "blue tiles"),
    (lambda f: f[:9] + [f[9].replace("/w/", "/q/")] + f[10:], "terrain"),
    (lambda f: f[:9] + [f[9].replace("/w/", "/b/")] + f[10:], "goal"),
    (lambda f: f[:9] + [f[9].replace("/-1/", "/999/")] + f[10:], "pos"),
    (lambda f: f[:9] + [f[9].replace("/-1/", "/x/")] + f[10:], "number"),
    (lambda f: f[:5] + ["s"] + f[6:], "pending"),
    (lambda f: f[:6] + ["0"] + f[7:], "stopper"),
    (lambda f: f[:9] + ["1,2,3"] + f[10:], "hand/route"),
    (lambda f: ["penalty"] + f[1:], "stopper"),
])
def test_corrupt_positions(mutate, msg):
    g = tdeck()
    good = pos_collect("-/1,2/-/-/w/-1/-/0", "-/3,4/-/-/s/-1/-/0")
    g.state_from_position(good)
    bad = ";".join(mutate(good.split(";")))
    with pytest.raises(InvalidPositionError, match=msg):
        g.state_from_position(bad)
    with pytest.raises(InvalidPositionError):
        g.state_from_position(None)


def test_game_over_rejects_moves():
    g = tdeck(races=1)
    s = g.state_from_position(pos_collect("-/1,2/-/-/w/31/sw/0", "-/3,4/-/-/s/-1/s/0"))
    s.play("stop")
    assert s.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        s.play("flip")


# ----------------------------------------------------------------------------- playouts with invariants


def _check_invariants(s, g):
    ids = list(s.pile)
    for p in range(g.n):
        ids += list(s.hands[p] or ()) + s.route[p] + s.aside[p] + s.box[p]
    assert sorted(ids) == list(range(1, g.ncards + 1))                      # route cards conserved
    for t in range(8):                                                      # terrain cards conserved
        held = s.up[t] + s.down[t] + sum(pl.count(t) for pl in s.tp) + (s.pending == t)
        assert held == TERRAIN_COUNTS[t]
    assert all(len(a) == len(b) for a, b in zip(s.tp, s.tk))


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_random_playouts(players, seed):
    g = kuq(players=players, deck_seed=seed, max_stages=6)
    rng = random.Random(seed)
    for game in range(3):
        s = g.new_state(seed=game)
        stack = []
        while not s.is_terminal():
            _check_invariants(s, g)
            pos = s.position()
            t = g.state_from_position(pos)
            assert t.position() == pos and t.key() == s.key()
            p = s.current_player
            if p == CHANCE:
                outs = s.chance_outcomes()
                assert abs(sum(pr for _, pr in outs) - 1) < 1e-9
                m = rng.choices([m for m, _ in outs], [pr for _, pr in outs])[0]
            else:
                for q in range(g.n):
                    d = s.sample_determinization(q, rng)
                    _check_invariants(d, g)
                    assert d.information_state(q) == s.information_state(q)
                    assert d.current_player == p
                moves = s.legal_moves()
                assert len(set(moves)) == len(moves)
                m = rng.choice(moves) if rng.random() < 0.5 else heuristic_move(s)
            stack.append(pos)
            s.play(m)
        _check_invariants(s, g)
        # points: sum over races of cards set aside, never more than the cards in play
        assert sum(s.pts) <= g.races * g.ncards
        r = s.returns()
        assert abs(sum(r)) < 1e-9
        assert (max(r) > 0) == (len(set(s.pts)) > 1 or max(s.pts) != min(s.pts))
        for pos in reversed(stack[-40:]):
            s.undo()
            assert s.position() == pos


def test_determinization_samples_hidden_cards():
    s = started(test_deck=False)
    play(s, "flip @g keep flip @s keep")
    rng = random.Random(0)
    for _ in range(50):
        d = s.sample_determinization(1, rng)
        assert d.tp[1] == [T["s"]]
        assert d.route == s.route
        assert d.information_state(1) == s.information_state(1)


def test_determinization_assumes_kept_cards_fit():
    # player 1 sees that player 0 kept two cards; they are sampled among the terrains
    # that extend player 0's path (card 1: row 1 is s g c)
    g = tdeck()
    s = g.state_from_position(pos_collect("-/1,2/-/-/w/-1/gm/0", "-/3,4/-/-/s/-1/-/0", turn=1))
    rng = random.Random(0)
    firsts, seconds = set(), set()
    for _ in range(200):
        d = s.sample_determinization(1, rng)
        a, b = d.tp[0]
        firsts.add(TERRAINS[a])
        seconds.add(TERRAINS[b])
        assert reach(track12(), START, d.tp[0])[2] == 2       # the whole pile is usable
    assert firsts == {"s", "g", "c"}
    assert len(seconds) >= 3


def test_cost_to_goal():
    tr = track12("w")
    import math
    assert tr.cost_to_goal(GOAL) == 0.0
    assert tr.cost_to_goal(room(11, 1)) == pytest.approx(-math.log(6 / 48))
    assert tr.cost_to_goal(room(10, 1)) == pytest.approx(-math.log(10 / 48) - math.log(6 / 48))
    assert tr.cost_to_goal(START) > tr.cost_to_goal(room(0, 1)) > tr.cost_to_goal(room(6, 1))


def test_stage_evaluator():
    from crossridor.games.kreuzundquer.rollout import stage_evaluator
    g = tdeck(races=1)
    # player 0 to move with a pile that reaches the goal: it stops and wins
    s = g.state_from_position(pos_collect("-/1,2/-/-/w/31/sw/0", "-/3,4/-/-/s/-1/s/0"))
    assert stage_evaluator(s, random.Random(1)) == [1.0, -1.0]
    t = started(test_deck=False)
    for seed in range(5):
        v = stage_evaluator(t, random.Random(seed))
        assert len(v) == 2 and abs(v[0] + v[1]) < 1e-9 and -1 <= v[0] <= 1
    play(t, "flip @g keep")
    v = stage_evaluator(t, random.Random(2))
    assert abs(v[0] + v[1]) < 1e-9 and t.phase == "collect" and len(t.tp[0]) == 1   # state untouched


def test_engine_searches():
    s = started(test_deck=False)
    r = crossridor.search(s, algorithm="ismcts", limits=crossridor.Limits(sims=30), seed=1,
                      rollout="eval", rollout_depth=4)
    assert r.move in s.legal_moves()
    r = crossridor.search(s, algorithm="random", limits=crossridor.Limits(depth=1), seed=1)
    assert r.move in s.legal_moves()
    b = kuq().new_state(seed=3)
    r = crossridor.search(b, algorithm="ismcts", limits=crossridor.Limits(sims=20), seed=1,
                      rollout="eval", rollout_depth=0)
    assert r.move in b.legal_moves()


def test_policy_moves():
    from crossridor.games.kreuzundquer.policy import pile_cost, policy_move
    g = tdeck(races=1)
    s = g.state_from_position(pos_collect("-/1,2/-/-/w/31/sw/0", "-/3,4/-/-/s/-1/-/0"))
    assert policy_move(s) == Move("stop")
    s = g.state_from_position(pos_collect("-/1,2/-/-/w/16/-/0", "-/3,4/-/-/s/-1/-/0", up="fs"))
    assert policy_move(s) == Move("take", T["f"])
    # player 0 at (5,0) on blue tiles, mud ahead: a beige card steps sideways to (5,1),
    # where field (commoner) is ahead: kept (the heuristic player leaves it)
    s = g.state_from_position(pos_collect("-/1,2/-/-/w/15/-/0", "-/3,4/-/-/s/-1/-/0"))
    tr = s.track(0)
    assert pile_cost(tr, 15, pile("e")) < pile_cost(tr, 15, []) < pile_cost(tr, 15, pile("s"))
    play(s, "flip @e")
    assert policy_move(s) == Move("keep") and heuristic_move(s) == Move("leave")
    # denial: water takes player 0 sideways to a slightly harder lane, and would take
    # player 1 (last row, goal water) to the goal: kept; a card that fits nowhere is left
    s = g.state_from_position(pos_collect("-/1,2/-/-/s/16/-/0", "-/3,4/-/-/w/34/-/0"))
    play(s, "flip @w")
    assert policy_move(s) == Move("keep") and heuristic_move(s) == Move("leave")
    assert policy_move(s, deny=0.0) == Move("leave")            # no denial
    r = crossridor.search(s, algorithm="ismcts", limits=crossridor.Limits(sims=1), seed=1, deny=0.0)
    assert r.move == Move("leave")                                # the prior's move, expanded first
    r = crossridor.search(s, algorithm="ismcts", limits=crossridor.Limits(sims=1), seed=1)
    assert r.move == Move("keep")
    s = g.state_from_position(pos_collect("-/1,2/-/-/s/16/-/0", "-/3,4/-/-/g/34/-/0"))
    play(s, "flip @w")
    assert policy_move(s) == Move("leave")
    s = g.state_from_position(pos_collect("-/1,2/-/-/s/16/-/0", "-/3,4/-/-/w/34/-/0"))
    play(s, "flip @s")
    assert policy_move(s) == Move("leave")
    # take denial: the same water face up (it costs player 0 about 0.5, and would take
    # player 1 to the goal) is taken rather than flipping, unless that costs more than
    # take_deny; not a card player 1 cannot use (goal grass)
    s = g.state_from_position(pos_collect("-/1,2/-/-/s/16/-/0", "-/3,4/-/-/w/34/-/0", up="ws"))
    tr = s.track(0)
    assert 0.4 < pile_cost(tr, 16, pile("w")) - pile_cost(tr, 16, []) < 1.0
    assert policy_move(s) == Move("take", T["w"]) and heuristic_move(s) == Move("flip")
    assert policy_move(s, take_deny=0.0) == policy_move(s, take_deny=0.4) == Move("flip")
    r = crossridor.search(s, algorithm="ismcts", limits=crossridor.Limits(sims=1), seed=1, take_deny=0.0)
    assert r.move == Move("flip")
    r = crossridor.search(s, algorithm="ismcts", limits=crossridor.Limits(sims=1), seed=1)
    assert r.move == Move("take", T["w"])
    s = g.state_from_position(pos_collect("-/1,2/-/-/s/16/-/0", "-/3,4/-/-/g/34/-/0", up="w"))
    assert policy_move(s) == Move("flip")


def test_ismcts_game_defaults():
    s = started(test_deck=False)
    r = crossridor.search(s, algorithm="ismcts", limits=crossridor.Limits(sims=20), seed=1)
    assert r.move in s.legal_moves() and r.extra["sims"] == 20
    r = crossridor.search(s, algorithm="ismcts", limits=crossridor.Limits(sims=20), seed=1, rollout="random",
                      prior=None)
    assert r.move in s.legal_moves()


def test_removed_ismcts_options_are_refused():
    s = started(test_deck=False)
    for opt in ({"mode": "pimc"}, {"bias": 0.5}, {"stages": 20}, {"build": 2}, {"trees": 4}, {"anchor": 1.0}):
        with pytest.raises(CrossridorError, match=next(iter(opt))):
            crossridor.search(s, algorithm="ismcts", limits=crossridor.Limits(sims=2), seed=1, **opt)


def test_masks_match_the_set_walk():
    """`Track.masks` (the playouts' bitmasks) gives what `walk` / `step` /
    `rank` give on sets, on random routes, positions and piles (route lengths
    0..4 cross card borders; START and GOAL included)."""
    from crossridor.games.kreuzundquer.paths import rank, step
    rng = random.Random(5)
    deck = generate_deck(3)
    for _ in range(400):
        tr = Track(tuple(deck.routes[rng.randrange(28)] for _ in range(rng.randrange(5))),
                   rng.choice(deck.goals))
        m = tr.masks
        pos = START if rng.random() < 0.4 or not tr.nrooms else rng.randrange(tr.nrooms)
        pile = rng.choices(range(len(TERRAINS)), TERRAIN_COUNTS, k=rng.randrange(12))
        w = walk(tr, pos, pile)
        goal, front, end = m.walk(pos, pile)
        assert (goal, end) == (w.goal_step is not None, w.end)
        if not goal:
            assert sorted(m.members(front)) == sorted(w.frontier)
        rooms = set(rng.sample(range(tr.nrooms), min(tr.nrooms, 1 + rng.randrange(5)))) | {START}
        if tr.nrooms and rng.random() < 0.7:
            rooms.discard(START)
        s = sum(m.of(r) for r in rooms)
        t = rng.randrange(len(TERRAINS))
        assert sorted(m.members(m.step(s, t))) == sorted(step(tr, rooms, t))
        assert m.best(s)[1] == max(rooms, key=lambda r: rank(tr, r))


def _real_stage(state, rng):
    """The real game's rest of the stage, every player playing `heuristic_move`,
    face-down cards and the penalty card drawn as `play_stage` draws them."""
    from crossridor.games.kreuzundquer.rollout import _draw
    s = state.clone()
    race, stage = s.race, s.stage
    while s.race == race and s.stage == stage and s.phase != "over":
        if s.phase == "flip":
            s.play(Move("reveal", _draw(list(s.down), rng)))
        elif s.phase == "penalty":
            s.play(Move("draw", s.pile[rng.randrange(len(s.pile))]))
        else:
            s.play(heuristic_move(s))
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_stage_resolves_the_stage_as_the_game_does(players):
    """`rollout.play_stage` (the leaf playout) against the real game played
    by `heuristic_move` with the same draws, from seeded random collection
    positions (deck, deal and the moves before vary): the same winner, and
    after a stage without one the same routes, pawns and set-aside cards; the
    race's points when it ends."""
    from crossridor.games.kreuzundquer.rollout import play_stage
    checked = wins = ended = 0
    for seed in range(6):
        g = kuq(players=players, deck_seed=seed, races=2, max_stages=8)
        rng = random.Random(seed)
        s = g.new_state(seed=seed)
        while not s.is_terminal():
            if s.phase in ("collect", "flip", "decide") and rng.random() < 0.05:
                k = rng.getrandbits(32)
                end = play_stage(s, random.Random(k))
                real = _real_stage(s, random.Random(k))
                reached = [p for p in range(players) if any(f"player {p + 1} uses" in line and "goal" in line
                                                             for line in real.log)]
                assert end.winner == (reached[0] if reached else None)
                assert end.ended == (real.race != s.race or real.phase == "over")
                if end.ended:
                    assert end.points == real.pts
                else:
                    assert end.routes == real.route and end.pos == real.pos
                    assert end.aside == [len(a) for a in real.aside]
                    assert end.points == [real.pts[p] + len(real.aside[p]) for p in range(players)]
                checked += 1
                wins += end.winner is not None
                ended += end.ended
            if s.current_player == CHANCE:
                moves, probs = zip(*s.chance_outcomes())
                s.play(rng.choices(moves, probs)[0])
            else:
                s.play(rng.choice(s.legal_moves()) if rng.random() < 0.1 else heuristic_move(s))
    assert checked > 200 and wins > 30 and ended > wins    # each kind of stage end is met
