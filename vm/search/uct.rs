//! `{UCT}`: Monte-Carlo tree search. Each iteration walks down the tree
//! choosing children by UCB1 (win rate plus `c·sqrt(ln N / n)`), adds the
//! first unvisited child, plays a random game from it through the real
//! move generator, and credits every node on the path with the result
//! for the contestant the node's move served (`Game::side_of`). Any
//! number of contestants: each node is scored for its own. A player
//! without a side (a `?Dice`, a neutral player) is a chance node: the
//! descent samples its moves uniformly, as `{random}` plays them, instead
//! of choosing by UCB1. A game that ends on such a player's turn is a
//! draw, as the tournament scores it. When the iterations or the time run
//! out (the clock only once every root move has had its visit), or the
//! tree has grown to the memory budget (`--max-memory`), the
//! most-visited move is played. Game ends found in the tree are proven
//! upwards (MCTS-Solver, Winands, Björnsson and Saito 2008): a node is
//! won for its mover once one move from it wins, and settled once all its
//! moves are (a chance node: once they all agree), so a forced win is
//! played as soon as it is seen, however rarely random games find it, and
//! a proven loss is never chosen while another move remains. Under a
//! time limit, random games too dear for the time are cut short and
//! judged by the evaluation (`PLAYOUTS_PER_ROOT_MOVE`), with a credit
//! graded by how much it changed (`Judge::outcome`).

use super::alphabeta::{settle, Settled};
use crate::state::search::uct::{credit, Judge, Node, Outcome};
pub use crate::state::search::uct::Tree;
use crate::error::VmResult;
use crate::state::UNKNOWN_SCORE;
use crate::vm::Vm;

/// A random game longer than this is scored a draw.
const MAX_PLAYOUT: u32 = 1000;
/// Every this many moves a random game is judged by the evaluation: if
/// the root side's evaluation differs from the root's, the game ends
/// there, credited by how far it moved (`Judge`). Random games of long
/// games say little once material has changed hands, and cost much; an
/// evaluation that has not moved (a game whose evaluation cannot see its
/// goal) lets the game go on to its end.
const JUDGE_EVERY: u32 = 24;
/// Under a time limit, random games are judged sooner when they cost so
/// much that fewer than this many playouts per root move would fit the
/// time: a game whose move generator takes a millisecond (Ordo,
/// Rithmomachy) buys a handful of 24-move playouts in 0.2 s, which is
/// chance, not search. Judged at every move, a playout is mostly the
/// evaluation of the leaf: the search then stands on the evaluation, as
/// alpha-beta does, where random games are too dear.
const PLAYOUTS_PER_ROOT_MOVE: f64 = 1.0;

