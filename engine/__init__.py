"""Hanamikoji: the pure rules (engine.rules), the async match service and its storage, the
AI agents and the ratings."""
