//! Opening a game as its users name it: an Axiom `.4th` file, or a Zillions
//! `.zrf` and one of its variants.
//!
//! Owns `GameFile` (what to load, and the `.zrf` variant it came from) and
//! the rules the original followed to get from a `.zrf` to a `.4th`:
//! - the variant's `(engine "…/axiom.dll")` names the engine's folder,
//!   written as a Windows path: relative to the `.zrf`'s folder, else to
//!   the Zillions folder above it (the corpus has both:
//!   `../Axiom/Ur/axiom.dll`, `Axiom/Tavreli/axiom.dll`); names compare
//!   without case;
//! - in that folder Axiom loaded the file named after the variant's title
//!   with every space turned into `-` (`Ordo (simple)` →
//!   `Ordo-(simple).4th`), found without case.
//!
//! Then, after the `.4th` has loaded, `Vm::load_game` adds what the `.zrf`
//! carries that the `.4th` may not (`apply_zrf`): the start position when
//! the `.4th` has no `{board-setup`, and the options Zillions applied on
//! top of the moves an engine gave it. Sits beside the outer interpreter:
//! it runs the `.4th` through it and writes declarations into the game
//! layer the same way `{board-setup` does.

use crate::error::{ErrorKind, VmError, VmResult};
use crate::state::decl::SetupLine;
use crate::lexer::Pos;
use crate::vm::Vm;
use crate::zrf::{Name, Span, Variant, Zrf};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A game to load: its script, and the `.zrf` variant that named it.
#[derive(Clone, Debug)]
pub struct GameFile {
    /// The `.4th` file run first.
    pub script: PathBuf,
    pub zrf: Option<ZrfVariant>,
}

/// A variant of a `.zrf` that names no game axforth can load, and why.
#[derive(Clone, Debug)]
pub struct Unopened {
    /// `Rules/X.zrf [Title]`.
    pub label: String,
    pub title: String,
    pub error: String,
}

/// One variant of a read `.zrf`; made only here, from a position in
/// `zrf.variants`, so that `variant()` always has one to answer.
#[derive(Clone, Debug)]
pub struct ZrfVariant {
    zrf: Arc<Zrf>,
    variant: Arc<Variant>,
}

impl ZrfVariant {
    fn new(zrf: Arc<Zrf>, index: usize) -> Option<ZrfVariant> {
        let variant = Arc::new(zrf.variants.get(index)?.clone());
        Some(ZrfVariant { zrf, variant })
    }

    /// A Zillions rules game: no Axiom engine; its ZRF moves are
    /// translated (`zrf::forth`).
    pub fn is_rules(&self) -> bool {
        self.variant.engine.is_none()
    }

    /// `(option "pass turn" true)`: Zillions let a human pass at any turn
    /// (its Pass command). An engine passed only when its own moves held a
    /// Pass, as Axiom's search generated its own moves.
    pub fn human_may_pass(&self) -> bool {
        self.option_is("pass turn", &["true"])
    }

    /// The option is given one of these values (without case).
    fn option_is(&self, option: &str, values: &[&str]) -> bool {
        self.variant.options.iter().any(|(name, value)| name.is(option) && values.iter().any(|v| value.eq_ignore_ascii_case(v)))
    }

    /// The whole `.zrf` the variant comes from.
    pub fn zrf(&self) -> &Zrf {
        &self.zrf
    }

    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    pub fn title(&self) -> &str {
        &self.variant().title.text
    }

    /// A file the `.zrf` names (an image), as Zillions found it: relative
    /// to the `.zrf`'s folder, a backslash a separator, names without case.
    pub fn file(&self, written: &str) -> Option<PathBuf> {
        let here = self.zrf.path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let path = here.join(written.replace('\\', "/"));
        let dir = find_without_case(path.parent()?)?;
        file_without_case(&dir, &path.file_name()?.to_string_lossy())
    }

    /// The board's picture (the first of its images), when found.
    pub fn board_image(&self) -> Option<PathBuf> {
        self.file(self.variant().board.as_ref()?.images.first()?)
    }

