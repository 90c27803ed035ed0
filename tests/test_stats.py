"""crossridor.engine.match.stats against values worked out by hand (cutechess's and fishtest's
formulas; the derivations are in the comments)."""

from __future__ import annotations

import math

import pytest

from crossridor.engine.match.stats import (
    SprtSpec,
    elo_error,
    elo_from_score,
    elo_interval,
    llr,
    los,
    score_from_elo,
    sprt,
    summary,
)


def test_elo_from_score_known_values():
    # -400 log10(1/0.75 - 1) = 400 log10(3)
    assert elo_from_score(0.75) == pytest.approx(190.8485, abs=1e-4)
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.25) == pytest.approx(-190.8485, abs=1e-4)
    # 10:1 odds = +400 Elo
    assert elo_from_score(10 / 11) == pytest.approx(400.0)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    with pytest.raises(ValueError):
        elo_from_score(1.5)
    for elo in (-300.0, -12.5, 0.0, 45.0, 700.0):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo)


def test_los_known_values():
    # Phi(20 / sqrt(100)) = Phi(2) = 0.97725
    assert los(60, 0, 40) == pytest.approx(0.977250, abs=1e-6)
    assert los(60, 123, 40) == los(60, 0, 40)       # draws carry no information
    assert los(50, 10, 50) == 0.5
    assert los(0, 5, 0) == 0.5
    assert los(40, 0, 60) == pytest.approx(1 - 0.977250, abs=1e-6)


def test_elo_error_known_value():
    # W 40 D 20 L 40: mu 0.5; per-game variance (40*.25 + 20*0 + 40*.25)/100 = 0.2;
    # sigma of the mean sqrt(0.2/100); mu + 1.959964 sigma = 0.587652;
    # elo(0.587652) = 61.54
    assert elo_error(40, 20, 40) == pytest.approx(61.543, abs=1e-3)
    low, high = elo_interval(40, 20, 40)
    assert low == pytest.approx(-61.543, abs=1e-3) and high == pytest.approx(61.543, abs=1e-3)
    # an asymmetric interval: W 75 D 0 L 25, mu .75, var .1875, sigma .0433;
    # [0.665131, 0.834869] -> [-400 log10(0.503466), -400 log10(0.197792)] = [119.21, 281.52]
    low, high = elo_interval(75, 0, 25)
    assert low == pytest.approx(119.21, abs=0.01) and high == pytest.approx(281.52, abs=0.01)
    assert elo_error(75, 0, 25) == pytest.approx(81.15, abs=0.01)
    # more games, smaller error (1/sqrt(N))
    assert elo_error(400, 200, 400) == pytest.approx(61.543 / math.sqrt(10), rel=0.01)
    assert elo_error(10, 0, 0) == math.inf


def test_sprt_bounds():
    spec = SprtSpec()
    assert (spec.elo0, spec.elo1, spec.alpha, spec.beta) == (0, 10, 0.05, 0.05)
    assert spec.lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944439, abs=1e-6)
    assert spec.upper == pytest.approx(2.944439, abs=1e-6)
    s = SprtSpec(alpha=0.01, beta=0.1)
    assert s.lower == pytest.approx(math.log(0.1 / 0.99)) and s.upper == pytest.approx(math.log(0.9 / 0.01))


def test_sprt_parse():
    assert SprtSpec.parse("elo0=0,elo1=10,alpha=0.05,beta=0.05") == SprtSpec()
    assert SprtSpec.parse("elo1=5") == SprtSpec(elo1=5)
    assert SprtSpec.parse(" elo0=-2 , elo1=3 ") == SprtSpec(elo0=-2, elo1=3)
    for bad in ("elo0=5,elo1=5", "alpha=0.7", "beta=0", "elo=3", "elo1", "elo1=x", "elo1=inf"):
        with pytest.raises(ValueError):
            SprtSpec.parse(bad)


