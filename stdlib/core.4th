\ core.4th — the part of the language written in ForthScript itself.
\ Loaded into every VM before anything else. Words here are plain Forth
\ on top of the primitives (vm/ops.rs) and native words (vm/words.rs).

: HEX      ( -- )  16 BASE ! ;
: DECIMAL  ( -- )  10 BASE ! ;
: BINARY   ( -- )   2 BASE ! ;
: OCTAL    ( -- )   8 BASE ! ;

: ?        ( addr -- )        @ . ;
: ERASE    ( addr n -- )      0 FILL ;
: SPACE    ( -- )             BL EMIT ;
: SPACES   ( n -- )           BEGIN DUP 0> WHILE SPACE 1- REPEAT DROP ;
: CELL+    ( addr -- addr+4 ) 4 + ;
: CHARS    ( n -- n )         ;
: 2@       ( addr -- x1 x2 )  DUP 4 + @ SWAP @ ;
: 2!       ( x1 x2 addr -- )  SWAP OVER ! 4 + ! ;
: WITHIN   ( n lo hi -- f )   OVER - >R - R> U< ;
