"""Every match component is one `DynamicItem` per verb: its custom_id round-trips through
its template and `from_custom_id` into the same typed values, ids made before the split
into verbs still find exactly one item, and one check decides who may press."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord.ext import commands

from bot.challenge.accept_button import AcceptButton
from bot.challenge.cancel_button import CancelButton
from bot.challenge.decline_button import DeclineButton
from bot.challenge.join_button import JoinButton
from bot.challenge.rematch_button import RematchButton
from bot.discord_plumbing.match_item import MatchItem, UnreadableItem
from bot.features import Feature
from bot.play.action_buttons import CompetitionButton, GiftButton, SecretButton, TradeOffButton
from bot.play.card_select import CardSelect
from bot.play.confirm_button import ConfirmButton
from bot.play.deps import PlayDeps
from bot.play.navigation_buttons import BackButton, HandButton
from bot.play.resign_button import ResignButton
from bot.play.take_button import TakeButton
from bot.review.navigation_buttons import (
    FirstButton,
    JumpButton,
    LastButton,
    NextButton,
    NextMistakeButton,
    PreviousButton,
)
from bot.review.review_button import ReviewButton
from bot.stats.leaderboard_button import LeaderboardPageButton
from bot.stats.record_button import RecordExportButton
from bot.words.i18n import text
from engine.model import MatchStatus
from engine.rules import Action, CompetitionChoice, GiftChoice, parse_decision
from engine.rules.errors import NotationError
from tests.bot.fakes import FakeInteraction, FakeNames, FakeQueries
from tests.bot.test_custom_ids import REGISTERED
from tests.builders import match_info


async def round_trip(item: discord.ui.DynamicItem[Any]) -> Any:
    """The item `from_custom_id` makes of `item`'s own custom_id."""
    cls = type(item)
    found = cls.__discord_ui_compiled_template__.fullmatch(item.custom_id)
    assert found is not None, f"{cls.__name__} does not match its own id {item.custom_id!r}"
    again = await cls.from_custom_id(None, item.item, found)  # type: ignore[arg-type]
    assert type(again) is cls and again.custom_id == item.custom_id
    return again


@pytest.mark.parametrize(
    ("make", "fields"),
    [
        (lambda: HandButton(12, 0), {"match_id": 12, "version": 0}),
        (lambda: BackButton(12, 7), {"match_id": 12, "version": 7}),
        (lambda: ResignButton(12, 7), {"match_id": 12, "version": 7}),
        (lambda: SecretButton(3, 4), {"match_id": 3, "version": 4, "action": Action.SECRET}),
        (lambda: TradeOffButton(3, 4), {"action": Action.TRADE_OFF}),
        (lambda: GiftButton(3, 4), {"match_id": 3, "version": 4, "action": Action.GIFT}),
        (lambda: CompetitionButton(3, 4), {"action": Action.COMPETITION}),
        (lambda: CardSelect(3, 4, Action.GIFT), {"version": 4, "action": Action.GIFT}),
        (
            lambda: ConfirmButton(3, 9, parse_decision("4ABEG")),
            {"version": 9, "decision": parse_decision("4ABEG")},
        ),
        (lambda: TakeButton(3, 9, GiftChoice(4)), {"choice": GiftChoice(4)}),
        (
            lambda: TakeButton(3, 9, CompetitionChoice((0, 1))),
            {"choice": CompetitionChoice((0, 1))},
        ),
        (lambda: AcceptButton(5), {"match_id": 5, "version": 0}),
        (lambda: DeclineButton(5), {"match_id": 5, "version": 0}),
        (lambda: JoinButton(5), {"match_id": 5, "version": 0}),
        (lambda: CancelButton(5), {"match_id": 5, "version": 0}),
        (lambda: RematchButton(5, 31), {"match_id": 5, "version": 31}),
        (lambda: LeaderboardPageButton(77, 2), {"guild_id": 77, "page": 2}),
        (lambda: RecordExportButton(8), {"match_id": 8}),
    ],
)
async def test_a_custom_id_round_trips_into_typed_values(make, fields):
    again = await round_trip(make())
    for name, value in fields.items():
        assert getattr(again, name) == value


async def test_a_confirm_id_the_rules_cannot_read_is_kept_as_stale():
    found = ConfirmButton.__discord_ui_compiled_template__.fullmatch("hk:3:9:do:9XX")
    assert found is not None
    assert (await ConfirmButton.from_custom_id(None, None, found)).decision is None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("custom_id", "owner"),
    [
        ("hk:12:0:hand", HandButton),
        ("hk:12:5:act:1", SecretButton),
        ("hk:12:5:act:2", TradeOffButton),
        ("hk:12:5:act:3", GiftButton),
        ("hk:12:5:act:4", CompetitionButton),
        ("hk:12:5:pick:3", CardSelect),
        ("hk:12:5:do:3EEG", ConfirmButton),
        ("hk:12:5:do:4ABEG", ConfirmButton),
        ("hk:12:5:take:-E", TakeButton),
        ("hk:12:5:take:-AB", TakeButton),
        ("hk:12:5:back", BackButton),
        ("hk:12:5:resign", ResignButton),
        ("hk:12:0:accept", AcceptButton),
        ("hk:12:0:decline", DeclineButton),
        ("hk:12:0:join", JoinButton),
        ("hk:12:0:cancel", CancelButton),
        ("hk:12:40:rematch", RematchButton),
        ("lb:4:1", LeaderboardPageButton),
        ("rec:9", RecordExportButton),
        ("rv:9", ReviewButton),
        ("rv:9:0:first", FirstButton),
        ("rv:9:3:prev", PreviousButton),
        ("rv:9:5:next", NextButton),
        ("rv:9:31:last", LastButton),
        ("rv:9:12:mistake", NextMistakeButton),
        ("rv:9:23:jump", JumpButton),
    ],
)
def test_ids_on_messages_sent_before_the_upgrade_find_one_item(custom_id, owner):
    owners = [c for c in REGISTERED if c.__discord_ui_compiled_template__.fullmatch(custom_id)]
    assert owners == [owner]


