"""Reading a match record is strict: a value of the wrong JSON type, an unknown or repeated
key, or a number no field can hold is refused with an error that quotes it, cut short."""

import json

import pytest

from engine.replay_cli import replay_line
from engine.rules.errors import RecordError
from engine.rules.record import QUOTE_CHARS, MatchRecord, short_repr

ROUND = {
    "removed": "G",
    "hands": ["BBCDGG", "CEEFFF"],
    "pile": "GDFEGAAD",
    "moves": ["4BCBD-BC", "4CDFF-FF", "1F", "2EF", "2GG", "3AEE-E", "3AGG-A", "1D"],
}
RECORD = {"format": 1, "variant": "standard", "first_player": 0, "rounds": [ROUND]}


def record_text(*, raw: dict[str, str] | None = None, **changes: object) -> str:
    """The example record as JSON, with ``changes`` and with ``raw`` values written as is."""
    record = {**RECORD, **changes}
    text = json.dumps({k: v for k, v in record.items() if k not in (raw or {})})
    for key, value in (raw or {}).items():
        text = text[:-1] + f', "{key}": {value}}}'
    return text


def error_of(text: str) -> str:
    with pytest.raises(RecordError) as caught:
        MatchRecord.from_json(text)
    return str(caught.value)


def test_the_example_record_reads():
    record = MatchRecord.from_json(record_text())
    assert record.first_player == 0 and len(record.rounds) == 1


@pytest.mark.parametrize(
    ("key", "number", "error"),
    [
        ("format", "1" * 4301, "unknown record format 1111"),
        ("first_player", "1" * 5000, "first_player must be 0 or 1, got 1111"),
        ("first_player", "-" + "9" * 5000, "first_player must be 0 or 1, got -999"),
        ("first_player", "1" * 5000 + ".5", "first_player must be 0 or 1, got 1111"),
        ("rounds", "[" + "7" * 5000 + "]", "round 1: a round is a JSON object, got 7777"),
        (
            "ended",
            '{"player": ' + "1" * 5000 + ', "reason": "timeout"}',
            "ended.player must be 0 or 1, got 1111",
        ),
    ],
)
def test_a_number_of_more_than_4300_digits_is_an_error_not_a_crash(key, number, error):
    message = error_of(record_text(raw={key: number}))
    assert message.startswith(error)
    assert "..." in message and len(message) < 2 * QUOTE_CHARS


@pytest.mark.parametrize("value", ["0.0", "1.0", "1e0", "1E0", "1e-400", "-0.0", "true", "false"])
def test_first_player_must_be_the_json_integer_0_or_1(value):
    # 1e-400 reads as 0.0 and 0.0 == 0 in Python: all were accepted before.
    assert error_of(record_text(raw={"first_player": value})) == (
        f"first_player must be 0 or 1, got {value}"
    )


@pytest.mark.parametrize(
    ("value", "quoted"), [("true", "true"), ("1.0", "1.0"), ('"1"', "'1'"), ("1e0", "1e0")]
)
def test_format_must_be_the_json_integer_1(value, quoted):
    message = error_of(record_text(raw={"format": value}))
    assert message == f"unknown record format {quoted}, expected 1"


def test_a_record_without_format_says_so():
    assert error_of('{"first_player": 0, "rounds": []}') == "the record has no format, expected 1"


@pytest.mark.parametrize(
    ("ended", "error"),
    [
        ({"player": True, "reason": "resignation"}, "ended.player must be 0 or 1, got true"),
        ({"player": False, "reason": "timeout"}, "ended.player must be 0 or 1, got false"),
        ({"player": 1.0, "reason": "timeout"}, "ended.player must be 0 or 1, got 1.0"),
        ({"player": "1", "reason": "timeout"}, "ended.player must be 0 or 1, got '1'"),
        ({"reason": "timeout"}, "ended.player must be 0 or 1, got nothing"),
        (
            {"player": 1, "reason": ["timeout"]},
            'ended.reason must be resignation or timeout, got ["timeout"]',
        ),
        ({"player": 1, "reason": "charm"}, "ended.reason must be resignation or timeout"),
    ],
)
def test_ended_names_the_conceding_seat_as_an_integer_and_the_reason_as_a_string(ended, error):
    line = record_text(rounds=[{**ROUND, "moves": ROUND["moves"][:3]}], ended=ended)
    assert error_of(line).startswith(error)


