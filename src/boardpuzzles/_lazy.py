"""numpy, loaded when first used rather than when a module that uses it is imported.

``--help`` and the answers to small problems need no arrays; importing numpy costs about a
tenth of a second, more than the rest of the command line together. A module that needs numpy
writes ``from boardpuzzles._lazy import numpy as np`` and uses ``np`` as it would the real
module: the first attribute it reads (``np.zeros``) imports numpy, and from then on ``np``
holds numpy's own names, so later reads cost what a module attribute costs. Type checkers see
the real module.
"""

from __future__ import annotations

import importlib
import types
from typing import TYPE_CHECKING, Any


class LazyModule(types.ModuleType):
    """A stand-in for a module that imports it on the first attribute read."""

    def __getattr__(self, name: str) -> Any:
        module = importlib.import_module(self.__name__)
        self.__dict__.update(module.__dict__)
        return getattr(module, name)


if TYPE_CHECKING:
    import numpy as numpy
else:
    numpy = LazyModule("numpy")
