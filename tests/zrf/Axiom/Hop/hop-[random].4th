LOAD Hop.4th
{players {player} White {random} {player} Black {random} players}
