"""A small OpenAI-compatible chat server on 127.0.0.1 that answers after a fixed delay.

Replies are canned by what the prompt asks for, so every medhalbench pipeline can run
against it: a checker gets "True", a splitter four one-fact lines, a detector "1", a MedHallu
generator a JSON answer as long as the truth, a discriminator a pick derived from the prompt's
hash, an NLI judge "no", anything else a three-sentence answer. Deterministic: the same prompt
always gets the same reply. Used by the benchmarks and by tests (`serve(..., reply=...)`).

    python bench/stub_server.py --port 8765 --delay 0.2
"""

from __future__ import annotations

import argparse
import hashlib
import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ANSWER = (
    "Metformin lowers hepatic glucose output. It improves insulin sensitivity. It is taken orally."
)
UNITS = "Metformin lowers hepatic glucose output.\nMetformin improves insulin sensitivity.\nMetformin is taken orally.\nMetformin is a biguanide."


def _medhallu_candidate(prompt: str) -> str:
    truth = prompt.split("Correct answer:", 1)[1].split("\n\n", 1)[0].split()
    # Same length as the truth, so the length check passes.
    return json.dumps(
        {"hallucinated_answer": " ".join(["Not"] + truth[1:]), "category": "Incomplete Information"}
    )


def canned_reply(messages: list[dict[str, Any]]) -> str:
    """The reply for a conversation, chosen by what its last message asks for."""
    original = str(messages[-1].get("content", "")) if messages else ""
    text = original.lower()
    if "true or false" in text:
        return "True"
    if "one fact" in text:
        # Units that depend on the answer, so different answers never share cached checks.
        answer = original.rsplit("TEXT:", 1)[-1].split("SENTENCES:")[0].strip().rstrip(".")
        return "\n".join(f"{answer} (fact {k})." for k in range(1, 5)) if answer else UNITS
    if "single digit" in text:
        return "1"
    if "hallucinated answer" in text and "correct answer:" in text and "json" in text:
        return _medhallu_candidate(original)
    if "which answer is more accurate" in text:
        return "1" if hashlib.sha1(original.encode()).digest()[0] % 2 else "2"
    if "does the premise entail" in text:
        return "no"
    return ANSWER


Fault = str
"""What the server does with one request: "ok", "429" (with Retry-After: 1), "500",
"timeout" (answers after `hang` seconds, 30 by default), "drop" (closes the connection without a reply),
"truncated" (a cut-off JSON body), "nonjson" (a 200 with an HTML body)."""


class StubHandler(BaseHTTPRequestHandler):
    delay = 0.2
    lock = threading.Lock()
    requests = 0
    reply: Callable[[list[dict[str, Any]]], str] = staticmethod(canned_reply)
    fault: Callable[[int], Fault] = staticmethod(lambda n: "ok")
    faults_served: dict[str, int] = {}
    hang = 30.0

    def _fail(self, kind: Fault) -> bool:
        """Serve an injected fault; False when the request should be answered normally."""
        if kind == "ok":
            return False
        StubHandler.faults_served[kind] = StubHandler.faults_served.get(kind, 0) + 1
        if kind == "429":
            self.send_response(429)
            self.send_header("Retry-After", "1")
            self.send_header("Content-Type", "application/json")
            body = b'{"error": {"message": "rate limited", "type": "rate_limit"}}'
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif kind == "500":
            self._send(500, {"error": {"message": "internal error", "type": "server_error"}})
        elif kind == "timeout":
            time.sleep(StubHandler.hang)
            self._send(500, {"error": {"message": "too late"}})
        elif kind == "drop":
            self.close_connection = True
            self.connection.shutdown(2)
        elif kind == "truncated":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "400")
            self.end_headers()
            self.wfile.write(b'{"id": "x", "object": "chat.completion", "choi')
            self.close_connection = True
        elif kind == "nonjson":
            body = b"<html><body>502 Bad Gateway</body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        return True

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _send(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            self._send(200, {"object": "list", "data": [{"id": "stub", "object": "model"}]})
        elif self.path.rstrip("/").endswith("/stats"):
            self._send(200, {"requests": StubHandler.requests})
        else:
            self._send(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        request = json.loads(self.rfile.read(length) or b"{}")
        time.sleep(self.delay)
        with StubHandler.lock:
            StubHandler.requests += 1
            number = StubHandler.requests
        if self._fail(StubHandler.fault(number)):
            return
        content = StubHandler.reply(request.get("messages", []))
        self._send(
            200,
            {
                "id": f"stub-{StubHandler.requests}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": request.get("model", "stub"),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {
                    "prompt_tokens": 10,
                    "completion_tokens": len(content.split()),
                    "total_tokens": 10 + len(content.split()),
                },
            },
        )


def serve(
    port: int,
    delay: float,
    reply: Callable[[list[dict[str, Any]]], str] = canned_reply,
    fault: Callable[[int], Fault] = lambda n: "ok",
) -> ThreadingHTTPServer:
    """Start the server in a background thread on 127.0.0.1 and return it (stop it with
    `shutdown()` and `server_close()`). `fault(n)` decides what happens to the n-th chat
    request (1-based, counted since the process started)."""
    StubHandler.delay = delay
    StubHandler.reply = staticmethod(reply)
    StubHandler.fault = staticmethod(fault)
    server = ThreadingHTTPServer(("127.0.0.1", port), StubHandler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--delay", type=float, default=0.2)
    args = parser.parse_args()
    serve(args.port, args.delay)
    print(f"stub server on http://127.0.0.1:{args.port}/v1 (delay {args.delay}s)", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
