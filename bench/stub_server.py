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
import base64
import hashlib
import json
import sys
import threading
import time
import traceback
from collections.abc import Callable
from email.parser import BytesParser
from email.policy import default as default_policy
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
"""What the server does with one request: "ok", "400" (a refused request, with the server's
reason), "429" (with Retry-After: 1), "500",
"timeout" (answers after `hang` seconds, 30 by default), "drop" (closes the connection without a reply),
"truncated" (a cut-off JSON body, the connection closed early), "redirect" (a 307 to the
same path), "cutjson" (a cut-off JSON
body sent whole), "nonjson" (a 200 with an HTML body), "nonutf8" (a 200 whose JSON body is
not UTF-8), "nochoices" (a 200
with JSON that is no chat completion), "emptychoices" (a chat completion whose `choices` is
empty), "cutreply" and "filtered" (a reply cut at the token limit, or stopped by a content
filter), "badtypes" (a 200 chat completion whose fields have the
wrong types), "echokey" (a 500 whose error repeats the caller's API key), "key401" (a 401
quoting the key), "keyansi" (a 500 quoting the key with a colour code inside it), "keyreply"
(a 200 whose reply quotes the key), "keywrap" (the same, the key cut by a line wrap),
"keyheader" (a 200 with the key in a response header), "toolcall" (a 200 whose reply is a
tool call, though no tool was offered), "keyencoded" (a 200 whose reply quotes
the key in every form a server may give it back in, `encoded_key`, and whose
log-probabilities' tokens spell it)."""