impl Tree {
    /// Room for `n` more nodes within what the VM may still use; when
    /// there is none, the tree is full.
    fn room_for(&mut self, vm: &Vm, n: usize) -> bool {
        let node = std::mem::size_of::<Node>();
        let bytes = (self.nodes.len() + n).saturating_mul(node);
        let room = vm.memory_room(bytes, "UCT's tree").is_ok() && self.nodes.try_reserve(n).is_ok();
        self.full |= !room;
        room
    }
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
    let me = vm.side_to_move();
    tree.judge = match me {
        Some(side) => Some(Judge { side, at_root: vm.evaluate_as(side)?, ..Judge::default() }),
        None => None,
    };
    tree.nodes.clear();
    tree.full = false;
    if !tree.room_for(vm, 1 + range.len()) {
        let bytes = (1 + range.len()).saturating_mul(std::mem::size_of::<Node>());
        vm.memory_room(bytes, "UCT's tree")?;
        // Within the budget, but the system would not give it.
        return Err(crate::error::ErrorKind::OutOfMemory { what: "UCT's tree", bytes: bytes as u64, limit: vm.config.max_memory }.into());
    }
    tree.nodes.push(Node { first: 1, children: range.len() as u32, visits: 0, reward: 0.0, side: None, expanded: true, terminal: None });
    add_children(tree, range.len(), me);
    let limit = vm.game.search.limits.iterations;
    let c = vm.game.search.limits.uct_c;
    let time = vm.game.search.limits.time.map(|t| t.as_secs_f64());
    let wanted = PLAYOUTS_PER_ROOT_MOVE * range.len() as f64;
    let started = std::time::Instant::now();
    // Under a time limit, the first playouts are judged at once, then as
    // late as the cost of a move measured so far lets `wanted` fit.
    tree.judge_every = if time.is_some() { 1 } else { JUDGE_EVERY };
    let mut iterations = 0u64;
    let mut deepest = 0;
    loop {
        // As alpha-beta's first iteration, the first visit of every root
        // move is not cut by the clock: a move never looked at cannot be
        // chosen for a reason.
        if limit.is_some_and(|n| iterations >= n) || (iterations >= range.len() as u64 && vm.game.search.should_stop()) || vm.game.search.must_stop() || tree.nodes[0].terminal.is_some() || tree.full {
            break;
        }
        deepest = deepest.max(iterate(vm, tree, c)?);
        iterations += 1;
        if let Some(time) = time.filter(|_| iterations.is_multiple_of(16)) {
            let per_move = started.elapsed().as_secs_f64() / vm.game.search.info.nodes.max(1) as f64;
            tree.judge_every = (time / (wanted * per_move)).clamp(1.0, JUDGE_EVERY as f64) as u32;
        }
    }
    let root = tree.nodes[0];
    // The most visited; among as many visits, the better mean, then a
    // random one: a fixed choice among moves the search could not tell
    // apart is a bias, not a decision. A search cut short before every
    // move had a playout (a game whose random games are slow) has no
    // visit counts to go by: the best mean, an unseen move counting as
    // even.
    let all_seen = (0..root.children).all(|i| tree.nodes[(root.first + i) as usize].visits > 0);
    // Proven results first: a win, then anything not a proven loss.
    let rank = |i: u32| {
        let n = tree.nodes[(root.first + i) as usize];
        let class = n.terminal.map_or(1, |o| (2.0 * credit(o, me)) as u32);
        let mean = if n.visits == 0 { 0.5 } else { n.reward / n.visits as f64 };
        (class, if all_seen { n.visits } else { 0 }, mean)
    };
    let top = (0..root.children).map(rank).fold((0, 0, f64::NEG_INFINITY), |a, b| if b > a { b } else { a });
    let tied: Vec<u32> = (0..root.children).filter(|&i| rank(i) == top).collect();
    let best = tied[vm.rand_within(0, 0, tied.len() as i32 - 1) as usize];
    let node = tree.nodes[(root.first + best) as usize];
    let info = &mut vm.game.search.info;
    info.depth = deepest;
    info.reported_nodes = iterations;
    // The mean reward, per mille; a proven result's own.
    let mean = node.terminal.map_or(node.reward / node.visits.max(1) as f64, |o| credit(o, me));
    info.score = Some((mean * 1000.0) as i32);
    Ok(range.start + best as usize)
}

fn add_children(tree: &mut Tree, n: usize, side: Option<i32>) {
    let child = Node { first: 0, children: 0, visits: 0, reward: 0.0, side, expanded: false, terminal: None };
    tree.nodes.extend(std::iter::repeat_n(child, n));
}

/// One descent, expansion, playout and update; answers the depth reached.
fn iterate(vm: &mut Vm, tree: &mut Tree, c: f64) -> VmResult<u32> {
    let turn = vm.game.turn;
    vm.push_board()?;
    vm.game.search.line.clear();
    let result = descend(vm, tree, c);
    vm.pop_board()?;
    vm.game.turn = turn;
    let outcome = result?;
    for &n in &tree.path {
        let node = &mut tree.nodes[n as usize];
        node.visits += 1;
        node.reward += outcome.credit(node.side);
    }
    prove(tree);
    Ok(tree.path.len() as u32 - 1)
}

/// Carries a result proven at the end of the path up it, as far as it
/// settles the nodes above: a node is settled once one of its moves wins
/// for its mover, or once all of its moves are settled (its mover then
/// takes the best of them for itself; at a chance node, only if they all
/// agree).
fn prove(tree: &mut Tree) {
    for k in (0..tree.path.len() - 1).rev() {
        let at = tree.path[k] as usize;
        let node = tree.nodes[at];
        let Some(o) = tree.nodes[tree.path[k + 1] as usize].terminal else { return };
        if node.terminal.is_some() {
            return;
        }
        let kids = &tree.nodes[node.first as usize..(node.first + node.children) as usize];
        // The mover here is the side the moves from here serve.
        let mover = kids[0].side;
        let proven = if mover.is_some() && credit(o, mover) == 1.0 {
            Some(o)
        } else {
            let mut best: Option<Settled> = None;
            for kid in kids {
                let Some(c) = kid.terminal else { return };
                best = match (best, mover) {
                    (None, _) => Some(c),
                    (Some(b), None) if b != c => return,
                    (Some(b), Some(_)) if credit(c, mover) > credit(b, mover) => Some(c),
                    (b, _) => b,
                };
            }
            best
        };
        tree.nodes[at].terminal = proven;
    }
}

