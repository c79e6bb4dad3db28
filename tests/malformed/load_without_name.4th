\ expect: missing-name 2:1
LOAD
