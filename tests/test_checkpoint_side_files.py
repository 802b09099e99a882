"""Work kept outside the count checkpoints' SQLite files: Baikago's df-pn table file when two runs
share it, and the knight's-tour sweep layer kept beside a closed-tour count's checkpoint.

A second run that shares a checkpoint file must not replace the first run's saved search and then
claim its own was kept (found by an audit: both runs said "kept", one run's work was lost).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardpuzzles.checkpoint import CheckpointError
from boardpuzzles.cli import _run
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import knights_tour
from boardpuzzles.puzzles.baikago import solve as bs
from boardpuzzles.puzzles.baikago.rules import Rules


def test_a_run_does_not_write_over_a_search_another_run_saved_meanwhile(tmp_path: Path) -> None:
    path = tmp_path / "five.dfpn"  # 5x5 without pairings: longer than the node limits below
    first = bs.Solver(Rules(5), 12, None, False, checkpoint=str(path))
    second = bs.Solver(Rules(5), 12, None, False, checkpoint=str(path))
    with pytest.raises(bs.NodeLimitReached):
        second.run(Limits(), node_limit=200)
    assert second.save() is True
    kept = path.read_bytes()
    with pytest.raises(bs.NodeLimitReached):
        first.run(Limits(), node_limit=100)
    with pytest.raises(CheckpointError, match="written by another run"):
        first.save()
    assert path.read_bytes() == kept
    # The run that saved goes on saving; a new run resumes from what it kept.
    assert second.save() is True
    assert bs.Solver(Rules(5), 12, None, False, checkpoint=str(path)).loaded


# -------------------------------------------------------------------- knight's tours: the sweep's layer
# `knights-tour count --closed --checkpoint F` also keeps the sweep's last layer in F.closed-WxL.npz.
# It had no checksum: a layer with half its states dropped gave 2,024 closed tours of 6x6 (exit 0).

KT6 = ["knights-tour", "count", "6", "--closed", "--undirected", "-q"]


def _count(capsys: pytest.CaptureFixture[str], checkpoint: Path) -> tuple[int, str, str]:
    knights_tour._SWEEPS.clear()  # as a new process: the halves come from the layer file, not memory
    code = _run([*KT6, "--checkpoint", str(checkpoint)])
    out, err = capsys.readouterr()
    return code, out, err


def _layer_of(checkpoint: Path) -> Path:
    (layer,) = checkpoint.parent.glob(checkpoint.name + ".closed-*.npz")
    return layer


def _drop_half_the_states(layer: Path) -> None:
    with np.load(layer) as saved:
        arrays = {name: saved[name] for name in saved.files}
    arrays["layer"] = arrays["layer"][::2]
    with layer.open("wb") as handle:  # the file name as it was (savez would add .npz to a str)
        np.savez(handle, **arrays)


def _double_the_ways(layer: Path) -> None:
    with np.load(layer) as saved:
        arrays = {name: saved[name] for name in saved.files}
    arrays["layer"][:, 1] *= 2
    with layer.open("wb") as handle:
        np.savez(handle, **arrays)


@pytest.mark.parametrize(
    "damage",
    [
        _drop_half_the_states,
        _double_the_ways,
        lambda p: p.write_bytes(p.read_bytes()[:200]),
        lambda p: p.write_bytes(b""),
        lambda p: p.write_bytes(p.read_bytes()[:-40] + bytes(40)),
    ],
    ids=["half the states", "ways doubled", "truncated", "empty", "tail zeroed"],
)
def test_a_damaged_closed_tour_layer_is_refused_not_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: Any
) -> None:
    checkpoint = tmp_path / "kt6.db"
    code, out, _ = _count(capsys, checkpoint)
    assert code == 0 and out.strip() == "9862"  # OEIS A001230: 9,862 closed tours of 6x6
    layer = _layer_of(checkpoint)
    damage(layer)
    damaged = layer.read_bytes()
    checkpoint.unlink()  # a fresh count checkpoint beside the old layer: the layer alone decides
    code, out, err = _count(capsys, checkpoint)
    assert code == 2 and out == "" and err.count("\n") == 1 and "remove it" in err
    assert layer.read_bytes() == damaged  # refused, and left as it was
    layer.unlink()
    checkpoint.unlink()
    code, out, _ = _count(capsys, checkpoint)
    assert code == 0 and out.strip() == "9862"
