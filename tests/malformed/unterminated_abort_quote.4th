\ expect: unterminated 2:9 word=CHECK
: CHECK ABORT" oops
;
