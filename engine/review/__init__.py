"""The review of a finished match: each decision judged by search from its mover's view.

- :mod:`engine.review.steps` replays a record one decision at a time.
- :mod:`engine.review.judgement` holds what a review says (per step, per match) and its JSON.
"""
