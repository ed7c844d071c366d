//! `tictactoe accounts`: the operator's work on the accounts of the database every
//! command takes (`--db`): add one (a name with kept games too, as
//! [`SignUp::Operator`]), list them, give one a new password, remove one. The rules
//! are the core's ([`sign_up`], the [`AccountStore`] port); this module reads the
//! password and says what was done.
//!
//! A password is read from standard input when it is not a terminal (its first line),
//! otherwise typed twice at the terminal without being shown. It goes to the hasher
//! and nowhere else: never printed, never logged.

use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::process::ExitCode;
use std::time::SystemTime;

use tictactoe_core::accounts::{SignUp, SignUpError, sign_up};
use tictactoe_core::domain::{Password, PasswordError, PlayerName};
use tictactoe_core::ports::{AccountStore, AccountSummary, Passwords};
use tictactoe_json::{account_json, time_word};
use unicode_width::UnicodeWidthStr;

use crate::Failure;
use crate::config::AccountsAction;

/// Why the operator's command changed nothing, in words for the operator.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refused {
    /// The name, or one like it, is an account's: the use case's words.
    #[error(transparent)]
    SignUp(SignUpError),
    /// The domain's words.
    #[error(transparent)]
    Password(#[from] PasswordError),
    #[error(
        "no password was given: give it as the first line of standard input, or type it at \
         a terminal"
    )]
    NoPassword,
    #[error("the password given is not UTF-8 text")]
    NotText,
    #[error("the two passwords typed differ")]
    Differ,
    #[error("there is no account called {0} (`tictactoe accounts list` lists them)")]
    NoAccount(PlayerName),
    #[error("the password could not be read: {0}")]
    Unread(#[from] io::Error),
    #[cfg(not(unix))]
    #[error(
        "a password cannot be typed unseen at this terminal: give it as the first line of \
         standard input"
    )]
    NoHiddenTyping,
}

/// Does `action` on `store`'s accounts; `passwords` makes the hasher, only for the
/// actions that hash (making one costs a hash). What was done is said on standard
/// output; a refusal is an error, said by the caller.
pub(crate) fn run<P: Passwords>(
    store: &dyn AccountStore,
    passwords: impl FnOnce() -> P,
    action: AccountsAction,
) -> Result<ExitCode, Failure> {
    let said = match action {
        AccountsAction::Add(name) => {
            // Asked before the password, so that nobody types one for a name that
            // cannot be had; the use case asks again.
            if let Some(by) = store.account_like(&name).map_err(Failure::Store)? {
                return Err(Refused::SignUp(SignUpError::Taken { by }).into());
            }
            let password = new_password(&name)?;
            match sign_up(store, &passwords(), &name, &password, SignUp::Operator) {
                Ok(()) => {}
                Err(SignUpError::Store(error)) => return Err(Failure::Store(error)),
                Err(refused) => return Err(Refused::SignUp(refused).into()),
            }
            added(&name, store.has_games(&name).map_err(Failure::Store)?)
        }
        AccountsAction::List { json } => {
            let accounts = store.accounts(SystemTime::now()).map_err(Failure::Store)?;
            let mut out = io::stdout().lock();
            if json {
                for account in &accounts {
                    writeln!(out, "{}", account_json(account))?;
                }
            } else {
                write_list(&mut out, &accounts)?;
            }
            return Ok(ExitCode::SUCCESS);
        }
        AccountsAction::ResetPassword(name) => {
            let name = signed_up_as(store, name)?;
            let password = new_password(&name)?;
            let hash = passwords().hash(&password);
            if !store.set_password(&name, &hash).map_err(Failure::Store)? {
                return Err(Refused::NoAccount(name).into());
            }
            format!(
                "{name} has a new password: every session of the account was ended and every \
                 personal token of it revoked."
            )
        }
        AccountsAction::Remove(name) => {
            let name = signed_up_as(store, name)?;
            if !store.remove_account(&name).map_err(Failure::Store)? {
                return Err(Refused::NoAccount(name).into());
            }
            format!(
                "Removed the account {name}, with its sessions and personal tokens. Its games \
                 stay, and the name {name} is free again."
            )
        }
    };
    writeln!(io::stdout(), "{said}")?;
    Ok(ExitCode::SUCCESS)
}

/// The account's name as it was signed up (`ada` finds `Ada`); refused when there is
/// no such account.
fn signed_up_as(store: &dyn AccountStore, name: PlayerName) -> Result<PlayerName, Failure> {
    match store.account(&name).map_err(Failure::Store)? {
        Some(account) => Ok(account.name),
        None => Err(Refused::NoAccount(name).into()),
    }
}

