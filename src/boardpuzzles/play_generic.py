"""Kept for old imports: the default plays now live in :mod:`boardpuzzles.plays`, and
:func:`play_of` in :mod:`boardpuzzles.play`."""

from __future__ import annotations

from boardpuzzles.play import play_of as play_of
