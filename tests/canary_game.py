"""A module that must never be imported by data: importing it leaves a mark
(the file named by $CROSSRIDOR_CANARY, and `sys.modules`), calling its
function leaves another. Tests name it as `canary_game:load` in records,
PGN tags, requests and tasks, and check that nothing was imported."""

import os

MARK = os.environ.get("CROSSRIDOR_CANARY")
if MARK:
    with open(MARK, "a") as f:
        f.write("imported\n")


def load(**params):
    if MARK:
        with open(MARK, "a") as f:
            f.write("called\n")
    raise SystemExit("canary_game.load was called: data named code")
