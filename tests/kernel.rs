//! The Axiom kernel vocabulary: every name the original kernel files
//! (`axiom.4th` and `CORE.4TH` of Axiom 1.40, 1.50 and 1.51) defined is
//! defined in axforth (names only here, never the kernel's code), and the
//! words with real edge cases behave as the kernel's did.

use axforth::{Config, Vm};

/// CORE.4TH of Axiom 1.50 (Ur, Senet, splut, Rithmomachy, LifeOrDeath): every name it defines, `(` and `\` included.
const CORE_150: &[&str] = &[
    ":",
    "CELLSIZE",
    "CELLS",
    "ALLOT",
    "LATEST",
    "NFA>CFA",
    "NFA>PFA",
    "CFA>LFA",
    "CFA>NFA",
    "PFA>NFA",
    "NFA>LFA",
    "DEFINITIONS",
    "RECURSE",
    "BINARY",
    "OCTAL",
    "DECIMAL",
    "HEX",
    "IF",
    "ENDIF",
    "ELSE",
    "BEGIN",
    "UNTIL",
    "WHILE",
    "REPEAT",
    "DO",
    "LOOP",
    "+LOOP",
    "EXIT",
    "LITERAL",
    "COMPILE-LITERAL",
    "CONSTANT",
    "<BUILDS",
    "VARIABLE",
    "CREATE",
    "TIMER",
    "BL",
    "LF",
    "SPACE",
    "CR",
    "TAB",
    r#""SIZE"#,
    r#"(.")"#,
    r#".""#,
    r#"(S")"#,
    r#"S""#,
    "[COMPILE]",
    "'",
    "[']",
    "DEFER",
    "(IS)",
    "IS",
    "MAX",
    "MIN",
    "NEGATE",
    "ABS",
    "[]",
    r#"(ABORT")"#,
    r#"ABORT""#,
    "ASCII",
    "ERASE",
    "(FORGET)",
    "FORGET",
    "?",
    ".S",
    "ON",
    "OFF",
    "THEN",
    "RANDOMIZE",
    "RANDOMIZE2",
    "FVARIABLE",
    "FCONSTANT",
    "FCELLS",
    "F,",
    "FMIN",
    "FMAX",
    "FNEGATE",
    "FABS",
    "#MB_OK",
    "#MB_OKCANCEL",
    "#MB_YESNO",
    "#MB_YESNOCANCEL",
    "#MB_RETRYCANCEL",
    "#MB_ABORTRETRYIGNORE",
    "#MB_ICONINFORMATION",
    "#MB_ICONEXCLAMATION",
    "#MB_ICONQUESTION",
    "#MB_ICONSTOP",
    "#IDABORT",
    "#IDCANCEL",
    "#IDCONTINUE",
    "#IDIGNORE",
    "#IDNO",
    "#IDOK",
    "#IDRETRY",
    "#IDTRYAGAIN",
    "#IDYES",
    "(",
    r#"\"#,
];
/// CORE.4TH of Axiom 1.51 (Viruses): names 1.50 did not have.
const CORE_151_NEW: &[&str] = &[
    r#""APPEND"#,
];
/// axiom.4th of Axiom 1.50 (the Ur copy; the other public 1.50 build is the same file): every name it defines. `player-count` is made at `players}` and is checked in a game below.
const AXIOM_150: &[&str] = &[
    "#Version",
    "#Directions",
    "#Moves",
    "#MaxPriorities",
    "#Turns",
    "#DepthLimit",
    "#ForeverDepth",
    "#UnknownScore",
    "#LossScore",
    "#DrawScore",
    "#WinScore",
    "#KeepSearching",
    "#StopSoon",
    "#StopNow",
    "#Players",
    "#Pieces",
    "#PieceCells",
    "#TurnOrderCells",
    "#Neutral",
    "#PlayerBase",
    "#NoMoveType",
    "#NoPriority",
    "#movesCell",
    "#DropsCell",
    "#ValueCell",
    "#PiecePlayer",
    "#PieceType",
    "#Player",
    "#PlayerNumber",
    "#PlayerShift",
    "#Empty",
    "$rows",
    "$columns",
    "$posCount",
    "$lastPosNFA",
    "$positions",
    "$scanPositions",
    "$boardSize",
    "$board",
    "$posNames",
    "$directions",
    "$directionCount",
    "$symmetries",
    "$pieces",
    "$pieceCount",
    "$scanPieceCount",
    "$zobrist",
    "$playerCount",
    "$players",
    "$playerName",
    "$playerOffset",
    "$engines",
    "$playerToMoveHash",
    "$turnOrder",
    "$turnOffset",
    "$turnLimit",
    "$ofType",
    "$forPlayer",
    "$turnNumber",
    "$movesList",
    "$timeCheckFrequency",
    "$depthLimit",
    "$searchTime",
    "$variety",
    "$iterationDepth",
    "$ply",
    "$lastMoveType",
    "$evals",
    "$rootMoveCount",
    "$rootMoveIndex",
    "$searchStatus",
    "$searchTimer",
    "$searching",
    "$moveAddr",
    "$moveString",
    "$move-priorities",
    "$from",
    "$pos",
    "$piece",
    "$player",
    "$partial",
    "$passed",
    "$buffer",
    "$nextPiece",
    "$currDirection",
    "$moveType",
    "$repeatOffset",
    "$priority",
    "$add-move",
    "$boardSetup",
    "$gameLog",
    "$flipGrid",
    "$passTurnForced",
    "$shareMovesList",
    "$combinePartial",
    "$gameResultBug",
    "$authoring",
    "$addr,",
    "$CellCount",
    "$CommaCells",
    "$MakeConstant",
    r#"(^")"#,
    r#"^""#,
    "$PositionToIndex",
    "$IndexToPosition",
    "$RowColumnToIndex",
    "$LegalRow?",
    "$LegalColumn?",
    "$LegalPos?",
    "$Link",
    "$DoDirection",
    "$BuildDirection",
    "$CreateDirection",
    "$CreateDirectionFromString",
    "$MakeLinks",
    "{directions",
    "{direction}",
    "{link}",
    "{unlink}",
    "directions}",
    "$FirstMove",
    "$NextMove",
    "$MoveString",
    ".moveType",
    ".moveCFA",
    "$FirstMoveEngine",
    "$RAND-WITHIN",
    "$RandomMoveEngine",
    "OnSearch",
    "searching?",
    "{players",
    "$EncodePlayer",
    "$DefinePlayer",
    "{player}",
    "{neutral}",
    "$CompileEngine",
    "{search-engine}",
    "{UCT}",
    "{random}",
    "{first}",
    "$ClearEvals",
    "$player-count",
    "players}",
    "player-index",
    "{turn-order",
    "{turn}",
    "{for-player}",
    "$DefineMoveType",
    "{of-type}",
    "{repeat}",
    "turn-order}",
    "$SetPlayer",
    "$SetTurn",
    "turn-offset",
    "next-turn-offset",
    "turn-offset-to-player",
    "next-player",
    "OnNextTurn",
    "$symmetryPlayerCELLOffset",
    "$direction1CFA",
    "$direction2CFA",
    "$direction1Index",
    "$direction2Index",
    "{symmetries",
    "$DirectionCFAToIndex",
    "$DoIndirectDirection",
    "$RedefineDirection",
    "$SymmetryBase",
    "$ParseSymmetry",
    "$ReplaceDirection",
    "$RedefineDirection1",
    "$RedefineDirection2",
    "{symmetry}",
    "{asymmetry}",
    "symmetries}",
    "{moves",
    "{move}",
    "{move-type}",
    "moves}",
    "{move-priorities",
    "{move-priority}",
    "move-priorities}",
    "{pieces",
    "{piece}",
    "{dummy-pieces}",
    "{moves}",
    "{drops}",
    "{value}",
    "$MakeZobristTable",
    "$GeneratePiecePositionHash",
    "$GeneratePlayerToMoveHash",
    "$GenerateZobristTables",
    "pieces}",
    "piece-index",
    "??",
    "$anonymous",
    "{board",
    "$CheckBoard",
    "$UpdateSize",
    "{grid}",
    "{variable}",
    "{array}",
    "{carray}",
    "$GenerateGridNames",
    "$DefinePosNames",
    "{position}",
    "{dummy-positions}",
    "board}",
    "{board-setup",
    "{setup}",
    "board-setup}",
    "from",
    "home",
    "here",
    "to",
    "back",
    "current-piece",
    "current-piece-type",
    "piece",
    "piece-at",
    "piece-type",
    "piece-type-at",
    "not-piece-type?",
    "not-piece-type-at?",
    "current-player",
    "for-player",
    "of-type",
    "player",
    "player-at",
    "empty?",
    "empty-at?",
    "not-empty?",
    "not-empty-at?",
    "friend?",
    "enemy?",
    "friend-at?",
    "enemy-at?",
    "friend-of?",
    "enemy-of?",
    "neutral-piece?",
    "neutral-piece-at?",
    "verify",
    "move-count",
    "turn-number",
    "stalemate?",
    "(partial)",
    "partial",
    "(partial-move-type)",
    "partial-move-type",
    "$Pass",
    "Pass",
    "PassNoPartial",
    "OnEditRemove",
    "OnEditAdd",
    "_amount-in-reserve",
    "remove-from-reserve,",
    "remove-from-reserve",
    "$OutputMoves",
    "ringbuffer-dump",
    "ringbuffer2-dump",
    "$NewGame",
    "OnNewGame",
    "OnIsTerminal?",
    "OnRetractMove",
    "OnIsGameOver",
    "OnEvaluate",
    "axiomFence",
];
/// axiom.4th of Axiom 1.51 (Viruses): names 1.50 did not have.
const AXIOM_151_NEW: &[&str] = &[
    "$playerToMove",
    "player-to-move",
];
/// axiom.4th of Axiom 1.40 (public on GitHub): names neither 1.50 nor 1.51 has.
const AXIOM_140_ONLY: &[&str] = &[
    "$context",
    "#NoContext",
    "#ImplicitPosition",
    "#ChangedType",
    "#ChangedOwner",
    "#Moved",
    "$changedTo",
    "$lastPos",
    "$useAxiomEngine",
    ".moveString",
    "$PlayerToIndex",
    "$PlayerToCellOffset",
    "$Exchange",
    "$symmetryBase",
    "$PieceToIndex",
    "$PieceToCellOffset",
    "piece-value",
    "$CloneBoard",
    "$DeallocateBoard",
    "last",
    "$DoPartial",
    "$DoPartialMoveType",
    "$RemovePiece",
    "$AddPiece",
    "OnGenerateMoves",
    "OnMakeAMove",
];

