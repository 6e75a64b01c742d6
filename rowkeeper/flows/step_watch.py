"""A page stuck in C code: the worker's watchdog thread names the step, and the worker restarts.

The per-page alarm of `extractors/step_budget.py` interrupts Python code only. When a page's
step runs past its budget plus a grace (a render stuck inside MuPDF never returns to Python),
the worker's watchdog thread sends a `step` reply naming the layer and pages and ends the
worker. The caller then asks a new worker for the same document with that step skipped
(`extract.options.cascade.skip_steps`), so the page is read by the other layers or as text,
and the document's other pages are kept.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable

from rowkeeper.config import Config
from rowkeeper.extractors.step_budget import current_step

MIN_GRACE_S = 10.0
"""How long past its budget a step may run before the worker gives up on the alarm."""


MAX_GRACE_S = 60.0
"""At most this (a 1-page document's budget is most of its timeout: half of it again would
outlast the timeout, and the worker would be killed instead of restarted without the step)."""


def grace_s(budget_s: float) -> float:
    """Extra time a step gets after its alarm, before the watchdog ends the worker."""
    return max(MIN_GRACE_S, min(budget_s / 2, MAX_GRACE_S))


def start_watchdog(send: Callable[[bytes], None], poll_s: float = 0.5) -> threading.Thread:
    """A daemon thread that ends this worker, after `send`ing a `step` reply, when the step
    in progress is past its budget and grace."""
    def watch() -> None:
        while True:
            time.sleep(poll_s)
            step = current_step()
            if step is None or time.monotonic() - step.started < step.budget_s + grace_s(step.budget_s):
                continue
            body = json.dumps({"layer": step.layer, "pages": list(step.pages), "budget_s": step.budget_s})
            send(f"step {_rss_mb():.0f}\n{body}".encode())
            os._exit(0)  # the main thread is stuck in C: nothing else can end it

    thread = threading.Thread(target=watch, name="rowkeeper-step-watchdog", daemon=True)
    thread.start()
    return thread


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def skipping(config: Config, step_body: str) -> Config:
    """`config` with the step named in a watchdog's `step` reply added to the cascade's skips."""
    step = json.loads(step_body)
    options = dict(config.extract.options)
    cascade = dict(options.get("cascade", {}))
    skips = [tuple(s) for s in cascade.get("skip_steps", ())]
    cascade["skip_steps"] = [*skips, *((step["layer"], int(p)) for p in step["pages"])]
    options["cascade"] = cascade
    return config.model_copy(update={"extract": config.extract.model_copy(update={"options": options})})
