"""Kreuz & Quer (2 to 4 players, hidden piles): rules and notation in pure
Python (`game`), the material and deck file (`deck`), paths (`paths`), the
playing policy (`policy`), the leaf evaluator (`rollout`), its learning codec
(`learning`)."""
