"""Command line of the engine: ``python -m engine replay FILE``."""

from __future__ import annotations

import argparse
import sys

from engine import replay_cli


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser(
        "replay", help="replay JSON Lines match records and print each result as JSON"
    )
    replay.add_argument("file", help="a JSON Lines file of match records, or - for stdin")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "replay":
        return replay_cli.run(args.file, sys.stdout)
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":
    sys.exit(main())
