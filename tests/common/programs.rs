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


/// Pieces that leave the depth as they found it (needing at most three
/// cells), so definitions made of them have a fixed stack shape.
pub const BALANCED_ATOMS: &[&str] = &[
    "1+", "1-", "SWAP", "ROT", "-ROT", "OVER +", "OVER -", "DUP *", "2 *", "NEGATE", "3 AND", "DUP DROP", "V @ +",
    "DUP V !", "V ++", "15 AND CELLS BUF + @", "7 AND BUF + C@", "DUP DUP 15 AND CELLS BUF + !", "DUP OVER 7 AND BUF + C!",
    "5 +", "4 MOD", "3 /", "0 /", "0=", "2DUP + NIP", "TUCK DROP", "1 2 2DROP", "2DUP SWAP 2DROP", "DUP >R R> +",
    "DEPTH +", "0 V +!", "9 =", "2 <", "DUP 2 < OVER 0= AND +", "DUP 9 = 0= +", "DUP 0< 0= -",
];

/// Balanced pieces inside a DO loop.
pub const BALANCED_LOOP_ATOMS: &[&str] = &["I +", "I CELLS BUF + @ +", "DUP I 15 AND CELLS BUF + !", "I 2 + -", "BUF I + C@ XOR", "J +"];

/// A block that leaves the depth as it found it: branches and loops whose
/// bodies are balanced too.
pub fn balanced(depth: u32, loops: u32) -> BoxedStrategy<String> {
    let atoms: Vec<&'static str> = match loops {
        0 => BALANCED_ATOMS.to_vec(),
        1 => BALANCED_ATOMS.iter().chain(&BALANCED_LOOP_ATOMS[..5]).copied().collect(),
        _ => BALANCED_ATOMS.iter().chain(BALANCED_LOOP_ATOMS).copied().collect(),
    };
    let atom = select(atoms).prop_map(str::to_string);
    if depth == 0 {
        return proptest::collection::vec(atom, 1..6).prop_map(|v| v.join(" ")).boxed();
    }
    let inner = balanced(depth - 1, loops);
    let inner_loop = balanced(depth - 1, loops + 1);
    let piece = prop_oneof![
        5 => atom,
        1 => inner.clone().prop_map(|b| format!("DUP 0< IF {b} THEN")),
        1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("DUP 3 AND IF {a} ELSE {b} THEN")),
        1 => inner.clone().prop_map(|b| format!("DUP 2 < IF {b} THEN")),
        1 => inner.clone().prop_map(|b| format!("DUP 3 < OVER 0> AND IF {b} THEN")),
        1 => inner.clone().prop_map(|b| format!("DUP 0= 0= IF {b} THEN")),
        1 => (1..5i32, inner_loop.clone()).prop_map(|(n, b)| format!("{n} 0 DO {b} LOOP")),
        1 => (1..4i32, inner_loop).prop_map(|(n, b)| format!("{n} 0 ?DO {b} DUP 7 AND 5 = IF LEAVE THEN LOOP")),
        1 => inner.clone().prop_map(|b| format!("3 BEGIN DUP 0> WHILE >R {b} R> 1- REPEAT DROP")),
        1 => inner.clone().prop_map(|b| format!(">R {b} R>")),
        1 => inner.clone().prop_map(|b| format!("?DUP IF {b} ELSE 0 THEN")),
        1 => inner.clone().prop_map(|b| format!("3 AND ?DUP 0= IF 7 {b} THEN")),
        1 => inner.prop_map(|b| format!("3 AND BEGIN ?DUP WHILE 1- >R {b} R> REPEAT 0")),
    ];
    proptest::collection::vec(piece, 1..5).prop_map(|v| v.join(" ")).boxed()
}
