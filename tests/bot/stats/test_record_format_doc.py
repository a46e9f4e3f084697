"""`/hanamikoji history` points to the record format described in this repository, and the
description's examples are records that replay as it says."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.words.i18n import languages, text
from engine.replay_cli import replay_line

DOC = Path(__file__).parents[3] / "docs" / "record-format.md"


@pytest.mark.parametrize("lang", languages())
def test_the_history_footer_points_to_the_record_format_in_this_repository(lang):
    footer = text(lang, "stats.history_footer")

    assert "docs/record-format.md" in footer and "rules.md" not in footer
    assert DOC.is_file()


def test_each_example_record_of_the_description_replays_to_the_result_it_states():
    blocks = re.findall(r"```json\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    records = [b for b in blocks if b.startswith('{"format"')]
    assert len(records) == 2
    charm, resigned = (replay_line(r) for r in records)

    stated = json.loads(blocks[blocks.index(records[0]) + 1])
    assert charm == stated and (charm["winner"], charm["reason"]) == (1, "charm")
    assert '`{"rounds":[],"winner":1,"reason":"resignation"}`' in DOC.read_text(encoding="utf-8")
    assert resigned == {"rounds": [], "winner": 1, "reason": "resignation"}
