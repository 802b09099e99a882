"""``python -m boardpuzzles`` and the ``boardpuzzles`` command: the command line.

The command line's modules (click and every puzzle's; numpy and numba load later, when work
needs them) take a moment to load; a Ctrl-C in that moment must end as any other Ctrl-C does
(one line, exit 130), not in a traceback, so the entry point loads them only once it can catch
one.
"""

import sys

#: The CLI's exit code for Ctrl-C (``cli.common.EXIT_INTERRUPTED``), written out here: importing
#: it would load the very modules whose loading this entry point guards.
EXIT_INTERRUPTED = 130


def main() -> int:
    try:
        from boardpuzzles import _ctrl_c

        _ctrl_c.install()  # before the heavy imports: a Ctrl-C inside one must not hang the process
        from boardpuzzles.cli import main as command_line
    except KeyboardInterrupt:
        sys.stderr.write("boardpuzzles: error: interrupted\n")
        return EXIT_INTERRUPTED
    return command_line()


if __name__ == "__main__":
    sys.exit(main())