/// What `add` says: the account, and whether the games kept under its name are its own
/// now.
fn added(name: &PlayerName, played: bool) -> String {
    if played {
        format!("Added the account {name}: the games kept under that name are its own now.")
    } else {
        format!("Added the account {name}.")
    }
}

/// A new password for `name`'s account: the first line of standard input when it is
/// not a terminal, otherwise typed twice at the terminal, unseen.
fn new_password(name: &PlayerName) -> Result<Password, Refused> {
    if io::stdin().is_terminal() {
        typed_twice(name, typed_unseen)
    } else {
        Ok(Password::new(&first_line(&mut io::stdin().lock())?)?)
    }
}

/// A password typed twice, each time as `typed` reads it after its prompt: refused if
/// the two differ, or (before it is asked again) if the first cannot be a password.
fn typed_twice(
    name: &PlayerName,
    mut typed: impl FnMut(&str) -> Result<String, Refused>,
) -> Result<Password, Refused> {
    let first = typed(&format!("New password for {name}: "))?;
    let password = Password::new(&first)?;
    if typed("The same password again: ")? != first {
        return Err(Refused::Differ);
    }
    Ok(password)
}

/// A line typed at the terminal after `prompt` (on standard error), not shown while
/// it is typed: the terminal's echo is off from before the prompt (what is typed as
/// soon as it shows is not shown either) until the line is in. Ctrl-C meanwhile ends
/// the program as usual, before it gives the echo back; the shell does (bash sets a
/// terminal back as it was before a program a signal ended), or `stty echo`.
#[cfg(unix)]
fn typed_unseen(prompt: &str) -> Result<String, Refused> {
    use rustix::termios::{LocalModes, OptionalActions, tcgetattr, tcsetattr};
    let stdin = io::stdin();
    let shown = tcgetattr(&stdin).map_err(io::Error::from)?;
    let mut unseen = shown.clone();
    unseen.local_modes.remove(LocalModes::ECHO);
    tcsetattr(&stdin, OptionalActions::Now, &unseen).map_err(io::Error::from)?;
    eprint!("{prompt}");
    let line = first_line(&mut stdin.lock());
    let restored = tcsetattr(&stdin, OptionalActions::Now, &shown);
    // The newline typed was not shown either.
    eprintln!();
    restored.map_err(io::Error::from)?;
    line
}

/// Elsewhere a password is not typed at a terminal: it comes on standard input.
#[cfg(not(unix))]
fn typed_unseen(_prompt: &str) -> Result<String, Refused> {
    Err(Refused::NoHiddenTyping)
}

/// The most bytes a line read as a password may have: more than this is more than
/// 4 × [`Password::MAX_CHARS`] characters (a character is at most 4 bytes), which
/// [`Password::new`] refuses as too long whatever they normalise to.
const LONGEST_LINE: usize = 4 * 4 * Password::MAX_CHARS;

