\ expect: undefined-word 4:5
\ café naïve comment
: Wé 1 ;
	Wé	bläh
