"""``run_mip``: one HiGHS MIP solve that returns by a hard deadline, keeping its incumbent and bound.

HiGHS checks its ``time_limit`` (and its interrupt callbacks) only between the steps of its search,
and some steps of the root node run long without a check: on connect_4's p-C2RF+ model (245,759
rows, 14,613 columns) a 600 s limit ended after 3,510 s with no node explored, and at a 90 s limit
HiGHS spent 65 s in one step after the root LP (the log shows no line and no LP iteration between
28 s and 93 s). A callback cannot stop a step that never calls it, so the solve runs in a child
process under a watchdog:

- each thread of the caller keeps one HiGHS process (``serve`` in a new Python interpreter,
  started by ``ready`` before the caller's clock starts) that solves its requests one by one, the
  way an in-process ``Highs.run`` would, and sends HiGHS's log lines, each improving solution
  (``kCallbackMipImprovingSolution``) and the dual bound and node count of each log line
  (``kCallbackMipLogging``) back while it runs;
- the caller waits until ``stop_at``; if HiGHS has not returned by then its process is killed (the
  next solve starts a new one) and the last improving solution (else the start) and the last bound
  are the result, status ``time_limit``.

A plain subprocess rather than ``multiprocessing``: its spawn and forkserver methods re-run the
caller's main script, which a script without an ``if __name__ == "__main__"`` guard (the
documentation's examples) cannot survive, and forking the caller would copy a HiGHS thread pool
that an earlier LP in the same process may have started.

Every number is HiGHS's own, made by the same model and options as an in-process run: a solve that
returns before ``stop_at`` gives the same status, solution, bound and node count.
"""

from __future__ import annotations

import atexit
import logging
import os
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path

import highspy
import numpy as np

_highs_log = logging.getLogger("forestrepro.highs")

STATUS = {
    highspy.HighsModelStatus.kOptimal: "optimal",
    highspy.HighsModelStatus.kTimeLimit: "time_limit",
    highspy.HighsModelStatus.kInfeasible: "infeasible",
    highspy.HighsModelStatus.kUnboundedOrInfeasible: "infeasible",
}
LP_FIELDS = ("col_cost_", "col_lower_", "col_upper_", "row_lower_", "row_upper_")
MATRIX_FIELDS = ("start_", "index_", "value_")


def grace(time_limit: float) -> float:
    """Seconds past a call's ``time_limit`` at which its HiGHS solve is stopped: half the allowed
    overrun max(5 % of the limit, 5 s), leaving the other half for the work after the solve."""
    return 0.5 * max(0.05 * time_limit, 5.0)


def _lp_arrays(lp: highspy.HighsLp) -> dict:
    """The arrays of a column-wise ``HighsLp`` (it cannot be pickled)."""
    if lp.a_matrix_.format_ != highspy.MatrixFormat.kColwise:
        raise ValueError("run_mip takes a column-wise matrix (MatrixFormat.kColwise)")
    arrays = {name: np.asarray(getattr(lp, name)) for name in LP_FIELDS}
    arrays |= {name: np.asarray(getattr(lp.a_matrix_, name)) for name in MATRIX_FIELDS}
    arrays["integrality_"] = np.asarray([int(t) for t in lp.integrality_], dtype=np.int8)
    arrays["shape"] = (lp.num_col_, lp.num_row_)
    return arrays


def _lp(arrays: dict) -> highspy.HighsLp:
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = arrays["shape"]
    for name in LP_FIELDS:
        setattr(lp, name, arrays[name])
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    for name in MATRIX_FIELDS:
        setattr(lp.a_matrix_, name, arrays[name])
    lp.integrality_ = [highspy.HighsVarType(int(t)) for t in arrays["integrality_"]]
    return lp


