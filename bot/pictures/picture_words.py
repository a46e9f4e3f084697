"""The pictures' own words (and their alt text's), in the bot's two languages.

Kept beside the drawing code rather than in the bot's catalogue because they exist for the
pictures alone; English is the fallback, as in the catalogue.
"""

from __future__ import annotations

from datetime import UTC, datetime

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "hand": "hand",
        "charm_word": "charm",
        "charm_legend": "in the disc: the geisha's charm",
        "deadline": "turn ends {when}",
        "round_scored": "Round {round} scored",
        "secrets_revealed": "Secrets revealed:",
        "last_move": "Last move · {name}",
        "took": "{action} · {name} took {cards}",
        "face_down_1": "Secret · 1 card face down",
        "face_down_2": "Trade-off · 2 cards face down",
        "offer_by": "{name}'s {action}",
        "waiting_for": "waiting for {name}",
        "or": "or",
        "no_move": "No move yet this round",
        "next_round": "{name} starts round {round}",
        # alt text
        "alt_board": "Hanamikoji board, round {round}{limit}.",
        "alt_player": "{name}: {geishas} geishas, {charm} charm, {hand} {cards} in hand{used}.",
        "card": "card",
        "cards": "cards",
        "alt_used": ", used {actions}",
        "alt_turn": "{status}.",
        "alt_deadline": "The turn ends {when}.",
        "alt_pending": "Waiting for {name} to take from {offerer}'s {action}: {cards}.",
        "alt_last": "Last move: {name}, {move}.",
        "alt_hidden_1": "Secret (1 card face down)",
        "alt_hidden_2": "Trade-off (2 cards face down)",
        "alt_took": "{action} {cards}, {name} took {taken}",
        "alt_scored": "Round {round} scored; Secrets revealed: {first} {a}, {second} {b}.",
        "alt_geishas": "Geishas (cards {first}–{second}, favor):",
        "alt_geisha": "{letter} {charm} charm {a}–{b} {holder}",
        "alt_neutral": "neutral",
        "alt_hand": "Your hand, {count} cards: {cards}.",
        "alt_new": " Just drawn: {card}.",
        "alt_face_down": " Face down: Secret {secret}, Trade-off {trade_off}.",
        "alt_none": "none yet",
    },
    "es": {
        "hand": "mano",
        "charm_word": "carisma",
        "charm_legend": "en el círculo: carisma de la geisha",
        "deadline": "el turno acaba {when}",
        "round_scored": "Ronda {round} puntuada",
        "secrets_revealed": "Secretos revelados:",
        "last_move": "Última jugada · {name}",
        "took": "{action} · {name} eligió {cards}",
        "face_down_1": "Secreto · 1 carta boca abajo",
        "face_down_2": "Renuncia · 2 cartas boca abajo",
        "offer_by": "{action} de {name}",
        "waiting_for": "esperando a {name}",
        "or": "o",
        "no_move": "Aún no hay jugadas en esta ronda",
        "next_round": "{name} empieza la ronda {round}",
        "alt_board": "Tablero de Hanamikoji, ronda {round}{limit}.",
        "alt_player": (
            "{name}: {geishas} geishas, {charm} de carisma, {hand} {cards} en la mano{used}."
        ),
        "alt_used": ", ha usado {actions}",
        "card": "carta",
        "cards": "cartas",
        "alt_turn": "{status}.",
        "alt_deadline": "El turno acaba {when}.",
        "alt_pending": "Esperando a que {name} elija del {action} de {offerer}: {cards}.",
        "alt_last": "Última jugada: {name}, {move}.",
        "alt_hidden_1": "Secreto (1 carta boca abajo)",
        "alt_hidden_2": "Renuncia (2 cartas boca abajo)",
        "alt_took": "{action} {cards}, {name} eligió {taken}",
        "alt_scored": "Ronda {round} puntuada; Secretos revelados: {first} {a}, {second} {b}.",
        "alt_geishas": "Geishas (cartas {first}–{second}, favor):",
        "alt_geisha": "{letter} {charm} de carisma {a}–{b} {holder}",
        "alt_neutral": "neutral",
        "alt_hand": "Tu mano, {count} cartas: {cards}.",
        "alt_new": " Recién robada: {card}.",
        "alt_face_down": " Boca abajo: Secreto {secret}, Renuncia {trade_off}.",
        "alt_none": "aún no",
    },
}

_MONTHS = {
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
    "es": ("ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"),
}


def say(lang: str, key: str, **values: object) -> str:
    """The picture text ``key`` in ``lang`` (English where the language lacks it)."""
    template = _WORDS.get(lang, _WORDS["en"]).get(key) or _WORDS["en"][key]
    return template.format(**values)


Deadline = datetime | float | str
"""When the turn ends: an aware datetime, Unix seconds (the match service's clock), or the
caller's own text, already in the reader's language."""


def when_text(lang: str, deadline: datetime | float) -> str:
    """An absolute time a picture can show (it cannot count down): ``23 Nov 14:05 UTC``."""
    if not isinstance(deadline, datetime):
        deadline = datetime.fromtimestamp(deadline, UTC)
    moment = deadline.astimezone(UTC) if deadline.tzinfo else deadline.replace(tzinfo=UTC)
    month = _MONTHS.get(lang, _MONTHS["en"])[moment.month - 1]
    return f"{moment.day} {month} {moment:%H:%M} UTC"


def deadline_text(lang: str, deadline: Deadline) -> str:
    """``turn ends 23 Nov 14:05 UTC``; a string is the caller's own, already-localised text."""
    if isinstance(deadline, str):
        return deadline
    return say(lang, "deadline", when=when_text(lang, deadline))
