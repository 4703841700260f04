"""Long solves of Projective Hex: runs that stop and go on, and position values anyone can check.

- :mod:`~hexarena.solver.frontier`: the positions a run tracks (every class
  up to a few moves in) and how values carry up between them;
- :mod:`~hexarena.solver.run`: :class:`~hexarena.solver.run.LongSolve`, the
  df-pn run with its checkpoints and frontier report;
- :mod:`~hexarena.solver.proven`, :mod:`~hexarena.solver.files`: the proven
  positions and the table on disk, written atomically;
- :mod:`~hexarena.solver.virtual`, :mod:`~hexarena.solver.dfpn`: virtual
  connections with seam parity, and the df-pn that prunes with them;
- :mod:`~hexarena.solver.samples`: witnesses, proven positions found deep in
  the table for plain searches to check;
- :mod:`~hexarena.solver.query`: the value of any position (the store first,
  then a search), for ``hexarena solve --after``;
- :mod:`~hexarena.solver.ship`: a run's proof as the package's solution file,
  which the AI plays from (:mod:`hexarena.ai.solutions`).

It builds on :mod:`hexarena.analysis.solve_dfpn` (the df-pn) and the games'
kernels; ``docs/solving.md`` describes the run on the 27-cell board.
"""
