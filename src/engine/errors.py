"""Errors raised at the library's boundary. All are ValueErrors, so a caller
can catch bad input with one clause; each message names the input."""


class CrossridorError(ValueError):
    """Base class of every error about bad input."""


class InvalidMoveError(CrossridorError):
    """Text that is not a move in the game's notation."""


class IllegalMoveError(CrossridorError):
    """A well-formed move that is not legal in the position."""


class InvalidPositionError(CrossridorError):
    """A position string or move list that does not describe a position."""


class UnknownGameError(CrossridorError):
    """A game name that is not registered, or a bad game option."""


class UnsupportedGameError(CrossridorError):
    """An algorithm asked to search a game it cannot handle."""
