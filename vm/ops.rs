//! The instruction set: one small `Op` enum, compiled once, dispatched in
//! one loop (`interp.rs`), and the table of primitive words built from it.
//!
//! Owns: `Op` (8 bytes: tag + one 32-bit operand), `PRIMITIVES` (name,
//! instruction, stack effect — the gforth-style list of what the machine
//! does natively), and the peephole rules that fuse hot pairs into
//! superinstructions. Touches nothing at run time.
//!
//! The hottest game words (`here`, `from`, `back`, the direction words,
//! `empty?`, `friend?`, `enemy?`, `empty-at?`, `piece-at`, `player-at`,
//! `verify`) are instructions too: move words call them millions of times
//! a second, and a host-word call would cost more than what they do. The
//! rest of the game vocabulary is native words (`game/`) and ForthScript
//! (`stdlib/axiom.4th`).

/// A code address: index into the VM's code vector.
pub type Addr = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    // ---- flow -------------------------------------------------------
    Lit(i32),
    /// Call a colon definition at this code address.
    Call(Addr),
    Exit,
    Jump(Addr),
    /// ( f -- ) jump when f is zero.
    JumpIfZero(Addr),
    /// `DUP IF`: ( f -- f ) jump when f is zero.
    DupJumpIfZero(Addr),
    /// ( xt -- )
    Execute,
    /// A deferred word: run the action stored in this slot.
    Deferred(u32),
    /// `IS name` compiled: ( xt -- ) set this defer slot.
    SetDefer(u32),
    /// A native word written in Rust (index into the host table).
    Host(u32),
    /// `DOES>`: make the newest CREATEd word run the code at this address.
    DoesSet(Addr),
    /// `COMPILE x` at run time: append a reference to xt x to what is
    /// being built (the current definition, or the move being generated).
    CompileXt(u32),
    /// `."`: type the counted string at this data address.
    DotQuote(u32),
    /// `ABORT"`: ( f -- ) abort with the counted string at this address.
    AbortQuote(u32),

    // ---- loops and the return stack ---------------------------------
    /// ( limit start -- ) R: ( -- limit start )
    Do,
    /// `?DO`: like Do, but skip to the address when limit = start.
    QDo(Addr),
    /// Add 1 to the index; jump back unless the limit is reached.
    Loop(Addr),
    /// ( n -- ) add n to the index; jump back unless the limit is crossed.
    PlusLoop(Addr),
    /// Drop the loop parameters and jump past the loop.
    Leave(Addr),
    Unloop,
    I,
    J,
    K,
    ToR,
    RFrom,
    RFetch,

    // ---- stack -------------------------------------------------------
    Dup,
    Drop,
    Swap,
    Over,
    Rot,
    MinusRot,
    Nip,
    Tuck,
    Pick,
    Roll,
    TwoDup,
    TwoDrop,
    TwoSwap,
    TwoOver,
    QDup,
    Depth,

    // ---- arithmetic and logic ------------------------------------------
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    DivMod,
    MulDiv,
    Inc,
    Dec,
    Add2,
    Sub2,
    Mul2,
    Div2,
    Abs,
    Negate,
    Min,
    Max,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    ZeroEq,
    ZeroNe,
    ZeroLt,
    ZeroGt,
    ULt,
    And,
    Or,
    Xor,
    Invert,
    LShift,
    RShift,

    // ---- memory ------------------------------------------------------
    Fetch,
    Store,
    CFetch,
    CStore,
    PlusStore,
    IncMem,
    DecMem,
    On,
    Off,
    Here,
    Allot,
    Comma,
    CComma,
    Cells,
    Fill,
    Move,
    Count,

    // ---- the game layer's hot words (AXIOM.md §3), on the board in data
    // space; the rest of the game vocabulary is native words ----
    /// A direction word: ( -- ? ) step `here` along this direction.
    GStep(u32),
    GHere,
    GFrom,
    /// `current-player`, `current-piece-type`: fields of the generation
    /// context, read as `here` is.
    GPlayer,
    GPieceType,
    GBack,
    GEmpty,
    GNotEmpty,
    GFriend,
    GEnemy,
    GEmptyAt,
    GPieceAt,
    GPlayerAt,
    /// `to`: ( pos -- ) `here` is pos.
    GTo,
    /// `friend-of?`, `enemy-of?`: ( pos player -- ? ) as `friend?` and
    /// `enemy?` ask at `here` for `current-player`.
    GFriendOf,
    GEnemyOf,
    /// `piece-value`: ( piece -- value ) its type's `{value}`.
    GPieceValue,
    /// `stalemate?`: ( -- ? ) the current move list is empty.
    GStalemate,
    /// ( ? -- ) leave the move word when false.
    GVerify,
    /// `north verify`, `empty? verify` and friends: ( -- ) the test and
    /// the `verify` in one.
    GStepVerify(u32),
    GEmptyVerify,
    GNotEmptyVerify,
    GFriendVerify,
    GEnemyVerify,

    // ---- superinstructions (made by `fuse`, never named by scripts) ----
    /// `n +`
    LitAdd(i32),
    /// `n *`
    LitMul(i32),
    /// `n * +`: ( a b -- a+b*n )
    LitMulAdd(i32),
    /// `n /`, `n MOD` with n not zero.
    LitDiv(i32),
    LitMod(i32),
    /// `addr @ n + addr !` with a constant address: add n to the cell.
    AddAt(i16, u32),
    /// `n =` `n <>` `n <` `n >`
    LitEq(i32),
    LitNe(i32),
    LitLt(i32),
    LitGt(i32),
    /// `addr @` / `addr !` / `addr +!`-free `addr ++` with a constant address
    FetchAt(u32),
    StoreAt(u32),
    IncAt(u32),
    /// `@ +`
    FetchAdd,
    /// `CELLS +`
    CellsAdd,
    /// `I +` / `I n +`
    IAdd,
    /// `OVER +`
    OverAdd,
    /// `n + @`, `n + !`, `n + C@`, `n + C!`: access at an offset.
    FetchOff(i32),
    StoreOff(i32),
    CFetchOff(i32),
    CStoreOff(i32),
    /// `CELLS n +` (also `1+ CELLS`, `n + CELLS`, and `n [] name` arrays):
    /// ( i -- i*4+n )
    CellsLit(i32),
    /// `CELLS n + @` / `CELLS n + !`: a cell of the array at n.
    FetchCell(i32),
    StoreCell(i32),
    /// `I n +`: ( -- I+n )
    ILit(i32),
    /// `I CELLS n +`: ( -- I*4+n )
    ICell(i32),
    /// `I CELLS n + @` / `!`: the loop index's cell of the array at n.
    IFetchCell(i32),
    IStoreCell(i32),
    /// `n I + C@` / `C!`: the loop index's byte of the array at n.
    ICFetch(i32),
    ICStore(i32),
    /// `0= IF`: ( f -- ) jump when f is non-zero.
    JumpIfNonZero(Addr),
    /// `= IF` and friends: ( a b -- ) jump unless the comparison holds.
    JumpUnlessEq(Addr),
    JumpUnlessNe(Addr),
    JumpUnlessLt(Addr),
    JumpUnlessGt(Addr),
    JumpUnlessLe(Addr),
    JumpUnlessGe(Addr),
    /// `AND IF`: ( a b -- ) jump when a AND b is zero.
    JumpUnlessAnd(Addr),
    /// `n = IF` and friends: ( a -- ) jump unless a compares so with n.
    JumpUnlessLitEq(i16, Addr),
    JumpUnlessLitNe(i16, Addr),
    JumpUnlessLitLt(i16, Addr),
    JumpUnlessLitGt(i16, Addr),
    JumpUnlessLitLe(i16, Addr),
    JumpUnlessLitGe(i16, Addr),
    /// `DUP n = IF` and friends: ( a -- a ) jump unless a compares so with n.
    DupJumpUnlessLitEq(i16, Addr),
    DupJumpUnlessLitNe(i16, Addr),
    DupJumpUnlessLitLt(i16, Addr),
    DupJumpUnlessLitGt(i16, Addr),
    DupJumpUnlessLitLe(i16, Addr),
    DupJumpUnlessLitGe(i16, Addr),
}

