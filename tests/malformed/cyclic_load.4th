\ expect: load-cycle 2:1 word=LOAD file=lib/cycle_b.4th trace=cyclic_load.4th
LOAD lib/cycle_a.4th
