"""``python -m engine replay FILE``: replay JSON Lines match records and print each result.

Each input line is one record; each output line is its result or ``{"error": ...}``. A bad
line never stops the others, and no input produces a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

from engine.rules.errors import HanamikojiError
from engine.rules.record import MatchRecord, replay
from engine.rules.state import GameState


def result_of(state: GameState) -> dict[str, Any]:
    """The replay output of a game: per scored round, items and favor; winner and why."""
    outcome = state.outcome
    return {
        "rounds": [
            {"items": [list(r.items[0]), list(r.items[1])], "favor": list(r.favor)}
            for r in state.results
        ],
        "winner": None if outcome is None else outcome.winner,
        "reason": "unfinished" if outcome is None else str(outcome.termination),
    }


def replay_line(line: str) -> dict[str, Any]:
    """The output object for one input line."""
    try:
        return result_of(replay(MatchRecord.from_json(line)))
    except HanamikojiError as error:
        return {"error": str(error)}
    except RecursionError:
        return {"error": "the record is nested too deeply"}


def replay_lines(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    for line in lines:
        if line.strip():
            yield replay_line(line)


def run(path: str, out: IO[str]) -> int:
    """Replay every record of ``path`` (``-`` for stdin); 1 if any line had an error."""
    try:
        source: IO[str] = (
            sys.stdin if path == "-" else open(path, encoding="utf-8", errors="replace")  # noqa: SIM115
        )
    except OSError as error:
        print(json.dumps({"error": f"cannot read {path!r}: {error.strerror}"}), file=out)
        return 1
    failed = False
    with source:
        for result in replay_lines(source):
            failed = failed or "error" in result
            print(json.dumps(result, separators=(",", ":")), file=out)
    return 1 if failed else 0
