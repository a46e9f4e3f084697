"""The operator's HTTP port, served by aiohttp (discord.py's own dependency) inside the bot's
event loop: ``/metrics`` (Prometheus' text format), ``/healthz`` (the event loop answers)
and ``/readyz`` (:mod:`bot.operations.readiness`).

prometheus_client's own server (``start_http_server``) runs in a thread of its own, which
would answer /healthz even while the event loop is wedged, the very failure the check is
for; served in the loop, an answer proves the loop turns.
"""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.operations.metrics import BotMetrics
from bot.operations.readiness import Readiness

log = logging.getLogger(__name__)


class MetricsPortRefused(OSError):
    """The metrics port could not be opened (taken, or an address not of this host)."""


LOOP_ANSWER_SECONDS = 1.0
"""How long the event loop may take to run a callback queued now before /healthz fails."""


class OperationsServer:
    """``/metrics``, ``/healthz`` and ``/readyz`` on ``address``:``port`` (0: any free
    port; :attr:`port` tells which once started)."""

    def __init__(self, metrics: BotMetrics, readiness: Readiness, address: str, port: int) -> None:
        self._metrics = metrics
        self._readiness = readiness
        self._address = address
        self._port = port
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._serve_metrics)
        app.router.add_get("/healthz", self._serve_health)
        app.router.add_get("/readyz", self._serve_readiness)
        # No access log: a scrape every few seconds would drown the bot's own lines.
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self._address, self._port)
        try:
            await site.start()
        except OSError as error:
            await runner.cleanup()
            raise MetricsPortRefused(
                f"cannot open the metrics port {self._address}:{self._port} ([metrics] "
                f"address and port): {error.strerror or error}"
            ) from error
        self._runner = runner
        self.port = _bound_port(runner)
        log.info("metrics and health checks on http://%s:%s/", self._address, self.port)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _serve_metrics(self, request: web.Request) -> web.Response:
        return web.Response(
            body=self._metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )

    async def _serve_health(self, request: web.Request) -> web.Response:
        loop = asyncio.get_running_loop()
        turned: asyncio.Future[float] = loop.create_future()
        queued = loop.time()

        def turn() -> None:
            if not turned.done():
                turned.set_result(loop.time() - queued)

        loop.call_soon(turn)
        try:
            delay = await asyncio.wait_for(turned, LOOP_ANSWER_SECONDS)
        except TimeoutError:
            body = {"healthy": False, "detail": f"event loop slower than {LOOP_ANSWER_SECONDS} s"}
            return web.json_response(body, status=503)
        return web.json_response({"healthy": True, "loop_delay_seconds": round(delay, 6)})

    async def _serve_readiness(self, request: web.Request) -> web.Response:
        report = await self._readiness.report()
        return web.json_response(report.as_json(), status=200 if report.ready else 503)


def _bound_port(runner: web.AppRunner) -> int | None:
    for address in runner.addresses:
        if isinstance(address, tuple) and len(address) >= 2:
            return int(address[1])
    return None
