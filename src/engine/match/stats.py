"""Match statistics: Elo difference, its 95% interval, likelihood of
superiority (LOS) and the sequential probability ratio test (SPRT).

Every function takes plain counts of wins, draws and losses *from the first
engine's side*, so it is usable outside the match runner.

* Elo and its interval follow cutechess-cli (`elo.cpp`): the score
  `mu = (W + D/2) / N` is mapped to Elo by the logistic curve
  `-400 log10(1/mu - 1)`; the interval maps `mu +- 1.96 sigma` through the
  same curve, sigma from the trinomial (W/D/L) per-game variance, and
  `elo_error` is half its width.
* LOS is cutechess's normal approximation, `Phi((W - L) / sqrt(W + L))`
  (draws carry no information about who is stronger).
* The SPRT is the generalized SPRT of fishtest (Michel Van den Bergh,
  `LLRcalc.py`), trinomial, logistic Elo: for each hypothesis Elo = elo0 and
  Elo = elo1 the maximum-likelihood W/D/L distribution with that expected
  score is found (a one-dimensional root, here by bisection), and the LLR is
  `N * sum p_i log(p1_i / p0_i)`. Zero counts are regularized to 1e-3 as
  fishtest does. Bounds: `log(beta / (1 - alpha))` and
  `log((1 - beta) / alpha)` (Wald). tests/test_stats.py checks it against
  the normal approximation, which it approaches for large N.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

_NORMAL = NormalDist()
Z95 = _NORMAL.inv_cdf(0.975)   # 1.959963...


def score_of(wins: int, draws: int, losses: int) -> float | None:
    n = wins + draws + losses
    return None if n == 0 else (wins + 0.5 * draws) / n


def elo_from_score(score: float) -> float:
    """Logistic Elo difference for an expected score in [0, 1]
    (+-inf at 1 and 0): 0.75 -> +190.85."""
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"score must be in [0, 1], got {score!r}")
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """The expected score of an Elo difference (inverse of elo_from_score)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _stdev_of_mean(wins: int, draws: int, losses: int) -> float:
    n = wins + draws + losses
    mu = (wins + 0.5 * draws) / n
    var = (wins * (1.0 - mu) ** 2 + draws * (0.5 - mu) ** 2 + losses * mu ** 2) / n
    return math.sqrt(var / n)


def score_interval(wins: int, draws: int, losses: int, confidence: float = 0.95) -> tuple[float, float]:
    """The (low, high) interval of the score at `confidence`: mu +- z sigma,
    sigma from the trinomial per-game variance, clipped to [0, 1]."""
    n = wins + draws + losses
    if n == 0:
        return (0.0, 1.0)
    mu = (wins + 0.5 * draws) / n
    z = _NORMAL.inv_cdf(0.5 + confidence / 2.0)
    sigma = _stdev_of_mean(wins, draws, losses)
    return min(1.0, max(0.0, mu - z * sigma)), min(1.0, max(0.0, mu + z * sigma))


def elo_interval(wins: int, draws: int, losses: int, confidence: float = 0.95) -> tuple[float, float]:
    """The (low, high) Elo interval at `confidence` (cutechess's method)."""
    if wins + draws + losses == 0:
        return (-math.inf, math.inf)
    low, high = score_interval(wins, draws, losses, confidence)
    return elo_from_score(low), elo_from_score(high)


def result_text(wins: int, draws: int, losses: int) -> str:
    """One line for a strength measurement, so that a short run is never
    read as a result: `200 games: W 120 D 18 L 62, score 64.5% +- 6.4%
    (95%: 58.1%-70.9%)`."""
    n = wins + draws + losses
    if n == 0:
        return "0 games: no result"
    s = (wins + 0.5 * draws) / n
    head = f"{n} game{'' if n == 1 else 's'}: W {wins} D {draws} L {losses}, score {100 * s:.1f}%"
    if max(wins, draws, losses) == n:     # no variance seen: the normal interval says nothing
        return head + " (95% interval unknown: every game ended the same way)"
    low, high = score_interval(wins, draws, losses)
    half = Z95 * _stdev_of_mean(wins, draws, losses)
    return head + f" +- {100 * half:.1f}% (95%: {100 * low:.1f}%-{100 * high:.1f}%)"


def elo_error(wins: int, draws: int, losses: int, confidence: float = 0.95) -> float:
    """Half the width of the Elo interval (the "+-" cutechess prints)."""
    low, high = elo_interval(wins, draws, losses, confidence)
    if math.isinf(low) or math.isinf(high):
        return math.inf
    return (high - low) / 2.0


