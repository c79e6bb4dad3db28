\ corpus: skip (helper of load_error_inside.4th)
: FINE 1 ;
FINE wibble
