\ expect: return-stack-underflow 2:9 word=INDEX
: INDEX I ; INDEX
