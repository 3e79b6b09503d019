"""Entry points the C++ worker calls: warm_up() once, then run() per request.

``run`` takes the request as JSON text and returns the schema-1 report (docs/report.schema.json) as JSON
text; progress goes out through ``emit(json_text)`` while it works. User errors never escape
as exceptions: they become the report's status, message and violation. An exception that does
escape is a bug in this package, and the C++ side reports it with its traceback.
"""
from __future__ import annotations

import json
import logging
import os
import socket
import sys
import time
from collections.abc import Callable

from precompile_studio.capture import compile_profile
from precompile_studio.capture.runner import PrecompileRecorder, run_capture, verify_record, write_artifact
from precompile_studio.common import internal_errors
from precompile_studio.common.devices import cuda_devices
from precompile_studio.common.errors import ContractError, describe, one_line
from precompile_studio.common.outcomes import Status, VerifyStatus
from precompile_studio.contract.script_warnings import ScriptWarnings
from precompile_studio.script.loader import execute, read_source
from precompile_studio.script.names import read_contract
from precompile_studio.script.provenance import run_provenance
from precompile_studio.verify.outcome import capture_message, drift_message, run_status


class _NoCudaRuntimeNote(logging.Filter):
    """torch's cpp_extension warns "No CUDA runtime is found, using CUDA_HOME=..." on every
    machine without a GPU when inductor first imports it: noise in every run's log, since the
    run says which devices it ran on. Only that line is dropped; the logger's others stay."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            return not record.getMessage().startswith("No CUDA runtime is found")
        except Exception:  # noqa: BLE001 - a record that cannot be formatted is kept
            return True


logging.getLogger("torch.utils.cpp_extension").addFilter(_NoCudaRuntimeNote())


def warm_up(devices: bool = True) -> str:
    """Import torch (what makes a warm worker warm) and report the versions, the host and its CUDA
    devices (``cuda``: the CUDA version torch was built with, None for a CPU build; ``devices``:
    common.devices.cuda_devices, [] without a GPU). ``devices=False`` (a worker pool, pool.py)
    leaves CUDA alone: once asked about, it is unusable in every fork (torch's "bad fork")."""
    import torch

    from precompile_studio.api.choose import current

    front_end = current()  # the precompile API of this torch (api/); the part every run needs

    # What the first capture would import anyway (make_fx, sympy, fake tensors, AOTAutograd:
    # some 900 modules, seconds): a warm worker should not pay it on its first run.
    try:
        import torch._functorch.aot_autograd  # noqa: F401
        import torch._subclasses.fake_tensor  # noqa: F401
        import torch.fx.experimental.proxy_tensor  # noqa: F401
        import torch.fx.experimental.symbolic_shapes  # noqa: F401
    except Exception:  # noqa: BLE001 - the run imports them itself and reports what fails
        pass

    return json.dumps(
        {
            "python": sys.version.split()[0],
            "torch": torch.__version__,
            "precompile_api": front_end.api,
            "executable": sys.executable,
            "prefix": sys.prefix,
            "hostname": _hostname(),
            "cuda": getattr(torch.version, "cuda", None),
            "devices": cuda_devices() if devices else [],
        }
    )


def _hostname() -> str:
    try:
        return socket.gethostname()
    except Exception:  # noqa: BLE001 - a hello without a name beats no hello
        return ""


class _Run:
    def __init__(self, request: dict, emit: Callable[[str], None]):
        self.request = request
        self._emit = emit
        self.script = os.path.abspath(request["script"])
        self.out_dir = request.get("out_dir") or ""
        self.verify = bool(request.get("verify", True))
        self.check = bool(request.get("checker", True))  # the contract checker (checker.py)
        # every check without a budget, and the from-scratch reload (budget.py, --deep-verify)
        self.deep_verify = bool(request.get("deep_verify", False))
        # the verified artifact's calls profiled per kernel (verify/profile.py, run --profile)
        self.profile = bool(request.get("profile", False))
        # after verification, the start-up ledger in fresh processes (deploy/cold_start.py, run --cold-start)
        self.cold_start = bool(request.get("cold_start", False))
        # instead of a run: a stored pair loaded here as a server would (deploy/check.py, library check)
        self.pair_check = request.get("check")
        # after verification: the smallest script reproducing a capture's drift (repro/make.py, library repro)
        self.repro = request.get("repro") if isinstance(request.get("repro"), dict) else None
        self.source = None
        self.module = None
        self.script_warnings: list[dict] = []  # logged by torch._precompile in the script's own calls
        self._stage: tuple[str | None, dict] = (None, {})  # the stage under way, for its details
        self.report: dict = {
            "schema": 1,
            "script": self.script,
            "status": Status.OK,
            "message": "",
            "captures": [],
        }

    def emit(self, **event) -> None:
        self._emit(json.dumps(event))

    def stage(self, stage: str, **extra) -> None:
        self._stage = (stage, extra)
        self.emit(type="stage", stage=stage, **extra)

    def detail(self, words: str) -> None:
        """What the stage under way does now (compile_profile's listener): the same stage, with
        a detail the front end shows beside it."""
        stage, extra = self._stage
        if stage in ("capture", "lower"):
            self.emit(type="stage", stage=stage, **extra, detail=words)

    def fail(self, exc: BaseException) -> None:
        desc = describe(exc, self.script)
        self.report["status"] = Status.ERROR
        self.report["message"] = one_line(desc)
        self.report["error"] = desc

    def fail_script(self, exc: BaseException) -> None:
        """The script itself ended in an exception (not in a precompile call we recorded).

        When precompile raised it -- a script that loads a mismatched (python_code, cache)
        pair, or calls an artifact with the wrong model -- it is a contract outcome: the run's
        status is "violation" and "violation" (also "error", for readers of the old field)
        holds the classified outcome, with invariant, rule, fix and the script's line.
        """
        if isinstance(exc, Exception):
            from precompile_studio.api.choose import current

            # a call of the other torch version's API: one line with the rewrite, at its line
            exc = current().other_api_error(exc)
        self.fail(exc)
        if isinstance(exc, (ContractError, SyntaxError)) or not isinstance(exc, Exception):
            return
        try:
            from precompile_studio.contract.violations import Context, classify_exception

            contract, v = classify_exception(exc, Context(
                script_path=self.script, source=self.source,
                name_lines=getattr(self.source, "definitions", None)))
        except Exception as e:  # noqa: BLE001 - the plain error report stands
            internal_errors.record("worker: classifying the script's exception", e)
            return
        if contract:
            self.report["status"] = Status.VIOLATION
            self.report["message"] = one_line(v)
            self.report["violation"] = v
            self.report["error"] = v

    def execute(self) -> None:
        if isinstance(self.pair_check, dict):
            self.check_pair(self.pair_check)
            return
        self.stage("script")
        default_name = os.path.splitext(os.path.basename(self.script))[0]
        t0 = time.perf_counter()
        recorder = PrecompileRecorder(
            self.script, default_name,
            lambda n: self.stage("capture", capture=n),
            on_lower=lambda n: self.stage("lower", capture=n),
            snapshot=self.verify,
            check=self.check,
        )
        saved_argv = sys.argv
        sys.argv = [self.script]
        try:
            try:
                source = read_source(self.script)
                self.source = source
                recorder.source = source
                with recorder, ScriptWarnings(self.script) as self.script_warnings:
                    module = execute(source)
                self.module = module
            except BaseException as exc:  # the script ended in an exception: its outcome, reported
                recorded = [r for r in recorder.records if r.exception is exc]
                if not recorded:
                    self._finish_records(recorder.records, time.perf_counter() - t0, keep=True)
                    self.fail_script(exc)
                    self._explain_script_rejection(recorder.records)
                    return
                # The script let precompile's own exception end it: that capture's outcome
                # is the run's outcome, not a script error.
                module = None
        finally:
            sys.argv = saved_argv
        script_time = time.perf_counter() - t0

        if recorder.records:
            self._finish_records(recorder.records, script_time)
            return

        spec = read_contract(module, source, self.request.get("backend"), self.request.get("tracer"))
        self.stage("capture", capture=spec.name)
        t1 = time.perf_counter()
        args = spec.example_inputs()
        script_time += time.perf_counter() - t1
        rec = run_capture(
            lambda: recorder.call_original(
                spec.fn, *args, backend=spec.backend, tracer=spec.tracer,
                decompositions=spec.decompositions,
            ),
            spec.name, spec.backend, spec.tracer, self.script,
            fn=spec.fn, args=args, source=source, snapshot=self.verify,
            on_lower=lambda: self.stage("lower", capture=spec.name),
            check=self.check, share_parameters=True,  # nothing else touches args before verify
            decompositions=spec.decompositions,
        )
        self._finish_records([rec], script_time, runtime_inputs=spec.runtime_inputs, contract=True)

    def check_pair(self, request: dict) -> None:
        """library check: the stored pair at request's paths, loaded here in a fresh process."""
        from precompile_studio.common.outcomes import CheckOutcome
        from precompile_studio.deploy.check import check

        self.stage("check")
        section = check(self.script, request.get("backend") or "inductor", request.get("tracer") or "make_fx",
                        request["python_code"], request["cache"], request.get("stamps"),
                        uses_gpu=bool(request.get("uses_gpu")))
        if request.get("cold_start"):
            section["cold_start"] = self._pair_ledger(request, section["outcome"])
        self.report["check"] = section
        self.report["message"] = section["reason"]
        if section["outcome"] == CheckOutcome.ERROR:
            self.report["status"] = Status.ERROR

    def _pair_ledger(self, request: dict, outcome: str) -> dict:
        """library check --cold-start: the stored pair's start-up here, against torch.compile here."""
        from precompile_studio.common.outcomes import CheckOutcome
        from precompile_studio.deploy.cold_start import not_measured

        if outcome not in (CheckOutcome.LOADS, CheckOutcome.FALLBACK):
            return not_measured("not measured: the pair does not run here")
        try:
            with open(request["python_code"], encoding="utf-8") as f:
                code = f.read()
            with open(request["cache"], "rb") as f:
                cache = f.read()
        except OSError as e:
            return not_measured(f"not measured: the pair cannot be read: {e}")
        return self._ledger(request.get("backend") or "inductor", request.get("tracer") or "make_fx", code, cache)

    def _measure_cold_start(self, rec, contract: bool) -> None:
        """run --cold-start: the ledger of the contract's own capture (a fresh process needs fn
        and example_inputs by name, which a script's own precompile calls do not give)."""
        from precompile_studio.deploy.cold_start import not_measured

        if not contract:
            rec.cold_start = not_measured(
                "not measured: the script makes its own precompile calls; the ledger starts fn and "
                "example_inputs in fresh processes, so it needs the script contract's names")
            return
        rec.cold_start = self._ledger(rec.backend, rec.tracer, rec.python_code, rec.cache, capture=rec.name)

    def _ledger(self, backend: str, tracer: str, python_code: str, cache: bytes, capture: str | None = None) -> dict:
        """One pair's cold-start ledger (deploy/cold_start.py), each step a stage event; the studio's
        own failure is said in the ledger, never raised: the run or check stands without it."""
        from precompile_studio.deploy.cold_start import ledger, not_measured

        where = {"capture": capture} if capture else {}
        self.stage("cold_start", **where)
        try:
            return ledger(self.script, backend, tracer, python_code, cache,
                          on_step=lambda words: self.emit(type="stage", stage="cold_start", detail=words, **where))
        except Exception as e:  # noqa: BLE001 - the run stands without its ledger
            internal_errors.record("worker: the cold-start ledger", e)
            return not_measured(f"not measured: {type(e).__name__}: {e}")

    def _runtime_location(self) -> dict | None:
        line = self.source.line_of("runtime_inputs") if self.source is not None else None
        return {"file": self.script, "line": line} if line else None

    def _recorded_runtime_inputs(self, records):
        """A script that calls precompile itself once may still define runtime_inputs."""
        if len(records) != 1 or self.module is None or not hasattr(self.module, "runtime_inputs"):
            return None
        value = self.module.runtime_inputs
        if not callable(value):
            return None
        return lambda: tuple(value())

    def _finish_records(self, records, script_time: float, runtime_inputs=None, keep: bool = False,
                        contract: bool = False) -> None:
        """Verify and report each record; ``keep``: the caller releases them (after it is done);
        ``contract``: the one record is the studio's capture of the contract's fn."""
        if runtime_inputs is None and records:
            runtime_inputs = self._recorded_runtime_inputs(records)
        for i, rec in enumerate(records):
            rec.timings = {"script": script_time, **rec.timings}
            if rec.status == Status.OK and rec.python_code is not None:
                if self.verify:
                    self.stage("verify", capture=rec.name)
                    verify_record(rec, runtime_inputs=runtime_inputs,
                                  runtime_location=self._runtime_location(), deep=self.deep_verify,
                                  profile=self.profile)
                else:
                    rec.verify = {"ran": False, "status": VerifyStatus.SKIPPED,
                                  "reason": "verification was turned off (--no-verify, or the Verify box unchecked)"}
                    if self.profile:
                        rec.profile = {"calls": 0, "kernels": [], "error": (
                            "not profiled: the profile calls the artifact verification loads, and "
                            "verification was turned off")}
                if self.cold_start:
                    self._measure_cold_start(rec, contract)
            if self._wants_repro(rec, i):
                self._make_repro(rec)
            files = write_artifact(rec, self.out_dir, i)
            self.report["captures"].append(rec.to_report(files))
            if not keep:
                rec.release()
        self._summarise()
        self._no_repro_made(records)

    def _wants_repro(self, rec, index: int) -> bool:
        """The capture library repro asked for (by name or index), else the first that drifted."""
        if self.repro is None or "repro" in self.report:
            return False
        asked = self.repro.get("capture")
        if asked not in (None, ""):
            return str(asked) in (rec.name, str(index))
        from precompile_studio.common.outcomes import Judgement

        verdict = ((rec.verify or {}).get("accuracy") or {}).get("verdict")
        return verdict in (Judgement.DRIFT, Judgement.WRONG)

    def _make_repro(self, rec) -> None:
        from precompile_studio.repro.make import make_repro, none

        self.stage("repro", capture=rec.name)
        try:
            section = make_repro(rec, self.repro, on_step=lambda words: self.emit(
                type="stage", stage="repro", capture=rec.name, detail=words))
        except Exception as e:  # noqa: BLE001 - the run stands without its repro
            internal_errors.record("repro: making the repro", e)
            section = none(f"the studio failed making it: {type(e).__name__}: {e}")
        self.report["repro"] = {"capture": rec.name, **section}

    def _no_repro_made(self, records) -> None:
        """library repro where no capture was cut: why, in the section."""
        if self.repro is None or "repro" in self.report:
            return
        from precompile_studio.repro.make import none, refusal

        asked = self.repro.get("capture")
        if asked not in (None, ""):
            names = ", ".join(r.name for r in records) or "none"
            self.report["repro"] = none(f"the run has no capture {asked} (its captures: {names})")
        elif records:
            self.report["repro"] = {"capture": records[0].name,
                                    **none(refusal(records[0].verify) or "no capture of the run drifted")}
        else:
            self.report["repro"] = none("the run made no capture")

    def _explain_script_rejection(self, records) -> None:
        """The script's own call of its one capture's artifact rejected for a shape (input-shape):
        pointed at the line of fn behind it (capture/specialise.py); then the records are released."""
        try:
            v = self.report.get("violation")
            if len(records) == 1 and v and v.get("rule") == "input-shape":
                from precompile_studio.capture.specialise import explain_script_rejection

                rec, t0 = records[0], time.perf_counter()
                allowance = ((rec.verify or {}).get("budget") or {}).get("allowance_s")
                spec = explain_script_rejection(rec, v, allowance)
                if spec is not None:
                    cap = self.report["captures"][0]
                    cap["specialisation"] = spec
                    cap["timings_s"]["specialise"] = time.perf_counter() - t0
                    self.report["message"] = one_line(v)
        except Exception as e:  # noqa: BLE001 - the violation stands as it was
            internal_errors.record("worker: explaining the script's shape rejection", e)
        finally:
            for rec in records:
                rec.release()

    def attach_script_warnings(self) -> None:
        """torch._precompile's warnings from the script's own loads and calls: with the last
        capture (the pair a script loads is most often the one it just made), else the run's."""
        if not self.script_warnings:
            return
        caps = self.report["captures"]
        if caps:
            caps[-1].setdefault("warnings", []).extend(self.script_warnings)
        else:
            self.report["warnings"] = list(self.script_warnings)

    def attach_stamps(self) -> None:
        """What the run's artifacts depend on (deploy/stamps.py); a check's report carries the
        target's own in check.target instead."""
        if isinstance(self.pair_check, dict):
            return
        try:
            from precompile_studio.deploy.stamps import current

            inductor = any(c.get("backend") == "inductor" and c.get("artifact") for c in self.report["captures"])
            self.report["stamps"] = current(cpu_isa=inductor)
        except Exception as e:  # noqa: BLE001 - a report without them beats no report
            internal_errors.record("worker: the run's stamps", e)

    def attach_provenance(self) -> None:
        """What the run was made from (provenance.py); never fails the run."""
        text = self.source.text.encode() if self.source is not None else None
        try:
            self.report["provenance"] = run_provenance(self.script, text, self.report["captures"])
        except Exception as e:  # noqa: BLE001 - a report without it beats no report
            internal_errors.record("worker: the run's provenance", e)
            self.report["provenance"] = {"script": self.script, "error": f"{type(e).__name__}: {e}"}

    def _summarise(self) -> None:
        """The run's status and message from its captures (outcome.py)."""
        caps = self.report["captures"]
        if not caps:
            return
        status, first = run_status(caps)
        self.report["status"] = status
        if first is None:
            n = len(caps)
            # an ok run whose artifact drifted from eager's numerics says so first
            self.report["message"] = drift_message(caps) or f"{n} capture{'s' if n != 1 else ''} ok"
            return
        self.report["message"] = f"{first['name']}: " + capture_message(first, one_line)


def run(request_json: str, emit: Callable[[str], None]) -> str:
    internal_errors.reset()  # the report's internal_errors are this run's
    job = _Run(json.loads(request_json), emit)
    compile_profile.listen(job.detail)
    try:
        job.execute()
    except BaseException as exc:  # contract errors, exceptions in example_inputs, sys.exit: the report's error
        job.fail(exc)
    finally:
        compile_profile.listen(None)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - the script may have replaced or closed them
                pass
    job.attach_script_warnings()
    job.attach_provenance()
    job.attach_stamps()
    job.report["internal_errors"] = internal_errors.entries()
    return json.dumps(job.report)
