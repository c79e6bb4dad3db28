\ corpus: skip (helper of cyclic_load.4th)
LOAD cycle_b.4th
