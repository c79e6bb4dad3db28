//! The original Zillions pictures in a scene: the `Artwork` a `.zrf`
//! names (a board picture, each position's rectangle in it, a picture per
//! player and piece), decoded from BMP and embedded as PNG `data:` URIs,
//! and the layout that puts every position where the board picture has it.
//!
//! Owns the decoding of picture files and the `Scene` built with them;
//! reads the game layer (names of positions, players and pieces) and the
//! files it is given, never changes either. A picture that cannot be read
//! is drawn as `Scene::of` draws it, with a warning, never a panic: the
//! files come from anywhere, so their size is capped before decoding.

use super::{Picture, Place, Scene, Shade, SQUARE};
use crate::open::{GameFile, ZrfVariant};
use crate::vm::Vm;
use base64::Engine as _;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The pictures of a game and where its positions lie in the board's.
#[derive(Clone, Debug, Default)]
pub struct Artwork {
    /// The board picture, if its file was found.
    pub board: Option<PathBuf>,
    /// Every position's rectangle in the board picture's pixels: (name, [left, top, right, bottom]).
    pub places: Vec<(String, [i32; 4])>,
    /// The image of each (player name, piece name), when found.
    pub pieces: Vec<(String, String, PathBuf)>,
}

/// Wider or taller pictures are refused: Zillions' are a few hundred
/// pixels, and a hostile header must not make us allocate gigabytes.
pub const MAX_SIDE: u32 = 4096;
/// The most bytes read from a picture file: a 32-bit BMP of the largest
/// size allowed, with room for its headers and palette.
const MAX_FILE: u64 = (MAX_SIDE as u64) * (MAX_SIDE as u64) * 4 + (1 << 16);
/// The most the decoder may allocate for one picture.
const MAX_ALLOC: u64 = 256 << 20;

/// The gap between the picture and the strip, and the strip's margin, as
/// parts of a position's size (as `Scene::of` has them for a square).
const GAP: f64 = 0.3;
const MARGIN: f64 = 0.4;

/// How a picture is used: a piece's corner colour is see-through, as
/// Zillions drew it; the board keeps every pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Role {
    Board,
    Piece,
}

/// Every picture file read and decoded at most once per scene, and
/// embedded once for each use, whether it loaded or not (a failure warns
/// once for each use, which says how it is drawn instead).
#[derive(Default)]
struct Cache {
    decoded: HashMap<PathBuf, Result<image::DynamicImage, String>>,
    done: HashMap<(PathBuf, Role), Option<Picture>>,
    warnings: Vec<String>,
}

impl Cache {
    fn get(&mut self, path: &Path, role: Role) -> Option<Picture> {
        let key = (path.to_path_buf(), role);
        if let Some(p) = self.done.get(&key) {
            return p.clone();
        }
        let decoded = self.decoded.entry(path.to_path_buf()).or_insert_with(|| decode(path));
        let loaded = match decoded.as_ref().map_err(String::clone).and_then(|d| to_picture(d, role)) {
            Ok(p) => Some(p),
            Err(why) => {
                let instead = match role {
                    Role::Board => "drawn with plain squares",
                    Role::Piece => "drawn as a disc",
                };
                self.warnings.push(format!("warning: picture {}: {why}; {instead}", path.display()));
                None
            }
        };
        self.done.insert(key, loaded.clone());
        loaded
    }
}

/// Reads and decodes a BMP (or PNG) file, within the limits above.
fn decode(path: &Path) -> Result<image::DynamicImage, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open it ({e})"))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read it ({e})"))?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(format!("larger than {MAX_FILE} bytes"));
    }
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes)).with_guessed_format().map_err(|e| e.to_string())?;
    reader.limits(limits);
    let decoded = reader.decode().map_err(|e| format!("not a picture that can be read ({e})"))?;
    if decoded.width() == 0 || decoded.height() == 0 {
        return Err("it has no pixels".into());
    }
    Ok(decoded)
}

