//! Boards drawn with a Zillions game's own pictures (`Scene::with_artwork`):
//! small BMPs this test writes byte by byte (1-, 4-, 8- and 24-bit), on a
//! 3x3 game of its own. The board picture is embedded as a PNG of its size,
//! positions sit at the centres of their rectangles (names compared
//! without case), a position without one goes to the strip, a piece's
//! corner colour is see-through, broken files fall back with a warning,
//! and the replay page's templates are the pictures.

use axforth::view::{html, replay::Replay, svg, Artwork, Scene};
use axforth::{Config, Vm};
use base64::Engine as _;
use std::path::{Path, PathBuf};

mod bmp;
use bmp::{bmp, rgb};
mod common;
use common::cli::scratch;

const GAME: &str = "{board 3 3 {grid} {position} store board}\n\
    {players {player} White {player} Black players}\n\
    : put ( -- ) empty? verify drop add-move ;\n\
    {moves drops {move} put moves}\n\
    {pieces {piece} Man {drops} drops {piece} King {drops} drops pieces}\n\
    {board-setup {setup} White Man a1 {setup} Black Man c3 {setup} Black King b2 {setup} White Man store board-setup}\n";

fn game() -> Vm {
    let mut vm = Vm::new(Config { seed: Some(1), ..Config::default() }).unwrap();
    vm.capture_output();
    vm.run_text("art", GAME.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    vm.new_game().unwrap_or_else(|e| panic!("{e}"));
    vm
}

/// A 30x30 board in 4-bit colour: 10-pixel cells, light and dark.
fn board_bmp() -> Vec<u8> {
    bmp(4, 30, 30, &[[240, 217, 181], [181, 136, 99], [0, 0, 0]], |x, y| (x / 10 + y / 10) % 2)
}

/// A 6x4 piece in 24-bit colour: a white body on a magenta ground, one
/// magenta pixel inside too (Zillions made every pixel of that colour clear).
fn piece_bmp() -> Vec<u8> {
    bmp(24, 6, 4, &[], |x, y| if x == 0 || x == 5 || (x, y) == (3, 2) { rgb(255, 0, 255) } else { rgb(250, 250, 250) })
}

/// The 3x3 grid in the board picture, named in capitals: names match
/// without case.
fn places() -> Vec<(String, [i32; 4])> {
    let mut out = Vec::new();
    for (c, file) in ["A", "B", "C"].iter().enumerate() {
        for rank in 1..=3 {
            let (l, t) = (c as i32 * 10, (3 - rank) * 10);
            out.push((format!("{file}{rank}"), [l, t, l + 10, t + 10]));
        }
    }
    out
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let f = dir.join(name);
    std::fs::write(&f, bytes).unwrap();
    f
}

/// The image a `data:image/png;base64,…` URI holds.
fn decode(href: &str) -> image::RgbaImage {
    let data = href.strip_prefix("data:image/png;base64,").unwrap_or_else(|| panic!("not a PNG data URI: {}", &href[..href.len().min(40)]));
    let png = base64::engine::general_purpose::STANDARD.decode(data).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    image::load_from_memory_with_format(&png, image::ImageFormat::Png).unwrap().into_rgba8()
}

fn number(n: roxmltree::Node, attr: &str) -> f64 {
    n.attribute(attr).unwrap_or_else(|| panic!("no {attr} on {n:?}")).parse().unwrap()
}

fn translate(n: roxmltree::Node) -> (f64, f64) {
    let t = n.attribute("transform").unwrap();
    let inner = t.strip_prefix("translate(").unwrap().strip_suffix(')').unwrap();
    let (x, y) = inner.split_once(' ').unwrap();
    (x.parse().unwrap(), y.parse().unwrap())
}

fn by_id<'a>(doc: &'a roxmltree::Document, id: &str) -> roxmltree::Node<'a, 'a> {
    doc.descendants().find(|n| n.attribute("id") == Some(id)).unwrap_or_else(|| panic!("no #{id}"))
}

fn pos_of(vm: &Vm, name: &str) -> i32 {
    (0..vm.game.board.positions as i32).find(|&p| vm.game.board.name(p) == name).unwrap()
}

