"""Checkpoints of df-pn searches: the binary file of their transposition tables
(:class:`TableFile`), saved when a run stops or ends and continued from by a later run with the
same file (see :mod:`boardpuzzles.puzzles.baikago.solve` for why a loaded table cannot make a
wrong answer)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardpuzzles.checkpoint import CheckpointError, canonical, check_path, digest, identity_difference
from boardpuzzles.files import replace_file
from boardpuzzles.puzzles.baikago.dfpn import PAIRING_BUDGET, WHOLE_GAME, Search
from boardpuzzles.puzzles.baikago.rules import COLOUR_NAMES, Colour, Rules

#: The first bytes of a checkpoint file (:class:`TableFile`), and the layout it announces.
TABLE_MAGIC = b"BPdfpn\r\n\x1a\n"
TABLE_FILE_FORMAT = "baikago-dfpn-tables/1"


@dataclass
class SavedSearch:
    """One search as a checkpoint holds it."""

    result: tuple[int, int] | None
    stats: list[int]
    seconds: float
    slots: np.ndarray
    arrays: tuple[np.ndarray, ...]
    tt_bits: int  #: the table it was saved from had 2**tt_bits slots

    def apply(self, search: Search) -> None:
        if search.tt_bits == self.tt_bits:
            search.restore(self.slots, self.arrays)
        else:  # continued with another --tt-bits
            search.place(self.arrays)
        search.stats[:] = self.stats
        search.stats[1] = 0
        search.result = self.result
        search.seconds = self.seconds


#: The arrays of one saved search, in file order: slots, then tt_key, tt_pn, tt_dn, tt_work, tt_flag.
_ARRAY_TYPES = ("<u4", "<u8", "<i8", "<i8", "<i8", "i1")
#: The bytes of one saved entry, and what a file spends besides its entries at most (its mark,
#: header and checksum: a header is well under a kilobyte).
ENTRY_BYTES = sum(np.dtype(dtype).itemsize for dtype in _ARRAY_TYPES)
FILE_OVERHEAD_BYTES = 4096


def _as_options(identity: dict[str, Any]) -> dict[str, Any]:
    """A table's identity as the command line spells it: the options and their values, then
    what no option sets (the start position, the keys and the table's layout)."""
    rules = identity.get("rules")
    rules = rules if isinstance(rules, dict) else {}
    size, sides = rules.get("size"), identity.get("attackers")
    budget = identity.get("pairing_budget")
    shown: dict[str, Any] = {
        "board": f"{size}x{size}" if isinstance(size, int) else size,
        "--max-d": "any" if rules.get("max_d") is None else rules["max_d"],
        "--orientations": rules.get("orientations"),
        "--side": ("both" if len(sides) == 2 else sides[0]) if isinstance(sides, list) and sides else sides,
        "--pairings": None if budget is None else "on" if budget else "off",
        "--tt-bits": identity.get("tt_bits"),
        "--threats-from": "off" if identity.get("threats_from") is None else identity["threats_from"],
        "--after": _moves_to(identity.get("start"), size),
    }
    rest = ("puzzle", "search", "file", "table", "bucket", "zobrist")
    shown.update({f"table format ({key})": identity.get(key) for key in rest})
    return shown


#: What ``_moves_to`` gives for a start that moves reach: point names and commas, or ``NO_MOVES``.
NO_MOVES = "no moves"
MOVES = re.compile(rf"{NO_MOVES}|[a-z]+[0-9]+(,[a-z]+[0-9]+)*")


def _moves_to(start: Any, size: Any) -> Any:
    """Moves that reach the start position ``start`` (a picture), black's and white's stones in
    turn, as ``--after`` spells them (``NO_MOVES`` for the empty board); the picture itself when
    none do (it is not one of ``size``). ``--after`` judges only the position its moves reach (a
    cross filled there is refused), not the order of its stones, so any order serves."""
    if type(size) is not int or not isinstance(start, str) or len(start) != size * size:
        return start
    black = [p for p, mark in enumerate(start) if mark == "X"]
    white = [p for p, mark in enumerate(start) if mark == "O"]
    if len(black) - len(white) not in (0, 1) or len(black) + len(white) + start.count(".") != len(start):
        return start
    if not black:
        return NO_MOVES
    name = Rules(size).grid.name
    return ",".join(name(p) for pair in zip(black, [*white, None], strict=False) for p in pair if p is not None)


def continuing_command(identity: dict[str, Any], here: dict[str, Any], path: str) -> str | None:
    """The command that continues a checkpoint of ``identity`` (``here``: this version's identity
    of some search); None when no command line can: another layout of the table (or other keys
    for the same rules), or a start position that no moves reach. A start is given as moves
    (``--after``), black's and white's stones in turn."""
    options = _as_options(identity)
    layout = ("puzzle", "search", "file", "table", "bucket") + (
        ("zobrist",) if identity.get("rules") == here.get("rules") else ()
    )
    if any(identity.get(key) != here.get(key) for key in layout):
        return None
    if identity.get("pairing_budget") not in (0, PAIRING_BUDGET):  # no option sets another
        return None
    size = identity.get("rules", {}).get("size") if isinstance(identity.get("rules"), dict) else None
    after = options["--after"]
    if type(size) is not int or not isinstance(after, str) or not MOVES.fullmatch(after):
        return None
    words = ["boardpuzzles", "baikago", "solve", str(size), "--side", str(options["--side"])]
    if after != NO_MOVES:
        words += ["--after", after]
    if options["--max-d"] != "any":
        words += ["--max-d", str(options["--max-d"])]
    if options["--orientations"] != "+x":
        words += ["--orientations", str(options["--orientations"])]
    if options["--pairings"] == "off":
        words.append("--no-pairings")
    if options["--threats-from"] != "off":
        words += ["--threats-from", str(options["--threats-from"])]
    words += ["--tt-bits", str(options["--tt-bits"]), "--checkpoint", path]
    return shlex.join(words)


class TableFile:
    """A checkpoint of df-pn searches: one binary file, written whole and atomically.

    Layout: ``TABLE_MAGIC``; the header's length (8 bytes, little-endian); the header (JSON:
    ``format``, the search's ``identity`` and its ``identity_digest``, who made it and when, the
    ``size_bound`` its entries were chosen for or null, and per search its attacker, result,
    node counts, seconds and number of entries); per search its occupied slots and, at those
    slots, its five table arrays (``_ARRAY_TYPES``); the SHA-256 of everything before it (32
    bytes). A file is *ours* when it starts with ``TABLE_MAGIC``;
    anything else that is not empty is refused and never written over (an SQLite count
    checkpoint included). Ours but with a checksum that fails, another layout, or another
    identity: refused too, and left as it is."""

    def __init__(self, path: str, identity: dict[str, Any]) -> None:
        self.path = path
        self.identity = identity
        self.identity_digest = digest(identity)
        #: The file as this run found it or last wrote it: a write refuses to replace a file that
        #: another run has written since.
        self._seen = self._signature()
        #: The most bytes the file was saved to keep (``--checkpoint-size``), None for every
        #: entry or no file: known once :meth:`read` found one.
        self.bound: int | None = None

    def _signature(self) -> tuple[int, ...] | None:
        """Which file is at the path now (device, inode, size, time written); None: no file."""
        try:
            status = os.stat(os.path.realpath(self.path))
        except OSError:
            return None
        return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)

    def _ours(self, head: bytes) -> None:
        """Refuse a non-empty file that does not start as ours."""
        if head.startswith(TABLE_MAGIC):
            return
        if head.startswith(b"SQLite format 3"):
            kind = "an SQLite database (a count's checkpoint, or another program's)"
        else:
            kind = "not a boardpuzzles search checkpoint"
        raise CheckpointError(f"{self.path} is {kind}; refusing to touch it")

    def read(self) -> dict[Colour, SavedSearch] | None:
        """The saved searches; None when there is no file yet (or an empty one)."""
        path = self.path
        if not check_path(path):
            return None
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as err:
            raise CheckpointError(f"cannot read checkpoint {path}: {err.strerror}") from None
        if not data:
            return None
        self._ours(data[:32])
        if not os.access(path, os.W_OK):
            raise CheckpointError(f"cannot write checkpoint {path}: permission denied")
        damaged = f"checkpoint {path} is damaged"
        body, checksum = memoryview(data)[:-32], data[-32:]
        at = len(TABLE_MAGIC) + 8
        if len(data) < at + 32 or hashlib.sha256(body).digest() != checksum:
            raise CheckpointError(f"{damaged} (its checksum does not match); use a new file")
        length = int.from_bytes(body[len(TABLE_MAGIC) : at], "little")
        try:
            header = json.loads(bytes(body[at : at + length]).decode("ascii"))
        except (UnicodeError, ValueError, RecursionError):  # RecursionError: nested too deep to parse
            raise CheckpointError(f"{damaged} (unreadable header); use a new file") from None
        if not isinstance(header, dict):
            raise CheckpointError(f"{damaged} (unreadable header); use a new file")
        if header.get("format") != TABLE_FILE_FORMAT:
            raise CheckpointError(
                f"checkpoint {path} has another layout ({str(header.get('format'))[:40]}, this version reads "
                f"{TABLE_FILE_FORMAT}); use a new file"
            )
        #: The table size the file was saved with (a search continues with any: see ``_resized``).
        self.saved_tt_bits = int(self.identity["tt_bits"])
        #: How many table entries the file holds (of all its searches).
        self.saved_entries = 0
        if header.get("identity_digest") != self.identity_digest:
            if not self._resized(header):
                raise CheckpointError(f"checkpoint {path} {self._difference(header.get('identity'))}; use a new file")
        try:
            bound = header.get("size_bound")
            if bound is not None and (type(bound) is not int or bound < 1):
                raise ValueError("size bound")
            found = self._searches(header, body, at + length)
            self.bound = bound
            return found
        except (KeyError, TypeError, ValueError) as err:
            raise CheckpointError(f"{damaged} ({str(err)[:60]}); use a new file") from None

    def _resized(self, header: dict[str, Any]) -> bool:
        """Whether the file is this search's with another table size (``--tt-bits``): a table
        is a cache of values keyed by position, so its entries move into a table of any size
        (``SavedSearch.apply``)."""
        stored = header.get("identity")
        if not isinstance(stored, dict) or digest(stored) != header.get("identity_digest"):
            return False
        bits = stored.get("tt_bits")
        others = {key: value for key, value in stored.items() if key != "tt_bits"}
        if type(bits) is not int or not 10 <= bits <= 30:
            return False
        if others != {key: value for key, value in self.identity.items() if key != "tt_bits"}:
            return False
        self.saved_tt_bits = bits
        return True

    def _difference(self, stored: Any) -> str:
        """What the file was made for, where it differs from this search, in the terms of the
        command line (``--side black, here both``), and the options that continue it."""
        if isinstance(stored, dict):
            theirs, ours = _as_options(stored), _as_options(self.identity)
            theirs.pop("--tt-bits")  # any table size continues (see ``_resized``)
            ours.pop("--tt-bits")
            if theirs["board"] != ours["board"]:  # then the start and the keys differ too: no news
                for follows in ("--after", "table format (zobrist)"):
                    theirs.pop(follows)
                    ours.pop(follows)
            found = identity_difference(theirs, ours)
            if found is not None:
                command = continuing_command(stored, self.identity, self.path)
                fits = f": `{command}` continues it" if command else ""
                return f"was made for another search ({found}){fits}"
        return "was made for another search"

    def _searches(self, header: dict[str, Any], body: memoryview, offset: int) -> dict[Colour, SavedSearch]:
        from boardpuzzles._kernels import baikago_solve as kernels

        size = 1 << self.saved_tt_bits
        names = {name: colour for colour, name in COLOUR_NAMES.items()}
        found: dict[Colour, SavedSearch] = {}
        for entry in header["searches"]:
            attacker = names[entry["attacker"]]
            if attacker in found or entry["attacker"] not in self.identity["attackers"]:
                raise ValueError(f"search of {entry['attacker']} out of place")
            count = int(entry["entries"])
            if not 0 <= count <= size:
                raise ValueError(f"{count} entries")
            arrays = []
            for dtype in _ARRAY_TYPES:
                array = np.frombuffer(body, dtype=dtype, count=count, offset=offset)
                offset += array.nbytes
                arrays.append(array)
            slots, keys = arrays[0].astype(np.int64), arrays[1]
            base = (keys & np.uint64(size - kernels.BUCKET)).astype(np.int64)
            if (
                np.any(slots >= size)
                or np.any(keys == 0)
                or np.any((slots < base) | (slots >= base + kernels.BUCKET))
                or len(np.unique(slots)) != count
            ):
                raise ValueError("entries out of place")
            self.saved_entries += count
            result = entry["result"]
            stats = [int(v) for v in entry["stats"]]
            if len(stats) != 4 or min(stats) < 0 or (result is not None and (len(result) != 2 or 0 not in result)):
                raise ValueError("bad counts")
            found[attacker] = SavedSearch(
                None if result is None else (int(result[0]), int(result[1])),
                stats,
                float(entry["seconds"]),
                slots,
                tuple(arrays[1:]),
                self.saved_tt_bits,
            )
        if offset != len(body):
            raise ValueError("length")
        return found

    def write(self, searches: Mapping[Colour, Search], bound: int | None = None) -> None:
        """Save the searches, by attacker (temporary file in the same folder, then a rename).
        A search other than the one the file's identity names is refused: a threat-space
        search's disproofs are not the whole game's, so a file holds one kind, bound to its
        ``threats_from``. A search with ``checkpoint_entries`` keeps only that
        many entries, those its table would give up last (``Search.entries``); a later run
        searches again what was left out. ``bound``: the size those entries were chosen for,
        kept in the header (``size_bound``) so that a run that continues the file keeps it."""
        bound_to = self.identity.get("threats_from", WHOLE_GAME)
        if any(search.threats_from != bound_to for search in searches.values()):
            raise ValueError("a checkpoint holds only the search its identity names")
        path = self.path
        real = os.path.realpath(path)
        if check_path(real):  # again: never write over a file that appeared and is not ours
            try:
                with open(real, "rb") as handle:
                    head = handle.read(32)
            except OSError as err:
                raise CheckpointError(f"cannot read checkpoint {path}: {err.strerror}") from None
            if head:
                self._ours(head)
        header, parts = self._contents(searches, bound)

        def chunks() -> Iterator[bytes | memoryview]:
            """The file's bytes, then their SHA-256."""
            checksum = hashlib.sha256()
            for chunk in (TABLE_MAGIC, len(header).to_bytes(8, "little"), header):
                checksum.update(chunk)
                yield chunk
            for part in parts:
                for array, dtype in zip(part, _ARRAY_TYPES, strict=True):
                    data = np.ascontiguousarray(array, dtype=dtype).data
                    checksum.update(data)
                    yield data
            yield checksum.digest()

        if self._signature() != self._seen:
            # Two runs on one file: the first to save keeps its search, and this one says so
            # instead of overwriting it and claiming its own was kept.
            raise CheckpointError(
                f"checkpoint {path} was written by another run while this one ran; this run's search is not "
                "kept (give each run its own file)"
            )
        try:
            replace_file(real, chunks(), sync=True)
        except OSError as err:  # a full disk: the previous file stays
            raise CheckpointError(f"cannot write checkpoint {path}: {err.strerror or err}") from None
        self._seen = self._signature()
        self.bound = bound

    def _contents(
        self, searches_by_attacker: Mapping[Colour, Search], bound: int | None
    ) -> tuple[bytes, list[tuple[np.ndarray, ...]]]:
        """The header (canonical JSON) and, per search, the occupied slots and table arrays it
        keeps."""
        from boardpuzzles import __version__

        parts = []
        searches = []
        for attacker, search in searches_by_attacker.items():
            arrays = search.entries(search.checkpoint_entries)
            parts.append(arrays)
            searches.append(
                {
                    "attacker": COLOUR_NAMES[attacker],
                    "result": None if search.result is None else list(search.result),
                    "stats": [int(v) for v in search.stats],
                    "seconds": round(search.seconds, 3),
                    "entries": len(arrays[0]),
                }
            )
        header = canonical(
            {
                "format": TABLE_FILE_FORMAT,
                "identity": self.identity,
                "identity_digest": self.identity_digest,
                "made_by": f"boardpuzzles {__version__}",
                "saved": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "searches": searches,
                "size_bound": bound,
            }
        ).encode("ascii")
        return header, parts
