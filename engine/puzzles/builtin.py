"""The built-in puzzles, so a server with no finished match has puzzles on day one: found
in matches the AI plays against itself (the easy level against the normal one, each deal
and each agent seeded), reviewed and searched as a server's own matches are.

``python -m engine.puzzles.builtin > engine/puzzles/builtin.json`` plays them again and
writes the set (the same matches always give the same file); :func:`builtin_puzzles`
reads it. The records hold every card, as any stored match does; a puzzle is only ever
shown through :func:`~engine.puzzles.generator.puzzle_view`.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

from engine.ai.arena import play_game
from engine.ai.levels import easy_agent, normal_agent
from engine.command_line import CommandLineParser, count, description
from engine.puzzles.generator import find_puzzles
from engine.puzzles.puzzle import Puzzle, PuzzleFormatError
from engine.review.judge import review_match
from engine.rules.record import MatchRecord

BUILTIN_MATCHES = 40
"""Matches played for the set (73 puzzles in all)."""
BUILTIN_FILE = "builtin.json"


@dataclass(frozen=True, slots=True)
class BuiltinPuzzle:
    key: str
    """``builtin/<match>/<step>``: stable while the file is."""
    record: MatchRecord
    puzzle: Puzzle


def builtin_match(index: int) -> MatchRecord:
    """The ``index``-th match of the set: easy against normal, seats alternating."""
    rng = random.Random(f"hanamikoji/puzzles/builtin/{index}")
    agents = [easy_agent(), normal_agent()]
    if index % 2:
        agents.reverse()
    deal = rng.getrandbits(63)
    rngs = [random.Random(rng.getrandbits(64)) for _ in range(2)]
    return MatchRecord.of(play_game(agents, deal, rngs, first_player=index % 2))


def puzzles_of_match(index: int) -> list[BuiltinPuzzle]:
    record = builtin_match(index)
    found = find_puzzles(record, review_match(record))
    return [BuiltinPuzzle(f"builtin/{index}/{p.step}", record, p) for p in found]


def builtin_puzzles() -> tuple[BuiltinPuzzle, ...]:
    """The shipped set, as ``python -m engine.puzzles.builtin`` wrote it."""
    text = resources.files("engine.puzzles").joinpath(BUILTIN_FILE).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
        return tuple(
            BuiltinPuzzle(
                entry["key"],
                MatchRecord.from_json(entry["record"]),
                Puzzle.from_json(entry["puzzle"]),
            )
            for entry in data["puzzles"]
        )
    except (KeyError, TypeError, ValueError) as error:
        raise PuzzleFormatError(f"{BUILTIN_FILE} does not read: {error}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Play the set's matches and print the file's JSON (progress on stderr)."""
    parser = CommandLineParser(
        prog="python -m engine.puzzles.builtin", description=description(__doc__)
    )
    parser.add_argument(
        "--matches",
        type=count(1, 1000),
        default=BUILTIN_MATCHES,
        help="matches to play (default %(default)s, the shipped set)",
    )
    options = parser.parse_args(argv)
    entries = []
    for index in range(options.matches):
        found = puzzles_of_match(index)
        print(f"match {index + 1}/{options.matches}: {len(found)} puzzles", file=sys.stderr)
        entries += [
            {"key": p.key, "record": p.record.to_json(), "puzzle": p.puzzle.to_json()}
            for p in found
        ]
    print(json.dumps({"format": 1, "puzzles": entries}, indent=0))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
