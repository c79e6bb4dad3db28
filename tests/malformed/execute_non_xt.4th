\ expect: not-an-xt 2:14 word=RUN
: RUN 424242 EXECUTE ; RUN
