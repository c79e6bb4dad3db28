//! `{UCT}`: Monte-Carlo tree search. Each iteration walks down the tree
//! choosing children by UCB1 (win rate plus `c·sqrt(ln N / n)`), adds the
//! first unvisited child, plays a random game from it through the real
//! move generator, and credits every node on the path with the result
//! for the player who made the node's move. Any number of players: each
//! node is scored for its own mover. When the iterations or the time run
//! out, the most-visited move is played.

use crate::error::VmResult;
use crate::game::UNKNOWN_SCORE;
use crate::vm::Vm;

/// A random game longer than this is scored a draw.
const MAX_PLAYOUT: u32 = 1000;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// Index of the first child in the arena (children are contiguous);
    /// valid once `expanded`.
    first: u32,
    children: u32,
    visits: u32,
    /// Sum of the results for `mover` (1 win, ½ draw, 0 loss).
    reward: f64,
    /// The player who made the move leading here.
    mover: i32,
    expanded: bool,
    /// The game is over here; `reward` per visit is then `terminal`.
    terminal: Option<Outcome>,
}

/// A finished game, as credit per player.
#[derive(Clone, Copy, Debug)]
enum Outcome {
    Draw,
    Won(i32),
    Lost(i32),
}

impl Outcome {
    fn credit(self, player: i32) -> f64 {
        match self {
            Outcome::Draw => 0.5,
            Outcome::Won(p) => (p == player) as u8 as f64,
            Outcome::Lost(p) => (p != player) as u8 as f64,
        }
    }
}

#[derive(Default)]
pub struct Tree {
    nodes: Vec<Node>,
    path: Vec<u32>,
}

pub fn best_move(vm: &mut Vm) -> VmResult<usize> {
    let range = vm.game.store.current();
    if range.len() == 1 {
        return Ok(range.start);
    }
    let mut tree = std::mem::take(&mut vm.game.search.uct);
    let result = search(vm, &mut tree);
    vm.game.search.uct = tree;
    result
}

fn search(vm: &mut Vm, tree: &mut Tree) -> VmResult<usize> {
    let range = vm.game.store.current();
    let me = vm.player_to_move();
    tree.nodes.clear();
    tree.nodes.push(Node { first: 1, children: range.len() as u32, visits: 0, reward: 0.0, mover: 0, expanded: true, terminal: None });
    add_children(tree, range.len(), me);
    let limit = vm.game.search.limits.iterations;
    let c = vm.game.search.limits.uct_c;
    let mut iterations = 0u64;
    let mut deepest = 0;
    loop {
        if limit.is_some_and(|n| iterations >= n) || (iterations > 0 && vm.game.search.should_stop()) {
            break;
        }
        deepest = deepest.max(iterate(vm, tree, c)?);
        iterations += 1;
    }
    let root = tree.nodes[0];
    let best = (0..root.children).max_by_key(|&i| tree.nodes[(root.first + i) as usize].visits).unwrap_or(0);
    let node = tree.nodes[(root.first + best) as usize];
    let info = &mut vm.game.search.info;
    info.depth = deepest;
    info.reported_nodes = iterations;
    info.score = Some(((node.reward / node.visits.max(1) as f64) * 1000.0) as i32);
    Ok(range.start + best as usize)
}

fn add_children(tree: &mut Tree, n: usize, mover: i32) {
    let child = Node { first: 0, children: 0, visits: 0, reward: 0.0, mover, expanded: false, terminal: None };
    tree.nodes.extend(std::iter::repeat_n(child, n));
}

/// One descent, expansion, playout and update; answers the depth reached.
fn iterate(vm: &mut Vm, tree: &mut Tree, c: f64) -> VmResult<u32> {
    let turn = vm.game.turn;
    vm.push_board()?;
    let result = descend(vm, tree, c);
    vm.pop_board()?;
    vm.game.turn = turn;
    let outcome = result?;
    for &n in &tree.path {
        let node = &mut tree.nodes[n as usize];
        node.visits += 1;
        node.reward += outcome.credit(node.mover);
    }
    Ok(tree.path.len() as u32 - 1)
}

fn descend(vm: &mut Vm, tree: &mut Tree, c: f64) -> VmResult<Outcome> {
    tree.path.clear();
    tree.path.push(0);
    let mut at = 0usize;
    loop {
        let node = tree.nodes[at];
        if let Some(o) = node.terminal {
            return Ok(o);
        }
        vm.generate_turn()?;
        if !node.expanded {
            // A new leaf: is the game over here? If not, its children
            // wait for later visits and a random game scores it now.
            let r = vm.game_result()?;
            if r != UNKNOWN_SCORE {
                vm.game.store.pop_list();
                let o = outcome(vm.player_to_move(), r);
                tree.nodes[at].terminal = Some(o);
                return Ok(o);
            }
            let n = vm.game.store.count();
            let first = tree.nodes.len() as u32;
            let me = vm.player_to_move();
            add_children(tree, n, me);
            let node = &mut tree.nodes[at];
            (node.first, node.children, node.expanded) = (first, n as u32, true);
            vm.game.store.pop_list();
            return playout(vm);
        }
        let ln_n = (node.visits.max(1) as f64).ln();
        let mut best = (0, f64::NEG_INFINITY);
        for i in 0..node.children {
            let ch = &tree.nodes[(node.first + i) as usize];
            let value = if ch.visits == 0 {
                f64::INFINITY
            } else {
                ch.reward / ch.visits as f64 + c * (ln_n / ch.visits as f64).sqrt()
            };
            if value > best.1 {
                best = (i, value);
            }
        }
        let m = vm.game.store.current().start + best.0 as usize;
        vm.game.search.info.nodes += 1;
        let made = vm.make_move(m);
        vm.game.store.pop_list();
        made?;
        at = (node.first + best.0) as usize;
        tree.path.push(at as u32);
    }
}

/// Random moves to the end of the game (or the cap).
fn playout(vm: &mut Vm) -> VmResult<Outcome> {
    for _ in 0..MAX_PLAYOUT {
        vm.generate_turn()?;
        let r = vm.game_result()?;
        if r != UNKNOWN_SCORE {
            vm.game.store.pop_list();
            return Ok(outcome(vm.player_to_move(), r));
        }
        let range = vm.game.store.current();
        let m = range.start + vm.rand_within(0, 0, range.len() as i32 - 1) as usize;
        vm.game.search.info.nodes += 1;
        let made = vm.make_move(m);
        vm.game.store.pop_list();
        made?;
    }
    Ok(Outcome::Draw)
}

/// A game result, scored for the player to move, as credit per player.
fn outcome(to_move: i32, score: i32) -> Outcome {
    match score {
        0 => Outcome::Draw,
        s if s > 0 => Outcome::Won(to_move),
        _ => Outcome::Lost(to_move),
    }
}
