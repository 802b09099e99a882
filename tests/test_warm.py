"""tests/warm.py's launcher behaves as the command it stands for: the examples' tests trust its exit
status, streams, folder and environment, and a signal sent to it reaches the command."""

from __future__ import annotations

import os
import signal
import subprocess
import time

from tests.warm import launcher


def test_the_exit_status_streams_folder_and_environment_are_the_commands(tmp_path):
    program = launcher(tmp_path)
    done = subprocess.run([program, "queens", "count", "6"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "4\n")  # OEIS A000170
    assert done.stderr.startswith("counting placements of 6 queens")
    refused = subprocess.run([program, "queens", "count", "0"], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and refused.stdout == "" and refused.stderr.startswith("boardpuzzles: error:")
    (tmp_path / "board.txt").write_text("Q.\n..\n")
    line = "boardpuzzles queens check board.txt; echo exit $?; boardpuzzles queens count 5 | tr -d '\\n'"
    env = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}", "NO_COLOR": "1"}
    piped = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert piped.stdout.splitlines()[-1].endswith("10")  # the count, through a pipe (OEIS A000170)
    assert piped.stdout.splitlines()[:2] == ["not a solution: 1 queen on a 2x2 board; a solution has 2", "exit 1"]
    shown = subprocess.run(
        [program, "--version"], capture_output=True, text=True, timeout=60, env={**os.environ, "COLUMNS": "7"}
    )
    assert shown.returncode == 0 and shown.stdout.startswith("boardpuzzles ")


def test_a_ctrl_c_sent_to_the_launcher_stops_the_command(tmp_path):
    program = launcher(tmp_path)
    process = subprocess.Popen(
        [program, "queens", "count", "19"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stderr is not None
    process.stderr.readline()  # "counting ...": the command runs
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert out == "" and "interrupted" in err


def test_a_command_killed_is_reported_killed_and_a_launcher_killed_takes_its_command_along(tmp_path):
    import psutil

    def command_of(launcher_process: subprocess.Popen) -> psutil.Process:
        assert launcher_process.stderr is not None
        launcher_process.stderr.readline()  # "counting ...": the command runs
        server = next(p for p in psutil.Process().children() if "serve" in p.cmdline())
        (found,) = [command for handler in server.children() for command in handler.children()]
        return found

    program = launcher(tmp_path)
    process = subprocess.Popen([program, "queens", "count", "19"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    command_of(process).kill()
    _, err = process.communicate(timeout=60)
    assert process.returncode == -signal.SIGKILL and b"Traceback" not in err  # as the command ended
    process = subprocess.Popen([program, "queens", "count", "19"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    running = command_of(process)
    process.kill()  # what a timeout does: nothing can be passed on
    process.communicate(timeout=60)
    running.wait(timeout=10)  # psutil.TimeoutExpired if it runs on
