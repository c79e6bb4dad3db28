\ expect: stack-overflow 2:16 word=PUSHER max-steps=1000000
: PUSHER BEGIN 1 AGAIN ; PUSHER
