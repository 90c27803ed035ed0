"""The published table of solved two-player Quoridor boards
(grantslatton/quoridor-solving), as data: for each board, W columns x H
rows, the winner from the start with 0 to 10 walls per player.
`crossridor solve quoridor --sweep published` solves the same entries and
compares (sweep.py)."""

from __future__ import annotations

# 1 the first player wins, 2 the second, D a draw, ? open; columns: 0 to 10 walls each
_TABLE = """\
2x3  2 1 1 1 1 1 1 1 1 1 1
3x3  2 2 2 2 2 2 2 2 2 2 2
4x3  2 2 2 1 1 1 1 1 1 1 1
5x3  2 2 2 1 1 1 1 1 1 1 1
6x3  2 2 2 2 1 1 1 1 1 1 1
7x3  2 2 2 2 2 2 2 2 2 2 2
8x3  2 2 2 D 2 2 2 2 2 2 2
9x3  2 2 2 2 2 2 2 1 1 1 1
2x5  2 2 2 2 2 2 2 2 2 2 2
3x5  2 2 2 1 2 2 2 2 2 2 2
4x5  2 2 2 2 1 1 1 1 1 1 1
5x5  2 2 2 2 2 1 1 1 1 1 1
2x7  2 2 1 1 1 1 1 1 1 1 1
3x7  2 2 2 2 2 1 1 1 1 1 1
4x7  2 2 1 2 1 1 1 ? ? ? ?
2x9  2 2 2 2 2 2 2 2 2 2 2
3x9  2 2 2 2 2 1 1 1 1 ? ?
"""

OPEN = "?"
WALLS = range(11)      # the table's columns: walls per player


def _read(text: str) -> dict[tuple[int, int, int], str]:
    table: dict[tuple[int, int, int], str] = {}
    for line in text.splitlines():
        board, *cells = line.split()
        width, height = (int(n) for n in board.split("x"))
        assert len(cells) == len(WALLS) and set(cells) <= {"1", "2", "D", OPEN}
        table.update(((width, height, walls), cell) for walls, cell in zip(WALLS, cells))
    return table


# (width, height, walls) -> "1", "2", "D" or "?" (open), in the table's order
PUBLISHED: dict[tuple[int, int, int], str] = _read(_TABLE)
# (width, height) of each board, in the table's order
BOARDS: tuple[tuple[int, int], ...] = tuple(dict.fromkeys((w, h) for w, h, _ in PUBLISHED))
# the entries whose outcome is known (not open)
KNOWN = sum(cell != OPEN for cell in PUBLISHED.values())