/// What the peephole optimizer may fuse the last op with. `prev` is the
/// op already emitted; returns the fused op that replaces both.
pub fn fuse(prev: Op, next: Op) -> Option<Op> {
    use Op::*;
    Some(match (prev, next) {
        (Lit(n), Add) => LitAdd(n),
        (Lit(n), Sub) => LitAdd(n.wrapping_neg()),
        (LitAdd(a), LitAdd(b)) => LitAdd(a.wrapping_add(b)),
        (Lit(a), LitAdd(b)) => Lit(a.wrapping_add(b)),
        (Lit(a), LitMul(b)) => Lit(a.wrapping_mul(b)),
        (LitMul(n), Add) => LitMulAdd(n),
        // Array indexing: fold the scale and the offsets into one op.
        (Cells, LitAdd(n)) => CellsLit(n),
        (LitAdd(a), Cells) => CellsLit(a.wrapping_mul(4)),
        (Inc, Cells) => CellsLit(4),
        (Dec, Cells) => CellsLit(-4),
        (CellsLit(a), LitAdd(b)) => CellsLit(a.wrapping_add(b)),
        (CellsLit(n), Fetch) => FetchCell(n),
        (CellsLit(n), Store) => StoreCell(n),
        // The loop index as an operand.
        (I, LitAdd(n)) | (Lit(n), IAdd) => ILit(n),
        (I, Inc) => ILit(1),
        (I, Dec) => ILit(-1),
        (ILit(a), LitAdd(b)) => ILit(a.wrapping_add(b)),
        (I, Cells) => ICell(0),
        (I, CellsLit(n)) => ICell(n),
        (ILit(a), Cells) => ICell(a.wrapping_mul(4)),
        (ILit(a), CellsLit(n)) => ICell(a.wrapping_mul(4).wrapping_add(n)),
        (ICell(a), LitAdd(b)) => ICell(a.wrapping_add(b)),
        (ICell(n), Fetch) | (I, FetchCell(n)) => IFetchCell(n),
        (ICell(n), Store) | (I, StoreCell(n)) => IStoreCell(n),
        (ILit(n), CFetch) => ICFetch(n),
        (ILit(n), CStore) => ICStore(n),
        (Lit(n), Mul) => LitMul(n),
        (Lit(n), Div) if n != 0 => LitDiv(n),
        (Lit(n), Mod) if n != 0 => LitMod(n),
        (Lit(n), Eq) => LitEq(n),
        (Lit(n), Ne) => LitNe(n),
        (Lit(n), Lt) => LitLt(n),
        (Lit(n), Gt) => LitGt(n),
        (Lit(a), Fetch) if a >= 0 => FetchAt(a as u32),
        (Lit(a), Store) if a >= 0 => StoreAt(a as u32),
        (Lit(a), IncMem) if a >= 0 => IncAt(a as u32),
        (Fetch, Add) => FetchAdd,
        (Cells, Add) => CellsAdd,
        (I, Add) => IAdd,
        (Over, Add) => OverAdd,
        (LitAdd(n), Fetch) => FetchOff(n),
        (LitAdd(n), Store) => StoreOff(n),
        (LitAdd(n), CFetch) => CFetchOff(n),
        (LitAdd(n), CStore) => CStoreOff(n),
        (Dup, JumpIfZero(t)) => DupJumpIfZero(t),
        (ZeroEq, JumpIfZero(t)) => JumpIfNonZero(t),
        (ZeroNe, JumpIfZero(t)) => JumpIfZero(t),
        (Eq, JumpIfZero(t)) => JumpUnlessEq(t),
        (Ne, JumpIfZero(t)) => JumpUnlessNe(t),
        (Lt, JumpIfZero(t)) => JumpUnlessLt(t),
        (Gt, JumpIfZero(t)) => JumpUnlessGt(t),
        (Le, JumpIfZero(t)) => JumpUnlessLe(t),
        (Ge, JumpIfZero(t)) => JumpUnlessGe(t),
        (And, JumpIfZero(t)) => JumpUnlessAnd(t),
        (GStep(d), GVerify) => GStepVerify(d),
        (GEmpty, GVerify) => GEmptyVerify,
        (GNotEmpty, GVerify) => GNotEmptyVerify,
        (GFriend, GVerify) => GFriendVerify,
        (GEnemy, GVerify) => GEnemyVerify,
        (LitEq(n), JumpIfZero(t)) => JumpUnlessLitEq(i16::try_from(n).ok()?, t),
        (LitNe(n), JumpIfZero(t)) => JumpUnlessLitNe(i16::try_from(n).ok()?, t),
        (LitLt(n), JumpIfZero(t)) => JumpUnlessLitLt(i16::try_from(n).ok()?, t),
        (LitGt(n), JumpIfZero(t)) => JumpUnlessLitGt(i16::try_from(n).ok()?, t),
        (Dup, JumpUnlessLitEq(n, t)) => DupJumpUnlessLitEq(n, t),
        (Dup, JumpUnlessLitNe(n, t)) => DupJumpUnlessLitNe(n, t),
        (Dup, JumpUnlessLitLt(n, t)) => DupJumpUnlessLitLt(n, t),
        (Dup, JumpUnlessLitGt(n, t)) => DupJumpUnlessLitGt(n, t),
        (Dup, JumpUnlessLitLe(n, t)) => DupJumpUnlessLitLe(n, t),
        (Dup, JumpUnlessLitGe(n, t)) => DupJumpUnlessLitGe(n, t),
        _ => return None,
    })
}

