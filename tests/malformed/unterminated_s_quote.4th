\ expect: unterminated 2:1
S" open string
with a second line