def test_llr_without_draws_is_the_binomial_llr():
    # With no draws the GSPRT is the plain likelihood ratio of two Bernoulli
    # win probabilities s0 = 0.5 and s1 = L(10) = 0.514387:
    # W ln(s1/s0) + L ln((1-s1)/(1-s0)); the 1e-3 regularized draw count
    # shifts it by less than 1e-3.
    s0, s1 = 0.5, score_from_elo(10)
    assert s1 == pytest.approx(0.514387, abs=1e-6)
    for w, lost in ((10, 0), (1000, 1000), (530, 470), (3, 7)):
        exact = w * math.log(s1 / s0) + lost * math.log((1 - s1) / (1 - s0))
        assert llr(w, 0, lost, 0, 10) == pytest.approx(exact, abs=2e-3)
    assert llr(10, 0, 0, 0, 10) == pytest.approx(0.28368, abs=1e-4)
    assert llr(1000, 0, 1000, 0, 10) == pytest.approx(-0.8283, abs=1e-3)


def llr_normal(wins, draws, losses, elo0, elo1):
    """The normal approximation of the same LLR: N (s1 - s0) (2 mu - s0 - s1) / (2 var)."""
    n = wins + draws + losses
    mu = (wins + 0.5 * draws) / n
    var = (wins * (1 - mu) ** 2 + draws * (0.5 - mu) ** 2 + losses * mu ** 2) / n
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var)


def test_llr_agrees_with_the_normal_approximation_for_many_games():
    for w, d, lost in ((6000, 3000, 5000), (3000, 4000, 3100), (5500, 1000, 4500)):
        exact, approx = llr(w, d, lost, 0, 10), llr_normal(w, d, lost, 0, 10)
        assert exact == pytest.approx(approx, rel=0.01)
    # the LLR is linear in the number of games for a fixed W/D/L ratio
    assert llr(6000, 3000, 5000, 0, 10) == pytest.approx(10 * llr(600, 300, 500, 0, 10), rel=1e-6)
    # symmetric: swapping wins and losses and the hypotheses' signs
    assert llr(300, 100, 200, 0, 10) == pytest.approx(llr(200, 100, 300, -10, 0) * -1, rel=1e-6)


def test_sprt_verdicts():
    spec = SprtSpec(elo0=0, elo1=10)
    assert sprt(0, 0, 0, spec).result == "continue"
    assert sprt(6000, 3000, 5000, spec).result == "H1"     # +24.8 Elo over 14000 games
    assert sprt(5000, 3000, 6000, spec).result == "H0"
    assert sprt(100, 50, 100, spec).result == "continue"
    # 10 wins in a row is not yet enough to tell 0 from 10 Elo (LLR 0.28)
    assert sprt(10, 0, 0, spec).result == "continue"
    # as_dict: 4 decimals; W 1000 L 1000 by the binomial LLR worked out above
    # (1000 ln(s1/s0) + 1000 ln((1-s1)/(1-s0)) = -0.8283)
    assert sprt(1000, 0, 1000, spec).as_dict() == {"llr": -0.8283, "lower": -2.9444, "upper": 2.9444,
                                                   "result": "continue"}
    assert sprt(10, 0, 0, spec).as_dict()["llr"] == 0.2837


def test_summary():
    s = summary(60, 0, 40, SprtSpec())
    assert s["games"] == 100 and s["score"] == 0.6
    assert s["elo"] == pytest.approx(70.44, abs=0.01)          # -400 log10(1/0.6 - 1)
    assert s["los"] == pytest.approx(0.97725, abs=1e-5)
    # W 60 L 40: LLR = 60 ln(s1/s0) + 40 ln((1-s1)/(1-s0)) = 0.5342, inside the bounds
    assert s["sprt"] == {"llr": 0.5342, "lower": -2.9444, "upper": 2.9444, "result": "continue"}
    assert summary(6000, 3000, 5000, SprtSpec())["sprt"]["result"] == "H1"
    assert summary(5000, 3000, 6000, SprtSpec())["sprt"]["result"] == "H0"
    perfect = summary(10, 0, 0)
    assert perfect["elo"] is None and perfect["elo_error"] is None and "sprt" not in perfect
    assert summary(0, 0, 0)["elo"] is None
