"""Every component id the bot writes is made in `bot/custom_ids.py`, in the formats buttons on
old messages carry, and an id of any prefix that no feature's item reads (garbled, forged,
left from a verb that no longer exists) finds the one catch-all item, which refuses it
politely and privately: never silence, never a traceback."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.client import EXTENSIONS
from bot.custom_ids import (
    Prefix,
    Turn,
    Verb,
    daily_choice_id,
    game_id,
    record_id,
    review_id,
    season_leaderboard_id,
    server_page_id,
    step_id,
    streak_choice_id,
    streak_step_id,
    tournament_id,
)
from bot.discord_plumbing.match_item import UnreadableItem
from bot.words.i18n import text
from tests.bot.fakes import FakeInteraction

ROOT = Path(__file__).resolve().parents[2]


def registered_items() -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    """What the bot registers: every loaded feature's `ITEMS` and the client's catch-all."""
    items: list[type[discord.ui.DynamicItem[Any]]] = []
    for extension in EXTENSIONS:
        items += getattr(importlib.import_module(extension), "ITEMS", ())
    return (*dict.fromkeys(items), UnreadableItem)


REGISTERED = registered_items()


def owners(custom_id: str) -> list[type[discord.ui.DynamicItem[Any]]]:
    """The registered items whose template reads ``custom_id`` (discord.py runs them all)."""
    return [c for c in REGISTERED if c.__discord_ui_compiled_template__.fullmatch(custom_id)]


WRITTEN = {
    Prefix.MATCH: [game_id(12, 5, Verb.DO, "3EEG"), game_id(12, 0, Verb.HAND)],
    Prefix.LEADERBOARD: [server_page_id(Prefix.LEADERBOARD, 4, 1)],
    Prefix.SEASON_LEADERBOARD: [season_leaderboard_id(4, 2, 1)],
    Prefix.SEATS_PAGE: [server_page_id(Prefix.SEATS_PAGE, 4, 1)],
    Prefix.RECORD: [record_id(9)],
    Prefix.REVIEW: [review_id(9), step_id(9, 3, Turn.PREVIOUS)],
    Prefix.TOURNAMENT: [tournament_id(5, "join"), tournament_id(5, "start")],
    Prefix.PUZZLE: ["pz:builtin/0/22:-A", "pz:next"],
    Prefix.PUZZLE_STREAK: [
        streak_choice_id("builtin/0/22", "-A"),
        streak_step_id("next"),
        streak_step_id("new"),
    ],
    Prefix.DAILY_PUZZLE: [daily_choice_id(23149, "builtin/0/22", "-A")],
}
"""An id of every prefix as the bot writes it."""

GARBLED = {
    Prefix.MATCH: ["hk:12:5:fly", "hk:12:5:act:5", "hk:x:5:hand", "hk:", "hk:1:1:take:-H"],
    Prefix.LEADERBOARD: ["lb:1:x", "lb:", "lb:1:2:3"],
    Prefix.SEASON_LEADERBOARD: ["lbs:1:2", "lbs:1:x:0", "lbs:"],
    Prefix.SEATS_PAGE: ["st:1", "st:x:0", "st:"],
    Prefix.RECORD: ["rec:", "rec:x", "rec:1:2"],
    Prefix.REVIEW: ["rv:", "rv:9:3:fly", "rv:9:x:next"],
    Prefix.TOURNAMENT: ["hkt:5:fly", "hkt:x:join", "hkt:", "hkt:" + "9" * 30 + ":join"],
    Prefix.PUZZLE: ["pz:", "pz:nope", "pz:match/1/2:1H"],
    Prefix.PUZZLE_STREAK: ["pzs:", "pzs:again", "pzs:match/1/2:1H", "pzs:next:1"],
    Prefix.DAILY_PUZZLE: ["pzd:", "pzd:1", "pzd:x:match/1/2:1A"],
}
"""Ids of every prefix that no item's template reads."""


def test_the_examples_cover_every_prefix():
    assert set(WRITTEN) == set(Prefix) == set(GARBLED)


def test_the_formats_are_the_ones_old_messages_carry():
    assert WRITTEN == {
        Prefix.MATCH: ["hk:12:5:do:3EEG", "hk:12:0:hand"],
        Prefix.LEADERBOARD: ["lb:4:1"],
        Prefix.SEASON_LEADERBOARD: ["lbs:4:2:1"],
        Prefix.SEATS_PAGE: ["st:4:1"],
        Prefix.RECORD: ["rec:9"],
        Prefix.REVIEW: ["rv:9", "rv:9:3:prev"],
        Prefix.TOURNAMENT: ["hkt:5:join", "hkt:5:start"],
        Prefix.PUZZLE: ["pz:builtin/0/22:-A", "pz:next"],
        Prefix.PUZZLE_STREAK: ["pzs:builtin/0/22:-A", "pzs:next", "pzs:new"],
        Prefix.DAILY_PUZZLE: ["pzd:23149:builtin/0/22:-A"],
    }