/// A decoded picture as a PNG `data:` URI, a piece's corner colour clear.
fn to_picture(decoded: &image::DynamicImage, role: Role) -> Result<Picture, String> {
    let (width, height) = (decoded.width(), decoded.height());
    let piece;
    let picture = match role {
        Role::Board => decoded,
        Role::Piece => {
            let mut rgba = decoded.to_rgba8();
            if let Some(&corner) = rgba.get_pixel_checked(0, 0) {
                for p in rgba.pixels_mut() {
                    if p.0[..3] == corner.0[..3] {
                        p.0[3] = 0;
                    }
                }
            }
            piece = image::DynamicImage::ImageRgba8(rgba);
            &piece
        }
    };
    let mut png = Vec::new();
    picture.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png).map_err(|e| format!("cannot re-encode it ({e})"))?;
    Ok(Picture { width, height, href: format!("data:image/png;base64,{}", base64::engine::general_purpose::STANDARD.encode(&png)) })
}

/// A rectangle as left, top, width, height, whichever corners were given.
fn bounds(r: &[i32; 4]) -> (f64, f64, f64, f64) {
    let (l, t, r_, b) = (r[0] as f64, r[1] as f64, r[2] as f64, r[3] as f64);
    (l.min(r_), t.min(b), (r_ - l).abs(), (b - t).abs())
}

impl Artwork {
    /// What a `.zrf` variant names: its board picture and grid geometry,
    /// its pieces' pictures (the files found beside the `.zrf`, as
    /// Zillions found them).
    pub fn of_zrf(v: &ZrfVariant) -> Artwork {
        let places = v.variant().board.as_ref().map(|b| b.places()).unwrap_or_default();
        Artwork { board: v.board_image(), places, pieces: v.piece_images() }
    }
}

impl Scene {
    /// The scene of a game as its users know it: with the pictures of its
    /// `.zrf` when it was opened from one, else drawn by `Scene::of`.
    pub fn of_game(vm: &Vm, game: &GameFile) -> Scene {
        match &game.zrf {
            Some(v) => Scene::with_artwork(vm, &Artwork::of_zrf(v)),
            None => Scene::of(vm),
        }
    }

    /// The scene of the game loaded in `vm`, drawn with its original
    /// pictures: positions where `art` puts them, the board picture under
    /// them and each piece's picture where there is one. What cannot be
    /// drawn from a picture is drawn as `Scene::of` draws it, and
    /// `warnings` says why.
    pub fn with_artwork(vm: &Vm, art: &Artwork) -> Scene {
        let mut scene = Scene::of(vm);
        let mut cache = Cache::default();
        let backdrop = art.board.as_deref().and_then(|p| cache.get(p, Role::Board));
        let mut rects: HashMap<String, [i32; 4]> = HashMap::new();
        for (name, r) in &art.places {
            rects.entry(name.to_lowercase()).or_insert(*r);
        }
        let b = &vm.game.board;
        let placed: Vec<(i32, [i32; 4])> = (0..b.positions as i32).filter_map(|pos| rects.get(&b.name(pos).to_lowercase()).map(|r| (pos, *r))).collect();
        if backdrop.is_some() || !placed.is_empty() {
            lay_out(&mut scene, vm, &placed, backdrop);
        }
        place_pieces(&mut scene, vm, art, &mut cache);
        scene.warnings = cache.warnings;
        scene
    }
}

