\ The leaky game, whose loading draws a random number: a VM put back
\ with a new seed would not have drawn it, so each game loads afresh.
LOAD leaky.4th
0 1000 RAND-WITHIN CONSTANT salt
: OnIsGameOver ( -- score )
	plays @ target @ < IF #UnknownScore EXIT ENDIF
	plays @ salt + 2 MOD 0= IF #WinScore ELSE #LossScore ENDIF ;
