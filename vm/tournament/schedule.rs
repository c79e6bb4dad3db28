//! Which games a tournament plays: the pairings (a match, a round robin or
//! a gauntlet), the seats of every game (swapped every game, so the two
//! games of a pair play one opening from both sides), the opening of each
//! pair (a line of the openings file, and the seed of its random plies),
//! every game's seed, and the share of a shard.
//!
//! A game is identified by its index alone: everything about it follows
//! from the index and the tournament's settings, so shards, resumed runs
//! and merged records all agree on what game `i` is.

/// What a game is, derived from its index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    pub index: u64,
    /// The variant (index into the tournament's files) in seat 1 and 2.
    pub seats: [usize; 2],
    /// The two variants in the order the pairing names them (A first).
    pub pairing: [usize; 2],
    /// Index of the pair of games (same opening, seats swapped).
    pub pair: u64,
    /// The opening line, if the tournament has openings.
    pub opening: Option<usize>,
    pub seed: u64,
    /// The seed of the pair's random opening plies: the same for both
    /// games of a pair, so each side plays the same start.
    pub opening_seed: u64,
}

#[derive(Clone, Debug)]
pub struct Schedule {
    pub variants: usize,
    /// Games per pairing.
    pub games: u64,
    pub gauntlet: bool,
    pub openings: usize,
    pub seed: u64,
    /// This shard's number (0-based) and the number of shards.
    pub shard: (u64, u64),
}

impl Schedule {
    /// The schedule a record file's header describes (its shard aside).
    pub fn of(header: &super::record::Header) -> Schedule {
        Schedule {
            variants: header.files.len(),
            games: header.games,
            gauntlet: header.gauntlet,
            openings: header.openings.len(),
            seed: header.seed,
            shard: (0, 1),
        }
    }

    /// The pairings: every two variants, or the first against each other.
    pub fn pairings(&self) -> Vec<[usize; 2]> {
        let mut out = Vec::new();
        for a in 0..self.variants {
            for b in a + 1..self.variants {
                if !self.gauntlet || a == 0 {
                    out.push([a, b]);
                }
            }
        }
        out
    }

    pub fn total(&self) -> u64 {
        self.pairings().len() as u64 * self.games
    }

    pub fn game(&self, index: u64) -> GameSpec {
        let pairings = self.pairings();
        let pairing = pairings[(index / self.games.max(1)) as usize % pairings.len().max(1)];
        let local = index % self.games.max(1);
        // Game 1 of a pairing has A in seat 1; game 2 swaps; and so on.
        let seats = if local.is_multiple_of(2) { pairing } else { [pairing[1], pairing[0]] };
        let pair_in_pairing = local / 2;
        let pairs_per_pairing = self.games.div_ceil(2);
        let pair = (index / self.games.max(1)) * pairs_per_pairing + pair_in_pairing;
        let opening = (self.openings > 0).then(|| (pair_in_pairing % self.openings as u64) as usize);
        // A stream apart from the games' own seeds (game i's seed is never
        // pair j's opening seed).
        let opening_seed = game_seed(self.seed ^ 0x6F70_656E_696E_6773, pair);
        GameSpec { index, seats, pairing, pair, opening, seed: game_seed(self.seed, index), opening_seed }
    }

    /// The indices this shard plays, in order.
    pub fn indices(&self) -> impl Iterator<Item = u64> + '_ {
        let (k, n) = self.shard;
        (0..self.total()).filter(move |i| i % n.max(1) == k)
    }
}

/// Game i's seed: a pure function of the tournament seed and the index,
/// so any game can be replayed alone from its record.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut x = seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule(variants: usize, games: u64, gauntlet: bool) -> Schedule {
        Schedule { variants, games, gauntlet, openings: 3, seed: 7, shard: (0, 1) }
    }

    #[test]
    fn seats_swap_every_game_and_pairs_share_an_opening() {
        let s = schedule(2, 10, false);
        let g: Vec<GameSpec> = (0..10).map(|i| s.game(i)).collect();
        assert_eq!(g[0].seats, [0, 1]);
        assert_eq!(g[1].seats, [1, 0]);
        assert_eq!(g[2].seats, [0, 1]);
        assert_eq!((g[0].pair, g[1].pair, g[2].pair), (0, 0, 1));
        assert_eq!((g[0].opening, g[1].opening, g[6].opening), (Some(0), Some(0), Some(0)));
        assert_eq!(g[2].opening, Some(1));
        assert_ne!(g[0].seed, g[1].seed);
        assert_eq!(g[0].opening_seed, g[1].opening_seed);
        assert_ne!(g[0].opening_seed, g[2].opening_seed);
    }

    #[test]
    fn round_robin_and_gauntlet_pairings() {
        assert_eq!(schedule(3, 2, false).pairings(), vec![[0, 1], [0, 2], [1, 2]]);
        assert_eq!(schedule(4, 2, true).pairings(), vec![[0, 1], [0, 2], [0, 3]]);
        let s = schedule(3, 4, false);
        assert_eq!(s.total(), 12);
        assert_eq!(s.game(5).pairing, [0, 2]);
        assert_eq!(s.game(5).seats, [2, 0]);
        // Pairs are numbered across pairings without collisions.
        assert_eq!(s.game(4).pair, 2);
    }

    #[test]
    fn shards_split_the_indices_without_overlap() {
        let mut all: Vec<u64> = Vec::new();
        for k in 0..3 {
            let s = Schedule { shard: (k, 3), ..schedule(2, 10, false) };
            all.extend(s.indices());
        }
        all.sort();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
    }
}