#[test]
fn board_and_pieces_are_drawn_from_their_pictures() {
    let dir = scratch("draw");
    let vm = game();
    let board = write(&dir, "board.bmp", &board_bmp());
    let man = write(&dir, "man.bmp", &piece_bmp());
    let art = Artwork { board: Some(board), places: places(), pieces: vec![("white".into(), "MAN".into(), man)] };
    let scene = Scene::with_artwork(&vm, &art);
    assert!(scene.warnings.is_empty(), "{:?}", scene.warnings);
    let text = svg::document(&scene, &scene.frame(&vm), "art");
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("not XML: {e}"));

    // The board picture, embedded at its size, under unpainted positions.
    let backdrop = doc.descendants().find(|n| n.tag_name().name() == "image" && n.attribute("class") == Some("backdrop")).expect("the board picture");
    assert_eq!((number(backdrop, "width"), number(backdrop, "height")), (30.0, 30.0));
    let picture = decode(backdrop.attribute("href").unwrap());
    assert_eq!(picture.dimensions(), (30, 30));
    assert_eq!(picture.get_pixel(5, 5).0, [240, 217, 181, 255], "a light cell, as the palette has it");
    assert_eq!(picture.get_pixel(15, 5).0, [181, 136, 99, 255], "a dark cell");
    let view_box: Vec<f64> = doc.root_element().attribute("viewBox").unwrap().split(' ').map(|v| v.parse().unwrap()).collect();
    assert_eq!(&view_box[..3], &[0.0, 0.0, 30.0], "the picture's width (the strip is no wider)");
    assert!(view_box[3] > 30.0, "the strip is below the picture");
    assert_eq!(doc.descendants().filter(|n| n.attribute("class") == Some("coordinate")).count(), 0, "the picture has its own coordinates");
    let squares: Vec<_> = doc.descendants().filter(|n| n.attribute("class") == Some("square")).collect();
    assert_eq!(squares.len(), 9);
    for s in &squares {
        assert_eq!(s.attribute("fill"), Some("none"), "nothing painted over the picture");
        let name = s.attribute("data-pos").unwrap().to_uppercase();
        let (_, r) = places().into_iter().find(|(n, _)| *n == name).unwrap();
        assert_eq!([number(*s, "x"), number(*s, "y"), number(*s, "width"), number(*s, "height")], [r[0] as f64, r[1] as f64, 10.0, 10.0], "{name}");
    }

    // White's man: its picture, centred on a1's rectangle (0,20)-(10,30).
    let a1 = pos_of(&vm, "a1");
    let piece = doc.descendants().find(|n| n.attribute("class") == Some("piece") && n.attribute("data-index") == Some(&a1.to_string())).expect("a piece on a1");
    assert_eq!(translate(piece), (5.0, 25.0));
    let used = piece.children().find(|n| n.tag_name().name() == "use").expect("the man's picture");
    let target = by_id(&doc, used.attribute("href").unwrap().trim_start_matches('#'));
    assert_eq!(target.tag_name().name(), "image");
    assert_eq!([number(target, "x"), number(target, "y"), number(target, "width"), number(target, "height")], [-3.0, -2.0, 6.0, 4.0], "natural size, centred");
    let man = decode(target.attribute("href").unwrap());
    assert_eq!(man.dimensions(), (6, 4));
    assert_eq!(man.get_pixel(0, 0).0[3], 0, "the corner colour is clear");
    assert_eq!(man.get_pixel(5, 3).0[3], 0, "everywhere");
    assert_eq!(man.get_pixel(3, 2).0[3], 0, "inside the piece too");
    assert_eq!(man.get_pixel(2, 1).0, [250, 250, 250, 255], "the rest is opaque");

    // Black has no pictures: discs, scaled to the 10-pixel cells.
    let c3 = pos_of(&vm, "c3");
    let black = doc.descendants().find(|n| n.attribute("class") == Some("piece") && n.attribute("data-index") == Some(&c3.to_string())).unwrap();
    assert_eq!(translate(black), (25.0, 5.0));
    assert!(black.descendants().any(|n| n.tag_name().name() == "circle"), "a disc");
    assert!(black.descendants().any(|n| n.attribute("transform") == Some("scale(0.1)")), "as large as a cell");

    // The store has no rectangle: a slot below the picture, with White's man.
    let store = doc.descendants().find(|n| n.attribute("class") == Some("slot")).expect("the store's slot");
    assert_eq!(store.attribute("data-pos"), Some("store"));
    assert!(number(store, "y") > 30.0);
    assert_eq!(number(store, "width"), 10.0, "as large as a cell");
    let stored = pos_of(&vm, "store");
    let in_store = doc.descendants().find(|n| n.attribute("class") == Some("piece") && n.attribute("data-index") == Some(&stored.to_string())).unwrap();
    assert_eq!(translate(in_store), (number(store, "x") + 5.0, number(store, "y") + 5.0));

    // One embedded copy of the man, whatever the number of men.
    assert_eq!(text.matches("data:image/png").count(), 2, "the board and one man");
}

