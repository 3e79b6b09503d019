"""The worker's outcome words, typed: every status and verdict the report writes is a member of
one of these enums, never a bare string. They are ``StrEnum``s, so the report's JSON carries the
word itself (json writes a str subclass as the string) and this module is the one place a word is
spelled; ``tests/python/test_outcomes.py`` holds each enum to the schema's list
(docs/report.schema.json) and, through it, to the C++ model's enums that read them back.
"""
from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """A capture's status, and a run's as the worker decides it (the front end adds the statuses
    of a run that never reported: timeout, worker_died, cancelled, ...)."""

    OK = "ok"
    MISMATCH = "mismatch"
    VIOLATION = "violation"
    ERROR = "error"

    @property
    def severity(self) -> int:
        """The run's status is its worst capture's: error > violation > mismatch > ok."""
        return _SEVERITY[self]

    @classmethod
    def of(cls, word) -> Status:
        """The status a word names; ERROR for anything else (an unknown word is never ok)."""
        try:
            return cls(word)
        except ValueError:
            return cls.ERROR


_SEVERITY = {Status.OK: 0, Status.MISMATCH: 1, Status.VIOLATION: 2, Status.ERROR: 3}


class VerifyStatus(StrEnum):
    """captures[i].verify.status."""

    OK = "ok"
    MISMATCH = "mismatch"
    VIOLATION = "violation"
    ERROR = "error"
    SKIPPED = "skipped"
    DRIFT = "drift"


class RuntimeStatus(StrEnum):
    """captures[i].verify.runtime.status: the call on runtime_inputs."""

    OK = "ok"
    VIOLATION = "violation"
    ERROR = "error"


class Judgement(StrEnum):
    """The float64 judge's verdict on a capture's verification (accuracy.verdict); a single
    value's verdict writes DRIFT as "drift" (``value_word``)."""

    MATCHES = "matches"
    DRIFT = "numerics drift"
    WRONG = "wrong"

    @property
    def value_word(self) -> str:
        """The word of one judged value (accuracy.tensors[].verdict): "drift" for DRIFT."""
        return "drift" if self is Judgement.DRIFT else self.value


class TrialStatus(StrEnum):
    """A perturbed or resized trial's status (ACCEPTED: resized trials only)."""

    OK = "ok"
    DRIFT = "drift"
    DIVERGED = "diverged"
    ACCEPTED = "accepted"
    SKIPPED = "skipped"


class CheckOutcome(StrEnum):
    """check.outcome: a stored pair loaded in another environment (deploy/check.py)."""

    LOADS = "loads"
    FALLBACK = "fallback"
    REFUSED = "refused"
    ERROR = "error"
