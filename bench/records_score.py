"""The score of a `crossridor match --records FILE` run, with its 95%
interval and the number of games, also while the match is still running or
after it was killed:

    python3 bench/records_score.py qw.jsonl [more.jsonl ...]

Counts engine 1 against engine 2 as the match runner does
(`engine.match.Tally`), over the complete rounds (every seat played once) of
the games finished in index order, so a partial run keeps its seats
balanced. Never writes to the file (unlike the runner's loader, which cuts a
torn last line)."""

from __future__ import annotations

import json
import sys

from crossridor.engine.match.game_loop import GameRecord
from crossridor.engine.match.scoring import Tally
from crossridor.engine.match.stats import result_text


def complete_rounds(path: str) -> list:
    """The records of the complete rounds of the index-order prefix."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")[:-1]          # a torn last line has no newline yet
    by_index = {}
    for line in filter(str.strip, lines):
        r = GameRecord.from_dict(json.loads(line))
        by_index[r.index] = r
    prefix = []
    while len(prefix) in by_index:
        prefix.append(by_index[len(prefix)])
    per_round = len(prefix[0].seats) if prefix else 1
    return prefix[:len(prefix) - len(prefix) % per_round]


def score_line(path: str) -> str:
    records = complete_rounds(path)
    tally = Tally()
    for r in records:
        tally.add(r)
    engines = " vs ".join(records[0].match_engines) if records else "no games"
    cut = f"; {tally.max_plies_draws} cut off by the ply cap" if tally.max_plies_draws else ""
    return f"{path}: {engines}: {result_text(tally.wins, tally.draws, tally.losses)}{cut}"


def main(argv) -> int:
    if not argv:
        sys.stderr.write("usage: records_score.py RECORDS.jsonl [...]\n")
        return 2
    for path in argv:
        try:
            print(score_line(path))
        except OSError as e:
            sys.stderr.write(f"records_score.py: error: cannot read {path!r}: {e.strerror}\n")
            return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
