"""The match record (JSON): every deal and every move, for replays, exports and tests.

```json
{"format": 1, "variant": "standard", "first_player": 0,
 "rounds": [{"removed": "G", "hands": ["BBCDGG", "CEEFFF"], "pile": "GDFEGAAD",
             "moves": ["4BCBD-BC", "4CDFF-FF", "1F", "2EF", "2GG", "3AEE-E", "3AGG-A", "1D"]}]}
```

``pile`` is in draw order (the round's starting player draws first); ``moves`` are in turn
order. A match that ended by resignation or timeout also has
``"ended": {"player": 1, "reason": "resignation"}`` naming who conceded, an extension of
docs/rules.md's format that replays ignore when they only need the cards.

Reading is strict, since a record may come from anywhere: numbers must be the JSON integers
the format names (a boolean or ``1.0`` is not ``1``), strings must be strings, and an
unknown or repeated key is refused, so a mangled key never passes as if it were absent.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NoReturn, TypeGuard

from engine.rules.cards import cards_text
from engine.rules.deal import Deal
from engine.rules.decisions import Competition, Decision, Gift
from engine.rules.errors import HanamikojiError, IllegalDecision, RecordError
from engine.rules.notation import HiddenAction, Move, parse_move
from engine.rules.outcome import Termination
from engine.rules.state import TURNS_PER_ROUND, GameState, Variant

RECORD_FORMAT = 1

_RECORD_KEYS = frozenset({"format", "variant", "first_player", "rounds", "ended"})
_ROUND_KEYS = frozenset({"removed", "hands", "pile", "moves"})
_ENDED_KEYS = frozenset({"player", "reason"})

QUOTE_CHARS = 80
"""How much of a bad value an error message quotes: enough to recognise it, never a flood."""

_INT_DIGITS = 20
"""Longer integer texts stay text: Python refuses to convert more than 4,300 digits, and no
field of a record holds more than one digit anyway."""


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
        """Read a record; any fault raises :class:`RecordError` with a bounded message."""
        try:
            data = json.loads(
                text,
                parse_int=_json_int,
                parse_float=_JsonNumber,
                parse_constant=_refuse_constant,
                object_pairs_hook=_json_object,
            )
        except (json.JSONDecodeError, RecursionError) as error:
            raise RecordError(f"not JSON: {error}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: object) -> MatchRecord:
        if not isinstance(data, dict):
            raise RecordError(f"a record is a JSON object, got {short_repr(data)}")
        # The format first: a later format may have keys this reader does not know.
        if "format" not in data:
            raise RecordError("the record has no format, expected 1")
        if not _is_int(data["format"], RECORD_FORMAT):
            raise RecordError(f"unknown record format {short_repr(data['format'])}, expected 1")
        _refuse_unknown_keys("the record", data, _RECORD_KEYS)
        variant_text = data.get("variant", str(Variant.STANDARD))
        if not isinstance(variant_text, str) or variant_text not in tuple(Variant):
            raise RecordError(
                f"unknown variant {short_repr(variant_text)} (standard or three-rounds)"
            )
        variant = Variant(variant_text)
        first_player = data.get("first_player", _ABSENT)
        if not _is_int(first_player, 0, 1):
            raise RecordError(f"first_player must be 0 or 1, got {short_repr(first_player)}")
        rounds_data = data.get("rounds", _ABSENT)
        if not isinstance(rounds_data, list):
            raise RecordError(f"rounds must be a list, got {short_repr(rounds_data)}")
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


class _Absent:
    """What a missing key's value is quoted as in an error."""

    def __repr__(self) -> str:
        return "nothing"


_ABSENT = _Absent()


@dataclass(frozen=True, slots=True)
class _JsonNumber:
    """A JSON number kept as written: a fraction, or an integer too long to convert.

    No field of a record is one, so it only has to be refused, and quoted as the input
    wrote it (``1e-400``, not ``0.0``).
    """

    text: str

    def __repr__(self) -> str:
        return self.text


def _json_int(text: str) -> int | _JsonNumber:
    return int(text) if len(text) <= _INT_DIGITS else _JsonNumber(text)


def _refuse_constant(name: str) -> NoReturn:
    raise RecordError(f"not JSON: {name} is not a JSON value")


def _json_object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    data = dict(pairs)
    if len(data) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                # Python keeps the last of two equal keys; which one was meant is unknowable.
                raise RecordError(f"the key {short_repr(key)} appears twice in one object")
            seen.add(key)
    return data


