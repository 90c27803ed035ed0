# MCTS for Quoridor (see below)

def q_mcts_search(state, limits, seed, options):
    return NotImplemented
