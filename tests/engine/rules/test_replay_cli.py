"""``python -m engine replay``: one JSON line per record, errors named, never a traceback."""

import io
import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import replay_cli
from engine.replay_cli import (
    MAX_ERROR_BYTES,
    MAX_LINE_BYTES,
    error_result,
    replay_line,
    replay_stream,
)
from engine.rules.record import MatchRecord
from tests.engine.rules.games import random_game

EXAMPLE = {
    "format": 1,
    "variant": "standard",
    "first_player": 0,
    "rounds": [
        {
            "removed": "G",
            "hands": ["BBCDGG", "CEEFFF"],
            "pile": "GDFEGAAD",
            "moves": ["4BCBD-BC", "4CDFF-FF", "1F", "2EF", "2GG", "3AEE-E", "3AGG-A", "1D"],
        }
    ],
}


def with_moves(moves: list[str], **changes) -> str:
    record = json.loads(json.dumps(EXAMPLE))
    record["rounds"][0]["moves"] = moves
    record["rounds"][0].update(changes)
    return json.dumps(record)


def test_the_rules_md_example_scores_its_round():
    assert replay_line(json.dumps(EXAMPLE)) == {
        "rounds": [
            {
                "items": [[0, 1, 0, 1, 1, 3, 2], [2, 1, 2, 2, 1, 0, 0]],
                "favor": [1, None, 1, 1, None, 0, 0],
            }
        ],
        # Player 0 has 9 charm and 2 geishas, player 1 7 and 3: nobody reached the goal.
        "winner": None,
        "reason": "unfinished",
    }


def test_a_finished_game_reports_winner_and_reason():
    state = random_game(11)
    result = replay_line(MatchRecord.of(state).to_json())
    assert state.outcome is not None
    assert result["winner"] == state.outcome.winner
    assert result["reason"] == str(state.outcome.termination)
    assert len(result["rounds"]) == len(state.results)


@pytest.mark.parametrize(
    ("line", "error"),
    [
        (
            with_moves(["4BCBD-BC", "4CDFF-FF", "1F", "2EF", "3EEG-E"]),
            "round 1, move 5 (3EEG-E): player 0 holds no E",
        ),
        (
            with_moves(["4BCBD-BC", "4CDFF-FF", "1F", "2EF", "2GG", "3AEE-E", "1A"]),
            "round 1, move 7 (1A): Secret was already used this round",
        ),
        (
            with_moves([*EXAMPLE["rounds"][0]["moves"], "1A"]),
            "round 1, move 9 (1A): a round has only 8 turns",
        ),
        (with_moves(["1Z"]), "round 1, move 1 (1Z): not a move: '1Z'"),
        (
            with_moves(["3BBC", "1E"]),
            "round 1, move 1 (3BBC): not a move: '3BBC' (a Gift needs",
        ),
        (with_moves([], pile="GDFEGAAA"), "round 1: the deal is not the 21 item cards"),
        (with_moves([], hands=["BBCDG", "CEEFFF"]), "round 1: a deal has hands of 6"),
        (with_moves([3]), "round 1: moves must be a list of strings"),
        ('{"format": 1, "variant": "standard", "first_player": 0, "rounds": [{"remo', "not JSON"),
        ("[1, 2]", "a record is a JSON object"),
        ('{"format": 2}', "unknown record format 2"),
        ('{"format": 1, "variant": "blitz", "first_player": 0, "rounds": []}', "unknown variant"),
        ('{"format": 1, "first_player": 2, "rounds": []}', "first_player must be 0 or 1"),
        ("[" * 100_000, "not JSON"),
    ],
)
def test_a_broken_record_gets_an_error_line_naming_the_problem(line, error):
    result = replay_line(line)
    assert set(result) == {"error"}
    assert result["error"].startswith(error), result["error"]


def test_a_round_after_an_unfinished_round_is_an_error():
    record = json.loads(with_moves(["1B"]))
    record["rounds"].append(record["rounds"][0])
    result = replay_line(json.dumps(record))
    assert result == {"error": "round 1: only 1 of 8 moves, but round 2 follows"}


