//! String methods split the text in parallel and give what the sequential
//! `str` methods give, in order (rayon's `str` and `chars` tests).

use rt_par::prelude::*;
use rt_testkit::without_hanging;

fn texts() -> Vec<String> {
    let mut texts = vec![
        String::new(),
        "a".to_string(),
        ",".to_string(),
        "a,b,,c,".to_string(),
        "  leading and  trailing  ".to_string(),
        "lines\r\nwith\n\ncr\r\n".to_string(),
        "émoji 🦀 and ünïcödé, mixed 𝄞".to_string(),
    ];
    let long: String = (0..20_000)
        .map(|i| match i % 7 {
            0 => "word ".to_string(),
            1 => "é,".to_string(),
            2 => "\n".to_string(),
            3 => "  ".to_string(),
            4 => "🦀;".to_string(),
            _ => format!("{i}"),
        })
        .collect();
    texts.push(long);
    texts
}

#[test]
fn chars_char_indices_bytes_and_utf16_match() {
    without_hanging(|| {
        for text in texts() {
            assert_eq!(
                text.par_chars().collect::<Vec<_>>(),
                text.chars().collect::<Vec<_>>()
            );
            assert_eq!(
                text.par_char_indices().collect::<Vec<_>>(),
                text.char_indices().collect::<Vec<_>>()
            );
            assert_eq!(
                text.par_bytes().collect::<Vec<_>>(),
                text.bytes().collect::<Vec<_>>()
            );
            assert_eq!(
                text.par_encode_utf16().collect::<Vec<_>>(),
                text.encode_utf16().collect::<Vec<_>>()
            );
        }
    });
}

#[test]
fn splits_match_for_every_kind_of_pattern() {
    without_hanging(|| {
        for text in texts() {
            let t = text.as_str();
            assert_eq!(
                t.par_split(',').collect::<Vec<_>>(),
                t.split(',').collect::<Vec<_>>()
            );
            assert_eq!(
                t.par_split(&[',', ';'][..]).collect::<Vec<_>>(),
                t.split(&[',', ';'][..]).collect::<Vec<_>>()
            );
            assert_eq!(
                t.par_split([' ', '\n']).collect::<Vec<_>>(),
                t.split([' ', '\n']).collect::<Vec<_>>()
            );
            assert_eq!(
                t.par_split(|c: char| c.is_numeric()).collect::<Vec<_>>(),
                t.split(|c: char| c.is_numeric()).collect::<Vec<_>>()
            );
            assert_eq!(
                t.par_split_terminator(',').collect::<Vec<_>>(),
                t.split_terminator(',').collect::<Vec<_>>()
            );
            assert_eq!(
                t.par_lines().collect::<Vec<_>>(),
                t.lines().collect::<Vec<_>>()
            );
            assert_eq!(
                t.par_split_whitespace().collect::<Vec<_>>(),
                t.split_whitespace().collect::<Vec<_>>()
            );
            assert_eq!(
                t.par_split_ascii_whitespace().collect::<Vec<_>>(),
                t.split_ascii_whitespace().collect::<Vec<_>>()
            );
        }
    });
}

#[test]
fn split_inclusive_and_matches_match() {
    without_hanging(|| {
        for text in texts() {
            let t = text.as_str();
            assert_eq!(
                t.par_split_inclusive(',').collect::<Vec<_>>(),
                t.split_inclusive(',').collect::<Vec<_>>()
            );
            assert_eq!(
                t.par_split_inclusive('\n').collect::<Vec<_>>(),
                t.split_inclusive('\n').collect::<Vec<_>>()
            );
            assert_eq!(
                t.par_matches(char::is_numeric).collect::<Vec<_>>(),
                t.matches(char::is_numeric).collect::<Vec<_>>()
            );
            assert_eq!(
                t.par_match_indices(['é', '🦀']).collect::<Vec<_>>(),
                t.match_indices(['é', '🦀']).collect::<Vec<_>>()
            );
        }
    });
}
