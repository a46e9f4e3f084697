"""Reading the opponent: how likely each card is as their hidden Secret or Trade-off card,
given what they did in public this round.

A uniform determinization treats every unseen card as equally likely to be the opponent's
Secret. Their play says more: a player keeps as a Secret a card worth much to them (a
geisha still contested, of high charm), throws away in a Trade-off cards worth little, and
after placing their Secret takes from Gifts and Competitions what helps them most
*counting that Secret*. Each is modelled with the play-out policy's own card worth and
choice score (:mod:`engine.ai.playout`), softened so no card is ruled out:

- Secret card c: ``exp(SECRET_SHARPNESS * worth(c))``, worth on the public table when the
  Secret was placed, times, for each later choice of theirs, the softmax probability
  (``CHOICE_SHARPNESS``) of the part they took if their Secret were c;
- each Trade-off card c: ``exp(-TRADE_OFF_SHARPNESS * worth(c))`` on the table then.

Only public moves of this round and the player's own cards are read, so the weights are a
function of the view alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.ai.playout import choice_score, geisha_worth, offer_parts
from engine.rules.decisions import Action, Competition, CompetitionChoice, Gift, GiftChoice
from engine.rules.gift_and_competition import move_split
from engine.rules.hand import counts
from engine.rules.notation import HiddenAction
from engine.rules.views import PlayerView

SECRET_SHARPNESS = 0.6
"""Per unit of card worth (a geisha's charm while she is contested)."""
TRADE_OFF_SHARPNESS = 0.6
CHOICE_SHARPNESS = 1.0
"""Per unit of the choice score (charm times the change in a lead's worth)."""


@dataclass(frozen=True, slots=True)
class HiddenCardWeights:
    """Relative likelihood, per geisha, of a card being the opponent's Secret or one of
    their Trade-off cards (all 1.0 when nothing is known)."""

    secret: tuple[float, ...]
    trade_off: tuple[float, ...]


UNIFORM = HiddenCardWeights((1.0,) * 7, (1.0,) * 7)


def hidden_card_weights(view: PlayerView) -> HiddenCardWeights:
    """What the opponent's public moves this round say about their Secret and Trade-off."""
    table = view.table
    them = view.opponent
    placed = [[0] * 7, [0] * 7]
    secret = [1.0] * 7
    trade_off = [1.0] * 7
    secret_placed = False
    for index, move in enumerate(view.own_moves):
        mover = table.mover(index)
        action = move.action
        if mover == them and isinstance(action, HiddenAction):
            worth = [geisha_worth(placed[them], placed[1 - them], None, g) for g in range(7)]
            if action.action is Action.SECRET:
                secret = [w * math.exp(SECRET_SHARPNESS * worth[g]) for g, w in enumerate(secret)]
                secret_placed = True
            else:
                trade_off = [math.exp(-TRADE_OFF_SHARPNESS * worth[g]) for g in range(7)]
        chooser = 1 - mover
        if secret_placed and chooser == them and move.choice is not None:
            assert isinstance(action, Gift | Competition)
            likely = _choice_likelihood(action, move.choice, placed[them], placed[mover])
            secret = [w * likely[g] for g, w in enumerate(secret)]
        split = move_split(move)
        if split is not None:
            to_chooser, to_offerer = split
            _add(placed[chooser], to_chooser)
            _add(placed[mover], to_offerer)
    return HiddenCardWeights(_scaled(secret), _scaled(trade_off))


def _choice_likelihood(
    offer: Gift | Competition,
    choice: GiftChoice | CompetitionChoice,
    mine: list[int],
    theirs: list[int],
) -> list[float]:
    """Per geisha g: how likely the chooser was to take what they took, had their Secret
    been g (they cannot see the offerer's Secret, so it counts for nothing)."""
    parts = offer_parts(offer)
    taken = (choice.card,) if isinstance(choice, GiftChoice) else choice.pair
    chosen = next(i for i, (part, _) in enumerate(parts) if tuple(part) == taken)
    likely = []
    for g in range(7):
        scores = [choice_score(part, mine, theirs, g, None) for part in parts]
        top = max(scores)
        exps = [math.exp(CHOICE_SHARPNESS * (s - top)) for s in scores]
        likely.append(exps[chosen] / sum(exps))
    return likely


def _add(side: list[int], packed: int) -> None:
    for g, n in enumerate(counts(packed)):
        side[g] += n


def _scaled(weights: list[float]) -> tuple[float, ...]:
    """The weights over their largest, so the largest is 1 (and none underflows to 0)."""
    top = max(weights)
    return tuple(max(w / top, 1e-9) for w in weights)
