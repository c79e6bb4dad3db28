\ expect: return-stack-underflow 2:10 word=GRAB
: GRAB 1 R> ; GRAB
