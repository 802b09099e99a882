"""Local web pages (standard library ``http.server`` only), one module per game."""
