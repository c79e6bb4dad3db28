\ expect: load-not-found 3:1 word=LOAD
1 2 +
LOAD no-such-file.4th