def test_a_valid_concession_still_reads():
    line = record_text(
        rounds=[{**ROUND, "moves": ROUND["moves"][:3]}], ended={"player": 1, "reason": "timeout"}
    )
    assert replay_line(line) == {"rounds": [], "winner": 0, "reason": "timeout"}


@pytest.mark.parametrize("value", ["true", "1", "null", '["standard"]', '"Standard"'])
def test_variant_must_be_one_of_the_variant_strings(value):
    assert error_of(record_text(raw={"variant": value})).startswith("unknown variant")


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"removed": 6}, "round 1: removed and pile must be strings of letters"),
        ({"pile": True}, "round 1: removed and pile must be strings of letters"),
        ({"hands": ["BBCDGG", 5]}, 'round 1: hands must be two strings of letters, got ["BBC'),
        ({"moves": [True]}, "round 1: moves must be a list of strings, got [true]"),
        ({"moves": "4BCBD-BC"}, "round 1: moves must be a list of strings, got '4BCBD-BC'"),
    ],
)
def test_strings_are_required_where_the_format_has_strings(change, error):
    assert error_of(record_text(rounds=[{**ROUND, **change}])).startswith(error)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(constant):
    message = error_of(record_text(raw={"first_player": constant}))
    assert message == f"not JSON: {constant} is not a JSON value"


@pytest.mark.parametrize(
    ("line", "error"),
    [
        (
            record_text(raw={"varaint": '"three-rounds"'}),
            "the record has an unknown key 'varaint'",
        ),
        # A byte lost in transit must not turn three-rounds into the default standard game.
        (
            record_text(raw={"vari\ufffdnt": '"three-rounds"'}),
            "the record has an unknown key 'vari\ufffdnt'",
        ),
        (record_text(rounds=[{**ROUND, "note": "x"}]), "round 1 has an unknown key 'note'"),
        (
            record_text(ended={"player": 0, "reason": "timeout", "by": "bot"}),
            "ended has an unknown key 'by'",
        ),
    ],
)
def test_an_unknown_key_is_refused_and_named(line, error):
    assert error_of(line).startswith(error)


def test_a_repeated_key_is_refused():
    line = record_text()[:-1] + ', "variant": "three-rounds"}'
    assert error_of(line) == "the key 'variant' appears twice in one object"


def test_a_long_bad_value_is_quoted_cut_short():
    message = error_of(record_text(variant="x" * 10_000_000))
    assert message == f"unknown variant {short_repr('x' * 1000)} (standard or three-rounds)"
    assert short_repr("x" * 1000) == "'" + "x" * (QUOTE_CHARS - 4) + "..."


def test_a_long_removed_card_is_quoted_cut_short():
    message = error_of(record_text(rounds=[{**ROUND, "removed": "G" * 1_000_000}]))
    assert message.startswith("round 1: removed must be one card, got 'GGG")
    assert len(message) < 2 * QUOTE_CHARS


def test_a_long_move_is_refused_with_a_short_message():
    moves = ["4BCBD-BC", "4" * 10_000_000]
    result = replay_line(record_text(rounds=[{**ROUND, "moves": moves}]))
    assert result["error"].startswith("round 1, move 2 ('4444")
    assert result["error"].endswith("not a move (10,000,000 characters)")
    assert len(result["error"]) < 3 * QUOTE_CHARS


def test_a_move_of_ordinary_length_keeps_its_precise_error():
    moves = ["4BCBD-BC", "4ABEGG-AB"]
    result = replay_line(record_text(rounds=[{**ROUND, "moves": moves}]))
    assert result["error"].startswith("round 1, move 2 (4ABEGG-AB): not a move: '4ABEGG-AB'")


def test_a_carriage_return_inside_a_record_is_whitespace():
    text = record_text().replace(", ", ",\r")
    assert "\r" in text
    assert MatchRecord.from_json(text) == MatchRecord.from_json(record_text())