    /// Each (player, piece) image found: `(image White "w.bmp" Black "b.bmp")`.
    pub fn piece_images(&self) -> Vec<(String, String, PathBuf)> {
        let mut out = Vec::new();
        for piece in &self.variant().pieces {
            for (player, written) in &piece.images {
                if let Some(path) = self.file(written) {
                    out.push((player.text.clone(), piece.name.text.clone(), path));
                }
            }
        }
        out
    }
}

/// The `#` that joins a `.zrf` and a variant's title in a record's header.
const SPEC_SEPARATOR: char = '#';

pub fn is_zrf(path: &Path) -> bool {
    path.extension().is_some_and(|x| x.eq_ignore_ascii_case("zrf"))
}

impl GameFile {
    /// A `.4th` file as it is.
    pub fn script(path: &Path) -> GameFile {
        GameFile { script: path.to_path_buf(), zrf: None }
    }

    /// The game a path names: a `.4th`, or one variant of a `.zrf` — by
    /// title (without case) or by number from 1; the first when `None`.
    pub fn open(path: &Path, variant: Option<&str>) -> Result<GameFile, String> {
        if !is_zrf(path) {
            if variant.is_some() {
                return Err(format!("--variant is for a .zrf file; {} is a game script", path.display()));
            }
            return Ok(GameFile::script(path));
        }
        let zrf = Arc::new(read(path)?);
        let index = match variant {
            None => 0,
            Some(v) => choose(&zrf, v)?,
        };
        let v = ZrfVariant::new(zrf, index).ok_or_else(|| format!("{}: no variant to play (no `(game …)` block with a title)", path.display()))?;
        Ok(GameFile { script: script_of(&v)?, zrf: Some(v) })
    }

    /// Every variant a path names (one for a `.4th`), for `check`; a
    /// variant whose `.4th` cannot be found is an error of its own.
    pub fn open_all(path: &Path) -> Result<Vec<Result<GameFile, Unopened>>, String> {
        if !is_zrf(path) {
            return Ok(vec![Ok(GameFile::script(path))]);
        }
        let zrf = Arc::new(read(path)?);
        Ok((0..zrf.variants.len())
            .filter_map(|index| ZrfVariant::new(zrf.clone(), index))
            .map(|v| match script_of(&v) {
                Ok(script) => Ok(GameFile { script, zrf: Some(v) }),
                Err(error) => Err(Unopened { label: label(path, v.title()), title: v.title().to_string(), error }),
            })
            .collect())
    }

    /// The game as a record's header keeps it: the path, and for a `.zrf`
    /// `#` and the variant's title.
    pub fn spec(&self) -> String {
        match &self.zrf {
            Some(v) => format!("{}{SPEC_SEPARATOR}{}", v.zrf.path.display(), v.title()),
            None => self.script.display().to_string(),
        }
    }

    /// Opens what `spec` made.
    pub fn from_spec(spec: &str) -> Result<GameFile, String> {
        let (file, title) = split_spec(spec);
        GameFile::open(&file, title.as_deref())
    }

    /// For people: `Rules/Ordo.zrf [Ordo (simple)]`, or the script's path.
    pub fn label(&self) -> String {
        match &self.zrf {
            Some(v) => label(&v.zrf.path, v.title()),
            None => self.script.display().to_string(),
        }
    }

    /// A short name: the variant's title, or the script's file name
    /// without `.4th` (as the original's AutoPlay named variants).
    pub fn name(&self) -> String {
        match &self.zrf {
            Some(v) => v.title().to_string(),
            None => self.script.file_stem().map_or_else(|| self.script.display().to_string(), |s| s.to_string_lossy().into_owned()),
        }
    }
}

/// A spec's file, and its variant's title when it names one.
pub fn split_spec(spec: &str) -> (PathBuf, Option<String>) {
    if let Some((file, title)) = spec.split_once(SPEC_SEPARATOR) {
        if is_zrf(Path::new(file)) {
            return (PathBuf::from(file), Some(title.to_string()));
        }
    }
    (PathBuf::from(spec), None)
}

