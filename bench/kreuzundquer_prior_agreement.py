"""How often did engine 1 of a Kreuz & Quer match play something other than
the policy's move (`policy.policy_move` of games/kreuzundquer, the ISMCTS prior)? Replays the
records of `crossridor match kreuzundquer ... --records F` and counts, by
phase (build, collect, decide), engine 1's moves and those that differ from
the policy's move in the same position:

    python3 bench/kreuzundquer_prior_agreement.py ki_g.jsonl [--take-deny D] [--deny D]

(`--deny D` and `--take-deny D` set the prior's options as the engine had
them; `--take-deny 0` is the prior without take denial.)
"""

from __future__ import annotations

import argparse
from collections import Counter

from kreuzundquer_replay import replay

from crossridor.games.kreuzundquer.policy import policy_move

PHASES = ("build", "collect", "decide")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="+")
    ap.add_argument("--deny", type=float, default=None)
    ap.add_argument("--take-deny", type=float, default=None)
    args = ap.parse_args(argv)
    moves, differ = Counter(), Counter()
    for r, s, mv in replay(args.records):
        if s.current_player == r["seats"].index(0) and s.phase in PHASES:
            moves[s.phase] += 1
            differ[s.phase] += str(policy_move(s, args.deny, args.take_deny)) != mv
    for ph in PHASES:
        print(f"{ph}: {differ[ph]} of {moves[ph]} moves differ from the policy's")


if __name__ == "__main__":
    main()
