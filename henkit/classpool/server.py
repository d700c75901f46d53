"""A throwaway PostgreSQL server in a temporary folder: what the tests and benchmarks run against.

Debian's initdb and pg_ctl (/usr/lib/postgresql/*/bin, which `make test` installs) make a server
in a temporary folder, on 127.0.0.1 and a free port (its Unix socket in the same folder), and
stop it at the end (pg_ctl stop -m fast) whatever happened. PostgreSQL refuses to run as root:
as root the server runs as the `postgres` user Debian's package creates (the folder is chowned
to it). Not for a class's real pool: `synchronous_commit=off` and `--no-sync` trade durability
for speed.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

POSTGRES_USER = "postgres"


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on (now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class PostgresServer:
    """A throwaway PostgreSQL server: where it is, and how to stop and start it again."""

    bindir: Path
    folder: Path
    port: int
    run_as: list[str]

    @property
    def data(self) -> Path:
        """The server's data folder."""
        return self.folder / "data"

    def url(self, schema: str | None = None) -> str:
        """A URL of the server's `postgres` database, with `schema` first in its search_path."""
        url = f"postgresql://{POSTGRES_USER}@127.0.0.1:{self.port}/postgres"
        return url if schema is None else f"{url}?options=-csearch_path%3D{schema}"

    def pg_ctl(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        """Run pg_ctl on this server's data folder (as the server's user)."""
        return subprocess.run([*self.run_as, str(self.bindir / "pg_ctl"), "-D", str(self.data),
                               *args], capture_output=True, text=True, timeout=timeout,
                              check=False)

    def start(self) -> None:
        """Start the server and wait until it accepts connections (RuntimeError if it does not)."""
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} "
                   "-c max_connections=100 -c synchronous_commit=off")
        done = self.pg_ctl("-l", str(self.folder / "server.log"), "-o", options, "-w",
                           "-t", "60", "start")
        if done.returncode != 0:
            log = self.folder / "server.log"
            raise RuntimeError(f"pg_ctl start failed: {done.stdout}{done.stderr}\n"
                               f"{log.read_text() if log.exists() else ''}")

    def stop(self) -> None:
        """Stop the server (fast: open connections are closed)."""
        self.pg_ctl("-m", "fast", "-w", "-t", "60", "stop")

    def running(self) -> bool:
        """Whether the server is running."""
        return self.pg_ctl("status").returncode == 0


def postgres_bindir() -> Path:
    """Debian's PostgreSQL server programs (the newest version installed); RuntimeError if
    they are missing."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(Path(p).parts[3]) if Path(p).parts[3].isdigit() else 0)
    if not found or not os.access(Path(found[-1]).parent / "initdb", os.X_OK):
        raise RuntimeError("a throwaway PostgreSQL server needs /usr/lib/postgresql/*/bin/initdb "
                           "and pg_ctl: install Debian's postgresql (make test does: apt-get "
                           "install postgresql)")
    return Path(found[-1]).parent


@contextmanager
def throwaway_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server of its own in a temporary folder, started, and stopped and removed
    on exit (RuntimeError if it cannot be made)."""
    bindir = postgres_bindir()
    folder = Path(tempfile.mkdtemp(prefix="henkit-pg-"))
    run_as: list[str] = []
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam(POSTGRES_USER)
        except KeyError:
            shutil.rmtree(folder, ignore_errors=True)
            raise RuntimeError(f"PostgreSQL refuses to run as root and there is no "
                               f"{POSTGRES_USER!r} user (Debian's postgresql package creates "
                               "it)") from None
        os.chown(folder, user.pw_uid, user.pw_gid)
        run_as = ["runuser", "-u", POSTGRES_USER, "--"]
    server = PostgresServer(bindir, folder, free_port(), run_as)
    try:
        done = subprocess.run(
            [*run_as, str(bindir / "initdb"), "-D", str(server.data), "-U", POSTGRES_USER,
             "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"],
            capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stdout}{done.stderr}")
        for attempt in range(3):  # another program may take the free port first
            try:
                server.start()
                break
            except RuntimeError:
                if attempt == 2:
                    raise
                server.port = free_port()
        yield server
    finally:
        if server.data.exists():
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)
