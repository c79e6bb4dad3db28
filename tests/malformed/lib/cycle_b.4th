\ corpus: skip (helper of cyclic_load.4th)
LOAD cycle_a.4th
