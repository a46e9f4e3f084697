"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): the maths, nothing else.

Each rated match is its own rating period, as lichess does: players here meet a handful of
times a week at most, so waiting for a period full of games would leave ratings stale.
All public values are on the familiar Glicko scale (rating 1500, deviation 350); the
internal μ/φ scale appears only inside :func:`rate`.

We implement it here rather than depend on the ``glicko2`` package: that package has had
one release since 2018, no type hints, and rates only whole periods; the algorithm is 60
lines and is pinned by the paper's worked example in ``tests/engine/ratings/test_ratings.py``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glickman's factor between the Glicko and Glicko-2 scales (400 / ln 10)."""
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
DEFAULT_TAU = 0.5
"""How fast volatility may change; Glickman suggests 0.3 to 1.2, 0.5 is the usual choice."""
PROVISIONAL_DEVIATION = 110.0
"""A rating is provisional while its deviation is at least this: lichess's threshold
(``provisionalDeviation = 110`` in lila's modules/rating Glicko.scala; "the glicko2 deviation
is superior to 110", https://lichess.org/qa/342). From 350 it takes about a dozen rated
matches here, since each match is its own rating period."""
_CONVERGENCE = 1e-6
_MAX_ITERATIONS = 100


class RatingError(ValueError):
    """An impossible rating input, quoted in the message (a programming error upstream)."""


@dataclass(frozen=True, slots=True)
class Glicko2Rating:
    """A player's rating: the estimate, how unsure it is, and how erratic the player is."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    """RD: a 95% interval is about rating ± 2·RD. New players start at 350."""
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        if not (math.isfinite(self.rating) and self.deviation > 0 and self.volatility > 0):
            raise RatingError(f"not a valid rating: {self!r}")

    @property
    def is_provisional(self) -> bool:
        """Still unsure: shown with a ``?`` (see :data:`PROVISIONAL_DEVIATION`)."""
        return self.deviation >= PROVISIONAL_DEVIATION


@dataclass(frozen=True, slots=True)
class Game:
    """One game from a player's side: the opponent's rating before it, and the score."""

    opponent: Glicko2Rating
    score: float
    """1 for a win, 0.5 for a draw, 0 for a loss."""

    def __post_init__(self) -> None:
        if self.score not in (0.0, 0.5, 1.0):
            raise RatingError(f"a score is 0, 0.5 or 1, not {self.score!r}")


def rate(
    player: Glicko2Rating, games: Sequence[Game], *, tau: float = DEFAULT_TAU
) -> Glicko2Rating:
    """The player's rating after one rating period holding ``games`` (steps 2–8 of the paper).

    With no games only the deviation grows, as the paper prescribes for an idle period.
    """
    if tau <= 0:
        raise RatingError(f"tau must be positive, not {tau!r}")
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        return Glicko2Rating(player.rating, math.sqrt(phi**2 + sigma**2) * SCALE, sigma)

    # Step 3 and 4: the estimated variance v and improvement delta from the games alone.
    inverse_v = 0.0
    improvement = 0.0
    for game in games:
        mu_j = (game.opponent.rating - DEFAULT_RATING) / SCALE
        g_j = _g(game.opponent.deviation / SCALE)
        expected = 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))
        inverse_v += g_j**2 * expected * (1.0 - expected)
        improvement += g_j * (game.score - expected)
    v = 1.0 / inverse_v
    delta = v * improvement

    new_sigma = _new_volatility(delta, phi, v, sigma, tau)
    # Steps 6 and 7: widen the deviation by the volatility, then narrow it by the games.
    phi_star = math.sqrt(phi**2 + new_sigma**2)
    new_phi = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / v)
    new_mu = mu + new_phi**2 * improvement
    return Glicko2Rating(DEFAULT_RATING + SCALE * new_mu, SCALE * new_phi, new_sigma)


def rate_match(
    first: Glicko2Rating, second: Glicko2Rating, first_score: float, *, tau: float = DEFAULT_TAU
) -> tuple[Glicko2Rating, Glicko2Rating]:
    """Both players' ratings after one game in which ``first`` scored ``first_score``."""
    return (
        rate(first, [Game(second, first_score)], tau=tau),
        rate(second, [Game(first, 1.0 - first_score)], tau=tau),
    )


def _g(phi: float) -> float:
    """How much an opponent's result counts, shrinking as their deviation grows."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi**2 / math.pi**2)


def _new_volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: the root of f by the Illinois algorithm, as in the paper."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta**2 - phi**2 - v - ex)) / (2.0 * (phi**2 + v + ex) ** 2) - (
            x - a
        ) / tau**2

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(_MAX_ITERATIONS):
        if abs(big_b - big_a) <= _CONVERGENCE:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)
