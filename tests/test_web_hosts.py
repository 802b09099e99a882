"""``serve --host``: a server beyond loopback answers its own addresses (and refuses other names,
so DNS rebinding still fails), a loopback one only 127.0.0.1 and localhost; the share link says
where it works; the command warns in one line."""

from __future__ import annotations

import http.client
import json
import signal
import subprocess
import sys
from typing import Any

import pytest

from boardpuzzles.web.app import make_app
from boardpuzzles.web.hosts import HostRules, is_loopback, split_host
from tests.threads import serve_in_background


@pytest.mark.parametrize(
    ("host", "split"),
    [
        ("127.0.0.1:8016", ("127.0.0.1", "8016")),
        ("localhost", ("localhost", "")),
        ("[::1]:80", ("::1", "80")),
        ("[::1]", ("::1", "")),
        ("a:b", None),
        ("::1", None),  # an IPv6 address without its brackets is not a Host
        ("[::1]x", None),
    ],
)
def test_host_headers_are_split_into_name_and_port(host: str, split: tuple[str, str] | None) -> None:
    assert split_host(host) == split


def test_loopback_addresses() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("127.0.0.2") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5") and not is_loopback("example.org")


def test_a_loopback_server_answers_only_its_local_names() -> None:
    rules = HostRules("127.0.0.1", 8016)
    assert rules.accepts_host("127.0.0.1:8016") and rules.accepts_host("LOCALHOST") and rules.accepts_host("[::1]:8016")
    assert not rules.accepts_host("192.168.1.5:8016") and not rules.accepts_host("evil.example")
    assert rules.accepts_origin("http://localhost:8016") and not rules.accepts_origin("http://localhost:8017")
    assert not rules.accepts_origin("http://127.0.0.1:8016/page") and not rules.accepts_origin(
        "http://a@127.0.0.1:8016"
    )
    assert rules.shared_at("127.0.0.1:8016") is None


def test_a_server_beyond_loopback_answers_addresses_and_its_own_names() -> None:
    rules = HostRules("0.0.0.0", 8016)
    assert rules.accepts_host("192.168.1.5:8016") and rules.accepts_host("[fe80::1]:8016")
    assert rules.accepts_host("127.0.0.1:8016") and not rules.accepts_host("evil.example:8016")
    assert rules.accepts_origin("http://192.168.1.5:8016") and not rules.accepts_origin("http://evil.example:8016")
    assert rules.shared_at("192.168.1.5:8016") == "http://192.168.1.5:8016"
    assert rules.shared_at("localhost:8016") == f"http://{rules.network_address()}:8016"  # not a loopback name
    assert HostRules("192.168.1.5", 80).shared_at("127.0.0.1") == "http://192.168.1.5:80"


def call(port: int, method: str, path: str, host: str, body: Any = None, origin: str | None = None) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Host": host, "Content-Type": "application/json"}
    if origin is not None:
        headers["Origin"] = origin
    connection.request(method, path, None if body is None else json.dumps(body), headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, json.loads(data) if "json" in (response.getheader("Content-Type") or "") else data


def test_a_server_on_every_address_answers_a_visitor_at_its_address_with_a_link_that_works_there() -> None:
    server = make_app(0, warm=False, host="0.0.0.0")
    serve_in_background(server)
    try:
        port = server.server_address[1]
        at = f"192.0.2.7:{port}"  # a visitor's view of this computer's address
        status, state = call(port, "POST", "/api/kings/new", at, {"size": 4, "seed": 2}, f"http://{at}")
        assert status == 200, state
        assert state["share"] == {"link": f"http://{at}/play/kings?size=4", "reach": "devices on your network"}
        assert call(port, "GET", "/", f"evil.example:{port}")[0] == 403  # a rebound name
        assert call(port, "POST", "/api/kings/new", at, {}, "http://evil.example")[0] == 403
    finally:
        server.shutdown()
        server.server_close()


def test_serve_beyond_loopback_says_where_and_warns_in_one_line(tmp_path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "boardpuzzles", "serve", "--host", "0.0.0.0", "--port", "0", "--games", ":memory:"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        lines = [process.stderr.readline() for _ in range(2)]
        while lines[0].startswith(("preparing", "compiling")):
            lines = [*lines[1:], process.stderr.readline()]
    finally:
        process.terminate()
        process.communicate(timeout=30)
    assert lines[0].startswith("Board puzzles on http://") and "devices on your network" in lines[0]
    assert lines[1].startswith("boardpuzzles serve: warning: listening on 0.0.0.0:"), lines


def test_serve_help_offers_host() -> None:
    from click.testing import CliRunner

    from boardpuzzles.cli import cli

    assert "--host ADDRESS" in CliRunner().invoke(cli, ["serve", "--help"]).output
    assert "--host ADDRESS" in CliRunner().invoke(cli, ["baikago", "serve", "--help"]).output


def test_stopped_is_a_servers_last_word_though_its_warm_up_compiled(monkeypatch, capsys) -> None:
    # With the kernels not yet cached, the warm-up compiles them while the server serves, and the
    # command line ended with "compiled the kernels in 9.1 s (once; cached)" after "stopped".
    import importlib
    import time

    from boardpuzzles import cli, compiling
    from boardpuzzles.web import app

    serve_command = importlib.import_module("boardpuzzles.cli.serve")  # the module, not the command

    class WarmingServer:
        def serve_forever(self) -> None:
            compiling.began()  # the warm-up's compiling, in this test without a kernel
            time.sleep(0.01)
            compiling.ended()
            raise KeyboardInterrupt  # Ctrl-C

        def server_close(self) -> None:
            pass

    monkeypatch.setattr(app, "make_app", lambda *args, **kwargs: WarmingServer())
    monkeypatch.setattr(serve_command, "_say_where", lambda *args: None)
    with pytest.raises(SystemExit) as ended:
        cli.main(["serve", "--port", "0", "--games", ":memory:"])
    assert ended.value.code == 0
    assert capsys.readouterr().err == "stopped\n"


def test_serve_stops_on_ctrl_c_as_its_help_says() -> None:
    """Ctrl-C is the documented way to stop a server: one word, exit 0 (not "error:
    interrupted", 130). A kill (SIGTERM) stops it quietly, exit 0 too."""
    for stop, said in ((signal.SIGINT, "stopped\n"), (signal.SIGTERM, "")):
        process = subprocess.Popen(
            [sys.executable, "-m", "boardpuzzles", "serve", "--port", "0", "--games", ":memory:"],
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert process.stderr is not None
            line = process.stderr.readline()
            while line.startswith(("preparing", "compiling")):
                line = process.stderr.readline()
            assert line.startswith("Board puzzles on http://127.0.0.1:"), line
            port = int(line.split(":")[2].split("/")[0])
            assert call(port, "GET", "/", f"127.0.0.1:{port}")[0] == 200  # serving, not still starting
            process.send_signal(stop)
            process.wait(timeout=60)
            rest = process.stderr.read()
        finally:
            process.kill()
        assert (process.returncode, rest) == (0, said)
