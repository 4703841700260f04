"""Exact search: the solvers, below both the AI (:mod:`hexarena.ai`) and the lab (:mod:`hexarena.analysis`).

It imports neither (tests/test_contract.py checks it); both import from it.

- :mod:`~hexarena.search.positions`: position keys up to the board's symmetries;
- :mod:`~hexarena.search.template`: the search loops (df-pn, alpha-beta and
  their forced blocks), written once and specialised per game's kernels as
  the MCTS is (:mod:`hexarena.specialise`);
- :mod:`~hexarena.search.dfpn`, :mod:`~hexarena.search.alphabeta`: the df-pn
  and the alpha-beta with their tables and dead-cell test;
- :mod:`~hexarena.search.solve`, :mod:`~hexarena.search.solve_store`:
  ``hexarena solve`` (every first move's value and distance) and the
  positions a solution store keeps;
- :mod:`~hexarena.search.solutions`: the solved positions shipped with the
  package (``solutions/*.npz``) and perfect play from them, which the AI uses.

Long solves of Projective Hex, runs that stop and go on (``docs/solving.md``
describes the run on the 27-cell board):

- :mod:`~hexarena.search.frontier`: the positions a run tracks (every class
  up to a few moves in) and how values carry up between them;
- :mod:`~hexarena.search.run`: :class:`~hexarena.search.run.LongSolve`, the
  df-pn run with its checkpoints and frontier report;
- :mod:`~hexarena.search.proven`, :mod:`~hexarena.search.files`: the proven
  positions and the table on disk, written atomically;
- :mod:`~hexarena.search.virtual`, :mod:`~hexarena.search.vc`: virtual
  connections with seam parity, and the df-pn's pruning with them;
- :mod:`~hexarena.search.samples`: witnesses, proven positions found deep in
  the table for plain searches to check;
- :mod:`~hexarena.search.query`: the value of any position (the store first,
  then a search), for ``hexarena solve --after``;
- :mod:`~hexarena.search.ship`: a run's proof as the package's solution file.
"""
