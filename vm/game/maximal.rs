//! Zillions' `"maximal captures"` option, as an axforth declaration any
//! game may use: `n {maximal-captures}` (n = 1 or 2, 0 off). The player to
//! move must take the most pieces a turn can take: a move is offered only
//! if, with the best chain of partial moves that may follow it, it
//! captures as many pieces as the best move of the list. At level 2 a
//! tie goes to the chains whose captured pieces are worth the most
//! (`{value}`; the Zillions front end values a piece some move promotes
//! to at 2, the others at 1: "take the kings").
//!
//! Owns `Vm::keep_maximal_captures`, which `generate_turn` calls on every
//! list of a turn (the first step and each continuation, so a chain
//! started on a maximal line stays on it). It plays each move and its
//! continuations on the board (saved and put back, as perft does), with
//! the filter off below, so a list costs one walk of its chains.

use crate::error::VmResult;
use crate::state::moves::{Action, NOT_PARTIAL};
use crate::state::PIECE_TYPE_MASK;
use crate::vm::Vm;

/// What a chain captures: pieces, then their worth (level 2).
type Take = (u32, i64);

impl Vm {
    /// Drops from the current list the moves whose best chain captures
    /// less than the list's best (nothing when no move captures).
    #[inline]
    pub(crate) fn keep_maximal_captures(&mut self) -> VmResult<()> {
        if self.game.maximal_captures == 0 || self.game.counting_captures {
            return Ok(());
        }
        self.keep_maximal_chains()
    }

    fn keep_maximal_chains(&mut self) -> VmResult<()> {
        let range = self.game.store.current();
        if range.len() < 2 {
            return Ok(());
        }
        self.game.counting_captures = true;
        let takes = self.chain_takes(range.clone());
        self.game.counting_captures = false;
        let takes = takes?;
        let Some(&best) = takes.iter().max() else { return Ok(()) };
        if best.0 == 0 {
            return Ok(());
        }
        let moves = &mut self.game.store.moves;
        let mut keep = range.start;
        for (i, take) in range.zip(takes) {
            if take == best {
                moves[keep] = moves[i];
                keep += 1;
            }
        }
        moves.truncate(keep);
        Ok(())
    }

    /// For each move of `moves` (of the current list), what its best chain
    /// captures, each played from the board as it is now.
    fn chain_takes(&mut self, moves: std::ops::Range<usize>) -> VmResult<Vec<Take>> {
        let turn = self.game.turn;
        self.push_board()?;
        let mut takes = Vec::with_capacity(moves.len());
        let mut result = Ok(());
        for m in moves {
            let take = self.chain_take(m).and_then(|t| self.reset_board().map(|()| t));
            self.game.turn = turn;
            self.enter_turn();
            match take {
                Ok(t) => takes.push(t),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.drop_board();
        result.map(|()| takes)
    }

    /// What move m captures, with the best of the continuations after it.
    fn chain_take(&mut self, m: usize) -> VmResult<Take> {
        let own = self.captured_by(m)?;
        self.make_move(m)?;
        if self.game.turn.partial == NOT_PARTIAL {
            return Ok(own);
        }
        let index = self.game.turn.index;
        self.generate_turn()?;
        let mut best = (0, 0);
        if self.game.turn.index == index && self.game.turn.partial != NOT_PARTIAL {
            let steps = self.game.store.current();
            best = self.chain_takes(steps)?.into_iter().max().unwrap_or((0, 0));
        }
        self.game.store.pop_list();
        Ok((own.0 + best.0, own.1 + best.1))
    }

    /// The pieces move m takes off the board as it stands: its captures,
    /// what stands where a piece lands (a capture by moving onto it), and
    /// the pieces it turns into another type or owner.
    fn captured_by(&self, m: usize) -> VmResult<Take> {
        let mut take = (0, 0);
        let mut taken: Vec<i32> = Vec::new();
        let actions = self.game.store.actions_of(m);
        let moved = |pos: i32| actions.iter().any(|a| matches!(*a, Action::Move { from, to } | Action::Cascade { from, to } if from == pos || to == pos));
        for a in actions {
            let pos = match *a {
                Action::Capture(pos) => pos,
                Action::Move { from, to } if from != to => to,
                // A piece turned into another, or made another player's,
                // where the moving piece neither starts nor lands: taken
                // (as Zillions counts it).
                Action::ChangeType { pos, piece_type } if !moved(pos) && self.game.board.get(&self.mem, pos)? & PIECE_TYPE_MASK != piece_type & PIECE_TYPE_MASK => pos,
                Action::ChangeOwner { pos, player } if !moved(pos) && self.game.board.get(&self.mem, pos)? & crate::state::PLAYER_MASK != player & crate::state::PLAYER_MASK => pos,
                _ => continue,
            };
            // A capture and a landing on one square take one piece.
            if taken.contains(&pos) {
                continue;
            }
            taken.push(pos);
            let content = self.game.board.get(&self.mem, pos)?;
            if content != 0 {
                let worth = match self.game.maximal_captures {
                    2 => self.game.pieces.get(((content & PIECE_TYPE_MASK) as usize).wrapping_sub(1)).map_or(1, |p| i64::from(p.value)),
                    _ => 0,
                };
                take = (take.0 + 1, take.1 + worth);
            }
        }
        Ok(take)
    }
}