def _solve(send: Connection, arrays: dict, options: dict, start: np.ndarray | None) -> None:
    """Solve in the HiGHS process; send ("log", line), ("solution", x), ("bound", bound, nodes)
    while HiGHS runs, then ("done", status, x or None, bound, nodes)."""
    n_cols = arrays["shape"][0]
    last = {"bound": None}

    def callback(callback_type, message, data_out, data_in, user_data) -> None:
        kind = highspy.cb.HighsCallbackType
        if callback_type == kind.kCallbackLogging:
            for line in message.splitlines():
                if line.strip():
                    send.send(("log", line.rstrip()))
        elif callback_type == kind.kCallbackMipImprovingSolution:
            x = np.array(data_out.mip_solution, dtype=np.float64)
            if x.shape == (n_cols,):
                send.send(("solution", x))
        elif callback_type == kind.kCallbackMipLogging:
            bound = (float(data_out.mip_dual_bound), int(data_out.mip_node_count))
            if bound != last["bound"]:
                last["bound"] = bound
                send.send(("bound", *bound))

    highs = highspy.Highs()
    for name, value in options.items():
        highs.setOptionValue(name, value)
    highs.setCallback(callback, None)
    for kind in ("kCallbackLogging", "kCallbackMipImprovingSolution", "kCallbackMipLogging"):
        highs.startCallback(getattr(highspy.cb.HighsCallbackType, kind))
    highs.passModel(_lp(arrays))
    if start is not None:
        solution = highspy.HighsSolution()
        solution.col_value = start
        solution.value_valid = True
        highs.setSolution(solution)
    highs.run()
    info = highs.getInfo()
    model_status = highs.getModelStatus()
    status = STATUS.get(model_status, highs.modelStatusToString(model_status).lower())
    feasible = info.primal_solution_status == highspy.SolutionStatus.kSolutionStatusFeasible
    x = np.asarray(highs.getSolution().col_value) if feasible else None
    bound = float("inf") if status == "infeasible" else float(info.mip_dual_bound)
    send.send(("done", status, x, bound, int(info.mip_node_count)))


def serve() -> None:
    """The HiGHS process's loop: a request (arrays, options, start) from stdin, its messages to the
    original stdout (anything else printed goes to stderr), until stdin closes."""
    receive = Connection(os.dup(0), writable=False)
    send = Connection(os.dup(1), readable=False)
    os.dup2(2, 1)
    while True:
        try:
            request = receive.recv()
        except EOFError:
            return
        _solve(send, *request)


# the directory holding this forestrepro package: the HiGHS process imports the same code
_SOURCE = str(Path(__file__).resolve().parents[2])


class _Process:
    """One HiGHS process and the two ends of its pipes."""

    def __init__(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [_SOURCE, env.get("PYTHONPATH")]))
        self.popen = subprocess.Popen(
            [sys.executable, "-c", f"from {__name__} import serve; serve()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self.send = Connection(os.dup(self.popen.stdin.fileno()), readable=False)
        self.receive = Connection(os.dup(self.popen.stdout.fileno()), writable=False)
        self.popen.stdin.close()
        self.popen.stdout.close()
        _live.add(self)

    def close(self, kill: bool) -> None:
        _live.discard(self)
        self.send.close()
        if kill:
            self.popen.kill()
        self.popen.wait()
        self.receive.close()


_local = threading.local()
_live: set[_Process] = set()


@atexit.register
def _close_all() -> None:
    for process in list(_live):
        process.close(kill=False)


def _process() -> _Process:
    if getattr(_local, "process", None) is None:
        _local.process = _Process()
    return _local.process


def ready() -> None:
    """Start this thread's HiGHS process now (callers do this before their clock starts)."""
    _process()


def run_mip(
    lp: highspy.HighsLp, options: dict, start: np.ndarray | None, stop_at: float
) -> tuple[str, np.ndarray | None, float, int, bool]:
    """Solve ``lp`` with HiGHS ``options`` from the column vector ``start``, stopping it at the
    ``time.monotonic()`` instant ``stop_at``: (status, column values or None, dual bound, nodes,
    stopped). ``stopped`` is True when the watchdog killed the solve; the status is then
    ``time_limit``, the values the last improving solution (else ``start``) and the bound the last
    one HiGHS logged (-inf before its first log line)."""
    process = _process()
    process.send.send((_lp_arrays(lp), options, start))
    x, bound, nodes = start, float("-inf"), 0
    while process.receive.poll(max(stop_at - time.monotonic(), 0.0)):
        try:
            kind, *values = process.receive.recv()
        except EOFError:
            _local.process = None
            process.close(kill=True)
            raise RuntimeError(
                f"the HiGHS process ended without a result (exit code {process.popen.returncode})"
            ) from None
        if kind == "log":
            _highs_log.info("highs: %s", values[0])
        elif kind == "solution":
            x = values[0]
        elif kind == "bound":
            bound, nodes = values
        else:
            return (*values, False)
    _local.process = None
    process.close(kill=True)
    _highs_log.info("highs: stopped by the watchdog at its hard deadline: HiGHS had not returned")
    return "time_limit", x, bound, nodes, True