/// A primitive word: its name, the instruction it compiles to, and its
/// stack effect (shown by SEE and in docs; `needs` is checked at run time).
pub struct Primitive {
    pub name: &'static str,
    pub op: Op,
    pub effect: &'static str,
    /// Only meaningful inside a definition (return-stack and loop words).
    pub compile_only: bool,
}

macro_rules! prims {
    ($( $name:literal $op:ident $effect:literal $($co:ident)? ;)*) => {
        pub const PRIMITIVES: &[Primitive] = &[
            $( Primitive { name: $name, op: Op::$op, effect: $effect, compile_only: prims!(@co $($co)?) }, )*
        ];
    };
    (@co) => { false };
    (@co compile_only) => { true };
}

prims! {
    "EXECUTE" Execute "( xt -- )";
    "I" I "( -- n ) R: ( loop -- loop )" compile_only;
    "J" J "( -- n ) R: ( loop loop -- loop loop )" compile_only;
    "K" K "( -- n )" compile_only;
    "UNLOOP" Unloop "( -- ) R: ( limit index -- )" compile_only;
    ">R" ToR "( x -- ) R: ( -- x )" compile_only;
    "R>" RFrom "( -- x ) R: ( x -- )" compile_only;
    "R@" RFetch "( -- x ) R: ( x -- x )" compile_only;
    "DUP" Dup "( x -- x x )";
    "DROP" Drop "( x -- )";
    "SWAP" Swap "( a b -- b a )";
    "OVER" Over "( a b -- a b a )";
    "ROT" Rot "( a b c -- b c a )";
    "-ROT" MinusRot "( a b c -- c a b )";
    "NIP" Nip "( a b -- b )";
    "TUCK" Tuck "( a b -- b a b )";
    "PICK" Pick "( xu ... x0 u -- xu ... x0 xu )";
    "ROLL" Roll "( xu ... x0 u -- xu-1 ... x0 xu )";
    "2DUP" TwoDup "( a b -- a b a b )";
    "2DROP" TwoDrop "( a b -- )";
    "2SWAP" TwoSwap "( a b c d -- c d a b )";
    "2OVER" TwoOver "( a b c d -- a b c d a b )";
    "?DUP" QDup "( x -- 0 | x x )";
    "DEPTH" Depth "( -- n )";
    "+" Add "( a b -- a+b )";
    "-" Sub "( a b -- a-b )";
    "*" Mul "( a b -- a*b )";
    "/" Div "( a b -- a/b )";
    "MOD" Mod "( a b -- a%b )";
    "/MOD" DivMod "( a b -- rem quot )";
    "*/" MulDiv "( a b c -- a*b/c )";
    "1+" Inc "( n -- n+1 )";
    "1-" Dec "( n -- n-1 )";
    "2+" Add2 "( n -- n+2 )";
    "2-" Sub2 "( n -- n-2 )";
    "2*" Mul2 "( n -- n*2 )";
    "2/" Div2 "( n -- n/2 )";
    "ABS" Abs "( n -- |n| )";
    "NEGATE" Negate "( n -- -n )";
    "MIN" Min "( a b -- min )";
    "MAX" Max "( a b -- max )";
    "=" Eq "( a b -- f )";
    "<>" Ne "( a b -- f )";
    "<" Lt "( a b -- f )";
    ">" Gt "( a b -- f )";
    "<=" Le "( a b -- f )";
    ">=" Ge "( a b -- f )";
    "0=" ZeroEq "( n -- f )";
    "NOT" ZeroEq "( n -- f )";
    "0<>" ZeroNe "( n -- f )";
    "0<" ZeroLt "( n -- f )";
    "0>" ZeroGt "( n -- f )";
    "U<" ULt "( u1 u2 -- f )";
    "AND" And "( a b -- a&b )";
    "OR" Or "( a b -- a|b )";
    "XOR" Xor "( a b -- a^b )";
    "INVERT" Invert "( n -- ~n )";
    "LSHIFT" LShift "( n u -- n<<u )";
    "RSHIFT" RShift "( n u -- n>>u )";
    "@" Fetch "( addr -- x )";
    "!" Store "( x addr -- )";
    "C@" CFetch "( addr -- c )";
    "C!" CStore "( c addr -- )";
    "+!" PlusStore "( n addr -- )";
    "++" IncMem "( addr -- )";
    "--" DecMem "( addr -- )";
    "ON" On "( addr -- )";
    "OFF" Off "( addr -- )";
    "HERE" Here "( -- addr )";
    "ALLOT" Allot "( n -- )";
    "," Comma "( x -- )";
    "C," CComma "( c -- )";
    "CELLS" Cells "( n -- n*4 )";
    "FILL" Fill "( addr n c -- )";
    "MOVE" Move "( from to n -- )";
    "COUNT" Count "( str -- addr len )";
    // Axiom (lower case, unlike the Forth words of the same spelling)
    "here" GHere "( -- pos )";
    "from" GFrom "( -- pos )";
    "current-player" GPlayer "( -- player )";
    "current-piece-type" GPieceType "( -- type )";
    "back" GBack "( -- )";
    "empty?" GEmpty "( -- ? )";
    "not-empty?" GNotEmpty "( -- ? )";
    "friend?" GFriend "( -- ? )";
    "enemy?" GEnemy "( -- ? )";
    "empty-at?" GEmptyAt "( pos -- ? )";
    "piece-at" GPieceAt "( pos -- piece )";
    "player-at" GPlayerAt "( pos -- player )";
    "to" GTo "( pos -- )";
    "friend-of?" GFriendOf "( pos player -- ? )";
    "enemy-of?" GEnemyOf "( pos player -- ? )";
    "piece-value" GPieceValue "( piece -- value )";
    "stalemate?" GStalemate "( -- ? )";
    "verify" GVerify "( ? -- )";
}

