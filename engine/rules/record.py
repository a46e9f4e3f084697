"""The match record (JSON): every deal and every move, for replays, exports and tests.

```json
{"format": 1, "variant": "standard", "first_player": 0,
 "rounds": [{"removed": "G", "hands": ["BBCDGG", "CEEFFF"], "pile": "GDFEGAAD",
             "moves": ["4BCBD-BC", "4CDFF-FF", "1F", "2EF", "2GG", "3AEE-E", "3AGG-A", "1D"]}]}
```

``pile`` is in draw order (the round's starting player draws first); ``moves`` are in turn
order. A match that ended by resignation or timeout also has
``"ended": {"player": 1, "reason": "resignation"}`` naming who conceded, an extension of
rules.md's format that replays ignore when they only need the cards.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.rules.cards import cards_text
from engine.rules.deal import Deal
from engine.rules.decisions import Competition, Decision, Gift
from engine.rules.errors import HanamikojiError, IllegalDecision, RecordError
from engine.rules.notation import HiddenAction, Move, parse_move
from engine.rules.outcome import Termination
from engine.rules.state import TURNS_PER_ROUND, GameState, Variant

RECORD_FORMAT = 1


@dataclass(frozen=True, slots=True)
class RoundRecord:
    deal: Deal
    moves: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Concession:
    """Who conceded a match that did not end on the cards, and how."""

    player: int
    termination: Termination


@dataclass(frozen=True, slots=True)
class MatchRecord:
    variant: Variant
    first_player: int
    rounds: tuple[RoundRecord, ...]
    ended: Concession | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "variant": str(self.variant),
            "first_player": self.first_player,
            "rounds": [
                {
                    "removed": cards_text((r.deal.removed,)),
                    "hands": [cards_text(r.deal.hands[0]), cards_text(r.deal.hands[1])],
                    "pile": cards_text(r.deal.pile),
                    "moves": list(r.moves),
                }
                for r in self.rounds
            ],
        }
        if self.ended is not None:
            data["ended"] = {"player": self.ended.player, "reason": str(self.ended.termination)}
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> MatchRecord:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as error:
            raise RecordError(f"not JSON: {error}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: object) -> MatchRecord:
        if not isinstance(data, dict):
            raise RecordError(f"a record is a JSON object, got {_short(data)}")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f"unknown record format {_short(data.get('format'))}, expected 1")
        try:
            variant = Variant(data.get("variant", "standard"))
        except ValueError:
            raise RecordError(
                f"unknown variant {_short(data.get('variant'))} (standard or three-rounds)"
            ) from None
        first_player = data.get("first_player")
        if first_player not in (0, 1) or isinstance(first_player, bool):
            raise RecordError(f"first_player must be 0 or 1, got {_short(first_player)}")
        rounds_data = data.get("rounds")
        if not isinstance(rounds_data, list):
            raise RecordError(f"rounds must be a list, got {_short(rounds_data)}")
        rounds = tuple(_round(i + 1, r) for i, r in enumerate(rounds_data))
        return cls(variant, first_player, rounds, _concession(data.get("ended")))

    @classmethod
    def of(cls, state: GameState) -> MatchRecord:
        """The record of a game so far (complete moves only)."""
        rounds = []
        for index, decisions in enumerate(state.log):
            rounds.append(RoundRecord(state.deals[index], tuple(_move_texts(decisions))))
        ended = None
        outcome = state.outcome
        if outcome is not None and outcome.termination in (
            Termination.RESIGNATION,
            Termination.TIMEOUT,
        ):
            assert outcome.winner is not None
            ended = Concession(1 - outcome.winner, outcome.termination)
        return cls(state.variant, state.first_player, tuple(rounds), ended)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _round(number: int, data: object) -> RoundRecord:
    where = f"round {number}"
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a round is a JSON object, got {_short(data)}")
    removed, hands, pile, moves = (data.get(k) for k in ("removed", "hands", "pile", "moves"))
    if not isinstance(removed, str) or not isinstance(pile, str):
        raise RecordError(f"{where}: removed and pile must be strings of letters")
    if not (isinstance(hands, list) and len(hands) == 2 and all(isinstance(h, str) for h in hands)):
        raise RecordError(f"{where}: hands must be two strings of letters, got {_short(hands)}")
    if not (isinstance(moves, list) and all(isinstance(m, str) for m in moves)):
        raise RecordError(f"{where}: moves must be a list of strings, got {_short(moves)}")
    try:
        deal = Deal.from_text(removed, (hands[0], hands[1]), pile)
    except HanamikojiError as error:
        raise RecordError(f"{where}: {error}") from None
    return RoundRecord(deal, tuple(moves))


def _concession(data: object) -> Concession | None:
    if data is None:
        return None
    if not isinstance(data, dict) or data.get("player") not in (0, 1):
        raise RecordError(f"ended must name the player who conceded, got {_short(data)}")
    reason = data.get("reason")
    try:
        termination = Termination(reason) if isinstance(reason, str) else None
    except ValueError:
        termination = None
    if termination not in (Termination.RESIGNATION, Termination.TIMEOUT):
        raise RecordError(f"ended.reason must be resignation or timeout, got {_short(data)}")
    return Concession(int(data["player"]), termination)


def _move_texts(decisions: list[Decision]) -> list[str]:
    """Pair each Gift and Competition with its choice; a pending offer stays alone."""
    texts: list[str] = []
    i = 0
    while i < len(decisions):
        action = decisions[i]
        if isinstance(action, Gift | Competition) and i + 1 < len(decisions):
            texts.append(f"{action}{decisions[i + 1]}")
            i += 2
        else:
            texts.append(str(action))
            i += 1
    return texts


def replay(record: MatchRecord) -> GameState:
    """Rebuild the game a record describes, or raise :class:`RecordError` naming the move."""
    state = GameState(
        first_player=record.first_player,
        variant=record.variant,
        deals=[r.deal for r in record.rounds],
    )
    last_round = len(record.rounds)
    for number, round_record in enumerate(record.rounds, start=1):
        if state.is_over:
            raise RecordError(
                f"round {number}: the match was already over after round {number - 1}"
            )
        moves = round_record.moves
        if len(moves) > TURNS_PER_ROUND:
            text = moves[TURNS_PER_ROUND]
            raise RecordError(
                f"round {number}, move {TURNS_PER_ROUND + 1} ({text}): "
                f"a round has only {TURNS_PER_ROUND} turns"
            )
        for index, text in enumerate(moves, start=1):
            final = number == last_round and index == len(moves)
            try:
                move = parse_move(text, allow_pending=final)
                _apply_move(state, move)
            except HanamikojiError as error:
                reason = error.reason if isinstance(error, IllegalDecision) else str(error)
                raise RecordError(f"round {number}, move {index} ({text}): {reason}") from None
        if number < last_round and len(moves) < TURNS_PER_ROUND:
            raise RecordError(
                f"round {number}: only {len(moves)} of {TURNS_PER_ROUND} moves, "
                f"but round {number + 1} follows"
            )
    if record.ended is not None:
        if state.is_over:
            raise RecordError("ended: the match was already over on the cards")
        if record.ended.termination is Termination.RESIGNATION:
            state.resign(record.ended.player)
        else:
            state.forfeit(record.ended.player)
    return state


def _apply_move(state: GameState, move: Move) -> None:
    if isinstance(move.action, HiddenAction):
        raise RecordError(f"{move}: a record shows every card")
    player = state.current_player
    state.apply(move.action)
    if move.choice is not None:
        assert player is not None
        state.apply(move.choice, 1 - player)
