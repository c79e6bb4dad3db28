//! A scene and one frame as SVG: the squares, the coordinates, the strip of
//! off-grid positions, and the pieces, each a disc with a
//! letter (or a ring for a crowned piece) in its player's colour. Sizes are in a `viewBox`, so the
//! picture scales to any width; every name goes through maud, which
//! escapes it.
//!
//! A scene with pictures (`artwork`) has the board picture under
//! unpainted rectangles, and each piece picture once in `<defs>`, which
//! every piece of that look refers to with `<use>`.

use super::{Frame, Picture, Scene, Shade, Style, CUT_SQUARE, DARK_SQUARE, LIGHT_SQUARE, SLOT_SQUARE, SQUARE};
use maud::{html, Markup};

const RADIUS: f64 = SQUARE * 0.38;
const RING: f64 = SQUARE * 0.27;

/// The id of a style's drawing (`#s3`); the page's script uses it too.
pub fn style_id(style: usize) -> String {
    format!("s{style}")
}

/// The id of a piece picture in `<defs>` (`#p0`).
pub fn picture_id(picture: usize) -> String {
    format!("p{picture}")
}

/// The `<svg>` element: board and `frame`'s pieces; with `templates`, one
/// drawing per style in `<defs>` as well, which the page's script copies.
pub fn board(scene: &Scene, frame: &Frame, title: &str, templates: bool) -> Markup {
    html! {
        svg xmlns="http://www.w3.org/2000/svg" viewBox=(format!("0 0 {} {}", scene.width, scene.height))
            width="100%" role="img" aria-label=(title) font-family="sans-serif" {
            title { (title) }
            @if templates || !scene.pictures.is_empty() {
                defs {
                    @for (i, p) in scene.pictures.iter().enumerate() {
                        (centred(p, &picture_id(i)))
                    }
                    @if templates {
                        @for (i, s) in scene.styles.iter().enumerate() {
                            g id=(style_id(i)) class="style" data-piece=(s.name) { (drawing(scene, s)) }
                        }
                    }
                }
            }
            g class="board" {
                @if let Some(p) = &scene.backdrop {
                    image class="backdrop" x="0" y="0" width=(p.width) height=(p.height) href=(p.href) {}
                }
                @for p in &scene.squares {
                    rect class="square" data-index=(p.pos) data-pos=(p.name) x=(p.x) y=(p.y) width=(p.w) height=(p.h) fill=(ground(p.shade)) {}
                }
                @for (text, x, y) in &scene.labels {
                    text class="coordinate" x=(x) y=(y) text-anchor="middle" dy="0.35em" font-size=(SQUARE * 0.24) fill="#555" { (text) }
                }
                @for p in &scene.strip {
                    rect class="slot" data-index=(p.pos) data-pos=(p.name) x=(p.x) y=(p.y) width=(p.w) height=(p.h) rx=(scene.unit * 0.08)
                        fill=(ground(p.shade)) stroke="#9aa5b1" stroke-width=(scene.unit * 0.02) {}
                    text class="slot-name" x=(p.x + p.w / 2.0) y=(p.y + p.h + scene.unit * 0.2) text-anchor="middle" font-size=(scene.unit * 0.18) fill="#555" { (p.name) }
                }
            }
            g id="pieces" {
                @for &(pos, style) in &frame.0 {
                    @if let Some((x, y)) = scene.centre(pos) {
                        g class="piece" transform=(format!("translate({x} {y})")) data-index=(pos) data-piece=(scene.styles.get(style).map_or("", |s| s.name.as_str())) {
                            @if let Some(s) = scene.styles.get(style) { (drawing(scene, s)) }
                        }
                    }
                }
            }
        }
    }
}

/// A standalone SVG file.
pub fn document(scene: &Scene, frame: &Frame, title: &str) -> String {
    format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{}\n", board(scene, frame, title, false).into_string())
}

/// One piece, centred on the origin: its picture, or a disc as large as
/// the scene's positions.
fn drawing(scene: &Scene, s: &Style) -> Markup {
    if let Some(k) = s.picture.filter(|&k| k < scene.pictures.len()) {
        return html! { use href=(format!("#{}", picture_id(k))) {} };
    }
    if scene.unit == SQUARE {
        return disc(s);
    }
    html! { g transform=(format!("scale({})", scene.unit / SQUARE)) { (disc(s)) } }
}

/// A picture at its natural size, centred on the origin, for `<use>`.
fn centred(p: &Picture, id: &str) -> Markup {
    html! {
        image id=(id) class="picture" x=(-(p.width as f64) / 2.0) y=(-(p.height as f64) / 2.0) width=(p.width) height=(p.height) href=(p.href) {}
    }
}

fn disc(s: &Style) -> Markup {
    html! {
        circle r=(RADIUS) fill=(s.fill) stroke=(outline(s.fill)) stroke-width=(SQUARE * 0.03) {}
        @if s.ring {
            circle r=(RING) fill="none" stroke=(s.ink) stroke-width=(SQUARE * 0.03) {}
        }
        @if !s.label.is_empty() {
            text text-anchor="middle" dy="0.35em" font-size=(label_size(&s.label)) font-weight="bold" fill=(s.ink) { (s.label) }
        }
    }
}

fn ground(shade: Shade) -> &'static str {
    match shade {
        Shade::Light => LIGHT_SQUARE,
        Shade::Dark => DARK_SQUARE,
        Shade::Cut => CUT_SQUARE,
        Shade::Slot => SLOT_SQUARE,
        Shade::Picture => "none",
    }
}

/// A light disc needs a dark edge to stand out on a light square, a dark
/// one a lighter edge on a dark square.
fn outline(fill: &str) -> &'static str {
    if super::ink_for(fill) == "#1a1a1a" {
        "#3a3a3a"
    } else {
        "#0d0d0d"
    }
}

fn label_size(label: &str) -> f64 {
    match label.chars().count() {
        0 | 1 => SQUARE * 0.44,
        2 => SQUARE * 0.32,
        _ => SQUARE * 0.22,
    }
}
