\ The bet wins on one face of three.
LOAD gamble.4th
