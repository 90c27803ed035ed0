# MCTS for Quoridor