def test_rounds_after_the_match_ended_are_an_error():
    state = random_game(0)
    record = MatchRecord.of(state).to_dict()
    record["rounds"].append(record["rounds"][0])
    result = replay_line(json.dumps(record))
    assert "the match was already over" in result["error"]


def test_resignation_is_kept_in_the_record():
    state = random_game(4)
    record = MatchRecord.of(state).to_dict()
    record["rounds"][-1]["moves"] = record["rounds"][-1]["moves"][:3]
    record["ended"] = {"player": 1, "reason": "resignation"}
    assert replay_line(json.dumps(record))["reason"] == "resignation"
    assert replay_line(json.dumps(record))["winner"] == 0


@settings(max_examples=300)
@given(st.text(max_size=300))
def test_no_input_line_raises(line):
    result = replay_line(line)
    assert isinstance(result, dict)


@settings(max_examples=200)
@given(st.integers(0, 1000), st.integers(0, 30), st.sampled_from("ABCDEFGX1234-Z"))
def test_a_corrupted_move_gets_an_error_not_a_crash(seed, position, letter):
    record = MatchRecord.of(random_game(seed)).to_dict()
    moves = record["rounds"][0]["moves"]
    text = moves[position % len(moves)]
    index = position % len(text)
    moves[position % len(moves)] = text[:index] + letter + text[index + 1 :]
    result = replay_line(json.dumps(record))
    assert "error" in result or "reason" in result


def test_the_command_processes_every_line_and_exits_1_on_any_error(tmp_path):
    good = json.dumps(EXAMPLE)
    path = tmp_path / "records.jsonl"
    path.write_text(f"{good}\n{{broken\n\n{good}\n")
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True
    )
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 1
    assert [("error" in line) for line in lines] == [False, True, False]
    assert "Traceback" not in done.stderr


def test_the_command_reads_stdin_and_exits_0_when_all_lines_replay():
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", "-"],
        input=json.dumps(EXAMPLE) + "\n",
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["reason"] == "unfinished"


def test_a_missing_file_is_a_clear_error(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(tmp_path / "nope.jsonl")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert "cannot read" in json.loads(done.stdout)["error"]
    assert "Traceback" not in done.stderr


def test_a_pending_offer_may_end_an_unfinished_record():
    result = replay_line(with_moves(["3BBC"]))
    assert result == {"rounds": [], "winner": None, "reason": "unfinished"}


# Bad input at the command line: every non-blank line gets exactly one answer line, an
# error line is short, and bytes are read as bytes whatever the locale.

GOOD = json.dumps(EXAMPLE).encode()
GOOD_ANSWER = replay_line(json.dumps(EXAMPLE))
UTF8_LOCALE = {"PYTHONIOENCODING": "utf-8", "LANG": "en_US.UTF-8", "LC_ALL": "en_US.UTF-8"}


def run_replay(data: bytes, *, from_file: Path | None = None, env: dict[str, str] | None = None):
    """Run ``python -m engine replay`` on ``data`` (stdin, or written to ``from_file``)."""
    if from_file is not None:
        from_file.write_bytes(data)
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", "-" if from_file is None else str(from_file)],
        input=None if from_file is not None else data,
        capture_output=True,
        env={**os.environ, **(env or UTF8_LOCALE)},
        timeout=120,
    )
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")
    return done.returncode, done.stdout.decode("ascii").splitlines()


def answers_in_process(data: bytes) -> list[dict]:
    out = io.StringIO()
    replay_stream(io.BytesIO(data), out)
    lines = out.getvalue().splitlines()
    assert all(len(line.encode()) <= MAX_ERROR_BYTES for line in lines if '"error"' in line)
    return [json.loads(line) for line in lines]


