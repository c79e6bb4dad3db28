\ expect: undefined-word 3:7
1 2 +
  DUP frobnicate .
