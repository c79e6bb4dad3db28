\ expect: missing-name 3:1
1 DROP
:
