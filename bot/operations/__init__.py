"""Running the bot as a service: Prometheus metrics, health checks (``/healthz``,
``/readyz``), JSON log lines and the owner's ``/hanamikoji status``; see
docs/operating.md. Everything here is off unless ``[metrics] port`` is set, but for the
log format (``[logging] format``)."""
