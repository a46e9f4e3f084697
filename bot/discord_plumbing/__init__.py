"""Shared Discord plumbing: messages as pages, retries, channel permissions, DMs, the
command translator and the worker processes (the request pacer is `bot.request_pacing`)."""