fn label(zrf: &Path, title: &str) -> String {
    format!("{} [{title}]", zrf.display())
}

fn read(path: &Path) -> Result<Zrf, String> {
    Zrf::read(path).map_err(|e| e.to_string())
}

/// The variant `wanted` names: a title (without case), or a number from 1.
fn choose(zrf: &Zrf, wanted: &str) -> Result<usize, String> {
    let wanted = wanted.trim();
    if let Some(i) = zrf.variants.iter().position(|v| v.title.is(wanted)) {
        return Ok(i);
    }
    // The title as the `.4th` is named (`Ordo-(simple)`) is the same variant.
    if let Some(i) = zrf.variants.iter().position(|v| file_stem_of(&v.title.text).eq_ignore_ascii_case(wanted.trim_end_matches(".4th"))) {
        return Ok(i);
    }
    if let Ok(n) = wanted.parse::<usize>() {
        if (1..=zrf.variants.len()).contains(&n) {
            return Ok(n - 1);
        }
    }
    let titles: Vec<String> = zrf.variants.iter().enumerate().map(|(i, v)| format!("  {:>2}  {}", i + 1, v.title.text)).collect();
    Err(format!("{} has no variant `{wanted}`; its variants are:\n{}", zrf.path.display(), titles.join("\n")))
}

/// `Ur [simple evaluation]` → `Ur-[simple-evaluation]`.
fn file_stem_of(title: &str) -> String {
    title.replace(' ', "-")
}

/// The `.4th` of a variant (see the module's doc for the rule).
fn script_of(v: &ZrfVariant) -> Result<PathBuf, String> {
    let zrf = &v.zrf;
    let variant = v.variant();
    let Some(engine) = &variant.engine else {
        // Zillions' own rules: translated when loaded (`load_game`).
        return Ok(zrf.path.clone());
    };
    let here = zrf.path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let engine_path = engine.text.replace('\\', "/");
    let folder_of_engine = Path::new(&engine_path).parent().unwrap_or(Path::new(""));
    let file = format!("{}.4th", file_stem_of(&variant.title.text));
    // The engine's folder relative to the .zrf's, else to a folder above
    // it (Zillions' own, where `Axiom/Tavreli/axiom.dll` starts); last, the
    // .zrf's own folder, where a port often keeps its .4th files.
    let mut tried: Vec<PathBuf> = Vec::new();
    let mut base = here.to_path_buf();
    for _ in 0..=ENGINE_FOLDER_LEVELS {
        tried.push(base.join(folder_of_engine));
        base = base.join("..");
    }
    if !folder_of_engine.as_os_str().is_empty() {
        tried.push(here.to_path_buf());
    }
    for folder in &tried {
        if let Some(found) = find_without_case(folder).and_then(|dir| file_without_case(&dir, &file)) {
            return Ok(found);
        }
    }
    Err(format!(
        "{}: variant `{}` has no game script: Axiom loaded `{file}` from the engine's folder (the .zrf says `{}`); looked in {}",
        zrf.place(variant.title.at),
        variant.title.text,
        engine.text,
        tried.iter().map(|t| t.display().to_string()).collect::<Vec<_>>().join(", ")
    ))
}

/// How many folders above the `.zrf`'s the engine's folder is looked for.
const ENGINE_FOLDER_LEVELS: usize = 3;

/// `name` in `dir`, else ignoring case (as LOAD finds files).
pub fn file_without_case(dir: &Path, name: &str) -> Option<PathBuf> {
    let exact = dir.join(name);
    if exact.is_file() {
        return Some(exact);
    }
    let want = name.to_lowercase();
    std::fs::read_dir(dir).ok()?.filter_map(|e| e.ok()).map(|e| e.path()).find(|p| p.is_file() && p.file_name().is_some_and(|n| n.to_string_lossy().to_lowercase() == want))
}

