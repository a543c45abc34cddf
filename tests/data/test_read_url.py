"""Every HTTP read of ours (a local server's properties, a dataset download) is bounded in
time and size: a server that trickles, streams without end or sends too much is cut off."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from medhalbench.data import read_url


class _Misbehaving(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Connection", "close")
        self.end_headers()
        try:
            if self.path == "/ok":
                self.wfile.write(b'{"total_slots": 2}')
            elif self.path == "/trickle":
                for byte in b'{"total_slots": 2}':
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(0.2)
            else:  # endless
                while True:
                    self.wfile.write(b" " * 4096)
        except OSError:
            pass


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Misbehaving)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_a_body_is_read_whole(server: str) -> None:
    assert read_url(f"{server}/ok", seconds=5, max_bytes=1024) == b'{"total_slots": 2}'


def test_a_trickled_body_is_cut_off_at_its_time(server: str) -> None:
    with pytest.raises(TimeoutError, match="not read within 1 s"):
        read_url(f"{server}/trickle", seconds=1, max_bytes=1024)


def test_an_endless_body_is_cut_off_at_its_size(server: str) -> None:
    with pytest.raises(OSError, match="more than 100,000 bytes"):
        read_url(f"{server}/endless", seconds=30, max_bytes=100_000)