#[test]
fn bmps_of_every_depth_are_read() {
    let dir = scratch("depths");
    let vm = game();
    let palette = [[10, 20, 30], [200, 100, 50]];
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("1-bit", bmp(1, 13, 5, &palette, |x, y| (x + y) % 2)),
        ("4-bit", bmp(4, 7, 3, &palette, |x, y| (x + y) % 2)),
        ("8-bit", bmp(8, 5, 6, &palette, |x, y| (x + y) % 2)),
        ("24-bit", bmp(24, 3, 2, &[], |x, y| if (x + y) % 2 == 0 { rgb(10, 20, 30) } else { rgb(200, 100, 50) })),
    ];
    for (name, bytes) in cases {
        let width = u32::from_le_bytes(bytes[18..22].try_into().unwrap());
        let height = u32::from_le_bytes(bytes[22..26].try_into().unwrap());
        let file = write(&dir, &format!("{name}.bmp"), &bytes);
        let art = Artwork { board: Some(file.clone()), places: places(), pieces: vec![("Black".into(), "King".into(), file)] };
        let scene = Scene::with_artwork(&vm, &art);
        assert!(scene.warnings.is_empty(), "{name}: {:?}", scene.warnings);
        let board = decode(&scene.backdrop.as_ref().expect(name).href);
        assert_eq!(board.dimensions(), (width, height), "{name}");
        assert_eq!(board.get_pixel(0, 0).0, [10, 20, 30, 255], "{name}: the top row is first");
        assert_eq!(board.get_pixel(1, 0).0, [200, 100, 50, 255], "{name}");
        assert_eq!(board.get_pixel(width - 1, height - 1).0[..3], if (width + height) % 2 == 0 { [10, 20, 30] } else { [200, 100, 50] }, "{name}");
        let king = decode(&scene.pictures[0].href);
        assert_eq!((king.get_pixel(0, 0).0[3], king.get_pixel(1, 0).0[3]), (0, 255), "{name}: the corner colour is clear on a piece only");
    }
}

#[test]
fn broken_pictures_fall_back_with_one_warning_each() {
    let dir = scratch("broken");
    let vm = game();
    let good = board_bmp();
    // A header that claims 100000x100000 pixels, with no pixels after it.
    let mut huge = good[..54].to_vec();
    huge[18..22].copy_from_slice(&100_000i32.to_le_bytes());
    huge[22..26].copy_from_slice(&100_000i32.to_le_bytes());
    huge[28..30].copy_from_slice(&24u16.to_le_bytes());
    // Within what the decoder takes, beyond what a board picture needs.
    let mut wide = huge.clone();
    wide[18..22].copy_from_slice(&5000i32.to_le_bytes());
    wide[22..26].copy_from_slice(&2i32.to_le_bytes());
    wide.resize(54 + 15_000 * 2, 7);
    let mut noise = b"BM".to_vec();
    noise.extend((0..300u32).map(|i| (i * 91 % 253) as u8));
    let cases: Vec<(&str, Option<Vec<u8>>)> = vec![
        ("truncated", Some(good[..good.len() / 2].to_vec())),
        ("huge", Some(huge)),
        ("wide", Some(wide)),
        ("garbage", Some((0..500u32).map(|i| (i * 37 % 251) as u8).collect())),
        ("noise after BM", Some(noise)),
        ("header only", Some(b"BM".to_vec())),
        ("empty", Some(Vec::new())),
        ("missing", None),
    ];
    for (name, bytes) in cases {
        let file = match bytes {
            Some(b) => write(&dir, &format!("{name}.bmp"), &b),
            None => dir.join("nowhere.bmp"),
        };
        // The same file for the board and two pieces: one warning each use
        // (board, piece), however many pieces share it.
        let pieces = vec![("White".into(), "Man".into(), file.clone()), ("Black".into(), "Man".into(), file.clone())];
        let art = Artwork { board: Some(file.clone()), places: places(), pieces };
        let scene = Scene::with_artwork(&vm, &art);
        assert_eq!(scene.warnings.len(), 2, "{name}: {:?}", scene.warnings);
        assert!(scene.warnings.iter().all(|w| w.starts_with("warning: ") && w.contains(&*file.to_string_lossy()) && !w.contains('\n')), "{name}: {:?}", scene.warnings);
        assert!(scene.backdrop.is_none() && scene.pictures.is_empty(), "{name}");
        let text = svg::document(&scene, &scene.frame(&vm), "art");
        let doc = roxmltree::Document::parse(&text).unwrap();
        assert!(!doc.descendants().any(|n| n.tag_name().name() == "image"), "{name}");
        // The rectangles' layout stays, painted as squares.
        let a1 = doc.descendants().find(|n| n.attribute("data-pos") == Some("a1")).unwrap();
        assert_eq!((number(a1, "x"), number(a1, "y"), number(a1, "width")), (0.0, 20.0, 10.0), "{name}");
        assert_ne!(a1.attribute("fill"), Some("none"), "{name}");
        assert_eq!(doc.descendants().filter(|n| n.attribute("class") == Some("piece") && n.descendants().any(|c| c.tag_name().name() == "circle")).count(), 4, "{name}: discs");
    }
}

