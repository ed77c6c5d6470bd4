"""Live progress of a running job: "k of N", the time spent and the time left, in the job's
log and, now and then, on the terminal.

A job of hours (a C2RF sample solved for up to 2 h, a WDF cascade of 17 levels on SEMG, a
scan of 3 h) otherwise shows nothing between Snakemake's "rule train" and "Finished job".
``Progress`` is a handler of the ``forestrepro`` logger that counts what the library already
logs as it goes:

- each finished unit of the protocol, the lines of ``evaluation.base.Job.say`` (a fold, a
  split, a repeat, a training size, a C2RF sample; one that an earlier run of the job kept
  says "finished by an earlier run"), out of the N of the job's spec (``Plan.of_job``);
- each cascade level grown (``cascade/forest.py``: "level %d: k-fold accuracy ..."), out of
  at most ``max_levels``, with the level the early-stopping rule stops after unless a level
  does better;
- each cascade forest and scan piece kept (``checkpoint/parts.py``: "kept %s ..."); one read
  from an earlier run counts without a line of its own. The pieces are the units of the
  ``scan`` command (``Plan.of_scan``).

For each it logs ``progress <job>: <unit> k of N ... · <time> elapsed · <time left>`` (logger
``forestrepro.progress``: into the job's log, where the command line sends the ``forestrepro``
logger), and, while nothing else is logged, one every ``HEARTBEAT`` seconds, so a long solve
still says what it is on and for how long. The time left is the mean time of the units this
run computed times the units left ("about"); before a unit has finished, a cascade's levels
give a lower bound ("at least": the levels the stopping rule still needs) and a C2RF sample's
time limit an upper one ("at most").

The log is a file; what a user running ``snakemake --cores 2`` watches is the terminal. So a
line also goes to standard output, which the rules leave to Snakemake's terminal, once
``FORESTREPRO_PROGRESS_SECONDS`` (default 30) have passed since the job's last line there: a
job of seconds shows Snakemake's lines alone, a job of hours a line about every half minute.

It cannot change a number: it reads log records and the clock and writes lines, and no library
module imports it (``cli.py`` does). So it is not result code (``record/provenance.py``'s
``NOT_RESULT_CODE``), and editing it leaves every run record current. The cascade and scanner
classes whose defaults it reads (``max_levels``, a scan's windows) are imported at their first
line, so never into a job that did not import them itself.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from dataclasses import dataclass, field, replace
from typing import TextIO

HEARTBEAT = 60.0  # seconds without a line after which a running job says what it is on
TERMINAL_SECONDS = 30.0  # the default of FORESTREPRO_PROGRESS_SECONDS

# protocol kind -> (its unit, units per repeat of the protocol's configuration)
UNITS = {
    "nested_cv": ("fold", lambda protocol: protocol["outer_folds"]),
    "kappa_error_cv": ("fold", lambda protocol: protocol["outer_folds"]),
    "learning_curve": ("fit", lambda protocol: len(protocol["train_sizes"])),
    "holdout": ("split", lambda protocol: 1),
    "oob_repeats": ("repeat", lambda protocol: 1),
    "c2rf_samples": ("sample", lambda protocol: 1),
}
_PART = re.compile(r"level(\d+)_forest(\d+)|window\d+_forest\d+_fold\d+")


def job_name(spec: dict) -> str:
    """``<paper>/<experiment>/<method>/<dataset>[/repeat<k>]``, the job's path in the workflow."""
    name = f"{spec['paper']}/{spec['experiment']}/{spec['method']}/{spec['dataset']}"
    repeat = spec["protocol"].get("repeat")
    return name if repeat is None else f"{name}/repeat{repeat}"


def _repeats(protocol: dict) -> int:
    """The repeats a job runs: one under a protocol that names its repeat (``job_per_repeat``)."""
    return 1 if protocol.get("repeat") is not None else int(protocol["repeats"])


@dataclass(frozen=True)
class Plan:
    """What a job counts: ``total`` units (None: not known) called ``unit``, each finished one
    announced by a line starting with ``say`` (None: the units are the pieces of the scans of
    ``splits`` splits), the method's ``params`` (a cascade's), the ``scan`` shape of its data
    (None: not scanned), a unit's ``time_limit`` (C2RF) and the start of the line that says the
    job's data is loaded (``runner._job_data``), when its first unit starts."""

    job: str
    unit: str
    total: int | None
    say: str | None
    params: dict = field(default_factory=dict)
    scan: tuple | None = None
    time_limit: float | None = None
    splits: int = 1
    loaded: str | None = None

    @classmethod
    def of_job(cls, spec: dict) -> Plan:
        """A training job's: its protocol's units (folds, splits, repeats, fits or samples), once
        per sweep value."""
        protocol, method = spec["protocol"], spec["method_config"]
        unit, per_repeat = UNITS.get(protocol["kind"], ("unit", None))
        sweep = spec.get("sweep")
        total = None
        if per_repeat is not None:
            total = _repeats(protocol) * per_repeat(protocol) * (len(sweep["values"]) if sweep else 1)
        scan = spec["dataset_options"].get("scan")
        return cls(
            job=job_name(spec),
            unit=unit,
            total=total,
            say=f"{spec['paper']}/{method['name']}/{spec['dataset']} ",
            params=method.get("params", {}),
            scan=tuple(scan["shape"]) if scan else None,
            time_limit=protocol.get("time_limit"),
            loaded=f"{spec['tag']}/{spec['paper']}/{spec['experiment']}/{spec['method']}/{spec['dataset']}: ",
        )

    @classmethod
    def of_scan(cls, spec: dict) -> Plan:
        """A scan job's: the pieces of the scans of its splits (their number known at the first)."""
        plan = cls.of_job(spec)
        return replace(plan, unit="scan piece", total=None, say=None, splits=_repeats(spec["protocol"]))