@pytest.mark.parametrize("custom_id", [i for ids in WRITTEN.values() for i in ids])
def test_an_id_the_bot_writes_finds_one_item_and_not_the_refusal(custom_id):
    found = owners(custom_id)
    assert len(found) == 1 and found != [UnreadableItem], found


@pytest.mark.parametrize("custom_id", [i for ids in GARBLED.values() for i in ids])
async def test_a_garbled_id_of_every_prefix_is_refused_politely(custom_id):
    assert owners(custom_id) == [UnreadableItem]
    found = UnreadableItem.__discord_ui_compiled_template__.fullmatch(custom_id)
    base = discord.ui.Button(custom_id=custom_id)
    item = await UnreadableItem.from_custom_id(None, base, found)  # type: ignore[arg-type]
    presser = FakeInteraction.by(101, locale=discord.Locale.american_english)
    assert not await item.interaction_check(presser)  # type: ignore[arg-type]
    assert presser.response.sent == [
        {"content": text("en", "refusal.unreadable"), "ephemeral": True}
    ]


def test_every_registered_item_reads_ids_of_a_known_prefix():
    # An item with a prefix of its own would have ids the catch-all never answers.
    heads = tuple(f"{prefix}:" for prefix in Prefix)
    strays = [
        c.__name__
        for c in REGISTERED
        if c is not UnreadableItem
        and not c.__discord_ui_compiled_template__.pattern.startswith(heads)
    ]
    assert strays == []


def test_every_feature_registers_its_items_from_its_package():
    # The registered items above are each feature's `ITEMS`: a feature with buttons says so.
    with_items = {e for e in EXTENSIONS if getattr(importlib.import_module(e), "ITEMS", ())}
    assert with_items >= {"bot.play", "bot.challenge", "bot.stats", "bot.review"}


@pytest.mark.parametrize("custom_id", ["other", "hkx:1:1:hand", "", "lbx:1:1", "rv"])
def test_ids_of_other_bots_find_no_item(custom_id):
    assert owners(custom_id) == []


_FIELD = st.one_of(st.from_regex(r"[0-9]{1,30}", fullmatch=True), st.text(max_size=4), st.just(""))
_WORD = st.one_of(
    st.sampled_from([*Verb, *Turn, "join", "leave", "start", "x"]).map(str),
    st.text(max_size=8),
)
FORGED = st.one_of(
    st.builds(lambda m, v, w, a: f"hk:{m}:{v}:{w}{a}", _FIELD, _FIELD, _WORD, _FIELD),
    st.builds(lambda g, p: f"lb:{g}:{p}", _FIELD, _FIELD),
    st.builds(lambda g, s, p: f"lbs:{g}:{s}:{p}", _FIELD, _FIELD, _FIELD),
    st.builds(lambda g, p: f"st:{g}:{p}", _FIELD, _FIELD),
    st.builds(lambda m: f"rec:{m}", _FIELD),
    st.builds(lambda m: f"rv:{m}", _FIELD),
    st.builds(lambda m, s, w: f"rv:{m}:{s}:{w}", _FIELD, _FIELD, _WORD),
    st.builds(lambda t, w: f"hkt:{t}:{w}", _FIELD, _WORD),
    st.builds(lambda p, tail: f"{p}:{tail}", st.sampled_from(list(Prefix)), st.text(max_size=12)),
)


@settings(max_examples=400, deadline=None)
@given(FORGED)
async def test_every_id_of_our_prefixes_finds_one_item_that_reads_it_without_raising(custom_id):
    found = owners(custom_id)
    assert len(found) == 1, (custom_id, found)
    (owner,) = found
    match = owner.__discord_ui_compiled_template__.fullmatch(custom_id)
    item = await owner.from_custom_id(None, discord.ui.Button(custom_id=custom_id), match)  # type: ignore[arg-type]
    assert isinstance(item, owner)


def _written_ids(path: Path) -> list[str]:
    """Where ``path`` spells out a component's id (``custom_id="…"`` or an f-string)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.keyword)
        and node.arg == "custom_id"
        and isinstance(node.value, ast.Constant | ast.JoinedStr | ast.BinOp)
    ]


def test_no_feature_spells_out_an_id_of_its_own():
    # Ids are made by bot/custom_ids.py, where the catch-all sees them all.
    spelled = [
        where
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if path.name != "custom_ids.py"
        for where in _written_ids(path)
    ]
    assert spelled == []