fn new_vm() -> Vm {
    let mut vm = Vm::new(Config { max_steps: Some(50_000_000), seed: Some(7), ..Config::default() }).unwrap();
    vm.capture_output();
    vm
}

fn exec(vm: &mut Vm, src: &str) -> String {
    if let Err(e) = vm.run_text("test", src.as_bytes()) {
        panic!("unexpected error running {src:?}:\n{e}");
    }
    String::from_utf8_lossy(&vm.take_output()).into_owned()
}

fn stack(src: &str) -> Vec<i32> {
    let mut vm = new_vm();
    exec(&mut vm, src);
    vm.stack()
}

/// The names of `list` that `' NAME` does not find in a fresh VM.
fn undefined(list: &[&str]) -> Vec<String> {
    let mut vm = new_vm();
    list.iter()
        .filter(|name| {
            let ok = vm.run_text("test", format!("' {name} DROP").as_bytes()).is_ok();
            vm.take_output();
            !ok
        })
        .map(|n| n.to_string())
        .collect()
}

#[test]
fn core_150_names_are_defined() {
    assert_eq!(undefined(CORE_150), Vec::<String>::new());
}

#[test]
fn core_151_names_are_defined() {
    assert_eq!(undefined(CORE_151_NEW), Vec::<String>::new());
}