/// A path whose every part exists, each found without case (the files
/// were written on Windows).
fn find_without_case(path: &Path) -> Option<PathBuf> {
    let mut at = PathBuf::new();
    for part in path.components() {
        use std::path::Component;
        match part {
            Component::Normal(name) => {
                let dir = if at.as_os_str().is_empty() { PathBuf::from(".") } else { at.clone() };
                let exact = at.join(name);
                if exact.exists() {
                    at = exact;
                    continue;
                }
                let want = name.to_string_lossy().to_lowercase();
                let found = std::fs::read_dir(&dir).ok()?.filter_map(|e| e.ok()).find(|e| e.file_name().to_string_lossy().to_lowercase() == want)?;
                at = at.join(found.file_name());
            }
            // `Rules/../Axiom` reads better as `Axiom` in every message.
            Component::ParentDir if matches!(at.components().next_back(), Some(Component::Normal(_))) => {
                at.pop();
            }
            other => at.push(other.as_os_str()),
        }
    }
    if at.as_os_str().is_empty() {
        at.push(".");
    }
    at.is_dir().then_some(at)
}

// ---- loading ----------------------------------------------------------------------

impl Vm {
    /// Loads a game: its `.4th`, then what its `.zrf` variant adds.
    pub fn load_game(&mut self, game: &GameFile) -> VmResult<()> {
        if let Some(v) = game.zrf.as_ref().filter(|v| v.is_rules()) {
            self.load_rules(v)?;
        } else {
            self.run_file(&game.script)?;
            if let Some(v) = &game.zrf {
                self.apply_zrf(v, &game.script)?;
            }
        }
        self.jit.game_loaded();
        Ok(())
    }

    /// A plain Zillions variant: its rules translated into ForthScript
    /// (`zrf::forth`) and loaded as a game file; an error in that text
    /// points at the `.zrf` construct it comes from.
    fn load_rules(&mut self, v: &ZrfVariant) -> VmResult<()> {
        let zrf = &v.zrf;
        let t = crate::zrf::forth::translate(zrf, v.variant()).map_err(|e| {
            let mut err = VmError::new(ErrorKind::Game(e.message.clone()));
            err.location = e.place.as_deref().and_then(parse_place);
            err
        })?;
        let origins = crate::vm::Origins { files: zrf.files.iter().map(|f| f.path.display().to_string()).collect(), lines: t.origins };
        let name = format!("{} [{}]", zrf.path.display(), v.title());
        self.run_generated(&name, t.text.as_bytes(), origins)?;
        self.game.reach = t.reach;
        Ok(())
    }

    /// What a `.zrf` variant carries that its `.4th` may not:
    /// - the start position: the `.zrf`'s `board-setup` when the `.4th`
    ///   has no `{setup}` line (both given: the `.4th`'s, as the original
    ///   used its own board, with a warning when they differ). Zillions
    ///   kept `off N` reserves for its own drop display; Axiom's board
    ///   has positions only, so they are not placed.
    /// - `(option "pass turn" forced)` and `"pass turn" true`: Zillions
    ///   passed for a player whose engine gave it no move, so a game
    ///   whose `.4th` never says `$passTurnForced ON` still passed there.
    ///   The other options are Zillions' own display and input settings
    ///   (animation, flipping, the moves list) or belong to ZRF moves
    ///   (`"maximal captures"`, `"pass partial"`), which Axiom games write
    ///   in their move words instead.
    fn apply_zrf(&mut self, v: &ZrfVariant, script: &Path) -> VmResult<()> {
        let zrf = &v.zrf;
        let variant = v.variant();
        // The .zrf's text joins the sources, so that an error about one of
        // its names points into it (file:line:col) as any other.
        let mut files = Vec::with_capacity(zrf.files.len());
        for f in &zrf.files {
            files.push(self.add_file(f.path.display().to_string(), Some(f.path.clone()), f.text.as_bytes().to_vec()));
        }
        let pos = |span: Span| Pos { file: files.get(span.file as usize).copied().unwrap_or(u32::MAX), offset: span.offset };
        let from_zrf = self.zrf_setup(variant, script, &pos)?;
        if self.game.setup.is_empty() {
            self.game.setup = from_zrf;
        } else if !from_zrf.is_empty() && placements(&self.game.setup) != placements(&from_zrf) {
            let text = format!(
                "warning: the start position of `{}` in {} differs from the `{{board-setup` of {}: the .4th's is used, as the original used its own board",
                variant.title.text,
                zrf.path.display(),
                script.display()
            );
            self.warnings.once(u64::MAX - 1, "zrf-setup", || text);
        }
        if v.option_is("pass turn", &["forced", "true"]) {
            self.set_directive("$passTurnForced", true);
        }
        Ok(())
    }

