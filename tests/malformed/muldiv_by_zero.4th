\ expect: division-by-zero 2:7 word=*/
3 4 0 */