#[test]
fn without_a_board_picture_the_places_make_the_box() {
    let vm = game();
    // The grid drawn at (100,200)-(130,230) of a picture that is not there.
    let places: Vec<_> = places().into_iter().map(|(n, r)| (n, [r[0] + 100, r[1] + 200, r[2] + 100, r[3] + 200])).collect();
    let scene = Scene::with_artwork(&vm, &Artwork { board: None, places, pieces: Vec::new() });
    assert!(scene.warnings.is_empty());
    assert_eq!(scene.width, 30.0);
    assert_eq!(scene.centre(pos_of(&vm, "a1")), Some((5.0, 25.0)));
    assert_eq!(scene.centre(pos_of(&vm, "c3")), Some((25.0, 5.0)));
    // No places and no pictures: today's drawing.
    let plain = Scene::with_artwork(&vm, &Artwork::default());
    let today = Scene::of(&vm);
    assert_eq!(svg::document(&plain, &plain.frame(&vm), "t"), svg::document(&today, &today.frame(&vm), "t"));
}

#[test]
fn the_replay_page_copies_pictures_from_its_templates() {
    let dir = scratch("page");
    let vm = game();
    let board = write(&dir, "board.bmp", &board_bmp());
    let man = write(&dir, "man.bmp", &piece_bmp());
    let art = Artwork { board: Some(board), places: places(), pieces: vec![("White".into(), "Man".into(), man.clone()), ("Black".into(), "Man".into(), man)] };
    let scene = Scene::with_artwork(&vm, &art);
    assert_eq!(scene.pictures.len(), 1, "one file, decoded and embedded once");
    let frames = vec![scene.frame(&vm)];
    let replay = Replay { title: "art".into(), scene, frames, moves: Vec::new(), sides: Vec::new(), players: Vec::new(), result: String::new() };
    let page = html::page(&replay, 0);
    let start = page.find("<svg").unwrap();
    let end = page.find("</svg>").unwrap() + "</svg>".len();
    let doc = roxmltree::Document::parse(&page[start..end]).unwrap_or_else(|e| panic!("not XML: {e}"));
    let defs = doc.descendants().find(|n| n.tag_name().name() == "defs").expect("templates");
    for (i, style) in replay.scene.styles.iter().enumerate() {
        let template = by_id(&doc, &svg::style_id(i));
        assert!(template.ancestors().any(|a| a == defs));
        let used = template.children().find(|n| n.tag_name().name() == "use");
        if style.name.ends_with("Man") {
            let target = by_id(&doc, used.expect(&style.name).attribute("href").unwrap().trim_start_matches('#'));
            assert_eq!(target.tag_name().name(), "image", "{}", style.name);
            assert!(target.ancestors().any(|a| a == defs));
            assert_eq!(decode(target.attribute("href").unwrap()).dimensions(), (6, 4));
        } else {
            assert!(used.is_none() && template.descendants().any(|n| n.tag_name().name() == "circle"), "{}: a disc", style.name);
        }
    }
    assert!(page.contains("class=\"backdrop\""));
}
