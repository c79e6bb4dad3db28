\ Compiles literals into the code space without end, outside any move.
: g ( -- ) BEGIN 1 COMPILE-LITERAL AGAIN ;
g
