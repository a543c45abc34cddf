"""Small helpers shared by the benchmarks: their command line, the stub server on a free
port, and the wall time and model calls of a step."""

from __future__ import annotations

import argparse
import contextlib
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass

from stub_server import StubHandler, serve


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def options(doc: str, **defaults: int | float) -> argparse.Namespace:
    """The command line of a benchmark described by `doc` (its first line is the help's):
    one `--name` per keyword (underscores written as dashes), of its default's type."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    for name, default in defaults.items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(default), default=default)
    return parser.parse_args()


@contextlib.contextmanager
def stub_at(delay: float) -> Iterator[str]:
    """The stub server (stub_server.py) on a free port of 127.0.0.1, answering each call
    after `delay` seconds; yields its base URL, and stops it after."""
    port = free_port()
    server = serve(port, delay)
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class Measure:
    """What a step took: wall seconds, and the calls the stub server answered meanwhile."""

    seconds: float = 0.0
    calls: int = 0


@contextlib.contextmanager
def measured() -> Iterator[Measure]:
    """Measures the block: its wall time and the stub server's calls (set once it ends)."""
    measure = Measure()
    before, start = StubHandler.requests, time.perf_counter()
    yield measure
    measure.seconds = time.perf_counter() - start
    measure.calls = StubHandler.requests - before
