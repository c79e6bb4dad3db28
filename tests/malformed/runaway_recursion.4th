\ expect: return-stack-overflow 3:3 word=DOWN trace=DOWN
: DOWN ( n -- )
  RECURSE ;
DOWN