impl Op {
    /// How many data-stack cells the instruction needs. Checked before it
    /// runs, so an underflow names the word and says what was missing.
    pub fn needs(self) -> u32 {
        use Op::*;
        match self {
            Lit(_) | Call(_) | Exit | Jump(_) | Deferred(_) | DoesSet(_) | CompileXt(_)
            | DotQuote(_) | Leave(_) | Unloop | I | J | K | RFrom | RFetch | Depth | Here
            | FetchAt(_) | IncAt(_) | Host(_) | Loop(_) | GStep(_) | GHere | GFrom | GPlayer | GPieceType | GBack | GEmpty
            | GStalemate | GNotEmpty | GFriend | GEnemy | GStepVerify(_) | GEmptyVerify | GNotEmptyVerify
            | GFriendVerify | GEnemyVerify | AddAt(..) | ILit(_) | ICell(_) | IFetchCell(_) | ICFetch(_) => 0,
            FetchOff(_) | CFetchOff(_) | JumpIfNonZero(_) | JumpUnlessLitEq(..) | JumpUnlessLitNe(..)
            | JumpUnlessLitLt(..) | JumpUnlessLitGt(..) | JumpUnlessLitLe(..) | JumpUnlessLitGe(..)
            | DupJumpUnlessLitEq(..) | DupJumpUnlessLitNe(..) | DupJumpUnlessLitLt(..)
            | DupJumpUnlessLitGt(..) | DupJumpUnlessLitLe(..) | DupJumpUnlessLitGe(..) => 1,
            StoreOff(_) | CStoreOff(_) | JumpUnlessAnd(_) | JumpUnlessEq(_) | JumpUnlessNe(_) | JumpUnlessLt(_)
            | JumpUnlessGt(_) | JumpUnlessLe(_) | JumpUnlessGe(_) => 2,
            JumpIfZero(_) | DupJumpIfZero(_) | Execute | SetDefer(_) | AbortQuote(_)
            | PlusLoop(_) | ToR | Dup | Drop | QDup | Inc | Dec | Add2 | Sub2
            | Mul2 | Div2 | Abs | Negate | ZeroEq | ZeroNe | ZeroLt | ZeroGt | Invert | Fetch
            | CFetch | IncMem | DecMem | On | Off | Allot | Comma | CComma | Cells | Count
            | LitAdd(_) | LitMul(_) | LitEq(_) | LitNe(_) | LitLt(_) | LitGt(_) | StoreAt(_)
            | IAdd | LitDiv(_) | LitMod(_) | Pick | Roll | GEmptyAt | GPieceAt | GPlayerAt | GPieceValue | GTo | GVerify | CellsLit(_)
            | FetchCell(_) | IStoreCell(_) | ICStore(_) => 1,
            Do | QDo(_) | Swap | Over | Nip | Tuck | TwoDup | TwoDrop | Add | Sub | Mul | Div
            | Mod | DivMod | Min | Max | Eq | Ne | Lt | Gt | Le | Ge | ULt | And | Or | Xor
            | LShift | RShift | Store | CStore | PlusStore | FetchAdd | CellsAdd | OverAdd
            | StoreCell(_) | LitMulAdd(_) | GFriendOf | GEnemyOf => 2,
            Rot | MinusRot | MulDiv | Fill | Move => 3,
            TwoSwap | TwoOver => 4,
        }
    }

