//! The game layer (AXIOM.md): perft of the bundled games against the
//! published numbers (GAMES.md), and the rules of the move-generation
//! model on small games written inline.

use axforth::game::{moves::move_text, Action, UNKNOWN_SCORE};
use axforth::{Config, Vm, VmError};
use pretty_assertions::assert_eq;
use std::path::Path;

fn config() -> Config {
    Config { seed: Some(7), ..Config::default() }
}

fn load_file(path: &str) -> Vm {
    let mut vm = Vm::new(config()).unwrap();
    vm.capture_output();
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    if let Err(e) = vm.run_file(&p) {
        panic!("loading {path}:\n{e}");
    }
    vm.new_game().unwrap_or_else(|e| panic!("starting {path}:\n{e}"));
    vm
}

fn try_load(src: &str) -> Result<Vm, VmError> {
    let mut vm = Vm::new(config()).unwrap();
    vm.capture_output();
    vm.run_text("game", src.as_bytes())?;
    vm.new_game()?;
    Ok(vm)
}

fn load(src: &str) -> Vm {
    try_load(src).unwrap_or_else(|e| panic!("{e}"))
}

/// The legal moves of the player to move, as text.
fn moves(vm: &mut Vm) -> Vec<String> {
    vm.generate_turn().unwrap_or_else(|e| panic!("{e}"));
    let texts = vm.move_texts();
    vm.game.store.pop_list();
    texts
}

/// Plays the move with this text.
fn play(vm: &mut Vm, text: &str) {
    vm.generate_turn().unwrap();
    let m = vm.find_move(text).unwrap_or_else(|| panic!("`{text}` is not legal; legal: {:?}", vm.move_texts()));
    vm.make_move(m).unwrap_or_else(|e| panic!("{e}"));
    vm.game.store.pop_list();
}

fn cell(vm: &Vm, name: &str) -> i32 {
    let pos = vm.game.board.position_named(name).unwrap();
    vm.game.board.get(&vm.mem, pos).unwrap()
}

fn eval(vm: &mut Vm, src: &str) -> Vec<i32> {
    let before = vm.stack().len();
    vm.run_text("eval", src.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let s = vm.stack()[before..].to_vec();
    vm.set_depth(before as u32);
    s
}

// ---- perft: published numbers ------------------------------------------------

#[test]
fn tictactoe_perft_1_to_9() {
    let published = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];
    let mut vm = load_file("scripts/tictactoe/tictactoe.4th");
    for (depth, want) in published.iter().enumerate() {
        assert_eq!(vm.perft(depth as u32 + 1).unwrap(), *want, "tic-tac-toe perft {}", depth + 1);
    }
}

#[test]
fn othello_perft_1_to_6() {
    let published = [4, 12, 56, 244, 1396, 8200];
    let mut vm = load_file("scripts/othello/othello.4th");
    for (depth, want) in published.iter().enumerate() {
        assert_eq!(vm.perft(depth as u32 + 1).unwrap(), *want, "Othello perft {}", depth + 1);
    }
}

/// Multi-jumps as partial chains, mandatory captures as priorities,
/// White's directions by symmetry, a board variable set by compiled calls.
#[test]
fn draughts_perft_1_to_6() {
    let published = [7, 49, 302, 1469, 7361, 36768];
    let mut vm = load_file("scripts/draughts/draughts.4th");
    for (depth, want) in published.iter().enumerate() {
        assert_eq!(vm.perft(depth as u32 + 1).unwrap(), *want, "draughts perft {}", depth + 1);
    }
}

#[test]
fn othello_perft_from_a_position_equals_the_sum_of_divide() {
    let mut vm = load_file("scripts/othello/othello.4th");
    let parts = vm.perft_divide(4, &mut |_, _| {}).unwrap();
    assert_eq!(parts.len(), 4);
    assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), 244);
}

#[test]
fn random_games_play_to_the_end() {
    for (file, plies) in [("scripts/tictactoe/random.4th", 9), ("scripts/othello/random.4th", 130), ("scripts/draughts/random.4th", 1000)] {
        let mut vm = load_file(file);
        let mut n = 0;
        loop {
            vm.generate_turn().unwrap();
            if vm.game_result().unwrap() != UNKNOWN_SCORE {
                break;
            }
            let m = vm.choose_move(vm.engine_to_move()).unwrap();
            vm.make_move(m).unwrap();
            vm.game.store.pop_list();
            n += 1;
            assert!(n <= plies, "{file}: no end after {plies} plies");
        }
        assert!(n >= 5, "{file}: ended after {n} plies");
    }
}

// ---- encodings and declarations -------------------------------------------------

const GRID: &str = "
{board 3 4 {grid} {position} pool {variable} score 3 {array} tally 5 {carray} flags board}
{directions -1 0 {direction} n 1 0 {direction} s 0 1 {direction} e 0 -1 {direction} w
  {link} jump a1 pool  {unlink} e b2 directions}
{players {player} White {player} Black {neutral} Rocks players}
: step-n ( -- ) n verify from here move add-move ;
{moves man-moves {move} step-n moves}
{pieces {piece} Man {moves} man-moves 3 {value} {piece} Rock pieces}
{board-setup {setup} White Man a1 b1 {setup} Black Man d3 {setup} Rocks Rock c2 board-setup}
";

