"""The command line of bench/bot_load.py."""

from __future__ import annotations

import argparse


def parse_options(description: str) -> argparse.Namespace:
    """The benchmark's options, checked; `description` heads --help."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--profile",
        choices=("human", "capacity"),
        default="human",
        help="human-paced players (default) or the closed-loop capacity test",
    )
    parser.add_argument("--matches", type=int, default=200, help="concurrent matches (200)")
    parser.add_argument(
        "--channels",
        type=int,
        default=20,
        help="text channels the matches are spread over (20): Discord limits each channel",
    )
    parser.add_argument(
        "--duration", type=float, default=300.0, help="human: seconds of play (300)"
    )
    parser.add_argument(
        "--ramp", type=float, default=60.0, help="human: matches start over this many s (60)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument("--limit", type=int, default=0, help="at most this many at a time")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=500.0,
        help="capacity: mean pause before each click, uniform 0..2x (500); 0 = saturation",
    )
    parser.add_argument(
        "--pace", type=int, default=0, help="the bot's requests_per_second (its default)"
    )
    parser.add_argument("--timeout", type=float, default=900.0, help="give up after (s)")
    args = parser.parse_args()
    if args.matches < 1 or args.limit < 0 or args.channels < 1:
        parser.error("--matches must be positive and --limit not negative")
    return args