def los(wins: int, draws: int, losses: int) -> float:
    """Likelihood of superiority in [0, 1]: 60 wins, 40 losses -> 0.977."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


# --- SPRT ---------------------------------------------------------------------

@dataclass(frozen=True)
class SprtSpec:
    """`--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05`: H0 is Elo = elo0, H1 is
    Elo = elo1 (logistic Elo, elo0 < elo1); alpha and beta are the error
    probabilities of accepting H1 when H0 holds and H0 when H1 holds."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        if not self.elo0 < self.elo1:
            raise ValueError(f"sprt: elo0 must be below elo1, got elo0={self.elo0}, elo1={self.elo1}")
        for name in ("alpha", "beta"):
            v = getattr(self, name)
            if not 0.0 < v < 0.5:
                raise ValueError(f"sprt: {name} must be in (0, 0.5), got {v}")

    @classmethod
    def parse(cls, text: str) -> "SprtSpec":
        """`"elo0=0,elo1=10,alpha=0.05,beta=0.05"`; omitted keys keep their default."""
        values = {}
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            key, sep, raw = part.partition("=")
            key = key.strip()
            if not sep or key not in ("elo0", "elo1", "alpha", "beta"):
                raise ValueError(f"sprt: {part!r} is not one of elo0=, elo1=, alpha=, beta= "
                                 f"(in {text!r})")
            try:
                values[key] = float(raw)
            except ValueError:
                raise ValueError(f"sprt: {key} must be a number, got {raw.strip()!r}") from None
            if not math.isfinite(values[key]):
                raise ValueError(f"sprt: {key} must be finite, got {raw.strip()!r}")
        return cls(**values)

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def __str__(self) -> str:
        return f"elo0={self.elo0:g},elo1={self.elo1:g},alpha={self.alpha:g},beta={self.beta:g}"


_REGULARIZE = 1e-3  # fishtest: a zero count becomes 1e-3


def _pdf(wins: int, draws: int, losses: int) -> tuple[float, list[tuple[float, float]]]:
    counts: list[tuple[float, float]] = [(0.0, losses), (0.5, draws), (1.0, wins)]
    counts = [(a, c if c > 0 else _REGULARIZE) for a, c in counts]
    n = sum(c for _, c in counts)
    return n, [(a, c / n) for a, c in counts]


def _mle(pdf: list[tuple[float, float]], s: float) -> list[float]:
    """The distribution on the same outcomes closest (max likelihood) to
    `pdf` whose expectation is s: p_i / (1 + x (a_i - s)), x the root of
    sum p_i (a_i - s) / (1 + x (a_i - s)) = 0 (decreasing in x)."""
    lo_a, hi_a = pdf[0][0], pdf[-1][0]
    lo, hi = -1.0 / (hi_a - s), 1.0 / (s - lo_a)
    eps = 1e-12
    lo, hi = lo + eps * (hi - lo), hi - eps * (hi - lo)

    def f(x):
        return sum(p * (a - s) / (1.0 + x * (a - s)) for a, p in pdf)

    for _ in range(200):
        mid = (lo + hi) / 2.0
        if f(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2.0
    return [p / (1.0 + x * (a - s)) for a, p in pdf]


def llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Generalized log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0)."""
    if wins + draws + losses == 0:
        return 0.0
    n, pdf = _pdf(wins, draws, losses)
    p0 = _mle(pdf, score_from_elo(elo0))
    p1 = _mle(pdf, score_from_elo(elo1))
    return n * sum(p * math.log(q1 / q0) for (_, p), q0, q1 in zip(pdf, p0, p1))


@dataclass(frozen=True)
class SprtResult:
    llr: float
    lower: float
    upper: float
    result: str          # "H0" (accept elo0), "H1" (accept elo1) or "continue"

    def as_dict(self) -> dict:
        return {"llr": round(self.llr, 4), "lower": round(self.lower, 4),
                "upper": round(self.upper, 4), "result": self.result}


def sprt(wins: int, draws: int, losses: int, spec: SprtSpec) -> SprtResult:
    value = llr(wins, draws, losses, spec.elo0, spec.elo1)
    if value >= spec.upper:
        verdict = "H1"
    elif value <= spec.lower:
        verdict = "H0"
    else:
        verdict = "continue"
    return SprtResult(value, spec.lower, spec.upper, verdict)


# --- summary ------------------------------------------------------------------

def _finite(x: float, digits: int) -> float | None:
    return round(x, digits) if math.isfinite(x) else None


def summary(wins: int, draws: int, losses: int, sprt_spec: SprtSpec | None = None) -> dict:
    """The `--json` numbers: games, wins, draws, losses, score, elo,
    elo_error (95%), los, and sprt when asked. Infinite Elo (a 100% or 0%
    score) is null."""
    n = wins + draws + losses
    out: dict = {"games": n, "wins": wins, "draws": draws, "losses": losses}
    if n == 0:
        out.update(score=None, elo=None, elo_error=None, los=None)
    else:
        s = (wins + 0.5 * draws) / n
        out.update(score=round(s, 6), elo=_finite(elo_from_score(s), 2),
                   elo_error=_finite(elo_error(wins, draws, losses), 2),
                   los=round(los(wins, draws, losses), 6))
    if sprt_spec is not None:
        out["sprt"] = sprt(wins, draws, losses, sprt_spec).as_dict()
    return out
