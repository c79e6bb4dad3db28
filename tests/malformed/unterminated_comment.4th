\ expect: unterminated 3:1
1 2 +
( this comment never ends
3 4 +
