"""A throwaway Postgres server for the sink tests (initdb + pg_ctl in a temp dir, socket only).

Postgres refuses to run as root, so under root the server runs as the `postgres` system user
(installed by Debian's `postgresql` package). ROWKEEPER_TEST_PG_DSN skips all this.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass


@dataclass
class PgServer:
    """A running server: its DSN, and how to stop it."""

    dsn: str
    data: str
    pg_ctl: str
    run_as: list[str]

    def stop(self) -> None:
        """Stop the server and remove its files."""
        subprocess.run([*self.run_as, self.pg_ctl, "-D", self.data, "-m", "immediate", "stop"],
                       capture_output=True, check=False)
        shutil.rmtree(os.path.dirname(self.data), ignore_errors=True)


def _bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def start_server() -> PgServer:
    """Start a server in a fresh temp dir; raises RuntimeError saying why when it cannot."""
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    if not initdb or not pg_ctl:
        raise RuntimeError("no initdb/pg_ctl found (install Debian 'postgresql' or set ROWKEEPER_TEST_PG_DSN)")
    run_as: list[str] = []
    root = tempfile.mkdtemp(prefix="rowkeeper-pg-")
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError as e:
            raise RuntimeError("running as root and no 'postgres' user to run the server as") from e
        os.chown(root, user.pw_uid, user.pw_gid)
        run_as = ["runuser", "-u", "postgres", "--"]
    data = os.path.join(root, "data")
    sock = root
    steps = [
        [*run_as, initdb, "-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"],
        [*run_as, pg_ctl, "-D", data, "-w", "-t", "60", "-l", os.path.join(root, "log"), "-o",
         f"-k {sock} -c listen_addresses='' -c fsync=off -c synchronous_commit=off", "start"],
    ]
    for cmd in steps:
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            shutil.rmtree(root, ignore_errors=True)
            raise RuntimeError(f"{os.path.basename(cmd[len(run_as)])} failed: {done.stderr.strip()[-500:]}")
    return PgServer(dsn=f"host={sock} user=postgres dbname=postgres", data=data, pg_ctl=pg_ctl, run_as=run_as)
