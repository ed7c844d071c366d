use std::cell::RefCell;
use std::io::{BufRead, Read};

use crate::ports::{Input, InputHandler};

/// Reads lines from any `BufRead`: standard input in the game, a byte string in tests.
///
/// Whatever arrives is turned into an [`Input`] and never into a panic: bytes that are
/// not UTF-8 become U+FFFD, a line longer than [`MAX_LINE`](Self::MAX_LINE) bytes is cut
/// (the rest of it is skipped), and end of input or a read error is [`Input::End`].
pub struct ConsoleInput<B> {
    reader: RefCell<B>,
    /// Empties the terminal's queue of typed-ahead input (none for a pipe or a buffer).
    discard: Option<fn()>,
}

impl<B: BufRead> ConsoleInput<B> {
    /// Longer than any sensible answer, short enough that a huge paste costs nothing.
    pub const MAX_LINE: usize = 1024;

    pub fn new(reader: B) -> Self {
        ConsoleInput {
            reader: RefCell::new(reader),
            discard: None,
        }
    }

    /// Reading from a terminal: `discard_typed_ahead` empties its input queue.
    pub fn discarding_with(mut self, discard: fn()) -> Self {
        self.discard = Some(discard);
        self
    }
}

/// Empties standard input's queue when it is a terminal (lines typed but not yet read).
#[cfg(unix)]
pub fn discard_terminal_input() {
    let _ = rustix::termios::tcflush(std::io::stdin(), rustix::termios::QueueSelector::IFlush);
}

/// Elsewhere there is no queue to empty.
#[cfg(not(unix))]
pub fn discard_terminal_input() {}

impl<B: BufRead> InputHandler for ConsoleInput<B> {
    fn read_line(&self) -> Input {
        let mut reader = self.reader.borrow_mut();
        let mut line = Vec::new();
        // `read_until` itself tries again after `Interrupted`; any other error means
        // nothing more will come.
        match (&mut *reader)
            .take(Self::MAX_LINE as u64)
            .read_until(b'\n', &mut line)
        {
            Ok(0) if line.is_empty() => return Input::End,
            Ok(_) => {}
            Err(_) => return Input::End,
        }
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        } else if line.len() >= Self::MAX_LINE {
            skip_rest_of_line(&mut *reader);
        }
        Input::Line(String::from_utf8_lossy(&line).into_owned())
    }

    fn discard_typed_ahead(&self) {
        if let Some(discard) = self.discard {
            discard();
        }
    }
}

fn skip_rest_of_line(reader: &mut impl BufRead) {
    loop {
        let (found_end, used) = match reader.fill_buf() {
            Ok([]) | Err(_) => return,
            Ok(buffer) => match buffer.iter().position(|&b| b == b'\n') {
                Some(end) => (true, end + 1),
                None => (false, buffer.len()),
            },
        };
        reader.consume(used);
        if found_end {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{self, BufReader, Cursor};

    use mockall::Sequence;

    use super::*;

    // `std::io::Read` is not ours, so it cannot carry `#[automock]`: `mock!` writes the
    // double from the trait's signature instead. A `BufReader` around it is the
    // `BufRead` the console reads.
    mockall::mock! {
        Stdin {}
        impl Read for Stdin {
            fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize>;
        }
    }

    #[test]
    fn a_read_interrupted_by_a_signal_is_tried_again() {
        // Arrange: the first read is interrupted, the second brings "5\n", then the end.
        let mut stdin = MockStdin::new();
        let mut seq = Sequence::new();
        stdin
            .expect_read()
            .times(1)
            .in_sequence(&mut seq)
            .returning(|_| Err(io::Error::from(io::ErrorKind::Interrupted)));
        stdin
            .expect_read()
            .times(1)
            .in_sequence(&mut seq)
            .returning(|buffer| {
                buffer[..2].copy_from_slice(b"5\n");
                Ok(2)
            });
        let input = ConsoleInput::new(BufReader::new(stdin));

        // Act
        let read = input.read_line();

        // Assert
        assert_eq!(read, Input::Line("5".to_string()));
    }

    #[test]
    fn a_failing_input_ends_the_input_at_once_instead_of_asking_again() {
        // `times(1)`: a second read (a retry loop) would fail the test.
        let mut stdin = MockStdin::new();
        stdin
            .expect_read()
            .times(1)
            .returning(|_| Err(io::Error::other("the terminal went away")));
        let input = ConsoleInput::new(BufReader::new(stdin));

        assert_eq!(input.read_line(), Input::End);
    }

    fn lines(bytes: &[u8]) -> Vec<Input> {
        let input = ConsoleInput::new(Cursor::new(bytes.to_vec()));
        let mut read = Vec::new();
        loop {
            let next = input.read_line();
            let done = next == Input::End;
            read.push(next);
            if done || read.len() > 100 {
                return read;
            }
        }
    }

    fn line(text: &str) -> Input {
        Input::Line(text.to_string())
    }

    #[test]
    fn lines_come_without_their_endings() {
        assert_eq!(lines(b"5\r\nb2\n"), vec![line("5"), line("b2"), Input::End]);
    }

    #[test]
    fn an_unterminated_last_line_still_counts() {
        assert_eq!(lines(b"5"), vec![line("5"), Input::End]);
    }

    #[test]
    fn an_empty_line_is_a_line_not_the_end() {
        assert_eq!(lines(b"\n"), vec![line(""), Input::End]);
    }

    #[test]
    fn bytes_that_are_not_utf8_become_replacement_characters() {
        assert_eq!(
            lines(b"\xff\xfe5\n"),
            vec![line("\u{FFFD}\u{FFFD}5"), Input::End]
        );
    }

    #[test]
    fn a_huge_line_is_cut_and_the_next_line_is_read_normally() {
        let mut bytes = vec![b'x'; 100_000];
        bytes.extend_from_slice(b"\n7\n");

        let read = lines(&bytes);

        assert_eq!(read.len(), 3);
        assert!(
            matches!(&read[0], Input::Line(text) if text.len() == ConsoleInput::<Cursor<Vec<u8>>>::MAX_LINE)
        );
        assert_eq!(read[1..], [line("7"), Input::End]);
    }
}
