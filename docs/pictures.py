"""Make the pictures of the documentation: the gallery (docs/gallery/), the README's picture
(docs/assets/hero.png), drawn by boardpuzzles itself through its command line, and the play page
of the README and the docs' home (docs/assets/play.png), from the play pages' screenshots.

Run by `make pictures` (after the picture tests, which leave the Baikago web page's screenshots
in build/pictures/web and every play page's in build/pictures/play when Chromium is installed).
Every picture is stored as a palette PNG, so that the committed images stay small.

    python docs/pictures.py [--screenshots build/pictures/web] [--play build/pictures/play]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageChops

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
GALLERY = DOCS / "gallery"
HERO = DOCS / "assets" / "hero.png"
PLAY = DOCS / "assets" / "play.png"
GOISHI = "tests/data/goishi/pzprjs_test.txt"
BAIKAGO = "tests/data/baikago/seed_board.txt"

#: (file name, command that draws it with --png, widest side in the gallery)
PICTURES = [
    ("queens-8.png", ["queens", "solve", "8", "--unique", "--limit", "1"], 480),
    ("queens-30.png", ["queens", "find", "30"], 600),
    ("hyperqueen-7.png", ["hyperqueen", "solve", "7", "--limit", "1"], 480),
    ("hyperqueen-7-sheet.png", ["hyperqueen", "solve", "7", "--limit", "6"], 640),
    ("less-than-three.png", ["less-than-three", "solve", "--limit", "1"], 480),
    ("less-than-three-20.png", ["less-than-three", "find", "20", "--jobs", "1", "--seed", "1"], 600),
    ("knights-tour-8.png", ["knights-tour", "find", "8", "--closed"], 480),
    ("knights-tour-50.png", ["knights-tour", "find", "50"], 480),
    ("goishi.png", ["goishi", "solve", GOISHI], 480),
    (
        "goishi-generated.png",
        ["goishi", "generate", "10x10", "--stones", "20", "--seed", "1", "--solution", "--to", "numbers"],
        560,
    ),
    ("baikago.png", ["baikago", "judge", BAIKAGO], 560),
    ("kings.png", ["kings", "solve", "8", "--limit", "1"], 480),
    ("dominoes-3x4.png", ["dominoes", "solve", "3x4"], 640),
]
#: pictures whose colour scale needs more colours than the default (64, or a screenshot's own)
COLOURS = {"knights-tour-8.png": 128, "knights-tour-50.png": 64, "play-knights-tour-desktop.png": 96}
#: (screenshot in the tests' folder, name in the gallery, widest side)
SCREENSHOTS = [
    ("won-1200x900.png", "web-won.png", 720),
    ("midgame-390x844.png", "web-phone.png", 390),
]
#: (screenshot of each play page in the play tests' folder, its name in the gallery, widest side,
#: colours): a new puzzle on a phone, cut to the phone's screen (390x844), and the same puzzle
#: solved on a desktop (1200x900)
PLAY_SCREENSHOTS = [
    ("{puzzle}-390x844.png", "play-{puzzle}-phone.png", 600, 48),
    ("{puzzle}-solved-1200x900.png", "play-{puzzle}-desktop.png", 600, 48),
]
PHONE_SCREEN = (390, 844)
#: the puzzles whose play page the gallery shows (the play tests' cases)
PLAY_PUZZLES = ["queens", "hyperqueen", "less-than-three", "knights-tour", "goishi", "kings", "dominoes"]
#: the pictures side by side in the README's picture
HERO_PARTS = ["hyperqueen-7.png", "knights-tour-8.png", "goishi.png", "less-than-three.png"]
#: the play page of the README and the docs' home: a Goishi Hiroi walk halfway, on a desktop
#: (the page's own margin trimmed), its widest side and colours
PLAY_SCREENSHOT = ("goishi-midway-1200x900.png", 900, 96)


def small_png(picture: Image.Image, path: Path, widest: int, colours: int = 64) -> None:
    picture = picture.convert("RGB")
    scale = widest / max(picture.size)
    if scale < 1:
        picture = picture.resize((round(picture.width * scale), round(picture.height * scale)), Image.LANCZOS)
    picture.quantize(colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)


def draw(args: list[str], png: Path) -> None:
    command = [sys.executable, "-m", "boardpuzzles", *args, "--png", str(png)]
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if not png.exists():
        raise SystemExit(f"{' '.join(args)} drew nothing (exit {done.returncode}): {done.stderr.strip()}")


def trimmed(picture: Image.Image, margin: int = 12) -> Image.Image:
    """The picture without the empty margin the renderer leaves around it."""
    paper = Image.new("RGB", picture.size, picture.getpixel((0, 0)))
    box = ImageChops.difference(picture, paper).convert("L").point(lambda v: 255 if v > 24 else 0).getbbox()
    if box is None:
        return picture
    left, top, right, bottom = box
    return picture.crop(
        (
            max(left - margin, 0),
            max(top - margin, 0),
            min(right + margin, picture.width),
            min(bottom + margin, picture.height),
        )
    )


def hero(parts: list[Path], gap: int = 24) -> Image.Image:
    """The pictures side by side at the scale they were drawn at (one cell size for all), trimmed."""
    pictures = []
    for part in parts:
        with Image.open(part) as picture:
            pictures.append(trimmed(picture.convert("RGB")))
    width = sum(p.width for p in pictures) + gap * (len(pictures) - 1)
    paper = pictures[0].getpixel((0, 0))  # the renderer's background colour
    sheet = Image.new("RGB", (width, max(p.height for p in pictures)), paper)
    x = 0
    for picture in pictures:
        sheet.paste(picture, (x, 0))
        x += picture.width + gap
    return sheet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshots", type=Path, default=ROOT / "build" / "pictures" / "web")
    parser.add_argument("--play", type=Path, default=ROOT / "build" / "pictures" / "play")
    options = parser.parse_args()
    GALLERY.mkdir(parents=True, exist_ok=True)
    HERO.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        full = {}
        for name, args, widest in PICTURES:
            full[name] = Path(folder) / name
            draw(args, full[name])
            with Image.open(full[name]) as picture:
                small_png(picture, GALLERY / name, widest, COLOURS.get(name, 64))
        small_png(hero([full[name] for name in HERO_PARTS]), HERO, 1400, colours=192)
    shots = [(options.screenshots / source, name, widest, 64) for source, name, widest in SCREENSHOTS]
    for puzzle in PLAY_PUZZLES:
        for source, name, widest, colours in PLAY_SCREENSHOTS:
            shots.append((options.play / source.format(puzzle=puzzle), name.format(puzzle=puzzle), widest, colours))
    for source_path, name, widest, colours in shots:
        if not source_path.exists():
            print(f"no {source_path} (Chromium missing?): kept the gallery's old {name}")
            continue
        with Image.open(source_path) as picture:
            if name.endswith("-phone.png") and name.startswith("play-"):  # what the phone's screen shows
                picture = picture.crop((0, 0, *PHONE_SCREEN))
            small_png(picture, GALLERY / name, widest, COLOURS.get(name, colours))
    source, widest, colours = PLAY_SCREENSHOT
    if (options.play / source).exists():
        with Image.open(options.play / source) as picture:
            small_png(trimmed(picture.convert("RGB"), margin=16), PLAY, widest, colours)
    else:
        print(f"no {options.play / source} (Chromium missing?): kept the old {PLAY.name}")
    total = sum(p.stat().st_size for p in [*GALLERY.glob("*.png"), HERO, PLAY] if p.exists())
    print(f"wrote {len(PICTURES)} pictures to docs/gallery, hero.png and play.png: {total // 1024} KB in all")


if __name__ == "__main__":
    main()
