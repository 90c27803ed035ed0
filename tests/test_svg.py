"""SVG pictures: valid XML for every game and viewer, nothing loaded from
outside, hidden cards drawn as backs, and `crossridor show --svg/--png`."""

import random
import xml.etree.ElementTree as ET

import pytest

import crossridor
from crossridor.engine.cli.main import main
from crossridor.engine.protocol import SPECTATOR

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    for node in root.iter():
        for key, value in node.attrib.items():     # no external images, fonts or links
            assert "href" not in key and "url(http" not in value and "@import" not in value
    return root


def ids(root) -> set:
    return {n.attrib["id"] for n in root.iter() if "id" in n.attrib}


def backs(root) -> int:
    return sum(1 for n in root.iter() if "back" in n.attrib.get("class", "").split())


def playout(game, seed, plies):
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    states = [state.clone()]
    for _ in range(plies):
        if state.is_terminal():
            break
        state.play(rng.choice(state.legal_moves()))
        states.append(state.clone())
    return states


GAMES = [("quoridor", {}), ("quoridor", {"players": 4, "size": 7}), ("quoridor", {"size": "4x7"}),
         ("quoridor", {"size": "2x3", "walls": 3}), ("crosswise", {"players": 2}),
         ("crosswise", {"players": 4}), ("qwatrobat", {}), ("qwatrobat", {"open": True}),
         ("kreuzundquer", {"players": 3, "races": 1})]


@pytest.mark.parametrize("name,params", GAMES)
def test_every_position_and_viewer_is_valid_svg(name, params):
    game = crossridor.load_game(name, **params)
    for state in playout(game, 1, 120)[::7]:
        for viewer in [None, *range(game.traits.num_players)]:
            root = parse(state.to_svg(viewer=viewer))
            assert float(root.attrib["width"]) > 100
        assert state._repr_svg_() == state.to_svg()


def test_quoridor_board_ids_walls_and_arrows():
    state = crossridor.load_game("quoridor").new_state("e2 e8 e3h")
    root = parse(state.to_svg(arrows=state.pv_arrows(["e7", "d2", "c6v"])))
    found = ids(root)
    assert {"sq-a1", "sq-i9", "wall-a1h", "wall-h8v", "pawn-1", "pawn-2"} <= found
    assert "wall-i9h" not in found and "sq-j1" not in found
    walls = [n for n in root.iter() if n.attrib.get("class") == "wall"]
    assert len(walls) == 1 and walls[0].attrib["stroke"] != "none"      # the last move is marked
    arrows = [n for n in root.iter() if n.attrib.get("class") == "arrow"]
    assert len(arrows) == 3                                              # two pawn arrows, one ghost wall
    plain = parse(state.to_svg(last_move=False))
    assert [n for n in plain.iter() if n.attrib.get("class") == "wall"][0].attrib["stroke"] == "none"


def box(node) -> tuple[float, float, float, float]:
    return tuple(float(node.attrib[k]) for k in ("x", "y", "width", "height"))


@pytest.mark.parametrize("size,columns,rows", [("4x7", 4, 7), ("9x3", 9, 3), ("2x3", 2, 3)])
def test_quoridor_rectangular_board_is_columns_by_rows_inside_the_picture(size, columns, rows):
    state = crossridor.load_game("quoridor", size=size).new_state()
    root = parse(state.to_svg())
    squares = {n.attrib["id"]: box(n) for n in root.iter() if n.attrib.get("class", "").startswith("sq")}
    slots = [n.attrib["id"] for n in root.iter() if n.attrib.get("class") == "slot"]
    last = "abcdefghi"[columns - 1]
    assert len(squares) == columns * rows and f"sq-{last}{rows}" in squares
    assert len(slots) == 2 * (columns - 1) * (rows - 1) and f"wall-{'abcdefghi'[columns - 2]}{rows - 1}v" in slots
    # row 1 at the bottom, column a on the left; every square inside the picture
    assert squares["sq-a1"][1] > squares[f"sq-a{rows}"][1] and squares["sq-a1"][0] < squares[f"sq-{last}1"][0]
    width, height = float(root.attrib["width"]), float(root.attrib["height"])
    assert all(0 < x and x + w < width and 0 < y and y + h < height for x, y, w, h in squares.values())
    # each pawn at the centre of its square
    pawns = [n for n in root.iter() if n.attrib.get("class") == "pawn"]
    centres = [(x + w / 2, y + h / 2) for x, y, w, h in (squares[f"sq-{sq}"] for sq in state.pawns)]
    assert [(float(p.attrib["cx"]), float(p.attrib["cy"])) for p in pawns] == centres


def test_crosswise_hides_other_hands():
    state = crossridor.load_game("crosswise").new_state(seed=3)
    mine, theirs = state.hand(0), state.hand(1)
    root = parse(state.to_svg(viewer=0))
    assert backs(root) == len(theirs)
    assert backs(parse(state.to_svg())) == 0
    assert backs(parse(state.to_svg(viewer=1))) == len(mine)
    # the hand of the seat to move is clickable when visible
    mover = state.current_player
    assert {f"hand-{ch}" for ch in state.hand(mover)} <= ids(parse(state.to_svg(viewer=mover)))


def test_qwatrobat_hides_the_secret_setup():
    state = crossridor.load_game("qwatrobat", first=1).new_state("1234/4321 1122/3344 c1")
    assert backs(parse(state.to_svg(viewer=0))) == 8          # player 1's eight cards
    assert backs(parse(state.to_svg(viewer=1))) == 7          # player 0 pushed one
    assert backs(parse(state.to_svg(viewer=SPECTATOR))) == 15
    assert backs(parse(state.to_svg())) == 0
    assert "setup" in state.view(0)["history"] and "1122/3344" not in str(state.view(0))


def test_kreuzundquer_hides_hands_and_piles():
    game = crossridor.load_game("kreuzundquer")
    state = game.new_state(seed=1)
    hand0 = state.hands[0]
    svg1 = state.to_svg(viewer=1)
    assert backs(parse(svg1)) == len(hand0) and backs(parse(state.to_svg())) == 0
    assert not any(f'id="card-{c}"' in svg1 for c in hand0)       # player 0's hand is not shown to 1
    assert all(f'id="card-{c}"' in state.to_svg(viewer=0) for c in hand0)


def test_show_writes_svg_and_png(tmp_path, capsys):
    svg = tmp_path / "b.svg"
    assert main(["show", "quoridor", "--moves", "e2 e8 e3h", "--svg", str(svg)]) == 0
    root = parse(svg.read_text())
    assert "e3h" in root.find(NS + "title").text
    assert main(["show", "crosswise", "--seed", "3", "--viewer", "1", "--svg", str(svg)]) == 0
    assert backs(parse(svg.read_text())) == 4
    capsys.readouterr()
    assert main(["show", "quoridor", "--svg", str(tmp_path / "no" / "b.svg")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write" in err


def test_show_png(tmp_path, capsys):
    png = tmp_path / "b.png"
    try:
        import cairosvg  # noqa: F401
    except ImportError:
        assert main(["show", "quoridor", "--png", str(png)]) == 2
        assert "cairosvg" in capsys.readouterr().err
        return
    assert main(["show", "quoridor", "--moves", "e2", "--png", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["show", "quoridor", "--size", "4x7", "--moves", "c2 c6 b3h", "--png", str(png)]) == 0
    picture = png.read_bytes()
    assert picture[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(picture[16:20], "big"), int.from_bytes(picture[20:24], "big")
    assert height > width                     # 7 rows over 4 columns