def _is_int(value: object, *allowed: int) -> TypeGuard[int]:
    """Whether ``value`` is a JSON integer among ``allowed``: ``True`` and ``1.0`` are not."""
    return type(value) is int and value in allowed


def _refuse_unknown_keys(where: str, data: dict[str, object], known: frozenset[str]) -> None:
    unknown = [key for key in data if key not in known]
    if unknown:
        raise RecordError(
            f"{where} has an unknown key {short_repr(unknown[0])} "
            f"(known: {', '.join(sorted(known))})"
        )


def short_repr(value: object) -> str:
    """Bad input quoted and cut to :data:`QUOTE_CHARS` characters.

    A string is quoted as the rest of the engine quotes text (``'1Z'``); any other value
    as the JSON it was read from (``true``, ``null``, ``[1e-400]``), not as Python shows it.
    """
    if isinstance(value, str):
        text = repr(value[:QUOTE_CHARS])  # a huge string is not copied only to be cut
    else:
        parts: list[str] = []
        size = 0
        # Written piece by piece, so a huge value costs no more than its first pieces.
        for token in _json_tokens(value):
            parts.append(token)
            size += len(token)
            if size > QUOTE_CHARS:
                break
        text = "".join(parts)
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 3] + "..."


def _json_tokens(value: object) -> Iterator[str]:
    """``value`` as JSON text, in pieces of at most about :data:`QUOTE_CHARS` characters."""
    if isinstance(value, dict):
        yield "{"
        for index, (key, item) in enumerate(value.items()):
            yield ", " if index else ""
            yield from _json_tokens(key)
            yield ": "
            yield from _json_tokens(item)
        yield "}"
    elif isinstance(value, list | tuple):
        yield "["
        for index, item in enumerate(value):
            yield ", " if index else ""
            yield from _json_tokens(item)
        yield "]"
    elif isinstance(value, str):
        yield json.dumps(value[:QUOTE_CHARS], ensure_ascii=False)
    elif isinstance(value, _JsonNumber):
        yield value.text[: QUOTE_CHARS + 1]  # one more, so that the cut shows
    elif value is None or isinstance(value, bool | int | float):
        try:
            yield json.dumps(value)
        except ValueError:  # a caller's integer of more than 4,300 digits
            yield "(a huge integer)"
    else:  # not from JSON: a caller's object
        yield repr(value)[: QUOTE_CHARS + 1]


def _round(number: int, data: object) -> RoundRecord:
    where = f"round {number}"
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a round is a JSON object, got {short_repr(data)}")
    _refuse_unknown_keys(where, data, _ROUND_KEYS)
    removed, hands, pile, moves = (data.get(k) for k in ("removed", "hands", "pile", "moves"))
    if not isinstance(removed, str) or not isinstance(pile, str):
        raise RecordError(f"{where}: removed and pile must be strings of letters")
    if len(removed) != 1:
        # Checked here, as the deal would quote the whole string.
        raise RecordError(f"{where}: removed must be one card, got {short_repr(removed)}")
    if not (isinstance(hands, list) and len(hands) == 2 and all(isinstance(h, str) for h in hands)):
        raise RecordError(f"{where}: hands must be two strings of letters, got {short_repr(hands)}")
    if not (isinstance(moves, list) and all(isinstance(m, str) for m in moves)):
        raise RecordError(f"{where}: moves must be a list of strings, got {short_repr(moves)}")
    try:
        deal = Deal.from_text(removed, (hands[0], hands[1]), pile)
    except HanamikojiError as error:
        raise RecordError(f"{where}: {error}") from None
    return RoundRecord(deal, tuple(moves))


def _concession(data: object) -> Concession | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise RecordError(f"ended must name the player who conceded, got {short_repr(data)}")
    _refuse_unknown_keys("ended", data, _ENDED_KEYS)
    player = data.get("player", _ABSENT)
    if not _is_int(player, 0, 1):
        raise RecordError(f"ended.player must be 0 or 1, got {short_repr(player)}")
    reason = data.get("reason", _ABSENT)
    concessions = (Termination.RESIGNATION, Termination.TIMEOUT)
    if not isinstance(reason, str) or reason not in concessions:
        raise RecordError(f"ended.reason must be resignation or timeout, got {short_repr(reason)}")
    return Concession(player, Termination(reason))


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
            if len(text) > QUOTE_CHARS:
                # The longest move has 8 characters; refused here, as parsing quotes it whole.
                raise RecordError(
                    f"round {number}, move {index} ({short_repr(text)}): "
                    f"not a move ({len(text):,} characters)"
                )
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