def encoded_key(key: str) -> list[str]:
    """A key as servers and libraries give it back: upper case, every byte percent-encoded,
    `\\uXXXX` escapes, HTML character references, base64 at each alignment, hex, cut by a
    line break, and only its middle."""
    data = key.encode()
    return [
        key.upper(),
        "".join(f"%{b:02X}" for b in data),
        "".join(f"\\u{ord(c):04x}" for c in key),
        "".join(f"&#{ord(c)};" for c in key),
        "".join(f"&#x{ord(c):x};" for c in key),
        *(base64.b64encode(b"ab"[:n] + data).decode() for n in range(3)),
        data.hex(),
        f"{key[:9]}\n{key[9:]}",
        key[len(key) // 4 : 3 * len(key) // 4],
    ]


def _responses_messages(request: dict[str, Any]) -> list[dict[str, Any]]:
    """A Responses-API `input` as chat messages with plain-text content."""
    items = request.get("input", [])
    if isinstance(items, str):
        return [{"role": "user", "content": items}]
    return [
        {
            "role": item.get("role", "user"),
            "content": item["content"]
            if isinstance(item.get("content"), str)
            else "".join(part.get("text", "") for part in item.get("content", [])),
        }
        for item in items
    ]


def response(request: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI Responses-API response answering a request with the canned reply (what the
    `openai/` provider asks for, and what its batches carry)."""
    content = StubHandler.reply(_responses_messages(request))
    return {
        "id": f"resp-stub-{StubHandler.requests}",
        "object": "response",
        "created_at": time.time(),
        "model": request.get("model", "stub"),
        "status": "completed",
        "output": [
            {
                "type": "message",
                "id": "msg-stub",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": content, "annotations": []}],
            }
        ],
        "parallel_tool_calls": False,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
            "output_tokens": len(content.split()),
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 10 + len(content.split()),
        },
    }


def answer(path: str, request: dict[str, Any]) -> dict[str, Any]:
    """The body answering `request` sent to `path`: a Responses-API response or a chat
    completion."""
    return response(request) if path.rstrip("/").endswith("/responses") else completion(request)


def completion(request: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI chat completion answering a request with the canned reply."""
    content = StubHandler.reply(request.get("messages", []))
    return {
        "id": f"stub-{StubHandler.requests}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": StubHandler.served_as.get(
            request.get("model", "stub"), request.get("model", "stub")
        ),
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
    }


class BatchStore:
    """OpenAI's files and batches endpoints, in memory: an uploaded JSONL of chat requests
    becomes a batch that completes `delay` seconds after it was created, with one result line
    per request (an error line where `fail(custom_id)` says so) in its output or error file."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.delay = 1.0
        self.fail: Callable[[str], bool] = lambda custom_id: False
        self.lines_served = 0

    def upload(self, content_type: str, body: bytes) -> dict[str, Any]:
        message = BytesParser(policy=default_policy).parsebytes(
            f"Content-Type: {content_type}\r\n\r\n".encode() + body
        )
        data = next(
            part.get_payload(decode=True) for part in message.iter_parts() if part.get_filename()
        )
        with self.lock:
            file_id = f"file-{len(self.files) + 1}"
            self.files[file_id] = data
        return {
            "id": file_id, "object": "file", "bytes": len(data), "created_at": int(time.time()),
            "filename": "batch.jsonl", "purpose": "batch", "status": "processed",
        }  # fmt: skip

    def create(self, request: dict[str, Any]) -> dict[str, Any]:
        lines = [
            json.loads(x) for x in self.files[request["input_file_id"]].splitlines() if x.strip()
        ]
        output, errors = [], []
        for line in lines:
            if self.fail(line["custom_id"]):
                # OpenAI's form for a request that failed inside a batch.
                errors.append({"custom_id": line["custom_id"], "error": None,
                               "response": {"status_code": 500, "body": {"error": {
                                   "message": "stub batch line failed", "type": "server_error"}}}})  # fmt: skip
            else:
                output.append({"custom_id": line["custom_id"], "error": None,
                               "response": {"status_code": 200, "body": answer(line["url"], line["body"])}})  # fmt: skip
        with self.lock:
            self.lines_served += len(lines)
            batch_id = f"batch_{len(self.batches) + 1}"
            output_id, error_id = f"file-{batch_id}-out", f"file-{batch_id}-err"
            self.files[output_id] = "".join(json.dumps(x) + "\n" for x in output).encode()
            self.files[error_id] = "".join(json.dumps(x) + "\n" for x in errors).encode()
            self.batches[batch_id] = {
                "id": batch_id, "object": "batch", "endpoint": request["endpoint"],
                "input_file_id": request["input_file_id"], "completion_window": "24h",
                "created_at": int(time.time()), "ready_at": time.time() + self.delay,
                "total": len(lines), "failed": len(errors),
                "output_file_id": output_id if output else None, "error_file_id": error_id if errors else None,
            }  # fmt: skip
        return self.retrieve(batch_id)

    def retrieve(self, batch_id: str) -> dict[str, Any]:
        batch = self.batches[batch_id]
        done = time.time() >= batch["ready_at"]
        view = {k: v for k, v in batch.items() if k not in ("ready_at", "total", "failed")}
        view["status"] = "completed" if done else "in_progress"
        view["request_counts"] = {
            "total": batch["total"],
            "completed": batch["total"] - batch["failed"] if done else 0,
            "failed": batch["failed"] if done else 0,
        }
        if not done:
            view["output_file_id"] = view["error_file_id"] = None
        return view


_batches = BatchStore()


class StubHandler(BaseHTTPRequestHandler):
    delay = 0.2
    rfile_body = b""
    latency: Callable[[], float] = staticmethod(lambda: StubHandler.delay)
    lock = threading.Lock()
    requests = 0
    reply: Callable[[list[dict[str, Any]]], str] = staticmethod(canned_reply)
    fault: Callable[[int], Fault] = staticmethod(lambda n: "ok")
    faults_served: dict[str, int] = {}
    hang = 30.0
    served_as: dict[str, str] = {}
    """The model a reply names, by the model asked for (a provider's dated version of an
    alias); others are answered under their own name."""
    headers_seen: list[dict[str, str]] = []
    """The headers of each model call as received, names in lower case (what a client sent,
    not what it logged)."""

    def _fail(self, kind: Fault) -> bool:
        """Serve an injected fault; False when the request should be answered normally."""
        if kind == "ok":
            return False
        StubHandler.faults_served[kind] = StubHandler.faults_served.get(kind, 0) + 1
        if kind == "429":
            body = b'{"error": {"message": "rate limited", "type": "rate_limit"}}'
            self._send_bytes(429, body, headers={"Retry-After": "1"})
        elif kind == "500":
            self._send(500, {"error": {"message": "internal error", "type": "server_error"}})
        elif kind == "400":  # a request the server will not take, with its reason
            self._send(
                400,
                {"error": {"message": "model 'nope' does not exist", "type": "invalid_request"}},
            )
        elif kind == "timeout":
            time.sleep(StubHandler.hang)
            self._send(500, {"error": {"message": "too late"}})
        elif kind == "drop":
            self.close_connection = True
            self.connection.shutdown(2)
        elif kind == "truncated":  # the connection closed 400 bytes short of the length sent
            self._send_bytes(200, b'{"id": "x", "object": "chat.completion", "choi', length=400)
            self.close_connection = True
        elif kind == "echokey":  # an error that repeats the caller's credentials
            key = self.headers.get("Authorization", "").removeprefix("Bearer ")
            self._send(
                500, {"error": {"message": f"upstream refused key {key}", "type": "server_error"}}
            )
        elif kind in ("key401", "keyansi", "keyreply", "keywrap", "keyheader", "keyencoded"):
            self._echo_key(kind)
        elif kind == "cutjson":  # a body cut short, sent whole
            self._send_bytes(200, b'{"id":"x","choices":[')
        elif kind == "nochoices":
            self._send(200, {"id": "x", "object": "chat.completion", "model": "stub"})
        elif kind == "redirect":  # to itself, again and again
            self._send_bytes(307, b"", headers={"Location": self.path})
        elif kind == "emptychoices":
            self._send(
                200,
                {
                    "id": "x",
                    "object": "chat.completion",
                    "created": 1,
                    "model": "stub",
                    "choices": [],
                },
            )
        elif kind in ("cutreply", "filtered"):
            content, reason = (
                ("The answer is", "length") if kind == "cutreply" else ("", "content_filter")
            )
            message = {"role": "assistant", "content": content}
            self._send(
                200,
                {"id": "x", "object": "chat.completion", "created": 1, "model": "stub",
                 "choices": [{"index": 0, "message": message, "finish_reason": reason}]},
            )  # fmt: skip
        elif kind == "badtypes":
            self._send(
                200,
                {"id": 7, "object": "chat.completion", "created": "soon", "model": ["stub"],
                 "choices": {"index": "0", "message": 12, "finish_reason": 3}},
            )  # fmt: skip
        elif kind == "toolcall":  # a tool call, though no tool was offered
            call = {
                "id": "call_1",
                "type": "function",
                "function": {"name": "give_verdict", "arguments": '{"verdict": "1"}'},
            }
            message = {"role": "assistant", "content": None, "tool_calls": [call]}
            self._send(
                200,
                {"id": "x", "object": "chat.completion", "created": 1, "model": "stub",
                 "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]},
            )  # fmt: skip
        elif kind == "nonjson":
            body = b"<html><body>502 Bad Gateway</body></html>"
            self._send_bytes(200, body, content_type="text/html")
        elif kind == "nonutf8":
            self._send_bytes(
                200, b'{"id": "x", "choices": "\xff\xfe"}', content_type="application/json"
            )
        return True

    def _echo_key(self, kind: Fault) -> None:
        """Quote the caller's key back: in a 401 (as a provider that names the key it
        refused), in a 500 whose message colours part of it (a terminal escape inside the
        key), in a successful reply, or in a response header."""
        key = self.headers.get("Authorization", "").removeprefix("Bearer ") or self.headers.get(
            "x-api-key", ""
        )
        if kind == "key401":
            message = f"Incorrect API key provided: {key}. You can find your key in settings."
            self._send(401, {"error": {"message": message, "type": "invalid_request_error",
                                       "code": "invalid_api_key"}})  # fmt: skip
        elif kind == "keyansi":
            cut = len(key) // 2
            message = f"upstream refused key \x1b[1;31m{key[:cut]}\x1b[0m{key[cut:]}"
            self._send(500, {"error": {"message": message, "type": "server_error"}})
        else:
            request = json.loads(self.rfile_body or b"{}")
            body = answer(self.path, request)
            # The key whole, or cut by a line wrap with only a prefix on the first line.
            quoted = {
                "keyreply": key,
                "keywrap": f"{key[:12]}\n    {key[12:]}",
                "keyencoded": " / ".join(encoded_key(key)),
            }.get(kind)
            if quoted is not None:
                for choice in body.get("choices", []):
                    choice["message"]["content"] = (
                        f"As your proxy I used the key {quoted}. {choice['message']['content']}"
                    )
                    if kind == "keyencoded":  # the tokens spell it
                        pieces = ["key", " ", *(key[i : i + 5] for i in range(0, len(key), 5))]
                        choice["logprobs"] = {"content": [
                            {"token": p, "logprob": -0.1, "bytes": list(p.encode()),
                             "top_logprobs": [{"token": p, "logprob": -0.1}]}
                            for p in pieces
                        ]}  # fmt: skip
                for item in body.get("output", []):
                    for part in item.get("content", []):
                        part["text"] = f"As your proxy I used the key {quoted}. {part['text']}"
            headers = {"X-Upstream-Key": key} if kind == "keyheader" else {}
            self._send_bytes(200, json.dumps(body).encode(), headers=headers)

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _send(self, status: int, body: dict[str, Any]) -> None:
        self._send_bytes(status, json.dumps(body).encode())

    def _send_bytes(
        self,
        status: int,
        data: bytes,
        content_type: str = "application/json",
        *,
        length: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        """Reply with `data`, its Content-Length stated (`length`, where it should lie)."""
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data) if length is None else length))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        parts = self.path.rstrip("/").split("/")
        if len(parts) >= 2 and parts[-2] == "batches":
            self._send(200, _batches.retrieve(parts[-1]))
            return
        if len(parts) >= 3 and parts[-3] == "files" and parts[-1] == "content":
            self._send_bytes(200, _batches.files[parts[-2]], "application/octet-stream")
            return
        if self.path.rstrip("/").endswith("/models"):
            self._send(200, {"object": "list", "data": [{"id": "stub", "object": "model"}]})
        elif self.path.rstrip("/").endswith("/stats"):
            self._send(200, {"requests": StubHandler.requests})
        else:
            self._send(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        body = self.rfile.read(length)
        if self.path.rstrip("/").endswith("/files"):
            self._send(200, _batches.upload(self.headers.get("Content-Type", ""), body))
            return
        if self.path.rstrip("/").endswith("/batches"):
            self._send(200, _batches.create(json.loads(body)))
            return
        request = json.loads(body or b"{}")
        self.rfile_body = body
        time.sleep(StubHandler.latency())
        with StubHandler.lock:
            StubHandler.requests += 1
            number = StubHandler.requests
            StubHandler.headers_seen.append({k.lower(): v for k, v in self.headers.items()})
        if self._fail(self.fault(number)):
            return
        self._send(200, answer(self.path, request))


class StubServer(ThreadingHTTPServer):
    """The stub's HTTP server: a client gone mid-reply (a command that stopped or was
    cancelled) is no error; any other is told on the process's own stderr, never into a
    command's output that a test captures in the same process."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        print(f"stub server: error answering {client_address}", file=sys.__stderr__)
        traceback.print_exc(file=sys.__stderr__)