#[test]
fn encodings_are_exact() {
    let mut vm = load(GRID);
    // Index = (R - row) * C + column; extra positions follow the grid.
    assert_eq!(eval(&mut vm, "a3 d3 a1 d1 pool"), vec![0, 3, 8, 11, 12]);
    assert_eq!(eval(&mut vm, "White Black Rocks player-count"), vec![2048, 4096, (3 * 2048) | 1024, 3]);
    assert_eq!(eval(&mut vm, "Man Rock"), vec![1, 2]);
    assert_eq!(eval(&mut vm, "a1 piece-at b1 player-at d3 piece-at c2 piece-at"), vec![2048 | 1, 2048, 4096 | 1, (3 * 2048) | 1024 | 2]);
    assert_eq!(eval(&mut vm, "Black player-index d3 piece-at piece-index"), vec![1, 0]);
    assert_eq!(eval(&mut vm, "#WinScore #LossScore #DrawScore #UnknownScore"), vec![2130000000, -2130000000, 0, -2140000000]);
    // A piece without `{value}` is worth 1, as in the original kernel (the
    // neutral Rock counts against both).
    assert_eq!(eval(&mut vm, "White material-balance Black material-balance"), vec![2, -4]);
}

#[test]
fn flip_grid_puts_row_1_on_top() {
    let mut vm = load("$flipGrid ON {board 2 2 {grid} board} {players {player} A players}");
    assert_eq!(eval(&mut vm, "a1 b1 a2 b2"), vec![0, 1, 2, 3]);
}

#[test]
fn directions_links_and_unlinks() {
    let mut vm = load(GRID);
    // a2 n -> a3; a3 n -> off the board; {link}; {unlink} e b2.
    assert_eq!(eval(&mut vm, "a2 to n here   n here"), vec![-1, 0, 0, 0]);
    assert_eq!(eval(&mut vm, "a1 to jump here  b2 to e here  a2 to e here"), vec![-1, 12, 0, 5, -1, 5]);
}

