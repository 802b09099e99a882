"""File and URL codecs, one module per puzzle: each reads a text into the library's own objects
(auto-detecting the format, with one-line :class:`~boardpuzzles.errors.ParseError` messages that
name the line or field) and writes them back losslessly.

``goishi``  Goishi Hiroi: the seed's quoted rows, plain rows, pick-up number boards, puzz.link
            URLs and pzprv3 files.
"""
