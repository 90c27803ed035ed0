"""The learning interface of every game, as OpenSpiel users expect it:
integer action ids, legal-action masks, observation / information-state
tensors (numpy float32) and chance outcomes.

One module per game holds that game's layouts (`quoridor`, `crosswise`,
`qwatrobat`, `kreuz_und_quer`); `api` holds the thin methods the game and
state classes inherit, which delegate to the game's codec.
"""
