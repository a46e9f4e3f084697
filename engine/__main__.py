"""Command line of the engine: ``python -m engine replay|play|arena|review``."""

from __future__ import annotations

import argparse
import sys

from engine import replay_cli
from engine.ai.levels import ARENA_LEVELS, LEVELS
from engine.command_line import CommandLineParser, count, jobs, seed
from engine.review.search import MOST_ITERATIONS

MOST_GAMES = 1_000_000
"""An arena of more games than this would run for days on this machine's cores."""


def build_parser() -> argparse.ArgumentParser:
    parser = CommandLineParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser(
        "replay",
        help="replay JSON Lines match records and print each result as JSON",
        description=(
            "Replay JSON Lines match records (docs/record-format.md) and print each "
            "result as one line of JSON; exit status 1 if any line had an error."
        ),
    )
    replay.add_argument("file", help="a JSON Lines file of match records, or - for stdin")
    play = commands.add_parser(
        "play",
        help="play a game against the AI in the terminal",
        description=(
            "Play a game against the AI in an 80x24 terminal; 'help' at any prompt lists "
            "the commands, and the notation of docs/rules.md (3CDE, -E) works at any step."
        ),
    )
    play.add_argument("--level", choices=LEVELS, default="normal", help="the AI's level")
    play.add_argument("--seed", type=seed, default=None, help="seed of the deals and the AI")
    arena = commands.add_parser(
        "arena",
        help="play games between two AI levels and print win rates with 95%% intervals",
        description=(
            "Play games between two AI levels, in pairs on the same deals with seats "
            "swapped, and print each side's win rate with a 95% Wilson interval."
        ),
    )
    arena.add_argument("a", choices=ARENA_LEVELS, help="level of side A")
    arena.add_argument("b", choices=ARENA_LEVELS, help="level of side B")
    arena.add_argument(
        "--games",
        type=count(1, MOST_GAMES),
        default=100,
        help=f"how many games, 1 to {MOST_GAMES:,} (default 100)",
    )
    arena.add_argument("--seed", type=seed, default=0, help="seed of deals and agents")
    arena.add_argument(
        "--jobs",
        type=jobs,
        default=1,
        help="processes to play games in, at most 4 per core (default 1)",
    )
    arena.add_argument(
        "--budget-only",
        action="store_true",
        help=(
            "searches stop at their play-out budget, never their 0.8 s time guard, so the "
            "result does not depend on the machine's load (decision times still printed)"
        ),
    )
    review = commands.add_parser(
        "review",
        help="judge every decision of a match record and print the annotated match",
        description=(
            "Judge every decision of a match record (docs/record-format.md) from its "
            "mover's view and print each player's worst decisions, then the annotated "
            "match (docs/review.md)."
        ),
    )
    review.add_argument("file", help="a match record (JSON), or - for stdin")
    review.add_argument("--json", action="store_true", help="print the review as JSON")
    review.add_argument(
        "--iterations",
        type=count(1, MOST_ITERATIONS),
        default=None,
        help=(
            f"play-outs per decision, 1 to {MOST_ITERATIONS:,} "
            "(default: the review's, see docs/review.md)"
        ),
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "replay":
        return replay_cli.run(args.file, sys.stdout, sys.stdin.buffer)
    if args.command == "play":
        from engine.terminal import session

        return session.run(args.level, args.seed, sys.stdin, sys.stdout)
    if args.command == "arena":
        from engine.ai import arena

        return arena.run_cli(
            args.a,
            args.b,
            args.games,
            args.seed,
            args.jobs,
            sys.stdout,
            budget_only=args.budget_only,
        )
    if args.command == "review":
        from engine.review import cli
        from engine.review.judge import REVIEW_ITERATIONS

        return cli.run(
            args.file,
            as_json=args.json,
            iterations=REVIEW_ITERATIONS if args.iterations is None else args.iterations,
            out=sys.stdout,
            err=sys.stderr,
            stdin=sys.stdin.buffer,
        )
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":
    sys.exit(main())
