"""Validation of algorithm options at the boundary, before they reach C.

A schema maps each option to its kind: `bool`, `callable`, `str`, `"stop"` (a
`crossridor.engine._core.StopFlag` or None), a tuple of allowed strings, or
(int|float, low, high). Values come from Python or from
the command line (`-e key=value`, already converted to int/float/bool)."""

from __future__ import annotations

import math

from .errors import CrossridorError


def check_options(algorithm: str, options: dict, schema: dict) -> dict:
    """Return the options, checked against schema; CrossridorError names the
    first bad one."""
    unknown = sorted(set(options) - set(schema))
    if unknown:
        known = ", ".join(sorted(schema)) or "none"
        raise CrossridorError(f"unknown option(s) for {algorithm}: {', '.join(unknown)} (known: {known})")
    for name, value in options.items():
        kind = schema[name]
        if kind is bool:
            if not isinstance(value, bool):
                raise CrossridorError(f"option {name} must be true or false, got {value!r}")
        elif kind is str:
            if not isinstance(value, str) or not value:
                raise CrossridorError(f"option {name} must be a non-empty text, got {value!r}")
        elif kind == "stop":
            from ._core import StopFlag
            if value is not None and not isinstance(value, StopFlag):
                raise CrossridorError(f"option {name} must be a StopFlag, got {type(value).__name__}")
        elif kind is callable:
            if not callable(value):
                raise CrossridorError(f"option {name} must be callable, got {value!r}")
        elif isinstance(kind, tuple) and all(isinstance(k, str) for k in kind):
            if value not in kind:
                raise CrossridorError(f"option {name} must be one of {', '.join(kind)}, got {value!r}")
        else:
            typ, low, high = kind
            ok_type = (isinstance(value, int) and not isinstance(value, bool)) if typ is int else \
                (isinstance(value, (int, float)) and not isinstance(value, bool))
            if not ok_type or (typ is float and not math.isfinite(value)) or not low <= value <= high:
                what = "an integer" if typ is int else "a number"
                raise CrossridorError(f"option {name} must be {what} in [{low}, {high}], got {value!r}")
    return dict(options)
