"""A minimal driver for headless Chromium over the DevTools protocol on a pipe (standard library
only: ``--remote-debugging-pipe`` reads commands on fd 3 and writes replies on fd 4, each a JSON
message ended by a NUL byte)."""

from __future__ import annotations

import json
import os
import select
import subprocess
import tempfile
import time

#: Seconds to wait for one reply from Chromium before giving up (a hung browser must not hang CI).
TIMEOUT = 30.0


class Browser:
    def __init__(self, executable: str, timeout: float = TIMEOUT) -> None:
        self.executable = executable
        self.timeout = timeout
        self.next_id = 0
        self.session: str | None = None

    def __enter__(self) -> Browser:
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        self._profile = tempfile.TemporaryDirectory()

        def plumb() -> None:  # in the child: the pipes become fds 3 and 4
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.process = subprocess.Popen(
            [
                self.executable,
                "--headless=new",
                "--remote-debugging-pipe",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                f"--user-data-dir={self._profile.name}",
                "about:blank",
            ],
            preexec_fn=plumb,
            pass_fds=(3, 4, to_browser_r, from_browser_w),  # 3, 4 survive close_fds
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.call("Page.enable")
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.call("Browser.close", _session=False)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        os.close(self._to_browser)
        os.close(self._from_browser)
        self._profile.cleanup()

    def call(self, method: str, _session: bool = True, **params) -> dict:
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if _session and self.session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout  # for the reply, however many events come first
        while True:
            reply = self._read(deadline, method)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def _read(self, deadline: float, method: str) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._from_browser], [], [], max(left, 0))
            if not ready:
                raise TimeoutError(f"{method}: no reply from Chromium in {self.timeout:g} s")
            chunk = os.read(self._from_browser, 65536)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def open(self, url: str) -> None:
        self.call("Page.navigate", url=url)

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"]["value"]
