# alpha-beta search for Quoridor

def q_native_search(state, algorithm, limits, seed, options):
    return NotImplemented
