LOAD Hop.4th
{board-setup {setup} White Man a1 board-setup}
