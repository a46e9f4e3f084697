"""The command line of ``python -m bench.chaos``."""

from __future__ import annotations

import argparse

from engine.command_line import CommandLineParser, amount, count, seed

MOST_MATCHES = 2_000
MOST_KILLS = 10_000
LONGEST_SECONDS = 24 * 3600.0


def parse_options(description: str, argv: list[str] | None = None) -> argparse.Namespace:
    """The chaos run's options, checked; `description` heads --help."""
    parser = CommandLineParser(prog="python -m bench.chaos", description=description)
    parser.add_argument(
        "--matches",
        type=count(1, MOST_MATCHES),
        default=40,
        help=f"matches played at once, 1 to {MOST_MATCHES:,} (40)",
    )
    parser.add_argument(
        "--kills",
        type=count(0, MOST_KILLS),
        default=60,
        help=f"SIGKILLs of the bot, 0 to {MOST_KILLS:,} (60)",
    )
    parser.add_argument("--seed", type=seed, default=1, help="seed of the kills and the players")
    parser.add_argument(
        "--mean-gap",
        type=amount(0, 3600, unit="s"),
        default=3.0,
        help="uniform kills come 0..2x this many seconds after the bot is ready (3)",
    )
    parser.add_argument(
        "--ack-share",
        type=amount(0, 1),
        default=0.3,
        help="share of kills right after the emulator delivers a move's acknowledgement (0.3)",
    )
    parser.add_argument(
        "--startup-share",
        type=amount(0, 1),
        default=0.2,
        help="share of kills during start-up, before the bot is ready (0.2)",
    )
    parser.add_argument(
        "--turn-timer",
        type=amount(5, LONGEST_SECONDS, unit="s"),
        default=20.0,
        help="seconds per decision in the short-timer matches (20); the others pick 5 minutes",
    )
    parser.add_argument(
        "--think-ms",
        type=amount(0, 60_000, unit="ms"),
        default=300.0,
        help="players pause 0..2x this before each click (300)",
    )
    parser.add_argument(
        "--absent",
        type=amount(0, 1),
        default=0.04,
        help="chance a short-timer player lets the timer play a decision for them (0.04)",
    )
    parser.add_argument(
        "--channels",
        type=count(1, 500),
        default=8,
        help="text channels the matches are spread over, 1 to 500 (8)",
    )
    parser.add_argument(
        "--catch-up",
        type=amount(0, LONGEST_SECONDS, unit="s"),
        default=75.0,
        help="after the last restart, seconds the players may go on finishing (75)",
    )
    parser.add_argument(
        "--orphan-wait",
        type=amount(0, 3600, unit="s"),
        default=3.0,
        help="seconds after a kill before its descendants are looked for (3)",
    )
    args = parser.parse_args(argv)
    if args.ack_share + args.startup_share > 1:
        parser.error(
            "--ack-share and --startup-share are shares summing to at most 1, got "
            f"{args.ack_share:g} + {args.startup_share:g}"
        )
    return args
