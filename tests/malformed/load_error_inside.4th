\ expect: undefined-word 3:6 file=lib/bad_word.4th trace=load_error_inside.4th
LOAD lib/bad_word.4th
