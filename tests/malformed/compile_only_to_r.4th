\ expect: compile-only 2:3
1 >R
