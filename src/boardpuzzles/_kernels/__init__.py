"""All numba code of the project, one module per puzzle; only ``puzzles/`` imports these.

``jit`` is the one place that sets numba options: compiled lazily on first call, cached on disk
(``cache=True``, files never committed), no GIL held. Kernels read no module globals: every table
comes in as an argument. Set ``NUMBA_DISABLE_JIT=1`` to run them as plain Python (the test suite
can run that way, slowly).
"""

from __future__ import annotations

import functools

import numba

jit = functools.partial(numba.njit, cache=True, nogil=True)