/// `input`'s first line: the newline that ends it taken away, and nothing else (spaces
/// are part of a password). No line at all is no password; a line longer than any
/// password is too long, and not read to its end.
fn first_line(input: &mut impl BufRead) -> Result<String, Refused> {
    let mut line = Vec::new();
    input
        .take(LONGEST_LINE as u64 + 1)
        .read_until(b'\n', &mut line)?;
    if line.is_empty() {
        return Err(Refused::NoPassword);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    if line.len() > LONGEST_LINE {
        return Err(PasswordError::TooLong.into());
    }
    String::from_utf8(line).map_err(|_| Refused::NotText)
}

/// The accounts as a table: name, when made (RFC 3339, UTC), sessions open, tokens;
/// or that there are none.
fn write_list(out: &mut impl Write, accounts: &[AccountSummary]) -> io::Result<()> {
    if accounts.is_empty() {
        return writeln!(
            out,
            "No accounts yet: `tictactoe accounts add NAME` adds one."
        );
    }
    let names = accounts
        .iter()
        .map(|account| account.name.as_str().width())
        .chain(["Name".len()])
        .max()
        .unwrap_or_default();
    let line = |out: &mut dyn Write, name: &str, created: &str, sessions: &str, tokens: &str| {
        let pad = " ".repeat(names - name.width());
        writeln!(
            out,
            "{name}{pad}  {created:<20}  {sessions:>8}  {tokens:>6}"
        )
    };
    line(out, "Name", "Created", "Sessions", "Tokens")?;
    for account in accounts {
        line(
            out,
            account.name.as_str(),
            &time_word(account.created),
            &account.sessions.to_string(),
            &account.tokens.to_string(),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::time::{Duration, UNIX_EPOCH};

    use super::*;

    fn ada() -> PlayerName {
        PlayerName::new("Ada").unwrap()
    }

    #[test]
    fn the_first_line_is_the_password_without_its_newline_and_nothing_else_trimmed() {
        let mut input = &b"  correct horse \nthe next line\n"[..];

        let line = first_line(&mut input);

        assert_eq!(line.unwrap(), "  correct horse ");
    }

    #[test]
    fn a_last_line_without_a_newline_is_read_whole() {
        let mut input = &b"correct horse"[..];

        assert_eq!(first_line(&mut input).unwrap(), "correct horse");
    }

    #[test]
    fn no_line_at_all_is_no_password() {
        let mut input = &b""[..];

        assert!(matches!(first_line(&mut input), Err(Refused::NoPassword)));
    }

    #[test]
    fn a_line_that_is_not_utf8_is_refused() {
        let mut input = &b"correct \xff horse\n"[..];

        assert!(matches!(first_line(&mut input), Err(Refused::NotText)));
    }

    #[test]
    fn a_line_longer_than_any_password_is_too_long_and_not_read_to_its_end() {
        // Arrange: one byte more than the longest line, then more.
        let mut long = vec![b'a'; LONGEST_LINE + 1];
        long.extend(b"rest\n");
        let mut input = &long[..];

        // Act
        let line = first_line(&mut input);

        // Assert
        assert!(matches!(
            line,
            Err(Refused::Password(PasswordError::TooLong))
        ));
        assert_eq!(input, b"rest\n");
    }

    #[test]
    fn the_longest_line_is_read() {
        let mut line = vec![b'a'; LONGEST_LINE];
        line.push(b'\n');

        assert_eq!(first_line(&mut &line[..]).unwrap().len(), LONGEST_LINE);
    }

    /// [`typed_twice`] for Ada, `answers` typed at the prompts in turn: its answer, and
    /// how many times she was asked.
    fn typed_twice_as(answers: &[&str]) -> (Result<Password, Refused>, usize) {
        let asked = Cell::new(0);
        let typed = typed_twice(&ada(), |_prompt| {
            asked.set(asked.get() + 1);
            Ok(answers[asked.get() - 1].to_string())
        });
        (typed, asked.get())
    }

    #[test]
    fn the_same_password_typed_twice_is_taken() {
        let (typed, _) = typed_twice_as(&["correct horse", "correct horse"]);

        assert_eq!(typed.unwrap(), Password::new("correct horse").unwrap());
    }

    #[test]
    fn two_passwords_that_differ_are_refused() {
        let (typed, asked) = typed_twice_as(&["correct horse", "correct horsE"]);

        assert!(matches!(typed, Err(Refused::Differ)));
        assert_eq!(asked, 2);
    }

    #[test]
    fn a_password_too_short_is_refused_before_it_is_asked_again() {
        let (typed, asked) = typed_twice_as(&["short", "short"]);

        assert!(matches!(
            typed,
            Err(Refused::Password(PasswordError::TooShort))
        ));
        assert_eq!(asked, 1);
    }

    #[test]
    fn the_prompt_names_the_account_and_never_the_password() {
        let prompts = std::cell::RefCell::new(Vec::new());

        let _ = typed_twice(&ada(), |prompt| {
            prompts.borrow_mut().push(prompt.to_string());
            Ok("correct horse".to_string())
        });

        let prompts = prompts.into_inner();
        assert!(prompts[0].contains("Ada"), "{prompts:?}");
        assert!(
            prompts.iter().all(|prompt| !prompt.contains("correct")),
            "{prompts:?}"
        );
    }

    #[test]
    fn adding_a_name_with_kept_games_says_they_are_the_accounts_now() {
        assert!(added(&ada(), true).contains("games kept under that name"));
        assert_eq!(added(&ada(), false), "Added the account Ada.");
    }

    #[test]
    fn an_empty_list_says_so_and_how_to_add_an_account() {
        let mut out = Vec::new();

        write_list(&mut out, &[]).unwrap();

        assert_eq!(
            String::from_utf8(out).unwrap(),
            "No accounts yet: `tictactoe accounts add NAME` adds one.\n"
        );
    }

    #[test]
    fn each_account_is_a_line_of_its_name_creation_sessions_and_tokens_in_columns() {
        // Arrange: a name wider on screen than its characters (two wide ones).
        let made = UNIX_EPOCH + Duration::from_secs(1_795_000_000);
        let account = |text: &str, sessions, tokens| AccountSummary {
            name: PlayerName::new(text).unwrap(),
            created: made,
            sessions,
            tokens,
        };
        let accounts = [account("Ada", 2, 0), account("李白", 0, 13)];
        let mut out = Vec::new();

        // Act
        write_list(&mut out, &accounts).unwrap();

        // Assert
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "Name  Created               Sessions  Tokens\n\
             Ada   2026-11-18T11:06:40Z         2       0\n\
             李白  2026-11-18T11:06:40Z         0      13\n"
        );
    }
}
