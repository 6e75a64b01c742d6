"""`rowkeeper serve`: the ingest flow as a Prefect deployment on a cron schedule, served by
Prefect's own `serve` machinery (runs appear in the Prefect UI with readable names and tags).

For the UI and for schedules that survive this process, start a server first
(`prefect server start`) and point PREFECT_API_URL at it; see README "Operations".
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from rowkeeper.config import Config
from rowkeeper.flows.ingest import TAGS, ingest_flow


def build_deployment(inputs: Sequence[str], config: Config, cron: str, name: str = "nightly",
                     prune: bool = False) -> Any:
    """The ingest deployment: JSON parameters (inputs, config, prune), a cron schedule, tags."""
    return ingest_flow.to_deployment(
        name=name, cron=cron, tags=[*TAGS, "ingest", "scheduled"],
        parameters={"inputs": list(inputs), "config": config.model_dump(mode="json"), "prune": prune},
        description=f"rowkeeper ingest of {', '.join(inputs)} into {config.out} ({cron})",
    )


def serve_cli(inputs: list[str], config: Config, args: Any) -> int:
    """Serve until interrupted; each scheduled run skips unchanged documents and reports."""
    from prefect import serve

    deployment = build_deployment(inputs, config, args.cron, args.name, bool(args.prune))
    print(f"rowkeeper serve: deployment rowkeeper-ingest/{args.name}, schedule {args.cron!r}; "
          "Ctrl-C to stop", file=sys.stderr)
    serve(deployment)
    return 0
