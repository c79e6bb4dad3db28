\ expect: load-cycle 3:1 word=LOAD
1 DROP
LOAD self_load.4th
