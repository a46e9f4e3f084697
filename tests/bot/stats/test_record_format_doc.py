"""`/hanamikoji history` tells players what a record is without sending them to a file or a
command line (developers find its format in docs/record-format.md), and that description's
examples are records that replay as it says."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.words.i18n import languages, text
from engine.replay_cli import replay_line

DOC = Path(__file__).parents[3] / "docs" / "record-format.md"


@pytest.mark.parametrize("lang", languages())
def test_the_history_footer_names_no_file_module_or_command(lang):
    footer = text(lang, "stats.history_footer")

    assert "Record #" in footer or "Registro #" in footer
    for developer_word in ("docs/", ".md", "python", "engine", "JSON", "`"):
        assert developer_word not in footer, developer_word
    assert DOC.is_file(), "the format is described for developers"


def test_each_example_record_of_the_description_replays_to_the_result_it_states():
    blocks = re.findall(r"```json\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    records = [b for b in blocks if b.startswith('{"format"')]
    assert len(records) == 2
    charm, resigned = (replay_line(r) for r in records)

    stated = json.loads(blocks[blocks.index(records[0]) + 1])
    assert charm == stated and (charm["winner"], charm["reason"]) == (1, "charm")
    assert '`{"rounds":[],"winner":1,"reason":"resignation"}`' in DOC.read_text(encoding="utf-8")
    assert resigned == {"rounds": [], "winner": 1, "reason": "resignation"}
