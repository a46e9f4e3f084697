"""The DMs' news about a member's other matches and an overdue turn, and the thread's
lines about an overdue turn (the late player told, then the waiting one)."""

from __future__ import annotations

import contextlib

from bot.play.display_plan import ClaimOffer, Overdue
from bot.play.panel import Panel
from bot.play.turn_notices import MAX_LINKS, also_your_turn, claim_dm, match_link
from bot.play.words import line_text
from engine.model import MatchStatus, Placement
from engine.rules import new_game, view
from tests.bot.fakes import said
from tests.builders import GUILD_ID, match_info

ANA, BOB = 11, 12
NAMES = ("ana", "bob")


def game(match_id: int, to_move: int, thread: int | None = None):
    return match_info(
        match_id,
        (ANA, BOB),
        MatchStatus.ACTIVE,
        to_move=to_move,
        placement=Placement(thread_id=thread),
    )


def test_the_other_matches_waiting_on_the_member_are_linked():
    this = game(1, ANA, thread=501)
    games = [this, game(2, ANA, thread=502), game(3, BOB, thread=503), game(4, ANA)]
    line = also_your_turn("en", this, ANA, games)
    assert line == (
        f"Also your turn in: https://discord.com/channels/{GUILD_ID}/502 · "
        f"https://discord.com/channels/{GUILD_ID}/{this.channel_id}"
    )
    assert "503" not in line and "/501" not in line


def test_no_line_when_no_other_match_waits_on_the_member():
    this = game(1, ANA, thread=501)
    assert also_your_turn("en", this, ANA, [this, game(3, BOB, thread=503)]) == ""


def test_a_long_list_is_cut_and_counted():
    this = game(1, ANA, thread=501)
    games = [game(n, ANA, thread=600 + n) for n in range(2, MAX_LINKS + 5)]
    line = also_your_turn("es", this, ANA, games)
    assert line.startswith("También es tu turno en: ")
    assert line.endswith(" y 3 más")
    assert line.count("https://") == MAX_LINKS


def test_the_claim_dm_links_the_board():
    this = game(1, ANA, thread=501)
    assert match_link(this) == f"https://discord.com/channels/{GUILD_ID}/501"
    dm = claim_dm("en", this, "ana")
    assert "Match 1: ana's time is up" in dm and dm.endswith("/501")


def test_the_thread_tells_the_late_player_then_the_waiting_one():
    late = line_text("en", Overdue(ANA, 0, 2e9), NAMES)
    assert late == (
        f"⌛ <@{ANA}>, your days for this move ran out; bob may claim the win <t:2000000000:R>."
    )
    offer = line_text("en", ClaimOffer(BOB, 1), NAMES)
    assert offer.startswith(f"⌛ <@{BOB}>, ana's time is up: claim the win, let the AI play")
    assert "los botones están en el tablero" in line_text("es", ClaimOffer(BOB, 1), NAMES)


# -- the "your turn" DM names the member's other matches ---------------------------------


class DmQueries:
    """The match's view for its player, and the member's matches in the server."""

    def __init__(self, games: list) -> None:
        self.games = games
        self.asked: list[tuple[int, int]] = []

    async def view_for(self, match_id: int, user_id: int):
        game = new_game(seed=2)
        return view(game, game.current_player)

    async def games_of(self, guild_id: int, user_id: int):
        self.asked.append((guild_id, user_id))
        return self.games


class DmNames:
    def language(self, user_id: int) -> str:
        return "en"

    async def pair(self, players, ai_level, lang, **_):
        return NAMES


class Dms:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    def in_order(self, user_id: int, match_id: int):
        @contextlib.asynccontextmanager
        async def held():
            yield

        return held()

    async def retire(self, user_id: int, match_id: int, line: str) -> None:
        pass

    async def wanted_by(self, user_id: int) -> bool:
        return True

    async def send(self, user_id: int, what: str, kwargs: dict, **_) -> None:
        self.sent.append(kwargs)


async def test_the_your_turn_dm_links_the_members_other_matches_in_one_read():
    this = game(1, ANA, thread=501)
    queries, dms = DmQueries([this, game(2, ANA, thread=502)]), Dms()
    panel = Panel(queries, DmNames(), dms, hints=None)  # type: ignore[arg-type]
    await panel.your_turn(this, ANA)
    assert queries.asked == [(GUILD_ID, ANA)]
    assert f"Also your turn in: https://discord.com/channels/{GUILD_ID}/502" in said(dms.sent[0])

    queries.games = [this]
    await panel.your_turn(this, ANA)
    assert "Also your turn in" not in said(dms.sent[1])
