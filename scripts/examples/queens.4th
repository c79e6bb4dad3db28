\ queens.4th — counts the solutions of the N-queens puzzle, N = 1..10.
\ A small, complete ForthScript program: recursion with RECURSE, a cell
\ array made with [], DO loops, and output. Run it with
\     axforth run scripts/examples/queens.4th
\ Expected: 1 0 0 2 10 4 40 92 352 724 (OEIS A000170).

VARIABLE SIZE          \ board size N
VARIABLE SOLUTIONS     \ solutions found so far
16 [] COLUMN           \ i COLUMN: address of the column of the queen in row i

\ Does the queen in row i attack the square (row, col)?
: ATTACKS? ( row col i -- flag )
	DUP COLUMN @ ROT - ABS             ( row i |dc| )
	DUP 0= IF 2DROP DROP TRUE EXIT ENDIF
	-ROT - =                           \ same diagonal: |dc| = row - i
;

\ Is (row, col) free from attack by the queens in rows 0..row-1?
: SAFE? ( row col -- flag )
	OVER 0 ?DO
		2DUP I ATTACKS? IF 2DROP FALSE UNLOOP EXIT ENDIF
	LOOP
	2DROP TRUE
;

\ Places queens in rows row..N-1, counting every full placement.
: PLACE ( row -- )
	DUP SIZE @ = IF DROP SOLUTIONS ++ EXIT ENDIF
	SIZE @ 0 DO
		DUP I SAFE? IF
			I OVER COLUMN !
			DUP 1+ RECURSE
		ENDIF
	LOOP
	DROP
;

: QUEENS ( n -- count )  SIZE !  0 SOLUTIONS !  0 PLACE  SOLUTIONS @ ;

: MAIN ( -- )
	." N-queens solutions for N = 1..10:" CR
	11 1 DO I QUEENS . LOOP CR
;
MAIN