def duration(seconds: float) -> str:
    """``2h 05m``, ``3m 07s`` or ``12s``."""
    seconds = max(int(round(seconds)), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    return f"{minutes}m {seconds:02d}s" if minutes else f"{seconds}s"


@dataclass
class _Count:
    """Units of one kind done since ``last`` was reset: how many, how many an earlier run made
    (read), and the seconds the others took."""

    last: float
    done: int = 0
    read: int = 0
    seconds: float = 0.0

    def add(self, now: float, read: bool) -> None:
        self.done += 1
        if read:
            self.read += 1
        else:
            self.seconds += now - self.last
        self.last = now

    def mean(self) -> float | None:
        computed = self.done - self.read
        return self.seconds / computed if computed else None


class Progress(logging.Handler):
    """Counts a job's progress lines (see the module's docstring); ``with Progress(plan):``
    around the job. ``terminal`` receives a line once ``every`` seconds have passed since the
    last (default: ``FORESTREPRO_PROGRESS_SECONDS``, else 30)."""

    def __init__(self, plan: Plan, terminal: TextIO | None = None, every: float | None = None):
        super().__init__()
        self.plan = plan
        self.terminal = terminal
        self.every = (
            float(os.environ.get("FORESTREPRO_PROGRESS_SECONDS", TERMINAL_SECONDS))
            if every is None
            else every
        )
        self._logger = logging.getLogger("forestrepro.progress")
        self._state = threading.Lock()
        self._stop = threading.Event()
        self._beat = threading.Thread(target=self._heartbeat, name="forestrepro-progress", daemon=True)
        self.started = time.monotonic()
        self.units = _Count(self.started)
        self.levels = _Count(self.started)
        self.pieces = _Count(self.started)
        self.level = self.best = 0  # the last level grown in the unit in progress, and its best
        self._said = self._shown = self.started
        self._forests = 0  # of the level growing, and whether one was read, one kept
        self._forests_read = self._forests_kept = False
        self._cascade: dict | None = None
        self._scan_pieces: int | None = None

    def __enter__(self) -> Progress:
        logger = logging.getLogger("forestrepro")
        logger.addHandler(self)
        if logger.getEffectiveLevel() > logging.INFO:  # the lines counted are INFO
            logger.setLevel(logging.INFO)
        self._beat.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._beat.join()
        logging.getLogger("forestrepro").removeHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        if record.name == self._logger.name:
            return
        try:
            with self._state:
                line = self._count(record, time.monotonic())
            if line is not None:
                self._say(*line)
        except Exception:  # a progress line never stops a job: logging reports it and goes on
            self.handleError(record)

    def _count(self, record: logging.LogRecord, now: float) -> tuple[str, bool] | None:
        """The line ``record`` makes (and whether it goes to the terminal), if it counts."""
        message = record.getMessage() if record.name == "forestrepro" else ""
        if self.plan.loaded is not None and message.startswith(self.plan.loaded):
            self.units.last = self.levels.last = self.pieces.last = now  # the data is loaded: work starts
            return None
        if self.plan.say is not None and message.startswith(self.plan.say):
            self.units.add(now, read="finished by an earlier run" in message)
            self.level = self.best = self._forests = 0
            self.levels = _Count(now)
            self.pieces = _Count(now)
            return self._line(now, f"{self._of(self.units.done)} done")
        if record.name == "forestrepro.cascade.forest" and str(record.msg).startswith("level %d"):
            level, best = record.args[0], record.args[3]
            self.levels.add(now, read=self._forests_read and not self._forests_kept)
            self._forests_read = self._forests_kept = False
            self._forests = 0
            self.level, self.best = level, best
            return self._line(now, f"{self._on()} · {self._level_line()}")
        if record.name == "forestrepro.checkpoint.parts" and str(record.msg).startswith(
            ("kept ", "read kept ")
        ):
            return self._part(str(record.args[0]), now, read=str(record.msg).startswith("read"))
        return None

    def _part(self, name: str, now: float, read: bool) -> tuple[str, bool] | None:
        part = _PART.fullmatch(name)
        if part is None:
            return None
        if part.group(1) is not None:  # a cascade level's forest: the level's progress
            self._forests_read |= read
            self._forests_kept |= not read
            self._forests += 1
            return None
        self._pieces()
        if self.plan.say is None:  # the scan command: the pieces are its units
            self.units.add(now, read)
            return None if read else self._line(now, f"{self._of(self.units.done)} done")
        self.pieces.add(now, read)
        self.levels.last = now  # the cascade's first level starts after the scan
        text = f"scan piece {self.pieces.done} of {self._pieces()}"
        return None if read else self._line(now, f"{self._on()} · {text} done")

    def _heartbeat(self) -> None:
        while not self._stop.wait(HEARTBEAT / 6):
            now = time.monotonic()
            with self._state:
                if now - self._said < HEARTBEAT:
                    continue
                running = f"{self._on()} for {duration(now - self.units.last)}"
                if self.level:
                    running += f" · {self._level_line()}"
                if self._forests:
                    params = self._cascade_params()
                    forests = params["n_rf"] + params["n_crf"]
                    running += f" · level {self.level + 1}: {self._forests} of {forests} forests grown"
                line = self._line(now, running)
            self._say(*line)

    def _say(self, text: str, show: bool) -> None:
        self._logger.info("progress %s", text)
        if show and self.terminal is not None:
            stamp = time.strftime("%H:%M:%S")
            print(f"[forestrepro {stamp}] {text}", file=self.terminal, flush=True)

    def _line(self, now: float, what: str) -> tuple[str, bool]:
        """``<job>: <what> · <elapsed> · <left>``, and whether it goes to the terminal."""
        self._said = now
        show = now - self._shown >= self.every
        if show:
            self._shown = now
        return f"{self.plan.job}: {what} · {duration(now - self.started)} elapsed · {self._left(now)}", show

    def _of(self, k: int) -> str:
        total = self._total()
        return f"{self.plan.unit} {k}" + ("" if total is None else f" of {total}")

    def _on(self) -> str:
        """The unit in progress: ``split 2 of 5``."""
        return self._of(self.units.done + 1)

    def _total(self) -> int | None:
        if self.plan.say is None:  # the scan command's pieces, known once the first is made
            return None if self._scan_pieces is None else self._scan_pieces * self.plan.splits
        return self.plan.total

    def _level_line(self) -> str:
        """``level 4 of at most 100 grown (stops after level 6 unless one beats level 3)``."""
        most, rounds = self._cascade_params()["max_levels"], self._cascade_params()["early_stopping_rounds"]
        if self.level >= self._stop_after():
            stop = "the last"
        elif self.best + rounds > most:
            stop = f"stops after level {most}, the last allowed"
        else:
            stop = f"stops after level {self.best + rounds} unless one beats level {self.best}"
        return f"level {self.level} of at most {most} grown ({stop})"

    def _stop_after(self) -> int:
        """The level the cascade stops after if no level beats its best so far (cascade/forest.py)."""
        params = self._cascade_params()
        return min(self.best + params["early_stopping_rounds"], params["max_levels"])

    def _left(self, now: float) -> str:
        """The time left: from the units' mean time (at most what a unit's time limit allows),
        else a bound from the cascade or the time limit, else not known yet."""
        total = self._total()
        in_unit = now - self.units.last
        most = None
        if total is not None and self.plan.time_limit is not None:
            most = self.plan.time_limit * (total - self.units.done) - in_unit
        if total is not None and (mean := self.units.mean()) is not None:
            about = mean * (total - self.units.done) - in_unit
            return f"about {duration(about if most is None else min(about, most))} left"
        if most is not None:
            return f"at most {duration(most)} left"
        if total is not None and self.level and (mean := self.levels.mean()) is not None:
            left = f"at least {duration(mean * max(self._stop_after() - self.level, 0))} left"
            return left + (f" in this {self.plan.unit}" if total - self.units.done > 1 else "")
        if (mean := self.pieces.mean()) is not None and self.pieces.done < self._pieces():
            return f"about {duration(mean * (self._pieces() - self.pieces.done))} left in the scan"
        return "time left not known yet"

    def _cascade_params(self) -> dict:
        """The cascade's parameters, its defaults where the method's configuration has none."""
        if self._cascade is None:
            from .cascade.forest import CascadeForestClassifier  # imported already: it logged

            params = {k: v for k, v in self.plan.params.items() if k != "scanner"}
            self._cascade = {**CascadeForestClassifier().get_params(), **params}
        return self._cascade

    def _pieces(self) -> int:
        """The pieces of one scan: window sizes x forests per size x folds."""
        if self._scan_pieces is None:
            from .cascade.scanning import MultiGrainedScanner, default_window_sizes  # imported already

            scanner = MultiGrainedScanner(shape=self.plan.scan, **self.plan.params.get("scanner", {}))
            sizes = scanner.window_sizes or default_window_sizes(self.plan.scan)
            forests = len(scanner._member_templates())  # noqa: SLF001 (1 RF + 1 CRF per window size)
            self._scan_pieces = len(sizes) * forests * scanner.n_folds
        return self._scan_pieces
