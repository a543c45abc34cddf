"""`medhalbench` commands for tests, each in a process of its own, without paying Python's and
the SDKs' imports each time: one warm server process imports the CLI and what its commands
run (inspect, the provider SDKs) once, and forks a fresh process per command.

A test runs `[*warm_cli, ARGS...]` where it would run `[sys.executable, "-m",
"medhalbench.cli", ARGS...]`: that starts this file as a launcher (`python -S -E`, standard
library only, a few milliseconds), which hands the server its own stdin, stdout and stderr,
its working folder, arguments and environment. The forked process runs the CLI's `main()`
on those streams as the command's own process would (exit code, atexit handlers, streams
flushed), and the launcher forwards the signals it receives to it and ends as it ended: by
its exit code, or by the same signal. So `subprocess.run`/`Popen` with pipes, timeouts,
`send_signal` and `terminate` work as on the real command.

What stays for real processes (the installed entry point): a controlling terminal, `kill -9`
of the command (a killed launcher cannot forward it), and start-up itself.

Files: `python warm_cli.py --serve SOCKET` is the server; `python -S -E warm_cli.py SOCKET
ARGS...` the launcher.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys

FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1)
"""Signals the launcher passes on to the command's process."""
_STREAMS = 3


def _receive_line(stream: socket.socket) -> bytes:
    line = b""
    while not line.endswith(b"\n"):
        chunk = stream.recv(1)
        if not chunk:
            raise ConnectionError("the warm CLI server closed the connection")
        line += chunk
    return line


def launch(address: str, args: list[str]) -> None:
    """The launcher: run `medhalbench ARGS` in a process forked by the server at `address`,
    on this process's streams, and end as it ends."""
    # The signals this process was started ignoring: the command's process ignores them too,
    # as a process started in its place would. The others are passed on from the start: one
    # that comes before the command's process is known waits for it.
    ignored = [int(n) for n in FORWARDED if signal.getsignal(n) == signal.SIG_IGN]
    command: list[int] = []
    waiting: list[int] = []

    def forward(received: int, _: object) -> None:
        if command:
            os.kill(command[0], received)
        else:
            waiting.append(received)

    for number in FORWARDED:
        if number not in ignored:
            signal.signal(number, forward)
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(address)
    request = json.dumps(
        {"args": args, "cwd": os.getcwd(), "env": dict(os.environ), "ignored": ignored}
    ).encode()
    socket.send_fds(client, [b"."], list(range(_STREAMS)))
    client.sendall(len(request).to_bytes(8, "big") + request)
    command.append(int(_receive_line(client)))
    for number in waiting:
        os.kill(command[0], number)
    ended = int(_receive_line(client))
    if ended < 0:  # ended by a signal: so does the launcher
        for number in FORWARDED:
            signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), -ended)
    sys.exit(ended)


def _warm_imports() -> None:
    # What the commands import before they do anything: the CLI, inspect's eval and
    # providers, the SDKs. Nothing here may start a thread (the server forks).
    import inspect_ai._eval.eval  # noqa: F401
    import inspect_ai.model._providers.openai_compatible  # noqa: F401
    import openai  # noqa: F401

    import medhalbench.cli  # noqa: F401
    import medhalbench.dahl  # noqa: F401
    import medhalbench.medhal  # noqa: F401
    import medhalbench.medhallu  # noqa: F401
    from medhalbench.commands._errors import import_sample_modules
    from medhalbench.judging._vocabulary import vocabulary

    import_sample_modules()  # the provider SDKs inspect imports in each sample
    vocabulary()  # the reader's compiled verdict words
    # What inspect loads lazily in each eval: its ACP server's pydantic schema (imported in
    # every eval(), 1.3 s) and its model database (read from YAML on the first lookup).
    # Its control server's app (built once per process) and each benchmark's implementation.
    import inspect_ai.agent._acp.server  # noqa: F401
    from inspect_ai._control import server
    from inspect_ai.model._model_info import _get_model_info_db

    from medhalbench.registry import benchmarks

    _get_model_info_db()
    server._app = server.ControlServer._create_app()
    for entry in benchmarks():
        assert entry.implementation is not None


def _run_command(request: dict[str, object], streams: list[int]) -> None:
    """In the forked process: become the command's process and run it; never returns."""
    import atexit
    import io
    import tempfile

    code: int = 1
    try:
        if hasattr(os, "setsid"):
            os.setsid()  # its own process group, as a command started in a shell
        for target, fd in enumerate(streams):
            os.dup2(fd, target)
            os.close(fd)
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False))
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), line_buffering=True)
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), line_buffering=True)
        os.chdir(str(request["cwd"]))
        os.environ.clear()
        os.environ.update(request["env"])  # type: ignore[arg-type]
        tempfile.tempdir = None  # found again from this environment's TMPDIR
        args = [str(a) for a in request["args"]]  # type: ignore[attr-defined]
        sys.argv = ["medhalbench", *args]
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        ignored = set(request["ignored"])  # type: ignore[call-overload]
        for number in FORWARDED:
            started = signal.default_int_handler if number == signal.SIGINT else signal.SIG_DFL
            signal.signal(number, signal.SIG_IGN if number in ignored else started)
        from medhalbench.cli import main

        try:
            main()
            code = 0
        except SystemExit as ended:
            if ended.code is None:
                code = 0
            elif isinstance(ended.code, int):
                code = ended.code
            else:
                print(ended.code, file=sys.stderr)
                code = 1
        except KeyboardInterrupt:
            code = 130
        except BaseException:  # noqa: BLE001 - an uncaught error ends a process so
            import traceback

            traceback.print_exc()
            code = 1
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
    finally:
        os._exit(code)


def serve(address: str) -> None:
    """The server: import once, then fork a process per launcher that connects."""
    import threading

    _warm_imports()
    assert threading.active_count() == 1, "an import started a thread: forking is unsafe"
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # supervisors are reaped as they end
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(address)
    server.listen(64)
    print("ready", flush=True)
    while True:
        connection, _ = server.accept()
        _, streams, _, _ = socket.recv_fds(connection, 1, _STREAMS)
        size = int.from_bytes(_receive_exactly(connection, 8), "big")
        request = json.loads(_receive_exactly(connection, size))
        if os.fork() == 0:
            # The supervisor: forks the command's process, tells the launcher its pid and
            # then how it ended.
            server.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            pid = os.fork()
            if pid == 0:
                connection.close()
                _run_command(request, streams)
            for fd in streams:
                os.close(fd)
            connection.sendall(f"{pid}\n".encode())
            _, status = os.waitpid(pid, 0)
            connection.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
            os._exit(0)
        connection.close()
        for fd in streams:
            os.close(fd)


def _receive_exactly(stream: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = stream.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the launcher closed the connection")
        data += chunk
    return data


if __name__ == "__main__":
    if sys.argv[1] == "--serve":
        serve(sys.argv[2])
    else:
        launch(sys.argv[1], sys.argv[2:])
