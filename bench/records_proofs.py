"""Are the early stops of a Quoridor match's engine sound? A search on a move
time stops early when it has proved a win or a loss, in a tree whose selective
plies never try some walls. For each game, the engine's first move that took
under 80% of its move time is searched again (this build's default alpha-beta,
the same move time); a proven score there is checked against how the game
ended.

    python3 bench/records_proofs.py m.jsonl ENGINE [SECONDS]

ENGINE is 1 or 2, as the match runner numbers them; SECONDS the move time of
the match (default 0.5). Prints the proofs found and the ones the game's end
contradicts (a claimed win lost, a claimed loss won)."""

from __future__ import annotations

import sys

from crossridor import Limits, load_game, search
from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.records import read_records

PROVEN = 99000      # scores beyond this are a proven win or loss (S_WIN_BOUND)


def proofs(path: str, engine: int, seconds: float) -> tuple[int, list]:
    """(games with a proof at the first early stop, [(game index, ply, claim) contradicted])."""
    found, wrong = 0, []
    for record in read_records(path):        # whole lines only, each a valid game record
        if record.game != "quoridor":           # data never names code: no other game is loaded
            raise CrossridorError(f"{path}: game {record.index} is of {record.game!r}, not of quoridor")
        if record.think is None:
            raise CrossridorError(f"{path}: game {record.index} has no think times")
        try:
            state = load_game("quoridor", **record.params).new_state()
            for ply, move in enumerate(record.moves):
                mine = record.seats[state.current_player] + 1 == engine
                if ply >= record.opening_plies and mine and record.think[ply - record.opening_plies][1] < 0.8 * seconds:
                    score = search(state, "alphabeta", Limits(time=seconds), seed=1).score
                    if abs(score) > PROVEN:
                        found += 1
                        won = record.winner == state.current_player + 1
                        if (score > 0) != won:
                            wrong.append((record.index, ply, "win" if score > 0 else "loss"))
                    break
                state.play(move)
        except CrossridorError as e:            # its parameters or moves
            raise CrossridorError(f"{path}: game {record.index}: {e}") from None
    return found, wrong


def main(argv) -> int:
    if len(argv) not in (2, 3) or argv[1] not in ("1", "2"):
        sys.stderr.write("usage: records_proofs.py RECORDS.jsonl ENGINE(1|2) [SECONDS]\n")
        return 2
    try:
        found, wrong = proofs(argv[0], int(argv[1]), float(argv[2]) if len(argv) == 3 else 0.5)
    except (CrossridorError, ValueError) as e:
        sys.stderr.write(f"records_proofs.py: error: {e}\n")
        return 2
    for index, ply, claim in wrong:
        print(f"game {index}, ply {ply}: a proven {claim} the game's end contradicts")
    print(f"engine {argv[1]}: {found} proofs at a first early stop, {len(wrong)} contradicted")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
