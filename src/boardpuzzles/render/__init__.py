"""Pictures of boards: a :class:`~boardpuzzles.scene.Scene` describes what to draw, and each
back end (text in :mod:`boardpuzzles.board`, SVG in :mod:`boardpuzzles.render.svg`) translates it."""
