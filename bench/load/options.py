"""The command line of bench/bot_load.py."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from bot.request_pacing import DISCORD_GLOBAL_LIMIT
from engine.command_line import CommandLineParser, amount, count, seed

MOST_MATCHES = 5_000
"""Ten times what one bot process held (400): 10,000 members in the emulator."""
MOST_CHANNELS = 500
"""A server has at most 500 channels (Discord's limit)."""
LONGEST_SECONDS = 24 * 3600.0


def parse_options(description: str, argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The benchmark's options, checked before anything starts; `description` heads --help."""
    parser = CommandLineParser(prog="bench/bot_load.py", description=description)
    parser.add_argument(
        "--profile",
        choices=("human", "capacity"),
        default="human",
        help="human-paced players (default) or the closed-loop capacity test",
    )
    parser.add_argument(
        "--matches",
        type=count(1, MOST_MATCHES),
        default=200,
        help=f"concurrent matches, 1 to {MOST_MATCHES:,} (200)",
    )
    parser.add_argument(
        "--channels",
        type=count(1, MOST_CHANNELS),
        default=20,
        help="text channels the matches are spread over (20): Discord limits each channel",
    )
    parser.add_argument(
        "--duration",
        type=amount(1, LONGEST_SECONDS, unit="s"),
        default=300.0,
        help="human: seconds of play (300)",
    )
    parser.add_argument(
        "--ramp",
        type=amount(0, LONGEST_SECONDS, unit="s"),
        default=60.0,
        help="human: matches start over this many s (60)",
    )
    parser.add_argument("--seed", type=seed, default=1, help="seed of the players' choices")
    parser.add_argument(
        "--limit",
        type=count(0, MOST_MATCHES),
        default=0,
        help="at most this many at a time (0: all of --matches)",
    )
    parser.add_argument(
        "--think-ms",
        type=amount(0, 60_000, unit="ms"),
        default=500.0,
        help="capacity: mean pause before each click, uniform 0..2x (500); 0 = saturation",
    )
    parser.add_argument(
        "--pace",
        type=count(0, DISCORD_GLOBAL_LIMIT),
        default=0,
        help=(
            f"the bot's requests_per_second, 1 to {DISCORD_GLOBAL_LIMIT} "
            "(Discord's limit); 0: the bot's default"
        ),
    )
    parser.add_argument(
        "--metrics",
        action="store_true",
        help="run the bot with [metrics] on, scraped every 5 s (to compare with a run without)",
    )
    parser.add_argument(
        "--timeout",
        type=amount(1, LONGEST_SECONDS, unit="s"),
        default=900.0,
        help="give up after (s, 900)",
    )
    return parser.parse_args(argv)