def serve(
    port: int,
    delay: float,
    reply: Callable[[list[dict[str, Any]]], str] = canned_reply,
    fault: Callable[[int], Fault] = lambda n: "ok",
) -> StubServer:
    """Start the server in a background thread on 127.0.0.1 and return it (stop it with
    `shutdown()` and `server_close()`). `fault(n)` decides what happens to the n-th chat
    request (1-based, counted since the process started)."""
    StubHandler.delay = delay
    StubHandler.latency = staticmethod(lambda: StubHandler.delay)
    StubHandler.reply = staticmethod(reply)
    # The fault schedule belongs to this server: a request a stopped server is still
    # answering must not consume the schedule of the next one on the same port.
    handler = type("ScheduledStubHandler", (StubHandler,), {"fault": staticmethod(fault)})
    server = StubServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def realistic(seed: int = 0) -> tuple[Callable[[], float], Callable[[int], Fault]]:
    """A provider's latency and faults: log-normal latency with mean 0.8 s and 1% of calls
    over 5 s; 2% 429 (Retry-After 1 s), 0.5% 500, 0.2% dropped connections."""
    import numpy as np
    from scipy.stats import lognorm, norm

    # mean = exp(mu + s^2/2) = 0.8 and P(X > 5) = 0.01 give s^2/2 - z s + ln(5/0.8) = 0.
    z = norm.ppf(0.99)
    sigma = z - float(np.sqrt(z * z - 2 * np.log(5 / 0.8)))
    mu = float(np.log(0.8)) - sigma * sigma / 2
    assert abs(lognorm.mean(sigma, scale=np.exp(mu)) - 0.8) < 1e-9
    rng = np.random.default_rng(seed)
    lock = threading.Lock()

    def latency() -> float:
        with lock:
            return float(rng.lognormal(mu, sigma))

    def fault(_: int) -> Fault:
        with lock:
            draw = rng.random()
        return "429" if draw < 0.02 else "500" if draw < 0.025 else "drop" if draw < 0.027 else "ok"

    return latency, fault


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--delay", type=float, default=0.2)
    parser.add_argument(
        "--realistic", action="store_true", help="log-normal latency (mean 0.8 s) and faults"
    )
    args = parser.parse_args()
    if args.realistic:
        latency, fault = realistic()
        serve(args.port, 0.8, fault=fault)
        StubHandler.latency = staticmethod(latency)
    else:
        serve(args.port, args.delay)
    print(f"stub server on http://127.0.0.1:{args.port}/v1", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
