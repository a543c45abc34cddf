"""Every HTTP read of ours (a local server's properties, a dataset download) is bounded in
time, size and redirects: a server that trickles, streams without end, sends too much or
redirects again and again is cut off."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from medhalbench.data import MAX_REDIRECTS, read_url


class _Misbehaving(BaseHTTPRequestHandler):
    redirects: list[str] = []

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        if self.path.startswith("/hop"):  # /hop/N redirects to /hop/N+1
            _Misbehaving.redirects.append(self.path)
            self.send_response(302)
            self.send_header("Location", f"/hop/{len(_Misbehaving.redirects)}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
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


def test_redirects_are_followed_only_so_far(server: str) -> None:
    _Misbehaving.redirects.clear()
    with pytest.raises(OSError, match="redirect"):
        read_url(f"{server}/hop/0", seconds=5, max_bytes=1024)
    assert len(_Misbehaving.redirects) == MAX_REDIRECTS + 1