    /// Pushes one cell and does nothing else but read (so two of them may
    /// trade places).
    pub fn only_pushes(self) -> bool {
        use Op::*;
        matches!(self, Lit(_) | I | J | K | FetchAt(_) | ILit(_) | ICell(_) | IFetchCell(_) | ICFetch(_))
    }

    /// Works on the data stack and data space only: no jumps, calls, or
    /// return-stack use, so code may be moved across it.
    pub fn is_pure_data(self) -> bool {
        use Op::*;
        matches!(
            self,
            Lit(_) | Dup | Drop | Swap | Over | Rot | MinusRot | Nip | Tuck | TwoDup | TwoDrop | TwoSwap
                | TwoOver | Add | Sub | Mul | Div | Mod | DivMod | MulDiv | Inc | Dec | Add2 | Sub2 | Mul2
                | Div2 | Abs | Negate | Min | Max | Eq | Ne | Lt | Gt | Le | Ge | ZeroEq | ZeroNe | ZeroLt
                | ZeroGt | ULt | And | Or | Xor | Invert | LShift | RShift | Fetch | Store | CFetch | CStore
                | PlusStore | IncMem | DecMem | On | Off | Cells | LitAdd(_) | LitMul(_) | LitEq(_) | LitNe(_)
                | LitLt(_) | LitGt(_) | FetchAt(_) | StoreAt(_) | IncAt(_) | FetchAdd | CellsAdd | OverAdd
                | FetchOff(_) | StoreOff(_) | CFetchOff(_) | CStoreOff(_) | CellsLit(_) | FetchCell(_)
                | StoreCell(_) | LitMulAdd(_) | LitDiv(_) | LitMod(_) | AddAt(..)
        )
    }

