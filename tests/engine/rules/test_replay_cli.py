"""``python -m engine replay``: one JSON line per record, errors named, never a traceback."""

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.replay_cli import replay_line
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
