"""The command line of ``python -m bench.chaos``."""

from __future__ import annotations

import argparse


def parse_options(description: str, argv: list[str] | None = None) -> argparse.Namespace:
    """The chaos run's options, checked; `description` heads --help."""
    parser = argparse.ArgumentParser(prog="python -m bench.chaos", description=description)
    parser.add_argument("--matches", type=int, default=40, help="matches played at once (40)")
    parser.add_argument("--kills", type=int, default=60, help="SIGKILLs of the bot (60)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the kills and the players")
    parser.add_argument(
        "--mean-gap",
        type=float,
        default=3.0,
        help="uniform kills come 0..2x this many seconds after the bot is ready (3)",
    )
    parser.add_argument(
        "--ack-share",
        type=float,
        default=0.3,
        help="share of kills right after the emulator delivers a move's acknowledgement (0.3)",
    )
    parser.add_argument(
        "--startup-share",
        type=float,
        default=0.2,
        help="share of kills during start-up, before the bot is ready (0.2)",
    )
    parser.add_argument(
        "--turn-timer",
        type=float,
        default=20.0,
        help="seconds per decision in the short-timer matches (20); the others pick 5 minutes",
    )
    parser.add_argument(
        "--think-ms",
        type=float,
        default=300.0,
        help="players pause 0..2x this before each click (300)",
    )
    parser.add_argument(
        "--absent",
        type=float,
        default=0.04,
        help="chance a short-timer player lets the timer play a decision for them (0.04)",
    )
    parser.add_argument(
        "--channels", type=int, default=8, help="text channels the matches are spread over (8)"
    )
    parser.add_argument(
        "--catch-up",
        type=float,
        default=75.0,
        help="after the last restart, seconds the players may go on finishing (75)",
    )
    parser.add_argument(
        "--orphan-wait",
        type=float,
        default=3.0,
        help="seconds after a kill before its descendants are looked for (3)",
    )
    args = parser.parse_args(argv)
    if args.matches < 1 or args.kills < 0 or args.channels < 1:
        parser.error("--matches and --channels must be positive, --kills not negative")
    if (
        not 0 <= args.ack_share + args.startup_share <= 1
        or min(args.ack_share, args.startup_share) < 0
    ):
        parser.error("--ack-share and --startup-share are shares summing to at most 1")
    if args.turn_timer < 5:
        parser.error("--turn-timer must be at least 5 seconds")
    return args
