//! "Did you mean …?" for a name that is not defined: the same name in
//! another case first (ForthScript names are case-sensitive, and Axiom
//! has both `DROP` and `drop`), then the nearest name by edit distance
//! (a letter added, dropped, changed, or two swapped: `emtpy?` → `empty?`).

/// The hint for `name` among `candidates`, if one is close enough.
pub fn did_you_mean<'a>(name: &str, candidates: impl Iterator<Item = &'a str> + Clone) -> Option<String> {
    // A name past any real word's length gets no guess (and no quadratic
    // distance over a huge token).
    if name.is_empty() || name.len() > 64 {
        return None;
    }
    if let Some(same) = candidates.clone().find(|c| *c != name && c.eq_ignore_ascii_case(name)) {
        return Some(format!("names are case-sensitive: did you mean `{same}`?"));
    }
    let lower = name.to_ascii_lowercase();
    let allowed = match name.chars().count() {
        0..=2 => 0,
        3..=5 => 1,
        6..=9 => 2,
        _ => 3,
    };
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        // Cheap rejections first: a length too far apart cannot be close.
        if c.len().abs_diff(name.len()) > allowed || c == name {
            continue;
        }
        let d = distance(&lower, &c.to_ascii_lowercase());
        if d <= allowed && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| format!("did you mean `{c}`?"))
}

/// Edit distance with adjacent transpositions (optimal string alignment).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1).min(rows[i][j - 1] + 1).min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_first_then_the_nearest() {
        let names = ["DUP", "drop", "DROP", "empty?", "enemy?", "from"];
        assert_eq!(did_you_mean("dup", names.iter().copied()).unwrap(), "names are case-sensitive: did you mean `DUP`?");
        assert_eq!(did_you_mean("Drop", names.iter().copied()).unwrap(), "names are case-sensitive: did you mean `drop`?");
        assert_eq!(did_you_mean("emtpy?", names.iter().copied()).unwrap(), "did you mean `empty?`?");
        assert_eq!(did_you_mean("frm", names.iter().copied()).unwrap(), "did you mean `from`?");
        assert_eq!(did_you_mean("zebra", names.iter().copied()), None);
        assert_eq!(did_you_mean("x", names.iter().copied()), None, "one letter is too short to guess");
    }

    #[test]
    fn distance_counts_swaps_as_one() {
        assert_eq!(distance("emtpy?", "empty?"), 1);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
    }
}
