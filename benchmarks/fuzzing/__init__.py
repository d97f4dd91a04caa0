"""The fuzzers' parts: the random player and sample games (:mod:`.play`), document
mutations (:mod:`.mutate`), what accepted documents must keep (:mod:`.invariants`),
the outcome of a case (:mod:`.outcomes`) and the attack surfaces
(:mod:`.text_surfaces`, :mod:`.game_surfaces`).  The drivers are
``benchmarks/fuzz.py`` and ``benchmarks/fuzz_loader.py``."""