def test_a_number_of_more_than_4300_digits_gets_an_error_line_and_the_next_line_an_answer():
    huge = b'{"format": 1, "first_player": ' + b"1" * 5000 + b', "rounds": []}'
    code, lines = run_replay(b"\n".join([huge, GOOD]) + b"\n")
    assert code == 1 and len(lines) == 2
    assert json.loads(lines[0])["error"].startswith("first_player must be 0 or 1, got 1111")
    assert json.loads(lines[1]) == GOOD_ANSWER


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        (b'"first_player"', b"0.0", "first_player must be 0 or 1, got 0.0"),
        (b'"first_player"', b"1.0", "first_player must be 0 or 1, got 1.0"),
        (b'"first_player"', b"1e0", "first_player must be 0 or 1, got 1e0"),
        (b'"first_player"', b"1e-400", "first_player must be 0 or 1, got 1e-400"),
        (b'"format"', b"true", "unknown record format true, expected 1"),
    ],
)
def test_a_number_must_be_a_json_integer_of_the_right_value(field, value, error):
    line = GOOD.replace(
        field + b": " + (b"0" if b"first" in field else b"1"), field + b": " + value
    )
    assert line != GOOD
    assert answers_in_process(line + b"\n" + GOOD + b"\n") == [{"error": error}, GOOD_ANSWER]


def test_a_boolean_seat_in_ended_is_refused():
    record = json.loads(with_moves(["1B"]))
    record["ended"] = {"player": True, "reason": "resignation"}
    answers = answers_in_process(json.dumps(record).encode() + b"\n")
    assert answers == [{"error": "ended.player must be 0 or 1, got true"}]


@pytest.mark.parametrize(
    "env",
    [
        UTF8_LOCALE,
        {"PYTHONIOENCODING": "ascii", "LANG": "C", "LC_ALL": "C"},
        {"PYTHONIOENCODING": "latin-1", "LANG": "C", "LC_ALL": "C"},
    ],
    ids=["utf8", "ascii", "latin1"],
)
def test_stdin_is_decoded_as_utf8_whatever_the_locale_and_a_bad_byte_is_an_error_line(env):
    accented = GOOD.replace(b'"standard"', '"standard\u00e9"'.encode())
    data = b"\n".join([b'{"format": 1, "first_player": \xff0}', GOOD, accented]) + b"\n"
    code, lines = run_replay(data, env=env)
    assert code == 1
    assert [json.loads(line) for line in lines] == [
        {"error": "the line is not UTF-8: byte 0xff at byte 31 (invalid start byte)"},
        GOOD_ANSWER,
        {"error": "unknown variant 'standard\u00e9' (standard or three-rounds)"},
    ]


def test_a_bad_byte_in_a_file_is_an_error_not_a_replaced_character(tmp_path):
    # Replacing the byte made "variant" an unknown key, read as if absent: the standard game.
    mangled = GOOD.replace(b'"standard"', b'"three-rounds"').replace(b'"variant"', b'"vari\xe1nt"')
    code, lines = run_replay(mangled + b"\n" + GOOD + b"\n", from_file=tmp_path / "r.jsonl")
    assert code == 1
    assert json.loads(lines[0])["error"].startswith("the line is not UTF-8: byte 0xe1 at byte")
    assert json.loads(lines[1]) == GOOD_ANSWER


@pytest.mark.parametrize("from_file", [True, False], ids=["file", "stdin"])
def test_a_bare_carriage_return_inside_a_record_does_not_split_it(tmp_path, from_file):
    spread = GOOD.replace(b", ", b",\r")
    assert spread.count(b"\r") > 3
    data = spread + b"\r\n" + GOOD + b"\n"
    code, lines = run_replay(data, from_file=tmp_path / "r.jsonl" if from_file else None)
    assert code == 0
    assert [json.loads(line) for line in lines] == [GOOD_ANSWER, GOOD_ANSWER]


def test_a_10_mb_move_gets_one_short_error_line_and_the_next_line_an_answer():
    huge = with_moves(["4BCBD-BC", "4" * 10_000_000]).encode()
    code, lines = run_replay(huge + b"\n" + GOOD + b"\n")
    assert code == 1 and len(lines) == 2
    assert len(lines[0]) <= MAX_ERROR_BYTES
    assert json.loads(lines[0])["error"] == (
        f"the line has {len(huge):,} bytes, more than a record may have "
        f"({MAX_LINE_BYTES:,}); it was not read"
    )
    assert json.loads(lines[1]) == GOOD_ANSWER


