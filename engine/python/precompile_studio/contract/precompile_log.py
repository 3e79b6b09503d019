"""torch._precompile's logged warnings, taken instead of printed.

torch only logs what load() degrades to (a cache that falls back to JIT, python_code about to
be executed); ``captured`` hands each WARNING record to a callback while it is active, with the
logger's propagation off, so verification and the script's own calls can turn them into report
warnings (violations.classify_warning).
"""
from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator

LOGGER = "torch._precompile"


class _Handler(logging.Handler):
    def __init__(self, take: Callable[[logging.LogRecord], None]):
        super().__init__(logging.WARNING)
        self._take = take

    def emit(self, record: logging.LogRecord) -> None:
        self._take(record)


@contextlib.contextmanager
def captured(take: Callable[[logging.LogRecord], None]) -> Iterator[None]:
    """Calls ``take(record)`` for each warning logged while the block runs (at the log call)."""
    log = logging.getLogger(LOGGER)
    handler = _Handler(take)
    propagate = log.propagate
    log.addHandler(handler)
    log.propagate = False
    try:
        yield
    finally:
        log.removeHandler(handler)
        log.propagate = propagate


def message_of(record: logging.LogRecord) -> str:
    try:
        return record.getMessage()
    except Exception:  # noqa: BLE001 - torch's record, malformed: it still says something
        return str(record.msg)
