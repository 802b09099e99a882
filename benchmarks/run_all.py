"""Run every benchmark script in this folder, one after another (`make bench`)."""

import subprocess
import sys
from pathlib import Path

here = Path(__file__).parent
for script in sorted(here.glob("*_speed.py")):
    print(f"== {script.name}", flush=True)
    subprocess.run([sys.executable, str(script), *sys.argv[1:]], check=True)
