LOAD Hop.4th
