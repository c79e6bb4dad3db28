//! BMP files written byte by byte, for the tests of pictures: no picture
//! from any game is kept in the repository.

/// A BMP file: `bits` per pixel (1, 4, 8 with `palette`; 24 without), rows
/// given top first as palette indices or RGB.
pub fn bmp(bits: u16, width: u32, height: u32, palette: &[[u8; 3]], pixel: impl Fn(u32, u32) -> u32) -> Vec<u8> {
    let row_bytes = ((width * bits as u32).div_ceil(32) * 4) as usize;
    let offset = 14 + 40 + 4 * palette.len();
    let size = offset + row_bytes * height as usize;
    let mut f = Vec::new();
    f.extend(b"BM");
    f.extend((size as u32).to_le_bytes());
    f.extend([0u8; 4]);
    f.extend((offset as u32).to_le_bytes());
    f.extend(40u32.to_le_bytes());
    f.extend((width as i32).to_le_bytes());
    f.extend((height as i32).to_le_bytes());
    f.extend(1u16.to_le_bytes());
    f.extend(bits.to_le_bytes());
    f.extend([0u8; 4]); // no compression
    f.extend(((row_bytes * height as usize) as u32).to_le_bytes());
    f.extend(2835u32.to_le_bytes());
    f.extend(2835u32.to_le_bytes());
    f.extend((palette.len() as u32).to_le_bytes());
    f.extend(0u32.to_le_bytes());
    for [r, g, b] in palette {
        f.extend([*b, *g, *r, 0]);
    }
    // Bottom row first.
    for y in (0..height).rev() {
        let mut row = vec![0u8; row_bytes];
        for x in 0..width {
            let v = pixel(x, y);
            match bits {
                24 => {
                    let i = x as usize * 3;
                    row[i..i + 3].copy_from_slice(&[v as u8, (v >> 8) as u8, (v >> 16) as u8]);
                }
                8 => row[x as usize] = v as u8,
                4 => row[x as usize / 2] |= (v as u8 & 0xf) << if x % 2 == 0 { 4 } else { 0 },
                1 => row[x as usize / 8] |= (v as u8 & 1) << (7 - x % 8),
                _ => unreachable!(),
            }
        }
        f.extend(row);
    }
    f
}

pub fn rgb(r: u8, g: u8, b: u8) -> u32 {
    (r as u32) << 16 | (g as u32) << 8 | b as u32
}
