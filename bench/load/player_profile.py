"""How long the scripted players think before each click, and when they stop."""

from __future__ import annotations

import argparse
import math
import random

HUMAN_DECISION_MEDIAN = 6.0
HUMAN_DECISION_SIGMA = 0.75
HUMAN_CLICK_MEDIAN = 1.0
HUMAN_CLICK_SIGMA = 0.5
HUMAN_LONGEST_THINK = 60.0
# Clicks that start a decision: the player reads the board first.
DECIDING_STEPS = frozenset({"accept", "hand", "take"})


class PlayerProfile:
    """How long players look at the screen before each click, and when they stop."""

    def __init__(self, args: argparse.Namespace, started: float) -> None:
        self.started = started
        self.human = args.profile == "human"
        self.think_ms = args.think_ms
        self.ramp = args.ramp if self.human else 0.0
        self.stop_at = started + args.duration if self.human else float("inf")

    def think(self, step: str, rng: random.Random) -> float:
        if not self.human:
            return rng.uniform(0, 2 * self.think_ms / 1000) if self.think_ms else 0.0
        if step in DECIDING_STEPS:
            median, sigma = HUMAN_DECISION_MEDIAN, HUMAN_DECISION_SIGMA
        else:
            median, sigma = HUMAN_CLICK_MEDIAN, HUMAN_CLICK_SIGMA
        return min(HUMAN_LONGEST_THINK, rng.lognormvariate(math.log(median), sigma))
