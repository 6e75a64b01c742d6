"""`rowkeeper serve`: the ingest flow as a Prefect deployment on a cron schedule, served by
Prefect's own `serve` machinery (runs appear in the Prefect UI with readable names and tags).

For the UI and for schedules that survive this process, start a server first
(`prefect server start`) and point PREFECT_API_URL at it; see README "Operations".
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Sequence
from typing import Any

from rowkeeper.config import Config
from rowkeeper.flows.ingest import TAGS, ingest_flow

# Each flow run imports the flow by module path, never by file: a file entrypoint makes
# Prefect put rowkeeper/flows/ on sys.path (where a module named like a stdlib or third-party
# one shadows it) and, since the module attribute `ingest` is the plain function, run an
# unnamed copy of it instead of `ingest_flow` with its run names and settings.
ENTRYPOINT = "rowkeeper.flows.ingest.ingest_flow"


def build_deployment(inputs: Sequence[str], config: Config, cron: str, name: str = "nightly",
                     prune: bool = False, retry_failed: bool = False) -> Any:
    """The ingest deployment: JSON parameters (inputs, config, prune, retry_failed), a cron
    schedule, tags, and a module-path entrypoint."""
    from prefect.types.entrypoint import EntrypointType

    deployment = ingest_flow.to_deployment(
        name=name, cron=cron, tags=[*TAGS, "ingest", "scheduled"],
        parameters={"inputs": list(inputs), "config": config.model_dump(mode="json"),
                    "prune": prune, "retry_failed": retry_failed},
        description=f"rowkeeper ingest of {', '.join(inputs)} into {config.out} ({cron})",
        entrypoint_type=EntrypointType.MODULE_PATH,
    )
    deployment.entrypoint = ENTRYPOINT
    return deployment


def _interrupt(signum: int, frame: Any) -> None:
    """Ctrl-C / SIGINT takes the runner's graceful SIGTERM path (it stops polling and ends its
    flow-run processes), where a KeyboardInterrupt inside its event loop would print
    tracebacks of cancelled tasks. A second one ends the process at once."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    handler = signal.getsignal(signal.SIGTERM)
    if callable(handler):
        handler(signal.SIGTERM, frame)


def serve_cli(inputs: list[str], config: Config, args: Any) -> int:
    """Serve until interrupted (Ctrl-C, SIGINT or SIGTERM: one line, exit 0); each scheduled
    run skips unchanged documents and reports."""
    from prefect import serve

    deployment = build_deployment(inputs, config, args.cron, args.name, bool(args.prune),
                                  bool(getattr(args, "retry_failed", False)))
    # Until Prefect's runner installs its graceful SIGTERM handler, SIGTERM raises
    # KeyboardInterrupt (the CLI sets that up before Prefect loads); SIGINT is handled even when
    # a shell started serve in the background with SIGINT ignored.
    signal.signal(signal.SIGINT, _interrupt)
    print(f"rowkeeper serve: deployment rowkeeper-ingest/{args.name}, schedule {args.cron!r}; "
          "Ctrl-C to stop", file=sys.stderr)
    try:
        serve(deployment)
    except KeyboardInterrupt:
        pass  # Prefect's serve() catches it once running; before that it reaches here
    except SystemExit as e:  # the runner's SIGTERM handler exits 0 when stopped while starting
        if e.code not in (0, None):
            raise
    print(f"rowkeeper serve: stopped; rowkeeper-ingest/{args.name} is no longer served",
          file=sys.stderr)
    return 0
