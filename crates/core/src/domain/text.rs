/// A short, printable excerpt of text someone typed, for quoting it back in a message.
///
/// Input can be anything (100 000 characters, escape sequences); an error message quotes
/// at most a few characters of it and never a control character.
pub fn excerpt(text: &str) -> String {
    excerpt_of(text, 20)
}

/// `text` safe to quote back: control characters replaced, and cut with "…" after
/// `max_chars` characters.
pub fn excerpt_of(text: &str, max_chars: usize) -> String {
    let mut quoted: String = text
        .chars()
        .take(max_chars)
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect();
    if text.chars().nth(max_chars).is_some() {
        quoted.push('…');
    }
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole() {
        assert_eq!(excerpt("abc"), "abc");
    }

    #[test]
    fn long_text_is_cut_and_marked() {
        assert_eq!(excerpt(&"y".repeat(50)), format!("{}…", "y".repeat(20)));
    }

    #[test]
    fn control_characters_are_never_echoed() {
        assert_eq!(excerpt("a\u{1b}[2Jb"), "a\u{FFFD}[2Jb");
    }
}
