"""The store of a frontier sweep kept in shards on disk: one count's layers and leaves, each cut
by a hash of its states into shards, in files that carry the count's identity and checksums.

Glossary
--------
store       A folder (beside the checkpoint, ``CHECKPOINT.open-halves-WxL.shards`` or the like) with ``store.json``:
            the identity of the count and its plan (board, kind, width, shard bits, the squares
            it starts and stops at). A store of another count is refused.
shard       A state's shard is the top ``bits`` bits of a mix of its code
            (``_kernels.tour_sweep.group_of``); a leaf's *piece* the same of its key.
stage       A folder of the store: ``sq-0030`` holds the layer before square 30, ``top`` and
            ``bottom`` the leaves of the two halves.
part        What one task wrote into a stage: ``NAME.npy``, rows of (code, ways) sorted by shard
            (or piece), and ``NAME.json``: where each shard's rows are, the SHA-256 of each
            shard's rows, what the task completed, and a checksum of all that with the store's
            identity. The task's JSON is written last, so a part is there whole or not at all; a
            part that does not verify is refused with its name, never counted.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.checkpoint import canonical, digest
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.files import replace_file, replace_file_with

#: np.load parses a file's header with ast.literal_eval, which on Python 3.11 can fail with
#: "AST constructor recursion depth mismatch" when threads parse at once: one reader at a time.
_HEADER_LOCK = threading.Lock()

#: The layout of a store's files (bumped when it changes: older stores are refused).
STORE_VERSION = 1
STORE_MARK = "boardpuzzles knight's tour shards"


class ShardError(BoardPuzzlesError):
    """A store or a part that cannot be used for this count (one line says why)."""


@dataclass(frozen=True)
class Part:
    """One verified part of a stage: its data file, where each shard's rows are, their SHA-256s,
    and what its task completed."""

    path: str
    bounds: list[int]
    digests: list[str]
    completed: int
    meta: Mapping[str, Any]


def store_folder(checkpoint: str | None, width: int, length: int, paths: bool, by: str) -> str | None:
    """The store beside a checkpoint (``by``: "halves" or "board"); None without a checkpoint."""
    kind = "open" if paths else "closed"
    return None if not checkpoint else f"{checkpoint}.{kind}-{by}-{width}x{length}.shards"


class Store:
    """An open store, bound to one count's identity (see the module's glossary)."""

    def __init__(self, folder: str, identity: Mapping[str, Any]) -> None:
        self.folder = folder
        self.identity = dict(identity)
        self.digest = digest({"mark": STORE_MARK, "version": STORE_VERSION, "identity": self.identity})

    @classmethod
    def open(cls, folder: str, identity: Mapping[str, Any], create: bool = True) -> Store:
        """The store in ``folder``, made when there is none (and ``create``); a store of another
        count, or a damaged one, is refused."""
        store = cls(folder, identity)
        head = os.path.join(folder, "store.json")
        if os.path.exists(head):
            try:
                with open(head, encoding="utf-8") as handle:
                    saved = json.load(handle)
            except (OSError, ValueError) as err:
                raise ShardError(f"{folder} is not a whole store of shards ({err}); remove it") from None
            if not isinstance(saved, dict) or saved.get("mark") != STORE_MARK:
                raise ShardError(f"{folder} is not a store of knight's tour shards; remove it or name another")
            if saved.get("version") != STORE_VERSION or saved.get("digest") != store.digest:
                raise ShardError(f"{folder} holds the shards of another count; remove it or name another")
            return store
        if not create:
            raise ShardError(f"{folder} holds no store of shards")
        os.makedirs(folder, exist_ok=True)
        document = {"mark": STORE_MARK, "version": STORE_VERSION, "identity": store.identity, "digest": store.digest}
        replace_file(head, [canonical(document).encode()], sync=True)
        return store

    @staticmethod
    def exists(folder: str | None) -> bool:
        return folder is not None and os.path.exists(os.path.join(folder, "store.json"))

    # ------------------------------------------------------------------ writing
    def stage(self, name: str) -> str:
        path = os.path.join(self.folder, name)
        os.makedirs(path, exist_ok=True)
        return path

    def write_part(self, stage: str, name: str, rows: np.ndarray, bounds: np.ndarray, completed: int = 0) -> None:
        """Write one task's part: ``rows`` sorted by shard, shard k's rows ``bounds[k]:bounds[k+1]``."""
        folder = self.stage(stage)
        data = os.path.join(folder, f"{name}.npy")
        rows = np.ascontiguousarray(rows, dtype="<i8")
        replace_file_with(data, lambda handle: np.save(handle, rows, allow_pickle=False), sync=True)
        edges = [int(b) for b in bounds]
        meta = {
            "stage": stage,
            "part": name,
            "rows": len(rows),
            "bounds": edges,
            "digests": [
                self._rows_digest(stage, name, k, rows[edges[k] : edges[k + 1]]) for k in range(len(edges) - 1)
            ],
            "completed": int(completed),
        }
        meta["check"] = self._meta_check(meta)
        # Its data is on disk before its record is written (the record is the sign of a whole part).
        replace_file(os.path.join(folder, f"{name}.json"), [canonical(meta).encode()])

    def _rows_digest(self, stage: str, name: str, shard: int, rows: np.ndarray) -> str:
        checksum = self._rows_checksum(stage, name, shard)
        checksum.update(np.ascontiguousarray(rows, dtype="<i8").data)
        return checksum.hexdigest()

    def _rows_checksum(self, stage: str, name: str, shard: int) -> hashlib._Hash:
        """The SHA-256 of a shard's rows of one part, before the rows (bound to the store, the
        stage, the part and the shard)."""
        return hashlib.sha256(f"{self.digest}\x00{stage}\x00{name}\x00{shard}\x00".encode())

    def _meta_check(self, meta: Mapping[str, Any]) -> str:
        body = {k: v for k, v in meta.items() if k != "check"}
        return hashlib.sha256(f"{self.digest}\x00{canonical(body)}".encode()).hexdigest()

    # ------------------------------------------------------------------ reading
    def parts(self, stage: str, prefix: str = "") -> dict[str, Part]:
        """The finished parts of a stage (whose names start with ``prefix``), by name, each
        checked against its identity (not yet its rows: those are checked as they are read)."""
        folder = os.path.join(self.folder, stage)
        found: dict[str, Part] = {}
        if not os.path.isdir(folder):
            return found
        for entry in sorted(os.listdir(folder)):
            if entry.endswith(".json") and entry.startswith(prefix) and not entry.startswith("."):
                name = entry[: -len(".json")]
                found[name] = self._part(stage, name)
        return found

    def _part(self, stage: str, name: str) -> Part:
        path = os.path.join(self.folder, stage, f"{name}.json")
        refused = f"shard part {path} does not verify"
        try:
            with open(path, encoding="utf-8") as handle:
                meta = json.load(handle)
        except (OSError, ValueError) as err:
            raise ShardError(f"{refused} ({err}); remove it to redo its task") from None
        if not isinstance(meta, dict) or meta.get("check") != self._meta_check(meta):
            raise ShardError(f"{refused} (a part of another count, or edited); remove it to redo its task")
        if meta.get("stage") != stage or meta.get("part") != name:
            raise ShardError(f"{refused} (it belongs to another stage); remove it to redo its task")
        data = os.path.join(self.folder, stage, f"{name}.npy")
        return Part(data, list(meta["bounds"]), list(meta["digests"]), int(meta["completed"]), meta)

    def read(self, stage: str, part: Part, shard: int) -> np.ndarray:
        """Shard ``shard``'s rows of one part, checked against their SHA-256."""
        whole = part.bounds[shard + 1] - part.bounds[shard]
        chunks = list(self.read_in_chunks(stage, part, shard, whole))
        return chunks[0] if len(chunks) == 1 else np.empty((0, 2), np.int64)

    def read_in_chunks(self, stage: str, part: Part, shard: int, most_rows: int) -> Iterator[np.ndarray]:
        """Shard ``shard``'s rows of one part, ``most_rows`` at a time (so that reading holds no
        more than that), checked against their SHA-256 as they go: a mismatch is raised after the
        last chunk, so a caller keeps nothing it read before the error (it is a task's input)."""
        lo, hi = part.bounds[shard], part.bounds[shard + 1]
        name = os.path.basename(part.path)[: -len(".npy")]
        checksum = self._rows_checksum(stage, name, shard)
        try:
            with _HEADER_LOCK:
                rows = np.load(part.path, mmap_mode="r", allow_pickle=False)
            if rows.ndim != 2 or rows.shape != (part.bounds[-1], 2) or rows.dtype != np.dtype("<i8"):
                raise ValueError("unexpected array")
        except (OSError, ValueError) as err:
            raise ShardError(f"shard part {part.path} cannot be read ({err}); remove it and its .json") from None
        for at in range(lo, hi, max(1, most_rows)):
            try:
                chunk = np.array(rows[at : min(hi, at + max(1, most_rows))], dtype=np.int64)
            except (OSError, ValueError) as err:
                raise ShardError(f"shard part {part.path} cannot be read ({err}); remove it and its .json") from None
            checksum.update(np.ascontiguousarray(chunk, dtype="<i8").data)
            yield chunk
        if checksum.hexdigest() != part.digests[shard]:
            raise ShardError(f"shard part {part.path} does not match its checksum; remove it and its .json")

    def shard_rows(self, stage: str, shard: int) -> Iterator[np.ndarray]:
        """Shard ``shard``'s rows of every part of a stage, part by part."""
        for part in self.parts(stage).values():
            yield self.read(stage, part, shard)

    def remove(self, stage: str) -> None:
        """Remove a stage's states; its parts' records stay (with the tours their tasks completed)."""
        folder = os.path.join(self.folder, stage)
        for entry in os.listdir(folder) if os.path.isdir(folder) else []:
            if entry.endswith(".npy"):
                os.unlink(os.path.join(folder, entry))

    def delete(self) -> None:
        """Remove the whole store (its count is finished)."""
        shutil.rmtree(self.folder, ignore_errors=True)

    def disk_bytes(self) -> int:
        total = 0
        for root, _, files in os.walk(self.folder):
            total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
        return total


def square_stage(square: int) -> str:
    return f"sq-{square:04d}"
