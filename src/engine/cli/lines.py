"""The text `crossridor best` prints for a search's lines: the `info`
lines of `--verbose` (one per finished depth, one per line with
`--multipv N`) and the table of the N best moves."""

from __future__ import annotations

from crossridor.engine.protocol import Line, SearchResult


def format_score(score) -> str:
    return f"{score:+.3f}" if isinstance(score, float) else f"{score:+d}"


def moves_text(moves) -> str:
    return " ".join(str(m) for m in moves)


def info_lines(info: SearchResult, multipv: int) -> list[str]:
    """`info depth D score S nodes N nps X time T pv ...` for a finished
    depth; with multipv > 1 one such line per line found, each with its
    `multipv k` (as UCI's `info`), its own depth, score and line."""
    tail = f"nodes {info.nodes} nps {info.nps:.0f} time {info.seconds:.3f}"
    if multipv == 1 or not info.lines:
        return [f"info depth {info.depth} score {format_score(info.score)} {tail} pv {moves_text(info.pv)}"]
    return [f"info depth {line.depth or info.depth} multipv {k} score {format_score(line.score)} {tail} "
            f"pv {moves_text(line.pv)}" for k, line in enumerate(info.lines, 1)]


def line_cells(rank: int, line: Line) -> list[str]:
    """One row of the table of lines: rank, move, score, what the score
    means to a person (`expected 0.62 (W 620 D 0 L 380)`, `wins in 7
    plies`), depth (the line follows, unaligned)."""
    said = line.outlook.text() if line.outlook is not None else ""
    return [f"{rank}.", str(line.move), format_score(line.score), said, f"depth {line.depth}"]


def lines_table(lines) -> list[str]:
    """The lines, best first, one row each with the columns aligned:
    `1.  e3   +12  expected 0.52 (W 520 D 0 L 480)  depth 4  pv e3 e7 e4`."""
    rows = [line_cells(k, line) for k, line in enumerate(lines, 1)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))] if rows else []
    out = []
    for row, line in zip(rows, lines):
        cells = [cell.rjust(w) if i in (0, 2) else cell.ljust(w) for i, (cell, w) in enumerate(zip(row, widths))]
        out.append("  ".join(cells) + f"  pv {moves_text(line.pv)}")
    return out
