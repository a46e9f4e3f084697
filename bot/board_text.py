"""The board as text: the accessible fallback beside the picture, readable on a phone.

Built only from a :class:`~engine.views.PublicView`, so it cannot show a hidden card. The
geisha table is a monospace block narrow enough for a phone (about 32 columns); everything
else is plain lines, never inline embed fields (they collapse on phones).
"""

from __future__ import annotations

from bot.names import ACTION_NAMES, ITEM_NAMES
from engine import Action, Competition, Phase, PublicView, card_letter
from engine.cards import CHARM, cards_text
from engine.outcome import MatchOutcome, RoundResult, Termination

ITEM_MARK = "▮"
FAVOR_MARK = "★"
NEUTRAL_MARK = "·"
_SIDE_WIDTH = 7


def _side(count: int, favor: bool, left: bool) -> str:
    items = ITEM_MARK * count
    mark = FAVOR_MARK if favor else " "
    text = f"{items} {mark}" if left else f"{mark} {items}"
    return text.rjust(_SIDE_WIDTH) if left else text.ljust(_SIDE_WIDTH)


def geisha_table(table: PublicView, names: tuple[str, str]) -> str:
    """The seven geishas with both sides' items and where each favor marker is."""
    left, right = (n[:_SIDE_WIDTH] for n in names)
    lines = [f"{left:>{_SIDE_WIDTH}}│{'geisha':^14}│{right}"]
    for g in range(7):
        favor = table.favor[g]
        middle = f"{card_letter(g)} {ITEM_NAMES[g]:<8} {CHARM[g]}"
        centre = f"{middle:^13}{NEUTRAL_MARK if favor is None else ' '}"
        lines.append(
            f"{_side(table.items[0][g], favor == 0, True)}│{centre}│"
            f"{_side(table.items[1][g], favor == 1, False)}".rstrip()
        )
    return "```\n" + "\n".join(lines) + "\n```"


def _markers(table: PublicView, player: int) -> str:
    """Action markers: used ones struck through, so it is not colour alone."""
    parts = []
    for action in Action:
        name = ACTION_NAMES[action]
        parts.append(f"~~{name}~~" if action in table.used[player] else name)
    return " · ".join(parts)


def _face_down(table: PublicView, player: int) -> str:
    hidden = []
    if Action.SECRET in table.used[player]:
        hidden.append("Secret 🂠")
    if Action.TRADE_OFF in table.used[player]:
        hidden.append("Trade-off 🂠🂠")
    return (" · face down: " + ", ".join(hidden)) if hidden else ""


def player_line(table: PublicView, names: tuple[str, str], player: int) -> str:
    return (
        f"**{names[player]}** — {table.geishas[player]} geishas · {table.charm[player]} charm · "
        f"{table.hand_sizes[player]} cards in hand{_face_down(table, player)}\n"
        f"↳ actions: {_markers(table, player)}"
    )


def status_line(table: PublicView, names: tuple[str, str]) -> str:
    """Whose turn it is and what they must do, or how the match ended."""
    if table.outcome is not None:
        return outcome_line(table.outcome, names)
    who = names[table.current_player] if table.current_player is not None else "?"
    if table.phase is Phase.GIFT_CHOICE:
        return f"**{who}** chooses one card of the Gift {_offer(table)}."
    if table.phase is Phase.COMPETITION_CHOICE:
        return f"**{who}** chooses one pair of the Competition {_offer(table)}."
    return f"**{who}**'s turn."


def _offer(table: PublicView) -> str:
    pending = table.pending
    if pending is None:
        return ""
    if isinstance(pending, Competition):
        return " | ".join(cards_text(pair) for pair in pending.pairs)
    return " ".join(card_letter(c) for c in pending.cards)


def outcome_line(outcome: MatchOutcome, names: tuple[str, str]) -> str:
    if outcome.winner is None:
        return "🤝 The match is a draw: equal geishas and charm after three rounds."
    winner, loser = names[outcome.winner], names[1 - outcome.winner]
    why = {
        Termination.CHARM: "with 11 or more charm points",
        Termination.GEISHAS: "with the favor of 4 geishas",
        Termination.ROUND_LIMIT: "on the score after three rounds",
        Termination.RESIGNATION: f"— {loser} resigned",
        Termination.TIMEOUT: f"— {loser} ran out of time",
        Termination.DRAW: "",
    }[outcome.termination]
    return f"🏆 **{winner}** wins {why}."


def board_text(table: PublicView, names: tuple[str, str]) -> str:
    """The whole board as one embed description (well under Discord's 4096 characters)."""
    variant = " of 3" if str(table.variant) == "three-rounds" else ""
    head = f"Round {table.round_number}{variant} · pile {table.pile_size} cards"
    return "\n".join(
        [
            head,
            geisha_table(table, names),
            player_line(table, names, 0),
            player_line(table, names, 1),
            "",
            status_line(table, names),
        ]
    )


def round_summary(result: RoundResult, names: tuple[str, str]) -> str:
    """Round end: both Secrets revealed, each geisha's counts, which markers moved, the score."""
    lines = [
        f"**Round {result.round_number} is scored.** Secrets revealed: "
        f"{names[0]} {card_letter(result.secrets[0])}, {names[1]} {card_letter(result.secrets[1])}."
    ]
    for g in range(7):
        a, b = result.items[0][g], result.items[1][g]
        moved = g in result.moved
        holder = result.favor[g]
        verdict = "neutral" if holder is None else f"{'→ ' if moved else ''}{names[holder]}"
        lines.append(f"{card_letter(g)} {ITEM_NAMES[g]} ({CHARM[g]}): {a}–{b} · {verdict}")
    lines.append(
        f"Score: {names[0]} {result.geishas[0]} geishas, {result.charm[0]} charm · "
        f"{names[1]} {result.geishas[1]} geishas, {result.charm[1]} charm"
    )
    return "\n".join(lines)
