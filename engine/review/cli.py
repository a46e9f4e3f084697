"""``python -m engine review FILE``: the annotated match, each decision judged.

FILE is one match record (JSON, docs/record-format.md), ``-`` for stdin. The text output
starts with each player's worst decisions, worst first, then lists every decision with its
mover, the move in words and notation, the mover's chance of winning the match before and
after it and the verdict; a flagged decision also names the better move. ``--json`` prints the
review's data (:meth:`MatchReview.to_dict`) with the moves in words too.

A bad file gives one error line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from engine.review.judge import review_match
from engine.review.judgement import MatchReview, StepJudgement
from engine.review.steps import match_steps
from engine.rules.decisions import Decision
from engine.rules.errors import HanamikojiError
from engine.rules.record import MatchRecord
from engine.terminal.wording import words

MAX_RECORD_BYTES = 1 << 20
"""A record larger than 1 MiB is refused (a match is a few kilobytes)."""
WORST_SHOWN = 3


class ReviewInputError(ValueError):
    """The file could not be read as a match record; the message says why."""


def read_record(file: str, stdin: IO[bytes]) -> MatchRecord:
    """The record in ``file`` (``-``: stdin), or :class:`ReviewInputError`."""
    try:
        if file == "-":
            data = stdin.read(MAX_RECORD_BYTES + 1)
        else:
            with Path(file).open("rb") as handle:
                data = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise ReviewInputError(f"cannot read {file!r}: {error.strerror or error}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise ReviewInputError(f"{file!r} is larger than {MAX_RECORD_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ReviewInputError(f"{file!r} is not UTF-8 text: {error.reason}") from None
    try:
        return MatchRecord.from_json(text)
    except HanamikojiError as error:
        raise ReviewInputError(f"{file!r}: {error}") from None
    except RecursionError:
        raise ReviewInputError(f"{file!r}: the record is nested too deeply") from None


def decisions_by_step(record: MatchRecord) -> dict[int, dict[str, Decision]]:
    """Per step, the legal decisions by notation: the words of a move and of the best one."""
    return {
        step.index: {str(d): d for d in state.legal_decisions()}
        for step, state in match_steps(record)
    }


def _percent(chance: float) -> str:
    return f"{100 * chance:.0f}%"


def _in_words(notation: str, legal: dict[str, Decision]) -> str:
    return f"{words(legal[notation])} ({notation})"


def step_line(judged: StepJudgement, legal: dict[str, Decision]) -> str:
    line = (
        f"{judged.step:3}. player {judged.player}: {_in_words(judged.move, legal)}, "
        f"{_percent(judged.chance_before)} → {_percent(judged.chance_after)}, {judged.verdict}"
    )
    if judged.verdict.flagged:
        line += f"; better: {_in_words(judged.best, legal)}, {_percent(judged.best_chance)}"
    return line


def review_text(review: MatchReview, legal: dict[int, dict[str, Decision]]) -> list[str]:
    """Each player's worst decisions first (what a reader looks for), then the annotated match."""
    lines = [f"Review ({review.iterations} play-outs per decision; chances are the mover's)"]
    for player in (0, 1):
        worst = review.worst(player, WORST_SHOWN)
        if not worst:
            lines.append(f"Player {player}: no flagged decision.")
            continue
        lines.append(f"Player {player}'s worst decisions:")
        for judged in worst:
            lines.append(
                f"  step {judged.step} (round {judged.round_number}): "
                f"{_in_words(judged.move, legal[judged.step])} lost "
                f"{_percent(judged.loss)} ({judged.verdict}); better: "
                f"{_in_words(judged.best, legal[judged.step])}"
            )
    round_number = 0
    for judged in review.steps:
        if judged.round_number != round_number:
            round_number = judged.round_number
            lines.append(f"Round {round_number}")
        lines.append(step_line(judged, legal[judged.step]))
    return lines


def review_data(review: MatchReview, legal: dict[int, dict[str, Decision]]) -> dict[str, Any]:
    """:meth:`MatchReview.to_dict` with each move and best move in words."""
    data = review.to_dict()
    for entry in data["steps"]:
        by_notation = legal[entry["step"]]
        entry["move_words"] = words(by_notation[entry["move"]])
        entry["best_words"] = words(by_notation[entry["best"]])
    return data


def run(
    file: str,
    *,
    as_json: bool,
    iterations: int,
    out: IO[str],
    err: IO[str],
    stdin: IO[bytes],
) -> int:
    """The ``review`` command; returns the exit status."""
    if iterations < 1:
        err.write(f"error: --iterations must be at least 1, got {iterations}\n")
        return 2
    try:
        record = read_record(file, stdin)
        legal = decisions_by_step(record)
    except ReviewInputError as error:
        err.write(f"error: {error}\n")
        return 2
    except HanamikojiError as error:  # the moves do not replay
        err.write(f"error: {file!r}: {error}\n")
        return 2
    show_progress = err.isatty()

    def progress(done: int, total: int) -> None:
        err.write(f"\rAnalysing… {100 * done // total}%")
        err.flush()

    review = review_match(
        record, iterations=iterations, progress=progress if show_progress else None
    )
    if show_progress:
        err.write("\r\033[K")
    if as_json:
        out.write(json.dumps(review_data(review, legal), ensure_ascii=False) + "\n")
    else:
        out.write("\n".join(review_text(review, legal)) + "\n")
    return 0