    /// The `.zrf`'s board-setup as `{setup}` lines, every name resolved to
    /// the one the `.4th` declared (names compare without case, as in
    /// Zillions); a name the `.4th` does not know is an error at the
    /// `.zrf`'s place, naming the `.4th`.
    fn zrf_setup(&self, variant: &Variant, script: &Path, pos: &dyn Fn(Span) -> Pos) -> VmResult<Vec<SetupLine>> {
        let game = &self.game;
        // The players and pieces are few: the error lists them; a board's
        // positions are too many to.
        let unknown = |what: &str, name: &Name, known: Option<Vec<String>>| -> VmError {
            let listed = match known {
                Some(names) if names.is_empty() => " (it declares none)".to_string(),
                Some(names) => format!(" (it declares {})", names.join(", ")),
                None => String::new(),
            };
            let mut e = VmError::new(ErrorKind::Game(format!(
                "the .zrf's board-setup names {what} `{}`, which {} does not declare{listed}",
                name.text,
                script.display(),
            )));
            e.location = self.location(pos(name.at));
            e.word = Some("board-setup".into());
            e
        };
        let mut lines = Vec::new();
        for entry in &variant.board_setup {
            let player = game
                .players
                .iter()
                .find(|p| entry.player.is(&p.name))
                .ok_or_else(|| unknown("the player", &entry.player, Some(game.players.iter().map(|p| p.name.clone()).collect())))?;
            let piece = game
                .pieces
                .iter()
                .find(|p| entry.piece.is(&p.name))
                .ok_or_else(|| unknown("the piece", &entry.piece, Some(game.pieces.iter().map(|p| p.name.clone()).collect())))?;
            let mut positions = Vec::with_capacity(entry.positions.len());
            for name in &entry.positions {
                let found = game.board.position_named(&name.text).or_else(|| {
                    (0..game.board.positions as i32).find(|&p| game.board.name(p).eq_ignore_ascii_case(&name.text))
                });
                match found {
                    Some(p) => positions.push(game.board.name(p)),
                    None => return Err(unknown("the position", name, None)),
                }
            }
            lines.push(SetupLine { player: player.name.clone(), piece: piece.name.clone(), positions, at: pos(entry.player.at) });
        }
        Ok(lines)
    }

    /// Turns a directive variable (`$passTurnForced`) on or off.
    pub fn set_directive(&mut self, name: &str, on: bool) {
        if let Some(addr) = self.dict.find(name.as_bytes()).and_then(|xt| self.dict.word(xt).body()) {
            let _ = self.mem.store(addr as i32, if on { -1 } else { 0 });
        }
    }
}

/// What a setup places, without case and order: (player, piece, position).
fn placements(lines: &[SetupLine]) -> std::collections::BTreeSet<(String, String, String)> {
    lines
        .iter()
        .flat_map(|l| l.positions.iter().map(move |p| (l.player.to_lowercase(), l.piece.to_lowercase(), p.to_lowercase())))
        .collect()
}

/// "file:line:col" back into a `Location` (the file may hold `:`).
fn parse_place(place: &str) -> Option<crate::lexer::Location> {
    let (rest, col) = place.rsplit_once(':')?;
    let (file, line) = rest.rsplit_once(':')?;
    Some(crate::lexer::Location { file: file.to_string(), line: line.parse().ok()?, col: col.parse().ok()? })
}