/// The board's layout cannot change while moves are being generated (the
/// generator reads its tables through the whole generation): a move word
/// declaring a direction fails, as an error under `--strict`.
#[test]
fn the_layout_stays_while_moves_are_generated() {
    let src = "{board 3 3 {grid} board}
        {directions -1 0 {direction} n directions}
        {players {player} A {player} B players}
        : put ( -- ) ['] {link} EXECUTE empty? verify drop add-move ;
        {moves stone-drops {move} put moves}
        {pieces {piece} Stone {drops} stone-drops pieces}
        current-player TRUE 0 $GenerateMoves zz a1 b1";
    let mut vm = Vm::new(Config { strict: true, ..config() }).unwrap();
    vm.capture_output();
    let e = vm.run_text("game", src.as_bytes()).expect_err("declaring a direction while generating");
    assert!(e.to_string().contains("`{link}` changes the board's layout, which cannot change while moves are being generated"), "{e}");
    assert!(vm.game.board.direction_named("zz").is_none());
}

#[test]
fn board_variables_live_in_the_board_and_are_cloned() {
    let mut vm = load(GRID);
    assert_eq!(eval(&mut vm, "5 score !  $CloneBoard  9 score ! 7 2 tally ! 1 4 flags C!  score @"), vec![9]);
    assert_eq!(eval(&mut vm, "$DeallocateBoard score @ 2 tally @ 4 flags C@"), vec![5, 0, 0]);
    // A new game starts from an erased board: pieces only from the setup,
    // board variables zeroed (the original's $NewGame), whatever was
    // stored at load time.
    vm.new_game().unwrap();
    assert_eq!(eval(&mut vm, "score @"), vec![0]);
}

#[test]
fn a_new_game_erases_the_board_but_not_other_data() {
    let src = "
    {board 2 2 {grid} {variable} turns 2 {array} marks VARIABLE plain 7 plain ! board}
    {players {player} A players}
    {board-setup {setup} A Stone a1 board-setup}
    {pieces {piece} Stone pieces}
    \\ Load-time stores: erased with the board, except a plain VARIABLE.
    5 turns !  6 1 marks !  A Stone b2 create-player-piece-type-at";
    let mut vm = load(src);
    vm.run_text("t", b"9 turns ! 9 plain !").unwrap();
    vm.new_game().unwrap();
    assert_eq!(eval(&mut vm, "turns @ 1 marks @ plain @ a1 piece-at b2 piece-at"), vec![0, 0, 9, 2048 | 1, 0]);
}

#[test]
fn the_game_remembers_positions_until_repetition_reset() {
    let mut vm = load(GRID);
    assert_eq!(eval(&mut vm, "repetition-count"), vec![0]);
    vm.remember_position();
    vm.remember_position();
    assert_eq!(eval(&mut vm, "repetition-count"), vec![2]);
    assert_eq!(eval(&mut vm, "1 score ! repetition-count 0 score !"), vec![0], "board variables are part of the position");
    assert_eq!(eval(&mut vm, "repetition-reset repetition-count"), vec![0]);
}

#[test]
fn a_clock_is_cloned_with_the_board_but_is_no_part_of_the_position() {
    // A move counter in the board must not make every position new:
    // `{clock}` cells are saved and restored like `{variable}`s, zeroed by
    // a new game, but left out of the key repetitions compare.
    let src = "{board 2 2 {grid} {variable} score {clock} plies board} {players {player} A players}";
    let mut vm = load(src);
    assert_eq!(eval(&mut vm, "7 plies !  $CloneBoard  9 plies !  $DeallocateBoard  plies @"), vec![7]);
    vm.remember_position();
    assert_eq!(eval(&mut vm, "8 plies !  repetition-count"), vec![1], "another clock, the same position");
    assert_eq!(eval(&mut vm, "1 score !  repetition-count  0 score !"), vec![0], "a {{variable}} still counts");
    vm.new_game().unwrap();
    assert_eq!(eval(&mut vm, "plies @"), vec![0]);
}

#[test]
fn unbalanced_deallocate_is_an_error_not_a_crash() {
    let mut vm = load(GRID);
    let e = vm.run_text("t", b"$DeallocateBoard").unwrap_err();
    assert!(e.to_string().contains("without a matching `$CloneBoard`"), "{e}");
    let e = vm.run_text("t", b"$DeallocateMoves").unwrap_err();
    assert!(e.to_string().contains("without a matching `$GenerateMoves`"), "{e}");
}

// ---- move generation -------------------------------------------------------------

#[test]
fn moves_of_pieces_as_the_original_writes_them() {
    let mut vm = load(GRID);
    // White men on a1, b1 step north; Black's d3 cannot (top row).
    assert_eq!(moves(&mut vm), vec!["Man a1 - a2", "Man b1 - b2"]);
    play(&mut vm, "b1 - b2");
    assert_eq!(cell(&vm, "b2"), 2048 | 1);
    assert_eq!(cell(&vm, "b1"), 0);
    assert_eq!(moves(&mut vm), Vec::<String>::new());
}

#[test]
fn queries_see_the_board_as_it_was_and_edits_apply_in_order() {
    let src = format!(
        "{GRID}
        : weird ( -- )
            from capture-at            \\ record a capture of the mover
            empty? verify              \\ still sees the piece: not empty, so...
            add-move ;
        : recreate ( -- )
            from capture-at  Rock from create-piece-type-at
            from empty-at? 0= verify   \\ the board is unchanged while generating
            add-move ;
        {{moves other {{move}} weird {{move}} recreate moves}}
        {{pieces {{piece}} Man {{moves}} other pieces}}"
    );
    let mut vm = load(&src);
    // `weird` fails verify; `recreate` yields one move per man.
    let texts = moves(&mut vm);
    assert_eq!(texts.len(), 2, "{texts:?}");
    vm.generate_turn().unwrap();
    let m = vm.game.store.current().start;
    vm.make_move(m).unwrap();
    vm.game.store.pop_list();
    // Capture then create on the same square leaves the new piece.
    assert_eq!(cell(&vm, "a1"), 2048 | 2);
}

#[test]
fn a_move_keeps_its_edits_around_a_nested_generation() {
    // Edits recorded before moves are generated in a move word (none,
    // then some with edits of their own), while they are listed, and
    // after they are freed all make the one move, in order; the nested
    // lists come and go without a trace.
    let src = format!(
        "{GRID}
        {{move-priorities {{move-priority}} outer {{move-priority}} simple move-priorities}}
        : nested ( -- )
            n verify  from here move
            current-player TRUE simple $GenerateMoves   \\ none
            current-player FALSE simple $GenerateMoves  \\ two steps
            from capture-at
            $DeallocateMoves $DeallocateMoves
            Rock from create-piece-type-at
            add-move ;
        {{moves mixed {{move}} nested {{move-type}} outer {{move}} step-n {{move-type}} simple moves}}
        {{pieces {{piece}} Man {{moves}} mixed pieces}}"
    );
    let mut vm = load(&src);
    let lists = vm.game.store.lists.len();
    vm.generate_turn().unwrap();
    let (a1, a2) = (vm.game.board.position_named("a1").unwrap(), vm.game.board.position_named("a2").unwrap());
    let made: Vec<Vec<Action>> = vm.game.store.current().map(|m| vm.game.store.actions_of(m).to_vec()).filter(|a| a.len() > 1).collect();
    let rock = vm.game.players[0].value | 2;
    assert!(
        made.contains(&vec![Action::Move { from: a1, to: a2 }, Action::Capture(a1), Action::Place { pos: a1, content: rock }]),
        "{made:?}"
    );
    assert_eq!(made.len(), 2, "one such move per man: {made:?}");
    let m = vm.game.store.current().find(|&m| vm.game.store.actions_of(m).len() == 3 && vm.game.store.actions_of(m)[0] == Action::Move { from: a1, to: a2 });
    vm.make_move(m.unwrap()).unwrap();
    vm.game.store.pop_list();
    assert_eq!(vm.game.store.lists.len(), lists);
    assert_eq!((cell(&vm, "a2"), cell(&vm, "a1")), (2048 | 1, 2048 | 2));
}

#[test]
fn verify_leaves_any_nesting_and_keeps_added_moves() {
    let src = format!(
        "{GRID}
        : deep ( n -- ) DUP 0= verify 1- RECURSE ;
        : two ( -- ) from here move add-move  1 2 3  5 deep  from here move add-move ;
        {{moves m2 {{move}} two moves}}
        {{pieces {{piece}} Man {{moves}} m2 pieces}}"
    );
    let mut vm = load(&src);
    let before = vm.stack().len();
    assert_eq!(moves(&mut vm), vec!["Man a1 x a1", "Man b1 x b1"]);
    assert_eq!(vm.stack().len(), before, "verify must not leave cells behind");
}

#[test]
fn compiled_words_run_when_the_move_is_played() {
    let src = format!(
        "{GRID}
        VARIABLE log
        : note ( n -- ) log +! ;
        : noting ( -- ) n verify from here move 40 COMPILE-LITERAL COMPILE note 2 COMPILE-LITERAL COMPILE note add-move ;
        {{moves m3 {{move}} noting moves}}
        {{pieces {{piece}} Man {{moves}} m3 pieces}}"
    );
    let mut vm = load(&src);
    assert_eq!(eval(&mut vm, "log @"), vec![0]);
    moves(&mut vm);
    assert_eq!(eval(&mut vm, "log @"), vec![0], "generation must not run compiled words");
    play(&mut vm, "a1 - a2");
    assert_eq!(eval(&mut vm, "log @"), vec![42]);
}

const CHAIN: &str = "
{board 1 5 {grid} board}
{directions 0 1 {direction} e directions}
{players {player} A {player} B players}
\\ A move type used in a move word before {moves declares it: a CONSTANT.
2 CONSTANT hopping
: step ( -- ) e verify empty? verify from here move  hopping partial-move-type add-move ;
: hop ( -- ) e verify empty? verify from here move add-move ;
{moves steps {move} step {move-type} walk {move} hop {move-type} hopping moves}
{pieces {piece} Man {moves} steps pieces}
{board-setup {setup} A Man a1 {setup} B Man e1 board-setup}
";

#[test]
fn partial_moves_keep_the_player_and_restrict_the_type() {
    let mut vm = load(CHAIN);
    assert_eq!(eval(&mut vm, "walk hopping"), vec![1, 2]);
    assert_eq!(moves(&mut vm), vec!["Man a1 - b1", "Man a1 - b1"]);
    vm.generate_turn().unwrap();
    let step = vm.game.store.current().start; // the partial one
    vm.make_move(step).unwrap();
    vm.game.store.pop_list();
    // Same player, only `hop` moves now.
    assert_eq!(vm.player_to_move(), 2048);
    assert_eq!(moves(&mut vm), vec!["Man b1 - c1"]);
    play(&mut vm, "b1 - c1");
    assert_eq!(vm.player_to_move(), 4096);
}

#[test]
fn a_partial_chain_is_one_ply_in_perft() {
    let mut vm = load(CHAIN);
    // A: step+hop (b1, c1), hop (b1) -> after either, B has no move east.
    // Ply 1 = {a1-b1 then b1-c1, a1-b1 (hop)} = 2 sequences.
    assert_eq!(vm.perft(1).unwrap(), 2);
}

#[test]
fn a_partial_move_with_no_continuation_ends_the_turn() {
    // Every step says partial, restricted to a type no move has: the
    // chain ends at once, the turn passes, and perft counts plies as usual.
    let src = CHAIN.replace("hopping partial-move-type add-move", "99 partial-move-type add-move");
    let mut vm = load(&src);
    assert_eq!(vm.perft(1).unwrap(), 2);
    assert_eq!(vm.perft(2).unwrap(), 0, "B then has no move east of e1: stalemate, the game is over");
    play(&mut vm, "a1 - b1");
    // The next generation finds nothing to continue with: B is to move.
    assert_eq!(moves(&mut vm), Vec::<String>::new());
    assert_eq!(vm.player_to_move(), 4096);
}

#[test]
fn an_endless_partial_chain_is_an_error() {
    let src = CHAIN.replace(": hop ( -- ) e verify empty? verify from here move add-move ;", ": hop ( -- ) from here move partial add-move ;");
    let mut vm = load(&src);
    let e = vm.perft(2).unwrap_err();
    assert!(e.to_string().contains("partial moves in one turn"), "{e}");
}

#[test]
fn no_move_and_no_verdict_loses() {
    // OnIsGameOver plays on, but the player to move has nothing to play.
    let src = "
    {board 1 2 {grid} board}
    {players {player} A {player} B players}
    : put ( -- ) empty? verify drop add-move ;
    {moves puts {move} put moves}
    {pieces {piece} Stone {drops} puts pieces}
    : OnIsGameOver ( -- score ) #UnknownScore ;";
    let mut vm = load(src);
    play(&mut vm, "Stone a1");
    play(&mut vm, "Stone b1");
    vm.generate_turn().unwrap();
    assert_eq!(vm.game_result().unwrap(), axforth::game::LOSS_SCORE);
}

#[test]
fn priorities_keep_only_the_best_class() {
    let src = "
    {board 1 4 {grid} board}
    {directions 0 1 {direction} e 0 -1 {direction} w directions}
    {players {player} A {player} B players}
    : shift ( -- ) e verify empty? verify from here move add-move ;
    : jump ( -- ) e verify enemy? verify e verify empty? verify from here move add-move ;
    {moves men {move} shift {move-type} plain {move} jump {move-type} capture moves}
    {move-priorities {move-priority} capture {move-priority} plain move-priorities}
    {pieces {piece} Man {moves} men pieces}
    {board-setup {setup} A Man a1 {setup} B Man b1 board-setup}";
    let mut vm = load(src);
    assert_eq!(moves(&mut vm), vec!["Man a1 - c1"]);
}

#[test]
fn forced_pass_and_pass() {
    let src = "
    {board 1 3 {grid} board}
    {directions 0 1 {direction} e directions}
    {players {player} A {player} B players}
    : shift ( -- ) e verify empty? verify from here move add-move ;
    {moves men {move} shift moves}
    {pieces {piece} Man {moves} men pieces}
    {board-setup {setup} A Man a1 {setup} B Man c1 board-setup}";
    let mut vm = load(src);
    play(&mut vm, "a1 - b1");
    assert_eq!(moves(&mut vm), Vec::<String>::new());
    let mut vm = load(&format!("$passTurnForced ON {src}"));
    play(&mut vm, "a1 - b1");
    assert_eq!(moves(&mut vm), vec!["Pass"]);
    play(&mut vm, "Pass");
    assert_eq!(vm.player_to_move(), 2048);
}

#[test]
fn turn_order_repeat_of_type_and_variants() {
    let src = "
    {board 1 3 {grid} board}
    {players {player} A {player} B players}
    : put ( -- ) empty? verify drop add-move ;
    {moves puts {move} put {move-type} placing moves}
    {pieces {piece} Stone {drops} puts pieces}
    {turn-order {turn} A {repeat} {turn} B {turn} A {of-type} placing turn-order}";
    let mut vm = load(src);
    assert_eq!(eval(&mut vm, "turn-offset 0 next-turn-offset 1 next-turn-offset 2 next-turn-offset"), vec![0, 1, 2, 1]);
    assert_eq!(eval(&mut vm, "2 turn-offset-to-player"), vec![2048]);
    play(&mut vm, "Stone a1");
    play(&mut vm, "Stone b1");
    assert_eq!(vm.player_to_move(), 2048);
    play(&mut vm, "Stone c1");
    assert_eq!(vm.player_to_move(), 4096, "after the last entry the order goes back to {{repeat}}");
    // A variant declares the players and the turn order again: latest wins.
    let vm = load(&format!("{src} {{players {{player}} A {{first}} {{player}} B {{random}} players}} {{turn-order {{turn}} B {{turn}} A turn-order}}"));
    assert_eq!(vm.player_to_move(), 4096);
    assert_eq!(vm.game.players[0].engine, axforth::game::Engine::First);
}

#[test]
fn pieces_may_name_move_lists_declared_later_and_engines_defined_later() {
    let src = "
    {board 1 3 {grid} board}
    {players {player} A {search-engine} second-move {player} B players}
    {pieces {piece} Stone {drops} puts pieces}
    : put ( -- ) empty? verify drop add-move ;
    {moves puts {move} put moves}
    \\ A script engine: report the second legal move.
    : second-move ( -- ) $FirstMove $NextMove $MoveString BestMove! ;";
    let mut vm = load(src);
    assert_eq!(moves(&mut vm), vec!["A Stone a1", "A Stone b1", "A Stone c1"]);
    vm.generate_turn().unwrap();
    let m = vm.choose_move(vm.engine_to_move()).unwrap();
    assert_eq!(move_text(&vm.game, &vm.mem, m), "A Stone b1");
    vm.game.store.pop_list();
    let e = try_load("{board 1 3 {grid} board} {players {player} A {search-engine} nowhere players}").err().unwrap();
    assert!(e.to_string().contains("`nowhere`, which is not defined"), "{e}");
}

#[test]
fn engine_words_walk_and_apply_moves() {
    let mut vm = load_file("scripts/othello/othello.4th");
    vm.generate_turn().unwrap();
    let first = vm.game.store.current().start;
    let text = move_text(&vm.game, &vm.mem, first);
    // Walk the list, read the type, clone, apply through .moveCFA, restore.
    let src = ": count-moves ( -- n ) 0 $FirstMove BEGIN ?DUP WHILE SWAP 1+ SWAP $NextMove REPEAT ;
               count-moves $FirstMove .moveType @
               $CloneBoard $FirstMove .moveCFA EXECUTE e6 piece-at $DeallocateBoard e6 piece-at";
    assert_eq!(eval(&mut vm, src), vec![4, 1, 2048 | 1, 0]);
    let s = eval(&mut vm, "$FirstMove $MoveString");
    let bytes = vm.mem.counted(s[0]).unwrap().to_vec();
    assert_eq!(String::from_utf8(bytes).unwrap(), text);
    // Nested lists for the opponent.
    assert_eq!(eval(&mut vm, "Black TRUE 0 $GenerateMoves move-count $DeallocateMoves move-count"), vec![4, 4]);
}

// ---- errors ------------------------------------------------------------------------

#[test]
fn an_error_in_a_move_word_names_piece_square_and_word() {
    let src = format!(
        "{GRID}
        : broken ( -- ) 1 0 / DROP ;
        {{moves bad {{move}} broken moves}}
        {{pieces {{piece}} Man {{moves}} bad pieces}}"
    );
    // Strict: the error (tolerant, the word ends as a failed verify: tests/compat.rs).
    let mut vm = Vm::new(Config { strict: true, ..config() }).unwrap();
    vm.capture_output();
    vm.run_text("game", src.as_bytes()).unwrap();
    vm.new_game().unwrap();
    let e = vm.generate_turn().unwrap_err();
    let text = e.to_string();
    assert_eq!(e.code(), "division-by-zero", "{text}");
    assert!(text.contains("in `broken`"), "{text}");
    assert!(text.contains("--> game:"), "{text}");
    assert!(text.contains("move word `broken` for White's Man at a1"), "{text}");
}

#[test]
fn events_must_leave_the_move_lists_and_boards_balanced() {
    let mut vm = load(&format!("{GRID} : OnIsGameOver ( -- score ) White FALSE 0 $GenerateMoves #UnknownScore ;"));
    let e = vm.perft(1).unwrap_err();
    assert!(e.to_string().contains("`OnIsGameOver` left 1 move list(s)"), "{e}");
    let mut vm = load(&format!("{GRID} : OnIsGameOver ( -- score ) $CloneBoard #UnknownScore ;"));
    let e = vm.perft(1).unwrap_err();
    assert!(e.to_string().contains("`OnIsGameOver` left 1 board(s)"), "{e}");
}

#[test]
fn script_that_pulls_the_rug_gives_errors_not_crashes() {
    // A name read by {setup} runs script that closes the block.
    // (Names are resolved when the game starts, when the block is long
    // closed: the game starts, or fails cleanly.)
    if let Err(e) = try_load(&format!("{GRID} : sneaky ( -- player ) board-setup}} White ; {{board-setup {{setup}} sneaky Man a2")) {
        assert!(e.to_string().starts_with("error:"), "{e}");
    }
    // A move that, when played, pops the very list it came from.
    let src = format!(
        "{GRID}
        : pop-list ( -- ) $DeallocateMoves ;
        : rug ( -- ) from here move COMPILE pop-list 7 COMPILE-LITERAL COMPILE DROP add-move ;
        {{moves rugs {{move}} rug moves}}
        {{pieces {{piece}} Man {{moves}} rugs pieces}}
        : play-first ( -- ) White FALSE 0 $GenerateMoves $FirstMove .moveCFA EXECUTE ;"
    );
    let mut vm = load(&src);
    let e = vm.run_text("t", b"play-first").unwrap_err();
    assert!(e.to_string().contains("deallocated while the move was being played"), "{e}");
}

#[test]
fn declaration_errors_say_what_to_do() {
    for (src, want) in [
        ("{players {player} A players}", "no board"),
        ("{board 2 2 {grid} board}", "no players"),
        ("{board 2 2 {grid} board} {board", "declared twice"),
        ("{directions", "needs the board first"),
        ("{board 2 2 {grid} board} {players {player} A players} {pieces {piece} X {moves} nope pieces}", "no move list named `nope`"),
        ("{board 2 2 {grid} board} {players {player} A players} {board-setup {setup} A 9 a1 board-setup}", "not a piece type"),
        ("{board 2 2 {grid} board} {players {player} A players} : m 99 to ;", ""),
    ] {
        match try_load(src) {
            Ok(_) if want.is_empty() => {}
            Ok(_) => panic!("{src}: loaded, expected an error about {want}"),
            Err(e) => assert!(!want.is_empty() && e.to_string().contains(want), "{src}: got\n{e}\nwanted {want}"),
        }
    }
    let mut vm = load("{board 2 2 {grid} board} {players {player} A players}");
    let e = vm.run_text("t", b"99 to").unwrap_err();
    assert!(e.to_string().contains("no such position: 99"), "{e}");
}

#[test]
fn friend_and_enemy_verify_follow_on_friends() {
    // `friend? verify` and `enemy? verify` are single instructions: they
    // must still ask OnFriends? when the game defines it.
    let src = "
        {board 1 3 {grid} board}
        {directions 0 1 {direction} e directions}
        {players {player} White {player} Black players}
        : ally ( -- ) e verify friend? verify from here move add-move ;
        : foe ( -- ) e verify enemy? verify from from move add-move ;
        {moves mv {move} ally {move} foe moves}
        {pieces {piece} Man {moves} mv pieces}
        {board-setup {setup} White Man a1 c1 {setup} Black Man b1 board-setup}";
    let mut vm = load(src);
    assert_eq!(moves(&mut vm), vec!["Man a1 x a1"], "by default Black is White's enemy");
    let mut vm = load(&format!("{src}\n: OnFriends? ( p1 p2 -- ? ) 2DROP TRUE ;"));
    assert_eq!(moves(&mut vm), vec!["Man a1 x b1"], "OnFriends? makes everyone a friend");
}

// ---- {board-setup} resolves its names as each game starts -------------------------

/// A base game sets up `MAN`s, a `DEFER`red word; the variant that loads
/// it says which piece `MAN` is after the setup (and after the piece).
const DEFERRED_SETUP: &str = "
{board 3 3 {grid} board}
{directions -1 0 {direction} n directions}
{players {player} White {player} Black players}
DEFER MAN
{board-setup {setup} White MAN a1 b1 {setup} Black MAN c3 {setup} Black Rook a3 board-setup}
: step ( -- ) n verify empty? verify from here move add-move ;
{moves steps {move} step moves}
{symmetries Black {symmetry} n n symmetries}
{pieces {piece} Man {moves} steps {piece} Rook pieces}
' Man IS MAN
";

#[test]
fn a_deferred_piece_in_the_setup_is_the_one_is_gave_it() {
    let mut vm = load(DEFERRED_SETUP);
    assert_eq!(cell(&vm, "a1"), 2048 | 1);
    assert_eq!(cell(&vm, "b1"), 2048 | 1);
    assert_eq!(cell(&vm, "c3"), 4096 | 1);
    assert_eq!(cell(&vm, "a3"), 4096 | 2, "a piece declared after the {{setup}} that names it");
    assert_eq!(moves(&mut vm), vec!["Man a1 - a2", "Man b1 - b2"]);
    // Black's man on the top row cannot step north: 2 plies, then 0.
    assert_eq!(vm.perft(1).unwrap(), 2);
    assert_eq!(vm.perft(2).unwrap(), 0);
    // Every game resolves again: a later IS changes the next game.
    vm.run_text("variant", b"' Rook IS MAN").unwrap();
    vm.new_game().unwrap();
    assert_eq!(cell(&vm, "a1"), 2048 | 2);
    assert_eq!(moves(&mut vm), Vec::<String>::new());
}

#[test]
fn an_unresolvable_setup_name_is_an_error_when_the_game_starts() {
    // Loading works: the names mean nothing yet.
    let src = DEFERRED_SETUP.replace("' Man IS MAN", "");
    let mut vm = Vm::new(config()).unwrap();
    vm.capture_output();
    vm.run_text("base.4th", src.as_bytes()).unwrap();
    let e = vm.new_game().unwrap_err();
    let text = e.to_string();
    assert!(text.contains("`MAN`"), "{text}");
    assert!(text.contains("--> base.4th:6:14"), "names the {{setup}} line: {text}");
    // A name that is not defined at all, in the second {setup} of a line.
    let src = DEFERRED_SETUP.replace("{setup} Black Rook a3", "{setup} Black Bishop a3");
    let e = try_load(&src).err().unwrap();
    let text = e.to_string();
    assert!(text.contains("Bishop"), "{text}");
    assert!(text.contains("--> game:6:59"), "{text}");
}

// ---- $movesList: the header the original's engines read -------------------------

#[test]
fn moves_list_header_gives_the_count_and_the_first_move() {
    let mut vm = load(DEFERRED_SETUP);
    vm.generate_turn().unwrap();
    let got = eval(&mut vm, "$movesList @ CELLSIZE + @  move-count  $movesList @ 2 CELLS + @  $FirstMove");
    assert_eq!(got[0], got[1]);
    assert_eq!(got[0], 2);
    assert_eq!(got[2], got[3]);
    // Walk from the header's first move: as many moves as it counts.
    let walk = ": walk ( -- n ) 0 $movesList @ 2 CELLS + @ BEGIN ?DUP WHILE SWAP 1+ SWAP $NextMove REPEAT ; walk";
    assert_eq!(eval(&mut vm, walk), vec![2]);
    // A header kept across a nested list still describes its own list;
    // the variable follows the current one.
    let nested = "$movesList @  Black FALSE 0 $GenerateMoves  $movesList @ CELLSIZE + @  SWAP CELLSIZE + @  $DeallocateMoves";
    assert_eq!(eval(&mut vm, nested), vec![0, 2]);
    vm.game.store.pop_list();
}

// ---- move texts: the original's (Zillions') notation ------------------------------

/// One game with every kind of edit.
const EDITS: &str = "
{board 3 3 {grid} board}
{directions -1 0 {direction} n 0 1 {direction} e directions}
{players {player} White {player} Black players}
{pieces {piece} Man {moves} men {drops} puts {piece} King pieces}
: step ( -- ) n verify from here move add-move ;
: take-east ( -- ) e verify enemy? verify from here move add-move ;
: pair ( -- ) e verify friend? verify  back n verify from here move  back e verify here n verify here move add-move ;
: crown ( -- ) n verify n verify empty? verify from here move King change-type add-move ;
: shoot ( -- ) a3 enemy-at? verify a3 capture-at add-move ;
: turn ( -- ) c3 enemy-at? verify current-player c3 change-owner-at add-move ;
: put ( -- ) empty? verify from a2 = verify drop add-move ;
: give ( -- ) empty? verify from c2 = verify Black Man create-player-piece-type add-move ;
: rest ( -- ) Pass ;
{moves men {move} step {move} take-east {move} pair {move} crown {move} shoot {move} turn {move} rest moves}
{moves puts {move} put {move} give moves}
{board-setup {setup} White Man a1 b1 {setup} Black Man c1 a3 c3 board-setup}
";

#[test]
fn move_texts_name_the_piece_and_spell_each_edit() {
    let mut vm = load(EDITS);
    let texts = moves(&mut vm);
    let has = |t: &str| texts.iter().any(|x| x == t);
    assert!(has("Man a1 - a2"), "a move: {texts:?}");
    assert!(has("Man b1 x c1"), "a capture by replacement: {texts:?}");
    assert!(has("Man a1 - a2 Man b1 - b2"), "two pieces in one move: {texts:?}");
    assert!(has("Man b1 - b3 = King"), "a promotion: {texts:?}");
    assert!(has("x a3"), "a capture elsewhere: {texts:?}");
    assert!(has("White Man c3"), "a change of owner, alone: {texts:?}");
    assert!(has("White Man a2"), "a drop, with its owner: {texts:?}");
    assert!(has("Black Man c2"), "a create for another player: {texts:?}");
    assert!(has("Pass"), "an empty move: {texts:?}");
    // `$MoveString` answers the same text.
    vm.generate_turn().unwrap();
    let s = eval(&mut vm, "$FirstMove $MoveString");
    let first = vm.move_texts()[0].clone();
    assert_eq!(String::from_utf8(vm.mem.counted(s[0]).unwrap().to_vec()).unwrap(), first);
    vm.game.store.pop_list();
}

#[test]
fn ordo_style_lines_mark_every_occupied_target() {
    // A line of men steps north together: each target but the first is
    // occupied before the move, so it reads ` x `, as the original's logs.
    let src = "
    {board 4 1 {grid} board}
    {directions -1 0 {direction} n directions}
    {players {player} A {player} B players}
    : advance ( -- ) from a1 = verify a3 a4 move a2 a3 move a1 a2 move add-move ;
    {moves line {move} advance moves}
    {pieces {piece} Man {moves} line pieces}
    {board-setup {setup} A Man a1 a2 a3 board-setup}";
    let mut vm = load(src);
    assert_eq!(moves(&mut vm), vec!["Man a3 - a4 Man a2 x a3 Man a1 x a2"]);
}

#[test]
fn find_move_takes_the_exact_text_then_looser_forms() {
    let mut vm = load(EDITS);
    vm.generate_turn().unwrap();
    let text_of = |vm: &Vm, t: &str| vm.find_move(t).map(|m| move_text(&vm.game, &vm.mem, m));
    assert_eq!(text_of(&vm, "Man b1 x c1").as_deref(), Some("Man b1 x c1"));
    assert_eq!(text_of(&vm, "  man B1 X c1 ").as_deref(), Some("Man b1 x c1"), "case and spacing");
    assert_eq!(text_of(&vm, "b1 - c1").as_deref(), Some("Man b1 x c1"), "no piece name, - for x");
    assert_eq!(text_of(&vm, "Man a2").as_deref(), Some("White Man a2"), "no player name");
    assert_eq!(text_of(&vm, "c2").as_deref(), Some("Black Man c2"), "the end of the text");
    assert_eq!(text_of(&vm, "b1 x b3 = king").as_deref(), Some("Man b1 - b3 = King"));
    assert_eq!(text_of(&vm, "b1 - b3 = Man"), None, "the type after = counts");
    assert_eq!(text_of(&vm, "a2").as_deref(), Some("White Man a2"), "the whole loose text before its end");
    assert_eq!(text_of(&vm, "b2"), None, "`b2` ends two moves");
    assert_eq!(text_of(&vm, "z9"), None);
    vm.game.store.pop_list();
}
