//! PROVISIONAL (replaced by the stats branch)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl { pub wins: u64, pub draws: u64, pub losses: u64 }
impl Wdl { pub fn games(&self) -> u64 { self.wins + self.draws + self.losses } pub fn score(&self) -> f64 { (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64 } }
#[derive(Clone, Copy, Debug, Default)]
pub struct Penta { pub counts: [u64; 5] }
impl Penta { pub fn add_pair(&mut self, a: f64, b: f64) { self.counts[((a + b) * 2.0) as usize] += 1; } }
pub struct Sprt { pub elo0: f64, pub elo1: f64, pub alpha: f64, pub beta: f64 }
#[derive(PartialEq, Eq)]
pub enum SprtStatus { Continue, AcceptH0, AcceptH1 }
impl Sprt { pub fn llr_pentanomial(&self, _p: &Penta) -> f64 { 0.0 } pub fn llr_trinomial(&self, _p: &Wdl) -> f64 { 0.0 } pub fn status(&self, _l: f64) -> SprtStatus { SprtStatus::Continue } }
pub fn report(a: &str, b: &str, w: &Wdl, p: Option<&Penta>, _s: Option<(&Sprt, f64)>) -> Vec<String> { vec![format!("Results of {a} vs {b}: {w:?} {p:?}")] }
pub fn to_json(_w: &Wdl, _p: Option<&Penta>, _s: Option<(&Sprt, f64)>) -> String { "{}".into() }
pub fn elo(_w: &Wdl) -> (f64, f64) { (0.0, 0.0) }