def test_a_line_of_exactly_the_limit_is_read_and_one_byte_more_is_refused():
    padded = GOOD + b" " * (MAX_LINE_BYTES - len(GOOD))
    answers = answers_in_process(b"\n".join([padded, padded + b" ", GOOD]))
    assert answers[0] == GOOD_ANSWER
    assert answers[1]["error"].startswith(f"the line has {MAX_LINE_BYTES + 1:,} bytes")
    assert answers[2] == GOOD_ANSWER


def test_a_long_move_under_the_line_limit_gets_a_short_error_line():
    answers = answers_in_process(with_moves(["1" + "E" * 900_000]).encode() + b"\n" + GOOD)
    assert answers[0]["error"].startswith("round 1, move 1 ('1EEEE")
    assert answers[0]["error"].endswith("not a move (900,001 characters)")
    assert answers[1] == GOOD_ANSWER


def test_an_error_line_stays_short_even_when_every_quoted_character_is_escaped():
    # An emoji is 1 character but 12 bytes of JSON ("\ud83d\ude00"): cut by bytes too.
    answers = answers_in_process(with_moves(["\U0001f600" * 79]).encode())
    assert answers[0]["error"].startswith("round 1, move 1 (\U0001f600")
    assert answers[0]["error"].endswith("...")


def test_error_result_bounds_the_json_line_and_keeps_short_messages_whole():
    assert error_result("round 1: x") == {"error": "round 1: x"}
    cut = error_result("\u00e9" * 1000)["error"]
    assert cut.endswith("...") and cut.startswith("\u00e9\u00e9")
    assert len(json.dumps({"error": cut}, separators=(",", ":"))) <= MAX_ERROR_BYTES


def test_an_internal_error_is_named_as_one_and_the_next_line_is_still_answered(monkeypatch):
    real_replay = replay_cli.replay
    calls = []

    def replay_that_fails_once(record):
        calls.append(record)
        if len(calls) == 1:
            raise ZeroDivisionError("division by zero")
        return real_replay(record)

    monkeypatch.setattr(replay_cli, "replay", replay_that_fails_once)
    answers = answers_in_process(GOOD + b"\n" + GOOD + b"\n")
    assert answers[0]["error"].startswith("internal error: ZeroDivisionError at test_replay_cli")
    assert answers[0]["error"].endswith(": division by zero")
    assert answers[1] == GOOD_ANSWER


def test_every_line_gets_one_answer_whatever_the_line_before_it_did(tmp_path):
    bad = [
        b'{"format": 1, "first_player": ' + b"9" * 5000 + b', "rounds": []}',
        b'{"format": 1, "first_player": 1e-400, "rounds": []}',
        b'{"format": 1, "first_\xff": 0, "rounds": []}',
        b"[" * 100_000,
        with_moves(["4" * 2_000_000]).encode(),
        b'{"format": 1, "first_player": 0, "rounds": [], "varaint": "three-rounds"}',
    ]
    data = b"".join(line + b"\n" + GOOD + b"\n\n" for line in bad)
    code, lines = run_replay(data, from_file=tmp_path / "r.jsonl")
    assert code == 1 and len(lines) == 2 * len(bad)
    answers = [json.loads(line) for line in lines]
    assert all(len(line) <= MAX_ERROR_BYTES for line in lines[::2])
    assert all(set(answer) == {"error"} for answer in answers[::2])
    assert answers[1::2] == [GOOD_ANSWER] * len(bad)


def test_each_answer_is_written_before_the_next_line_is_read():
    process = subprocess.Popen(
        [sys.executable, "-m", "engine", "replay", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, **UTF8_LOCALE},
    )
    try:
        assert process.stdin is not None and process.stdout is not None
        for line in (b"{broken", GOOD):
            process.stdin.write(line + b"\n")
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], 60)
            assert ready, "no answer while stdin stays open"
            assert json.loads(process.stdout.readline())
        process.stdin.close()
        assert process.wait(timeout=60) == 1
    finally:
        process.kill()
        process.wait()