    /// The target of a jump-like instruction, if any.
    pub fn target(self) -> Option<Addr> {
        use Op::*;
        match self {
            Jump(a) | JumpIfZero(a) | DupJumpIfZero(a) | QDo(a) | Loop(a) | PlusLoop(a)
            | Leave(a) | JumpIfNonZero(a) | JumpUnlessAnd(a) | JumpUnlessEq(a) | JumpUnlessNe(a) | JumpUnlessLt(a)
            | JumpUnlessGt(a) | JumpUnlessLe(a) | JumpUnlessGe(a) | JumpUnlessLitEq(_, a)
            | JumpUnlessLitNe(_, a) | JumpUnlessLitLt(_, a) | JumpUnlessLitGt(_, a)
            | JumpUnlessLitLe(_, a) | JumpUnlessLitGe(_, a) | DupJumpUnlessLitEq(_, a)
            | DupJumpUnlessLitNe(_, a) | DupJumpUnlessLitLt(_, a) | DupJumpUnlessLitGt(_, a)
            | DupJumpUnlessLitLe(_, a) | DupJumpUnlessLitGe(_, a) => Some(a),
            _ => None,
        }
    }

    pub fn with_target(self, a: Addr) -> Op {
        use Op::*;
        match self {
            Jump(_) => Jump(a),
            JumpIfZero(_) => JumpIfZero(a),
            DupJumpIfZero(_) => DupJumpIfZero(a),
            QDo(_) => QDo(a),
            Loop(_) => Loop(a),
            PlusLoop(_) => PlusLoop(a),
            Leave(_) => Leave(a),
            JumpIfNonZero(_) => JumpIfNonZero(a),
            JumpUnlessAnd(_) => JumpUnlessAnd(a),
            JumpUnlessEq(_) => JumpUnlessEq(a),
            JumpUnlessNe(_) => JumpUnlessNe(a),
            JumpUnlessLt(_) => JumpUnlessLt(a),
            JumpUnlessGt(_) => JumpUnlessGt(a),
            JumpUnlessLe(_) => JumpUnlessLe(a),
            JumpUnlessGe(_) => JumpUnlessGe(a),
            JumpUnlessLitEq(n, _) => JumpUnlessLitEq(n, a),
            JumpUnlessLitNe(n, _) => JumpUnlessLitNe(n, a),
            JumpUnlessLitLt(n, _) => JumpUnlessLitLt(n, a),
            JumpUnlessLitGt(n, _) => JumpUnlessLitGt(n, a),
            JumpUnlessLitLe(n, _) => JumpUnlessLitLe(n, a),
            JumpUnlessLitGe(n, _) => JumpUnlessLitGe(n, a),
            DupJumpUnlessLitEq(n, _) => DupJumpUnlessLitEq(n, a),
            DupJumpUnlessLitNe(n, _) => DupJumpUnlessLitNe(n, a),
            DupJumpUnlessLitLt(n, _) => DupJumpUnlessLitLt(n, a),
            DupJumpUnlessLitGt(n, _) => DupJumpUnlessLitGt(n, a),
            DupJumpUnlessLitLe(n, _) => DupJumpUnlessLitLe(n, a),
            DupJumpUnlessLitGe(n, _) => DupJumpUnlessLitGe(n, a),
            other => other,
        }
    }

