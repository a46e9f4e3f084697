"""``python -m engine review``: the annotated match as text and JSON; bad input exits 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.__main__ import main
from engine.review.judgement import Verdict
from tests.engine.review.matches import BLUNDER_RECORD, BLUNDER_STEP

FEW = "40"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def run_review(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    status = main(["review", *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "match.json"
    path.write_text(BLUNDER_RECORD)
    return path


def test_text_lists_every_step_with_words_chances_and_the_better_move(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, record_file: Path
) -> None:
    status, out, err = run_review(capsys, monkeypatch, str(record_file), "--iterations", FEW)
    assert status == 0
    assert err == ""  # no progress line when stderr is not a terminal
    lines = out.splitlines()
    assert "Round 1" in lines and "Round 2" in lines
    step_lines = [line for line in lines if line[:4].strip().rstrip(".").isdigit()]
    assert len(step_lines) == BLUNDER_STEP + 1  # the opponent's choice of G G ends it
    assert step_lines[0].startswith("  1. player 0: Competition AB | GG (4ABGG), ")
    blunder = step_lines[BLUNDER_STEP - 1]
    assert blunder.startswith(" 23. player 0: Competition BC | GG (4BCGG), ")
    assert "→" in blunder
    assert "; better: Competition BG | CG (4BGCG), " in blunder
    assert "Player 0's worst decisions:" in lines
    at = lines.index("Player 0's worst decisions:")
    worst = lines[at + 1 : at + 4]
    assert all(line.startswith("  step ") and " lost " in line for line in worst)
    assert "; better: " in worst[0]
    assert at < lines.index("Round 1")  # the worst decisions come first, as a reader wants


def test_json_is_the_review_with_words(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run_review(
        capsys, monkeypatch, "-", "--json", "--iterations", FEW, stdin=BLUNDER_RECORD
    )
    assert status == 0
    data = json.loads(out)
    assert data["iterations"] == int(FEW)
    last = data["steps"][BLUNDER_STEP - 1]
    assert (last["move"], last["move_words"]) == ("4BCGG", "Competition BC | GG")
    assert (last["best"], last["best_words"]) == ("4BGCG", "Competition BG | CG")
    assert Verdict(last["verdict"]).flagged
    assert data["steps"][1]["move_words"] == "take A B"


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("not json", "not JSON"),
        ('{"format": 2}', "unknown record format"),
        (BLUNDER_RECORD.replace("4BCGG-GG", "4BCGG-BG"), "round 2, move 8"),
    ],
)
def test_a_bad_record_is_one_error_line_and_status_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str, message: str
) -> None:
    status, out, err = run_review(capsys, monkeypatch, "-", stdin=stdin)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert message in err


def test_a_missing_file_and_a_binary_file_are_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    status, _, err = run_review(capsys, monkeypatch, str(tmp_path / "absent.json"))
    assert (status, err.count("\n")) == (2, 1)
    assert "cannot read" in err
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe")
    status, _, err = run_review(capsys, monkeypatch, str(binary))
    assert (status, err.count("\n")) == (2, 1)
    assert "not UTF-8" in err


def test_progress_goes_to_a_terminal_only() -> None:
    from engine.review import cli

    err = Terminal()
    out = io.StringIO()
    status = cli.run(
        "-", as_json=True, iterations=5, out=out, err=err, stdin=io.BytesIO(BLUNDER_RECORD.encode())
    )
    assert status == 0
    assert "Analysing… 100%" in err.getvalue()
    assert json.loads(out.getvalue())["steps"]


def test_the_module_runs_from_the_command_line(record_file: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "review", str(record_file), "--iterations", "5"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Player 1" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "review", "-"],
        input="[]",
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
