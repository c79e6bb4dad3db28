// TEMPORARY until the reader lands.
use super::*;
impl Zrf {
    pub fn read(path: &std::path::Path) -> Result<Zrf, ZrfError> { Err(ZrfError { message: format!("{}: not yet", path.display()), place: None }) }
    pub fn place(&self, _s: Span) -> String { String::new() }
}
