"""The computer's replies of every web game, sharing the cores (:class:`ComputerPool`)."""

from __future__ import annotations

import os
import random
import threading
import time

from boardpuzzles.limits import STOP_TIME, Limits
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles.baikago.ai import MIN_SECONDS, SAFETY_SHARE, STRENGTHS, Choice, ComputerPlayer

#: Transposition-table size (bits) of a web game's computer: 2^14 entries, about 256 KiB.
WEB_TT_BITS = 14
#: The share of its strength's time a reply may spend waiting and thinking.
PROMISE_SHARE = 0.75


def move_random(seed: int | None, ply: int) -> random.Random:
    """The random choices (ties between equal moves) of the computer's move at ``ply`` of a game
    with ``seed``: the same whenever that move is asked for, after a restart too (no seed: fresh)."""
    return random.Random(f"{seed}:{ply}") if seed is not None else random.Random()


class ComputerPool:
    """The computer's replies of every game, sharing the cores: at most ``workers`` searches at
    once (the kernels release the GIL, so one per core keeps them all busy), the rest wait their
    turn in order. Each reply gets what is left of its strength's time since it was asked for,
    shrunk to its share (workers over the replies wanted at once); when more replies are asked
    for, the searches already running are cut to their new share too. So a reply comes within
    about its strength's time: under load the computer thinks less, it does not answer later."""

    def __init__(self, workers: int | None = None) -> None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        self.workers = workers or cores or 1
        self.slots = threading.Semaphore(self.workers)
        self.lock = threading.Lock()
        self.wanted = 0  # replies asked for and not yet answered
        self.running: set[Limits] = set()  # the limits of the searches under way

    def _share(self, seconds: float) -> float:
        """``seconds`` cut to one reply's share of the workers (call with ``lock`` held)."""
        return seconds * self.workers / max(self.workers, self.wanted)

    def _start(self, strength: int, asked: float) -> Limits:
        """The limits of a reply asked for at ``asked`` (``time.monotonic()``) that starts now,
        counted as running: what is left of ``PROMISE_SHARE`` of the strength's time (the rest
        is kept for the move's last safety check, the request and the answer), shared with the
        replies waiting behind it, whose time runs out no sooner."""
        left = PROMISE_SHARE * STRENGTHS[strength].seconds - (time.monotonic() - asked)
        with self.lock:
            limits = Limits(max(MIN_SECONDS, self._share(left) / (1 + SAFETY_SHARE)), force=False)
            self.running.add(limits)
        return limits

    def _cut_running(self) -> None:
        """One more reply is wanted: each running search stops at its new share (lock held)."""
        now = time.monotonic()
        for limits in self.running:
            end = limits.started + self._share(limits.time_limit or 0.0)
            if limits.deadline is not None and end < limits.deadline:
                if end <= now:
                    limits.stop(STOP_TIME)
                else:
                    timer = threading.Timer(end - now, limits.stop, (STOP_TIME,))
                    timer.daemon = True
                    timer.start()

    def choose(self, rules: bk.Rules, strength: int, seed: int | None, board: list[int], turn: bk.Colour) -> Choice:
        asked = time.monotonic()
        with self.lock:
            self.wanted += 1
            self._cut_running()
        try:
            with self.slots:
                limits = self._start(strength, asked)
                try:
                    player = ComputerPlayer(rules, strength, limits.time_limit, tt_bits=WEB_TT_BITS)
                    player.random = move_random(seed, sum(1 for p in board if p))
                    return player.choose(board, turn, limits)
                finally:
                    with self.lock:
                        self.running.discard(limits)
                    limits.close()
        finally:
            with self.lock:
                self.wanted -= 1
