\ expect: compile-only 2:5
1 2 ;