#[test]
fn axiom_150_names_are_defined() {
    assert_eq!(undefined(AXIOM_150), Vec::<String>::new());
}

#[test]
fn axiom_151_names_are_defined() {
    assert_eq!(undefined(AXIOM_151_NEW), Vec::<String>::new());
}

#[test]
fn axiom_140_names_are_defined() {
    assert_eq!(undefined(AXIOM_140_ONLY), Vec::<String>::new());
}

#[test]
fn the_check_can_fail() {
    assert_eq!(undefined(&["no-such-kernel-word"]), vec!["no-such-kernel-word".to_string()]);
}

/// A small game of our own: two players drop stones on a 3x3 grid until
/// it is full; the end is a draw whose message says after how many turns.
const GAME: &str = r#"
{board 3 3 {grid} board}
{directions
	-1 0 {direction} n   1 0 {direction} s   0 1 {direction} e   0 -1 {direction} w
directions}
: put ( -- )  empty? verify drop add-move ;
{moves stone-drops {move} put moves}
{pieces {piece} Stone {drops} stone-drops pieces}
{players {player} Red {player} Blue players}
{turn-order {turn} Red {turn} Blue turn-order}
: OnIsGameOver ( -- score )
	move-count 0= IF
		^" Draw: the board is full after " turn-number 1- ^number ^"  turns"
		#DrawScore
	ELSE #UnknownScore THEN ;