/// Positions at their rectangles over the picture (or over the box they
/// fill, without one); the rest in a strip below, as `Scene::of` has it.
fn lay_out(scene: &mut Scene, vm: &Vm, placed: &[(i32, [i32; 4])], backdrop: Option<Picture>) {
    let b = &vm.game.board;
    // Without a picture the rectangles keep today's shading, so a board
    // still reads as a board.
    let shade_of: HashMap<i32, Shade> = scene.squares.iter().map(|p| (p.pos, p.shade)).collect();
    let (left, top, width, height) = match &backdrop {
        Some(p) => (0.0, 0.0, p.width as f64, p.height as f64),
        None => {
            let boxes: Vec<_> = placed.iter().map(|(_, r)| bounds(r)).collect();
            let left = boxes.iter().map(|b| b.0).fold(f64::INFINITY, f64::min);
            let top = boxes.iter().map(|b| b.1).fold(f64::INFINITY, f64::min);
            let right = boxes.iter().map(|b| b.0 + b.2).fold(f64::NEG_INFINITY, f64::max);
            let bottom = boxes.iter().map(|b| b.1 + b.3).fold(f64::NEG_INFINITY, f64::max);
            (left, top, (right - left).max(1.0), (bottom - top).max(1.0))
        }
    };
    // The size of a typical position: discs and strip slots are scaled to it.
    let mut sides: Vec<f64> = placed.iter().map(|(_, r)| bounds(r)).map(|(_, _, w, h)| w.min(h)).filter(|s| *s >= 1.0).collect();
    sides.sort_by(f64::total_cmp);
    let unit = sides.get(sides.len() / 2).copied().unwrap_or(SQUARE);
    let mut squares = Vec::with_capacity(placed.len());
    for &(pos, r) in placed {
        let (x, y, w, h) = bounds(&r);
        let shade = if backdrop.is_some() { Shade::Picture } else { shade_of.get(&pos).copied().unwrap_or(Shade::Slot) };
        squares.push(Place { pos, name: b.name(pos), x: x - left, y: y - top, w, h, shade });
    }
    let margin = unit * MARGIN;
    let per_row = (((width - 2.0 * margin) / unit).floor() as usize).max(4);
    let strip_top = height + unit * GAP + margin;
    let mut strip = Vec::new();
    let on_picture: std::collections::HashSet<i32> = placed.iter().map(|(pos, _)| *pos).collect();
    for (i, pos) in (0..b.positions as i32).filter(|pos| !on_picture.contains(pos)).enumerate() {
        let x = margin + (i % per_row) as f64 * unit;
        let y = strip_top + (i / per_row) as f64 * (unit + margin);
        strip.push(Place { pos, name: b.name(pos), x, y, w: unit, h: unit, shade: Shade::Slot });
    }
    let rows = strip.len().div_ceil(per_row);
    scene.width = if strip.is_empty() { width } else { width.max(2.0 * margin + per_row.min(strip.len()) as f64 * unit) };
    scene.height = if strip.is_empty() { height } else { strip_top + rows as f64 * (unit + margin) };
    scene.unit = unit;
    scene.labels.clear();
    scene.squares = squares;
    scene.strip = strip;
    scene.backdrop = backdrop;
    scene.centres = vec![None; b.positions];
    for place in scene.squares.iter().chain(&scene.strip) {
        if let Some(c) = scene.centres.get_mut(place.pos as usize) {
            *c = Some(place.centre());
        }
    }
}

/// Each style whose player and piece have a picture draws it; styles that
/// share a file share one embedded copy.
fn place_pieces(scene: &mut Scene, vm: &Vm, art: &Artwork, cache: &mut Cache) {
    let game = &vm.game;
    let mut index: HashMap<PathBuf, usize> = HashMap::new();
    for (seat, player) in game.players.iter().enumerate() {
        for (piece, kind) in game.pieces.iter().enumerate() {
            let found = art.pieces.iter().find(|(p, k, _)| p.eq_ignore_ascii_case(&player.name) && k.eq_ignore_ascii_case(&kind.name));
            let Some((_, _, path)) = found else { continue };
            let k = match index.get(path) {
                Some(&k) => Some(k),
                None => cache.get(path, Role::Piece).map(|p| {
                    scene.pictures.push(p);
                    index.insert(path.clone(), scene.pictures.len() - 1);
                    scene.pictures.len() - 1
                }),
            };
            if let (Some(k), Some(style)) = (k, scene.styles.get_mut(seat * game.pieces.len() + piece)) {
                style.picture = Some(k);
            }
        }
    }
}
