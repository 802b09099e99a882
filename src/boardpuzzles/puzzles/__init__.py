"""One module per puzzle. Each offers the same small protocol:

``solutions(...)``  a generator of every solution (lazy: stop iterating and the search stops);
``count(...)``      the number of solutions, with ``jobs`` and ``progress`` for long counts;
``check(...)``      an independent checker (plain code, no kernels) that tests run on every answer;
``violations(...)`` what exactly is wrong with a proposed answer.
"""

#: The puzzles the CLI offers, in the order ``boardpuzzles --help`` lists them.
PUZZLES = {
    "hyperqueen": "n queens on a torus (the board wraps around at every edge)",
    "queens": "the classic n queens puzzle",
    "less-than-three": "stones of C colours, never K+1 of a colour on any straight line",
    "knights-tour": "a knight visits every square once: list, count and find tours",
    "goishi": "Goishi Hiroi: pick up every stone in one walk along rows and columns",
}