fn descend(vm: &mut Vm, tree: &mut Tree, c: f64) -> VmResult<Outcome> {
    tree.path.clear();
    tree.path.push(0);
    let mut at = 0usize;
    loop {
        let node = tree.nodes[at];
        if let Some(o) = node.terminal {
            return Ok(Outcome::Game(o));
        }
        vm.generate_turn()?;
        if !node.expanded {
            // A new leaf: is the game over here? If not, its children
            // wait for later visits and a random game scores it now.
            let r = vm.game_result()?;
            if r != UNKNOWN_SCORE {
                vm.game.store.pop_list();
                let o = settle(vm.side_to_move(), vm.game.turn.by, r);
                tree.nodes[at].terminal = Some(o);
                return Ok(Outcome::Game(o));
            }
            let n = vm.game.store.count();
            let first = tree.nodes.len() as u32;
            let side = vm.side_to_move();
            if !tree.room_for(vm, n) {
                // Left a leaf: this iteration's random game still counts.
                return playout(vm, &mut tree.judge, tree.judge_every);
            }
            add_children(tree, n, side);
            let node = &mut tree.nodes[at];
            (node.first, node.children, node.expanded) = (first, n as u32, true);
            // The random game starts from the list just generated.
            return playout(vm, &mut tree.judge, tree.judge_every);
        }
        let chance = tree.nodes[node.first as usize].side.is_none();
        let pick = if chance { vm.rand_within(0, 0, node.children as i32 - 1) as u32 } else { ucb1(tree, &node, c) };
        let m = vm.game.store.current().start + pick as usize;
        vm.game.search.info.nodes += 1;
        vm.game.search.line.push(pick);
        let made = vm.make_move(m);
        vm.game.store.pop_list();
        made?;
        at = (node.first + pick) as usize;
        tree.path.push(at as u32);
    }
}

/// The child of `node` with the best UCB1 value (an unvisited one first),
/// never one proven lost for its mover: its visits would only measure
/// the loss again (a node whose moves all lose is itself proven, and not
/// descended into).
fn ucb1(tree: &Tree, node: &Node, c: f64) -> u32 {
    let ln_n = (node.visits.max(1) as f64).ln();
    let mut best = (0, f64::NEG_INFINITY);
    for i in 0..node.children {
        let ch = &tree.nodes[(node.first + i) as usize];
        if ch.terminal.is_some_and(|o| credit(o, ch.side) == 0.0) {
            continue;
        }
        let value = if ch.visits == 0 { f64::INFINITY } else { ch.reward / ch.visits as f64 + c * (ln_n / ch.visits as f64).sqrt() };
        if value > best.1 {
            best = (i, value);
        }
    }
    best.0
}

/// Random moves to the end of the game (or the cap), judged by the
/// evaluation every `every` moves; when that is every move, the first
/// judgement is of the leaf itself. It starts at a leaf whose moves are
/// generated and whose game is not over.
fn playout(vm: &mut Vm, judge: &mut Option<Judge>, every: u32) -> VmResult<Outcome> {
    for ply in 0..MAX_PLAYOUT {
        if ply > 0 {
            if vm.game.search.should_stop() {
                // Past the time (the first visits of the root moves go on
                // after it): the evaluation judges at once.
                return match judge {
                    Some(j) => Ok(j.outcome(vm.evaluate_as(j.side)?)),
                    None => Ok(Outcome::Game(Settled::Draw)),
                };
            }
            vm.generate_turn()?;
            let r = vm.game_result()?;
            if r != UNKNOWN_SCORE {
                vm.game.store.pop_list();
                return Ok(Outcome::Game(settle(vm.side_to_move(), vm.game.turn.by, r)));
            }
        }
        if let Some(j) = judge.as_mut().filter(|_| ply % every == 0 && (ply > 0 || every == 1)) {
            let e = vm.evaluate_as(j.side)?;
            if e != j.at_root {
                vm.game.store.pop_list();
                return Ok(j.outcome(e));
            }
        }
        let range = vm.game.store.current();
        let pick = vm.rand_within(0, 0, range.len() as i32 - 1) as u32;
        let m = range.start + pick as usize;
        vm.game.search.info.nodes += 1;
        vm.game.search.line.push(pick);
        let made = vm.make_move(m);
        vm.game.store.pop_list();
        made?;
    }
    Ok(Outcome::Game(Settled::Draw))
}
