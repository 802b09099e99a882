"""The package as its users get it: a wheel built from the sources, installed into a fresh virtual
environment (none of this checkout's packages visible), run from there.

`make dist` builds the same wheel (and a source distribution) into dist/.
"""

import os
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

import boardpuzzles
from tests.once import once_per_run

ROOT = Path(__file__).resolve().parent.parent
VERSION = re.compile(r'^__version__ = "([^"]+)"$', re.MULTILINE)


def _run(*command: str | Path, **kwargs) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=600, **kwargs)
    assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What `make dist` makes: a source distribution, and a wheel built from it (once a run)."""

    def build() -> Path:
        out = tmp_path_factory.mktemp("dist")
        _run(sys.executable, "-m", "build", "--outdir", out, ROOT)
        return out

    return once_per_run(tmp_path_factory, "dist", build)


@pytest.fixture(scope="module")
def wheel(dist: Path) -> Path:
    (built,) = dist.glob("boardpuzzles-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment with the wheel and its dependencies (from pip's cache or index)."""
    where = tmp_path_factory.mktemp("venv")
    _run(sys.executable, "-m", "venv", where)
    _run(
        where / "bin" / "python",
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-compile",
        "--disable-pip-version-check",
        wheel,
    )
    return where


def test_one_version_string():
    source = (ROOT / "src" / "boardpuzzles" / "__init__.py").read_text()
    (written,) = VERSION.findall(source)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in project and "version" in project["dynamic"]  # read from __version__
    assert written == boardpuzzles.__version__
    shown = _run(sys.executable, "-m", "boardpuzzles", "--version")
    assert shown.stdout.strip() == f"boardpuzzles {boardpuzzles.__version__}"


def test_a_license_and_a_changelog_ship_with_the_sources():
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in changelog and f"## [{boardpuzzles.__version__}]" in changelog


@pytest.mark.slow
def test_the_wheel_holds_the_package_its_types_and_its_license(wheel: Path):
    assert wheel.name == f"boardpuzzles-{boardpuzzles.__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    package = ROOT / "src" / "boardpuzzles"
    shipped = {
        path.relative_to(package.parent).as_posix()
        for path in package.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in {".nbi", ".nbc", ".pyc"}
    }
    assert "boardpuzzles/py.typed" in shipped
    assert shipped <= names, sorted(shipped - names)  # every module and data file (py.typed among them)
    dist_info = f"boardpuzzles-{boardpuzzles.__version__}.dist-info"
    assert f"{dist_info}/licenses/LICENSE" in names
    assert not any(name.startswith("tests/") for name in names)


@pytest.mark.slow
def test_the_sdist_holds_the_sources_their_tests_and_the_license(dist: Path):
    (sdist,) = dist.glob("boardpuzzles-*.tar.gz")
    top = f"boardpuzzles-{boardpuzzles.__version__}"
    with tarfile.open(sdist) as archive:
        names = {name.removeprefix(f"{top}/") for name in archive.getnames()}
    assert {"LICENSE", "CHANGELOG.md", "README.md", "pyproject.toml", "src/boardpuzzles/py.typed"} <= names
    assert {"tests/conftest.py", "tests/timing.py", "tests/data/known_counts.md"} <= names  # the tests can run
    assert not any("__pycache__" in name or name.endswith((".pyc", ".nbi", ".nbc")) for name in names)


@pytest.mark.slow
def test_the_installed_wheel_runs(venv: Path, tmp_path: Path):
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba")
    # Run from an empty folder, so that nothing of this checkout can be imported by accident.
    where = _run(
        venv / "bin" / "python", "-c", "import boardpuzzles; print(boardpuzzles.__file__)", cwd=tmp_path, env=env
    )
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout
    count = _run(venv / "bin" / "boardpuzzles", "queens", "count", "8", cwd=tmp_path, env=env)
    assert count.stdout.splitlines()[-1] == "92"  # OEIS A000170
    version = _run(venv / "bin" / "boardpuzzles", "--version", cwd=tmp_path, env=env)
    assert version.stdout.strip() == f"boardpuzzles {boardpuzzles.__version__}"
