"""``python -m engine replay FILE``: replay JSON Lines match records and print each result.

Each input line is one record; each output line is its result or ``{"error": ...}``. A bad
line never stops the others, and no input produces a traceback: every non-blank line gets
exactly one answer, flushed at once, and an error answer is at most
:data:`MAX_ERROR_BYTES` long.

Input is read as bytes and split on ``\\n`` only: a bare ``\\r`` is JSON whitespace inside a
record, and each line is decoded as strict UTF-8 here, whatever the locale says.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from engine.rules.errors import HanamikojiError
from engine.rules.record import MatchRecord, replay, short_repr
from engine.rules.state import GameState

MAX_LINE_BYTES = 1 << 20
"""The longest line read as a record, 1 MiB. A round takes about 200 bytes and matches
rarely pass 6 rounds, so this allows some 5,000 rounds, far more than any match, while a
corrupt file cannot make one line cost more than a moment and a few megabytes."""

MAX_ERROR_BYTES = 500
"""The longest error line written, so that bad input cannot flood the output."""

_JSON_WHITESPACE = b" \t\r\n"
_SKIP_CHUNK = 1 << 16


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
        return error_result(str(error))
    except RecursionError:
        return error_result("the record is nested too deeply")
    except Exception as error:
        # A bug, not a bad record: named as such so it gets reported, and the next line
        # is still answered.
        return error_result(f"internal error: {_describe(error)}")


def error_result(message: str) -> dict[str, str]:
    """``{"error": message}``, the message cut so that its line fits :data:`MAX_ERROR_BYTES`."""
    if len(_dumps({"error": message})) <= MAX_ERROR_BYTES:
        return {"error": message}
    budget = MAX_ERROR_BYTES - len(_dumps({"error": "..."}))
    kept: list[str] = []
    for char in message:
        size = len(_dumps(char)) - 2  # escaped: one emoji costs 12 bytes ("\ud83d\ude00")
        if size > budget:
            break
        budget -= size
        kept.append(char)
    return {"error": "".join(kept) + "..."}


@dataclass(frozen=True, slots=True)
class _OverlongLine:
    """A line longer than :data:`MAX_LINE_BYTES`, skipped unread: only its size is kept."""

    size: int


def replay_bytes(line: bytes) -> dict[str, Any] | None:
    """The output object for one raw input line, or None for a blank line."""
    if not line.strip(_JSON_WHITESPACE):
        return None
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        # Never replaced: a mangled byte could turn a key or a card into another silently.
        return error_result(
            f"the line is not UTF-8: byte {line[error.start]:#04x} at byte {error.start + 1} "
            f"({error.reason})"
        )
    return replay_line(text)


def replay_stream(source: IO[bytes], out: IO[str]) -> bool:
    """Answer every record of ``source`` on ``out``; True if any answer was an error."""
    failed = False
    lines = _lines(source)
    while True:
        try:
            line = next(lines, None)
        except OSError as error:
            _write(out, error_result(f"reading stopped: {error.strerror or error}"))
            return True
        if line is None:
            return failed
        if isinstance(line, _OverlongLine):
            result: dict[str, Any] | None = error_result(
                f"the line has {line.size:,} bytes, more than a record may have "
                f"({MAX_LINE_BYTES:,}); it was not read"
            )
        else:
            result = replay_bytes(line)
        if result is not None:
            failed = failed or "error" in result
            _write(out, result)


def run(path: str, out: IO[str], stdin: IO[bytes]) -> int:
    """Replay every record of ``path`` (``-`` for ``stdin``); 1 if any line had an error."""
    if path == "-":
        return 1 if replay_stream(stdin, out) else 0
    try:
        source = open(path, "rb")  # noqa: SIM115 - closed by the with below
    except OSError as error:
        _write(out, error_result(f"cannot read {short_repr(path)}: {error.strerror or error}"))
        return 1
    with source:
        return 1 if replay_stream(source, out) else 0


def _lines(source: IO[bytes]) -> Iterator[bytes | _OverlongLine]:
    """Each line of ``source`` without its ``\\n``, holding at most one bounded line."""
    while True:
        line = source.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield line[:-1]
        elif len(line) <= MAX_LINE_BYTES:
            yield line  # the last line, without a newline
        else:
            size = len(line)
            while line and not line.endswith(b"\n"):
                line = source.readline(_SKIP_CHUNK)
                size += len(line)
            yield _OverlongLine(size - 1 if line else size)


def _write(out: IO[str], result: dict[str, Any]) -> None:
    out.write(_dumps(result) + "\n")
    out.flush()  # a reader of a pipe sees each answer as soon as it is known


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def _describe(error: Exception) -> str:
    """The exception's type, where it was raised, and its message."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    try:
        message = str(error)
    except Exception:  # the report of a bug must not raise in turn
        message = "(no message)"
    return f"{type(error).__name__}{where}: {message}"
