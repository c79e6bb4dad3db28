\ The bet wins on two faces of three.
LOAD gamble.4th
2 winning-faces !
