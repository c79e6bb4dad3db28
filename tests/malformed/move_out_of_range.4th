\ expect: address-out-of-range 2:16 word=MOVE
16 4194300 100 MOVE
