\ expect: undefined-word 2:1
' no-such-word EXECUTE