"#;

fn game(more: &str) -> Vm {
    let mut vm = new_vm();
    exec(&mut vm, GAME);
    exec(&mut vm, more);
    vm.new_game().unwrap();
    vm
}

fn play_first(vm: &mut Vm) {
    vm.generate_turn().unwrap();
    let m = vm.game.store.current().start;
    vm.make_move(m).unwrap();
    vm.game.store.pop_list();
}

fn result(vm: &mut Vm) -> i32 {
    vm.generate_turn().unwrap();
    let r = vm.game_result().unwrap();
    vm.game.store.pop_list();
    r
}

#[test]
fn caret_quote_interpreted_types_its_text() {
    let mut vm = new_vm();
    assert_eq!(exec(&mut vm, r#"^" hello there" 1 ."#), "hello there1 ");
    assert_eq!(vm.game_over_message(), None);
}

#[test]
fn caret_quote_compiled_appends_when_run() {
    let mut vm = new_vm();
    assert_eq!(exec(&mut vm, r#": msg ^" Red wins by " 12 ^number ^"  stones" ;"#), "");
    assert_eq!(vm.game_over_message(), None, "compiling builds no text");
    exec(&mut vm, "msg");
    assert_eq!(vm.game_over_message().as_deref(), Some("Red wins by 12 stones"));
    exec(&mut vm, r#"S" !" ^string -3 ^number"#);
    assert_eq!(vm.game_over_message().as_deref(), Some("Red wins by 12 stones!-3"));
    vm.clear_game_over_message();
    assert_eq!(vm.game_over_message(), None);
}

#[test]
fn game_over_text_is_the_final_positions() {
    let mut vm = game("");
    assert_eq!(result(&mut vm), -2_140_000_000);
    assert_eq!(vm.game_over_message(), None, "no text while the game goes on");
    for _ in 0..9 {
        assert_eq!(result(&mut vm), -2_140_000_000);
        play_first(&mut vm);
    }
    assert_eq!(result(&mut vm), 0);
    assert_eq!(vm.game_over_message().as_deref(), Some("Draw: the board is full after 9 turns"));
    // Asked again, the text is built again, not appended twice.
    assert_eq!(result(&mut vm), 0);
    assert_eq!(vm.game_over_message().as_deref(), Some("Draw: the board is full after 9 turns"));
    // A new game starts without it.
    vm.new_game().unwrap();
    assert_eq!(vm.game_over_message(), None);
}

#[test]
fn string_words() {
    // "APPEND ( str1 str2 -- ) appends str1 to str2.
    let mut vm = new_vm();
    let out = exec(&mut vm, r#"CREATE buf 64 ALLOT S" Red" buf 4 MOVE S" +Blue" buf "APPEND buf TYPE buf C@ ."#);
    assert_eq!(out, "Red+Blue8 ");
    // Appending the empty string changes nothing; the count stops at 255.
    let out = exec(&mut vm, r#"S" " buf "APPEND buf TYPE"#);
    assert_eq!(out, "Red+Blue");
    let out = exec(&mut vm, r#"CREATE big 300 ALLOT 250 big C! S" 0123456789" big "APPEND big C@ ."#);
    assert_eq!(out, "255 ");
    // The DLL's words under them: "MOVE copies count and text, "= compares both.
    let mut vm = new_vm();
    let out = exec(&mut vm, r#"S" Red" PAD "MOVE PAD TYPE PAD "COUNT . . S" Red" PAD "= . S" Rex" PAD "= . S" Re" PAD "= ."#);
    assert_eq!(out, format!("Red3 {} -1 0 0 ", stack("PAD 1+")[0]));
    // "SIZE: whole cells, one more when the text fills its last cell.
    assert_eq!(stack(r#"S" ab" "SIZE S" abc" "SIZE S" " "SIZE"#), vec![4, 8, 4]);
    assert_eq!(stack("LF"), vec![10]);
    let mut vm = new_vm();
    assert_eq!(exec(&mut vm, "TAB 65 EMIT LF EMIT"), "\tA\n");
}

#[test]
fn constants_have_the_kernels_values() {
    assert_eq!(stack("#Version #Turns #MB_YESNOCANCEL #MB_ICONSTOP #IDYES #IDTRYAGAIN ?? #PiecePlayer #PlayerShift #NoPriority"), vec![151, 256, 3, 16, 6, 10, -1, 0xFFFF, 11, 1000]);
    assert_eq!(stack("#Directions #Moves #Players #Pieces #Empty #StopNow #ForeverDepth"), vec![128, 128, 32, 1024, 0, 2, 10]);
}

#[test]
fn board_variables_answer_the_game() {
    let mut vm = game("");
    exec(&mut vm, "Red Stone a3 OnEditAdd");
    assert_eq!(exec(&mut vm, "$rows @ . $columns @ . $positions @ . $posCount @ . $playerCount @ . $pieceCount @ ."), "3 3 9 0 2 1 ");
    // $board @ is position 0's cell: `$board @ pos CELLS + @` reads it.
    assert_eq!(exec(&mut vm, "$board @ a3 CELLS + @  a3 piece-at = ."), "-1 ");
    assert_eq!(exec(&mut vm, "$board @ a3 CELLS + @ #PieceType AND  Stone = ."), "-1 ");
    // board[] (the DLL's word under piece-at): a position's cell.
    assert_eq!(exec(&mut vm, "a3 board[] @  a3 piece-at = .  b2 board[] @ .  b2 board[] a3 board[] - ."), "-1 0 16 ");
    assert_eq!(exec(&mut vm, "player-count . $turnNumber @ turn-number = . player-to-move Red = ."), "2 -1 -1 ");
    // The grid arithmetic of the kernel over these: a1 is the bottom left.
    assert_eq!(exec(&mut vm, "97 1 $PositionToIndex a1 = . a1 $IndexToPosition . EMIT"), "-1 1 a");
    assert_eq!(exec(&mut vm, "3 $LegalRow? . 2 $LegalRow? . -1 $LegalPos? . 8 $LegalPos? ."), "0 -1 0 -1 ");
}

#[test]
fn dollar_exit_leaves_the_move_word_as_a_failed_verify() {
    // Drops only on the middle row: the others leave by `$Exit` before
    // `add-move`, as the kernel's `verify` did.
    let mut vm = new_vm();
    exec(&mut vm, &GAME.replace(": put ( -- )  empty? verify drop add-move ;", ": put ( -- )  here a2 < here c2 > OR IF $Exit THEN drop add-move ;"));
    vm.new_game().unwrap();
    vm.generate_turn().unwrap();
    let mut moves = vm.move_texts();
    vm.game.store.pop_list();
    moves.sort();
    assert_eq!(moves, vec!["Red Stone a2", "Red Stone b2", "Red Stone c2"]);
}

#[test]
fn board_editing_events() {
    let mut vm = game("");
    exec(&mut vm, "Blue Stone b2 OnEditAdd");
    assert_eq!(exec(&mut vm, "b2 piece-at Blue Stone OR = . b2 player-at Blue = ."), "-1 -1 ");
    // Adding over a piece replaces it.
    exec(&mut vm, "Red Stone b2 OnEditAdd");
    assert_eq!(exec(&mut vm, "b2 player-at Red = ."), "-1 ");
    exec(&mut vm, "b2 OnEditRemove");
    assert_eq!(exec(&mut vm, "b2 empty-at? ."), "-1 ");
    // The moves follow the edited board: one square fewer to drop on.
    exec(&mut vm, "Red Stone c1 OnEditAdd");
    vm.generate_turn().unwrap();
    assert_eq!(vm.game.store.count(), 8);
    vm.game.store.pop_list();
    // A position off the board is an error, not a write elsewhere.
    assert!(vm.run_text("test", b"99 OnEditRemove").is_err());
}

#[test]
fn a_game_that_defines_the_edit_events_loads() {
    let mut vm = game(": OnEditAdd ( player type pos -- ) NIP NIP 1 SWAP (add-piece) ; : OnEditRemove ( pos -- ) DROP ;");
    exec(&mut vm, "Red Stone a1 OnEditAdd a1 OnEditRemove");
    assert_eq!(exec(&mut vm, "a1 piece-at ."), "1 ");
}

#[test]
fn default_events_are_callable_and_change_no_game() {
    let mut vm = game("");
    assert_eq!(exec(&mut vm, "OnNewGame OnIsTerminal? . OnEvaluate . OnMakeAMove OnNextTurn OnGenerateMoves"), "-1 0 ");
    // The kernel's OnIsGameOver: unknown while there are moves, a draw
    // (stalemate) without.
    vm.generate_turn().unwrap();
    assert_eq!(exec(&mut vm, "OnIsGameOver"), "");
    assert_eq!(vm.stack(), vec![-2_140_000_000]);
    vm.game.store.pop_list();
    // A game without OnEvaluate is still scored by material, as before.
    let mut plain = new_vm();
    exec(&mut plain, &GAME.replace("OnIsGameOver", "OnIsGameOver-unused"));
    plain.new_game().unwrap();
    assert_eq!(plain.game.events.is_game_over, None, "the stdlib's OnIsGameOver is not the game's");
    assert_eq!(plain.game.events.evaluate, None);
    assert_eq!(plain.game.events.new_game, None);
    // The game's own definition is found.
    assert!(vm.game.events.is_game_over.is_some());
    // A game calling the default from its own event gets its behaviour.
    let mut calls = game(": OnNewGame ( -- ) OnNewGame 42 $timeCheckFrequency ! ;");
    assert_eq!(exec(&mut calls, "$timeCheckFrequency @ ."), "42 ");
}

#[test]
fn forget_hides_the_word_and_later_ones() {
    assert_eq!(stack(": w1 1 ; : w1 2 ; : w2 3 ; FORGET w1 w1"), vec![1]);
    let mut vm = new_vm();
    exec(&mut vm, ": w3 3 ; FORGET w3");
    assert!(vm.run_text("test", b"w3").is_err());
    assert!(vm.run_text("test", b"FORGET DUP").is_err(), "the kernel cannot be forgotten");
}

#[test]
fn float_words_on_single_cells() {
    let f = |x: f32| x.to_bits() as i32;
    assert_eq!(stack(&format!("{} {} FMIN {} {} FMAX", f(1.5), f(-2.0), f(1.5), f(-2.0))), vec![f(-2.0), f(1.5)]);
    assert_eq!(stack(&format!("{} FNEGATE {} FABS {} FABS", f(2.5), f(-3.0), f(0.0))), vec![f(-2.5), f(3.0), f(0.0)]);
    assert_eq!(stack("FVARIABLE fv 7 fv ! fv @ 2 FCELLS"), vec![7, 8]);
}

#[test]
fn header_words_keep_tokens() {
    assert_eq!(stack(": sq DUP * ; 5 LATEST NFA>CFA EXECUTE"), vec![25]);
    assert_eq!(stack("DEFER d ' 1+ ' d (IS) 4 d"), vec![5]);
}

#[test]
fn link_and_make_links() {
    let mut vm = game("");
    // $MakeLinks links the grid by an offset, in $currDirection's direction.
    exec(&mut vm, "S\" up2\" $CreateDirectionFromString -2 0 $MakeLinks");
    exec(&mut vm, "a1 ' up2 DROP");
    assert_eq!(vm.game.board.link(vm.game.board.direction_named("up2").unwrap(), 6), 0, "a1 (6) links to a3 (0)");
    exec(&mut vm, "a1 c3 ' n $Link");
    assert_eq!(vm.game.board.link(0, 6), 2);
}

#[test]
fn generation_variables_answer_the_move_being_made() {
    // A drop that checks, at every square, the mirrors against the words.
    let mut vm = game(": check-put ( -- ) $pos @ here = verify $player @ current-player = verify $from @ from = verify $piece @ current-piece = verify empty? verify drop add-move ; {moves checked {move} check-put moves} {pieces {piece} Pebble {drops} checked pieces}");
    vm.generate_turn().unwrap();
    assert_eq!(vm.game.store.count(), 18, "9 drops of Stone, 9 of Pebble");
    vm.game.store.pop_list();
}
