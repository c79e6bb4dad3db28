\ expect: compile-only 2:5
1 0 IF 2 THEN
