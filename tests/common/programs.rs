//! Random definitions made of the real vocabulary, for the differential
//! tests: the optimizer against unfused code (`optimizer.rs`), native code
//! against the interpreter (`jit.rs`). Programs use a buffer `BUF` of
//! `BUF_CELLS` cells and a variable `V`.

use proptest::prelude::*;
use proptest::sample::select;

pub const BUF_CELLS: i32 = 16;

/// Straight-line pieces, chosen to hit the fusion rules and their edges:
/// literals before arithmetic and memory words, array indexing, the loop
/// index, `DUP @ 1+ SWAP !`, and pushes before SWAP.
pub const ATOMS: &[&str] = &[
    "0", "1", "2", "3", "7", "-1", "-4", "BUF", "V", "DUP", "DROP", "SWAP", "OVER", "ROT", "NIP", "TUCK",
    "2DUP", "2DROP", "+", "-", "*", "AND", "OR", "XOR", "1+", "1-", "2*", "NEGATE", "=", "<>", "<", ">",
    "0=", "CELLS", "@", "!", "C@", "C!", "+!", "++", "--", "3 AND", "15 AND", "15 AND CELLS BUF +",
    "7 AND BUF +", "V @", "V !", "V ++", "DUP @ 1+ SWAP !", "DUP @ 1- SWAP !", "BUF + @", "BUF + !",
    "CELLS BUF + @", "CELLS BUF + !", "2 * +", "5 +", "3 -", "4 *", "9 =", "2 <", "6 >", "1+ CELLS",
    "1- CELLS", "2 + CELLS", "V @ 1+ V !", "V @ 1- V !", "V @ 5 + V !", "V @ 3 - BUF !", "3 /", "3 MOD",
    "-2 /", "-3 MOD", "0 /", "0 MOD", "/", "MOD", "CELLS 4 +", "CELLS 4 + 8 +", "2 3 +", "2 3 *", "1 2 SWAP", "V @ V @ SWAP",
];

/// Pieces that only make sense inside a DO loop.
pub const LOOP_ATOMS: &[&str] = &[
    "I", "I 1+", "I 1-", "I 2 +", "I CELLS", "I CELLS BUF +", "I CELLS BUF + @", "I CELLS BUF + !",
    "I 1+ CELLS BUF + @", "I 1+ CELLS BUF + !", "BUF I + C@", "BUF I + C!", "I +", "I SWAP", "3 I SWAP",
];

pub fn block(depth: u32, in_loop: bool) -> BoxedStrategy<String> {
    let atoms: Vec<&'static str> = if in_loop { ATOMS.iter().chain(LOOP_ATOMS).copied().collect() } else { ATOMS.to_vec() };
    let atom = select(atoms).prop_map(str::to_string);
    if depth == 0 {
        return proptest::collection::vec(atom, 1..8).prop_map(|v| v.join(" ")).boxed();
    }
    let inner = block(depth - 1, in_loop);
    let inner_loop = block(depth - 1, true);
    let piece = prop_oneof![
        6 => atom,
        1 => inner.clone().prop_map(|b| format!("IF {b} THEN")),
        1 => inner.clone().prop_map(|b| format!("AND IF {b} THEN")),
        1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("IF {a} ELSE {b} THEN")),
        1 => inner.clone().prop_map(|b| format!("7 >R {b} R> +")),
        1 => inner.clone().prop_map(|b| format!(">R {b} R>")),
        1 => (1..5i32, inner_loop).prop_map(|(n, b)| format!("{n} 0 DO {b} LOOP")),
        1 => inner.clone().prop_map(|b| format!("3 BEGIN DUP 0> WHILE {b} 1- REPEAT DROP")),
        1 => inner.clone().prop_map(|b| format!("0 BEGIN DUP 3 < WHILE {b} 1+ REPEAT DROP")),
        1 => (inner.clone(), inner).prop_map(|(a, b)| format!("DUP 2 < IF {a} ELSE {b} THEN")),
    ];
    proptest::collection::vec(piece, 1..6).prop_map(|v| v.join(" ")).boxed()
}