    /// A conditional jump with the opposite condition (same target).
    pub fn inverted_branch(self) -> Option<Op> {
        use Op::*;
        Some(match self {
            JumpIfZero(a) => JumpIfNonZero(a),
            JumpIfNonZero(a) => JumpIfZero(a),
            JumpUnlessEq(a) => JumpUnlessNe(a),
            JumpUnlessNe(a) => JumpUnlessEq(a),
            JumpUnlessLt(a) => JumpUnlessGe(a),
            JumpUnlessGe(a) => JumpUnlessLt(a),
            JumpUnlessGt(a) => JumpUnlessLe(a),
            JumpUnlessLe(a) => JumpUnlessGt(a),
            JumpUnlessLitEq(n, a) => JumpUnlessLitNe(n, a),
            JumpUnlessLitNe(n, a) => JumpUnlessLitEq(n, a),
            JumpUnlessLitLt(n, a) => JumpUnlessLitGe(n, a),
            JumpUnlessLitGe(n, a) => JumpUnlessLitLt(n, a),
            JumpUnlessLitGt(n, a) => JumpUnlessLitLe(n, a),
            JumpUnlessLitLe(n, a) => JumpUnlessLitGt(n, a),
            DupJumpUnlessLitEq(n, a) => DupJumpUnlessLitNe(n, a),
            DupJumpUnlessLitNe(n, a) => DupJumpUnlessLitEq(n, a),
            DupJumpUnlessLitLt(n, a) => DupJumpUnlessLitGe(n, a),
            DupJumpUnlessLitGt(n, a) => DupJumpUnlessLitLe(n, a),
            DupJumpUnlessLitLe(n, a) => DupJumpUnlessLitGt(n, a),
            DupJumpUnlessLitGe(n, a) => DupJumpUnlessLitLt(n, a),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ops_stay_eight_bytes() {
        assert_eq!(std::mem::size_of::<Op>(), 8);
    }

    #[test]
    fn primitive_names_are_unique() {
        let mut names: Vec<_> = PRIMITIVES.iter().map(|p| p.name).collect();
        names.sort();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len());
    }

    #[test]
    fn literal_pairs_fuse() {
        assert_eq!(fuse(Op::Lit(3), Op::Add), Some(Op::LitAdd(3)));
        assert_eq!(fuse(Op::Lit(3), Op::Sub), Some(Op::LitAdd(-3)));
        assert_eq!(fuse(Op::Lit(-4), Op::Fetch), None);
        assert_eq!(fuse(Op::Dup, Op::Add), None);
        assert_eq!(fuse(Op::Lit(2), Op::LitAdd(3)), Some(Op::Lit(5)));
    }

    #[test]
    fn array_indexing_folds_into_one_op() {
        // `I 1+ CELLS DATA + @` with DATA at 100
        let steps = [Op::Inc, Op::Cells, Op::LitAdd(100), Op::Fetch];
        let folded = steps.iter().fold(Op::I, |prev, &next| fuse(prev, next).unwrap_or(Op::Exit));
        assert_eq!(folded, Op::IFetchCell(104));
    }
}