@pytest.mark.parametrize(
    "custom_id",
    [
        "hk:12:5:act:5",
        "hk:12:5:pick:0",
        "hk:x:5:hand",
        "hk:1:1:take:-H",
        "lb:1:x",
        "rec:",
        "rv:",
        "rv:9:3:fly",
        "rv:9:x:next",
    ],
)
def test_an_id_no_verb_reads_finds_only_the_refusing_item(custom_id):
    owners = [c for c in REGISTERED if c.__discord_ui_compiled_template__.fullmatch(custom_id)]
    assert owners == [UnreadableItem]


@pytest.mark.parametrize(
    "custom_id",
    [
        "hk:999999999999999999999999999999:0:hand",
        "hk:0:0:hand",
        "hk:7:99999999999999999999:act:3",
        "hk:9223372036854775808:0:accept",
    ],
)
async def test_a_field_out_of_range_is_refused_before_the_service(client, custom_id):
    owners = [c for c in REGISTERED if c.__discord_ui_compiled_template__.fullmatch(custom_id)]
    (owner,) = owners
    found = owner.__discord_ui_compiled_template__.fullmatch(custom_id)
    base = discord.ui.Button(custom_id=custom_id)
    item = await owner.from_custom_id(None, base, found)  # type: ignore[arg-type]
    assert not item.readable()
    presser = pressed_by(client, ANA)
    assert not await item.interaction_check(presser)
    assert presser.response.sent == [
        {"content": text("en", "refusal.unreadable"), "ephemeral": True}
    ]
    assert client.seen == []  # nothing reached the match


async def test_a_take_the_rules_cannot_read_is_refused_not_raised(monkeypatch):
    def unreadable(notation: str) -> Any:
        raise NotationError(f"not a choice: {notation!r}")

    monkeypatch.setattr("bot.custom_ids.parse_decision", unreadable)
    found = TakeButton.__discord_ui_compiled_template__.fullmatch("hk:3:1:take:-AB")
    item = await TakeButton.from_custom_id(None, None, found)  # type: ignore[arg-type]
    assert item.choice is None and not item.readable()


async def test_the_largest_ids_still_read():
    assert (await round_trip(HandButton(2**63 - 1, 0))).readable()


def test_every_registered_template_is_a_pattern():
    for cls in REGISTERED:
        assert isinstance(cls.__discord_ui_compiled_template__, re.Pattern)


# -- who may press ---------------------------------------------------------------------------

ANA, BEN, CARA = 101, 102, 103


class Played(Feature):
    pass


@pytest.fixture
async def client() -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    seen: list[tuple[int, int]] = []
    deps = PlayDeps(
        queries=FakeQueries(match_info(players=(ANA, BEN), status=MatchStatus.ACTIVE)),  # type: ignore[arg-type]
        names=FakeNames(),  # type: ignore[arg-type]
        seen=lambda match, user: seen.append((match, user)),
        commands=None,  # type: ignore[arg-type]
        placements=None,  # type: ignore[arg-type]
        panel=None,  # type: ignore[arg-type]
    )
    await bot.add_cog(Played(deps))
    bot.seen = seen  # type: ignore[attr-defined]
    return bot


def pressed_by(client: commands.Bot, user_id: int) -> Any:
    """A press on the public board (a message everyone sees, in a server)."""
    return FakeInteraction.by(user_id, client=client, locale=discord.Locale.american_english)


DEFERRED_UPDATE: dict[str, Any] = {}
HELD_BACK = None
"""The refusal, ready at once, is the first response itself (the press was held back)."""


@pytest.mark.parametrize(
    ("item", "first_response"),
    [
        (HandButton(7, 0), HELD_BACK),
        (GiftButton(7, 3), HELD_BACK),
        # A Take's answer on the board is the board's own edit: a deferred update.
        (TakeButton(7, 3, GiftChoice(2)), DEFERRED_UPDATE),
    ],
)
async def test_only_the_players_may_press_a_match_button(
    client, item: MatchItem[Any, Any], first_response: dict[str, Any] | None
):
    for player in (ANA, BEN):
        assert await item.interaction_check(pressed_by(client, player))
    stranger = pressed_by(client, CARA)
    assert not await item.interaction_check(stranger)
    refusal = {"content": text("en", "refusal.not_a_player"), "ephemeral": True}
    if first_response is HELD_BACK:
        # Told why not, privately, as the first response.
        assert stranger.response.deferred == []
        assert stranger.response.sent == [refusal]
    else:
        # Acknowledged before the match was looked up, then told why not, privately.
        assert stranger.response.deferred == [first_response]
        assert stranger.followup.sent == [refusal]
    assert (7, CARA) in client.seen
