//! PDN, the draughts game exchange format: `[Key "Value"]` headers, move text with numbers,
//! `{comments}`, `;` line comments, `(variations)` (skipped), NAGs, and result tags. Russian
//! draughts is `[GameType "25"]`.

use crate::error::{MoveError, ParseError};
use crate::fen::{parse_fen, to_fen};
use crate::game::{Game, GameResult};
use crate::position::{Color, Position};

/// The PDN game type of Russian draughts.
pub const GAME_TYPE: &str = "25";

/// One game as read from a PDN file, before its moves are checked.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PdnGame {
    pub headers: Vec<(String, String)>,
    /// Move texts in order, each with the line it was read on.
    pub moves: Vec<(String, usize)>,
    /// The result tag ending the move text (`1-0`, `0-1`, `1/2-1/2`, `*`, or 2-point forms).
    pub result: Option<String>,
    /// The line the game starts on.
    pub line: usize,
}

/// Why a game could not be replayed: the first move that failed, with its number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("bad FEN header: {0}")]
    Fen(ParseError),
    #[error("PDN line {line}, move {number}{dots} {text}: {error}")]
    Move {
        line: usize,
        /// The full-move number as PDN prints it.
        number: usize,
        dots: &'static str,
        text: String,
        error: MoveError,
    },
}

impl PdnGame {
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }

    /// The start position: the `FEN` header's, or the initial one.
    pub fn start_position(&self) -> Result<Position, ParseError> {
        match self.header("FEN") {
            Some(fen) => parse_fen(fen),
            None => Ok(Position::start()),
        }
    }

    /// Plays every move through the rules engine; the first illegal one is named.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let start = self.start_position().map_err(ReplayError::Fen)?;
        let mut game = Game::from_position(start);
        let black_first = start.side_to_move() == Color::Black;
        for (i, (text, line)) in self.moves.iter().enumerate() {
            if let Err(error) = game.play_text(text) {
                let ply = i + usize::from(black_first);
                return Err(ReplayError::Move {
                    line: *line,
                    number: ply / 2 + 1,
                    dots: if ply % 2 == 0 { "." } else { "..." },
                    text: text.clone(),
                    error,
                });
            }
        }
        Ok(game)
    }
}

/// Reads every game of a PDN text.
pub fn parse_pdn(text: &str) -> Result<Vec<PdnGame>, ParseError> {
    let mut games = Vec::new();
    let mut cur = PdnGame::default();
    let mut in_moves = false;
    let mut lexer = Lexer::new(text);
    while let Some(tok) = lexer.next_token()? {
        match tok {
            Token::Header(k, v, line) => {
                if in_moves {
                    games.push(std::mem::take(&mut cur));
                    in_moves = false;
                }
                if cur.headers.is_empty() && cur.moves.is_empty() {
                    cur.line = line;
                }
                cur.headers.push((k, v));
            }
            Token::Move(m, line) => {
                if cur.headers.is_empty() && cur.moves.is_empty() {
                    cur.line = line;
                }
                in_moves = true;
                cur.moves.push((m, line));
            }
            Token::Result(r) => {
                cur.result = Some(r);
                games.push(std::mem::take(&mut cur));
                in_moves = false;
            }
        }
    }
    if !cur.headers.is_empty() || !cur.moves.is_empty() {
        games.push(cur);
    }
    Ok(games)
}

/// Writes a game as PDN. `headers` come first (Event, Site, Date, White, Black...); GameType,
/// FEN (when the game did not start from the initial position) and Result are added.
pub fn write_pdn(game: &Game, headers: &[(&str, &str)]) -> String {
    write_pdn_with_comments(game, headers, &[])
}

/// Like [`write_pdn`], with `comments[i]` written as a `{comment}` after the game's move `i`
/// (empty or missing: none). Braces in a comment are replaced, so the file stays readable by
/// any PDN reader.
pub fn write_pdn_with_comments(
    game: &Game,
    headers: &[(&str, &str)],
    comments: &[String],
) -> String {
    let result = game.result();
    let tag = result.pdn_tag();
    let mut out = String::new();
    for (k, v) in headers {
        if ["GameType", "FEN", "Result"]
            .iter()
            .any(|h| h.eq_ignore_ascii_case(k))
        {
            continue;
        }
        out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    }
    out.push_str(&format!("[GameType \"{GAME_TYPE}\"]\n"));
    let start = game.start_position();
    if *start != Position::start() {
        out.push_str(&format!("[FEN \"{}\"]\n", to_fen(start)));
    }
    out.push_str(&format!("[Result \"{tag}\"]\n"));
    if let GameResult::Win { .. } | GameResult::Draw(_) = result {
        out.push_str(&format!("{{{result}}}\n"));
    }
    let mut words: Vec<String> = Vec::new();
    let black_first = start.side_to_move() == Color::Black;
    for (i, mv) in game.moves().iter().enumerate() {
        let ply = i + usize::from(black_first);
        if ply % 2 == 0 {
            words.push(format!("{}.", ply / 2 + 1));
        } else if i == 0 {
            words.push(format!("{}...", ply / 2 + 1));
        }
        words.push(mv.text());
        if let Some(c) = comments.get(i).map(|c| c.trim()).filter(|c| !c.is_empty()) {
            words.push(format!("{{{}}}", c.replace('{', "(").replace('}', ")")));
        }
    }
    words.push(tag.to_string());
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

enum Token {
    Header(String, String, usize),
    Move(String, usize),
    Result(String),
}

const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    text: &'a str,
    line: usize,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        Lexer {
            chars: text.char_indices().peekable(),
            text,
            line: 1,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let (_, c) = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn err(&self, why: &str) -> ParseError {
        ParseError::Pdn {
            line: self.line,
            why: why.to_string(),
        }
    }

    /// Skips to the end of the line (for `;` comments and `%` escapes).
    fn skip_line(&mut self) {
        while let Some(&(_, c)) = self.chars.peek() {
            if c == '\n' {
                break;
            }
            self.bump();
        }
    }

    fn skip_comment(&mut self) -> Result<(), ParseError> {
        let start = self.line;
        loop {
            match self.bump() {
                Some('}') => return Ok(()),
                Some(_) => {}
                None => {
                    return Err(ParseError::Pdn {
                        line: start,
                        why: "comment '{' is never closed".into(),
                    })
                }
            }
        }
    }

    fn skip_variation(&mut self) -> Result<(), ParseError> {
        let start = self.line;
        let mut depth = 1usize;
        while depth > 0 {
            match self.bump() {
                Some('(') => depth += 1,
                Some(')') => depth -= 1,
                Some('{') => self.skip_comment()?,
                Some(_) => {}
                None => {
                    return Err(ParseError::Pdn {
                        line: start,
                        why: "variation '(' is never closed".into(),
                    })
                }
            }
        }
        Ok(())
    }

    fn header(&mut self) -> Result<Token, ParseError> {
        let line = self.line;
        let mut key = String::new();
        while let Some(&(_, c)) = self.chars.peek() {
            if c.is_whitespace() || c == '"' || c == ']' {
                break;
            }
            key.push(c);
            self.bump();
        }
        while self.chars.peek().is_some_and(|&(_, c)| c.is_whitespace()) {
            self.bump();
        }
        if self.bump() != Some('"') {
            return Err(self.err("a header needs a quoted value: [Key \"value\"]"));
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('\\') => {
                    if let Some(c) = self.bump() {
                        value.push(c);
                    }
                }
                Some('"') => break,
                Some('\n') | None => return Err(self.err("header value is never closed")),
                Some(c) => value.push(c),
            }
        }
        while self
            .chars
            .peek()
            .is_some_and(|&(_, c)| c != ']' && c != '\n')
        {
            self.bump();
        }
        if self.bump() != Some(']') {
            return Err(self.err("header is missing its ']'"));
        }
        if key.is_empty() {
            return Err(self.err("header without a name"));
        }
        Ok(Token::Header(key, value, line))
    }

    fn next_token(&mut self) -> Result<Option<Token>, ParseError> {
        loop {
            let Some(&(start, c)) = self.chars.peek() else {
                return Ok(None);
            };
            match c {
                c if c.is_whitespace() => {
                    self.bump();
                }
                '[' => {
                    self.bump();
                    return self.header().map(Some);
                }
                '{' => {
                    self.bump();
                    self.skip_comment()?;
                }
                '(' => {
                    self.bump();
                    self.skip_variation()?;
                }
                ';' => self.skip_line(),
                '%' => self.skip_line(),
                ')' | '}' | ']' => return Err(self.err(&format!("unexpected '{c}'"))),
                _ => {
                    let line = self.line;
                    let mut end = start;
                    while let Some(&(i, c)) = self.chars.peek() {
                        if c.is_whitespace() || "[]{}();".contains(c) {
                            break;
                        }
                        end = i + c.len_utf8();
                        self.bump();
                    }
                    let word = &self.text[start..end];
                    if let Some(tok) = classify(word, line) {
                        return Ok(Some(tok));
                    }
                }
            }
        }
    }
}

/// A word of move text: a move, a result, or nothing worth keeping (a move number, a NAG).
fn classify(word: &str, line: usize) -> Option<Token> {
    if RESULTS.contains(&word) {
        return Some(Token::Result(word.to_string()));
    }
    if word.starts_with('$') {
        return None;
    }
    // "12." / "12..." / "12.c3-d4": strip a leading move number.
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let rest = if digits > 0 && word[digits..].starts_with('.') {
        word[digits..].trim_start_matches('.')
    } else {
        word
    };
    let rest = rest.trim_start_matches('.');
    if rest.is_empty() || rest.chars().all(|c| "!?".contains(c)) {
        return None;
    }
    Some(Token::Move(rest.to_string(), line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_headers_comments_variations_and_results() {
        let text = r#"
[Event "Test \"quoted\""]
[GameType "25"]
; a line comment
1. c3-d4 {opening} f6-g5 (1... b6-a5 2. d4-c5 {inside} (2. a3-b4)) 2. d4-e5? f6... $1
"#;
        // "f6..." is not a legal token for this game, but lexing must still pass.
        let games = parse_pdn(text).expect("parses");
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.header("event"), Some("Test \"quoted\""));
        let moves: Vec<&str> = g.moves.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(moves, ["c3-d4", "f6-g5", "d4-e5?", "f6..."]);
        assert_eq!(g.result, None);
    }

    #[test]
    fn splits_games_at_results() {
        let text = "[GameType \"25\"]\n1. c3-d4 f6-g5 1-0\n\n[GameType \"25\"]\n1. 22-18 11-15 *\n";
        let games = parse_pdn(text).expect("parses");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        let g = games[1].replay().expect("numeric moves replay");
        assert_eq!(g.ply_count(), 2);
    }

    #[test]
    fn replay_names_the_first_illegal_move() {
        let games = parse_pdn("1. c3-d4 f6-g5 2. d4-e5 h6-g5 *").expect("parses");
        match games[0].replay() {
            Err(ReplayError::Move {
                number, dots, text, ..
            }) => {
                assert_eq!((number, dots, text.as_str()), (2, "...", "h6-g5"));
            }
            other => panic!("expected an illegal move, got {other:?}"),
        }
    }

    #[test]
    fn comments_after_moves_are_written_and_read_past() {
        let mut game = Game::new();
        for m in ["c3-d4", "f6-e5", "d4:f6"] {
            game.play_text(m).expect("legal");
        }
        let comments = vec![String::new(), "blunder; better {b6-a5}".to_string()];
        let text = write_pdn_with_comments(&game, &[("Event", "e")], &comments);
        assert!(text.contains("f6-e5 {blunder; better (b6-a5)}"), "{text}");
        let read = parse_pdn(&text).expect("parses");
        let replayed = read[0].replay().expect("replays");
        assert_eq!(replayed.moves(), game.moves());
    }

    #[test]
    fn unclosed_comment_is_an_error() {
        assert!(parse_pdn("1. c3-d4 {never closed").is_err());
        assert!(parse_pdn("[Event \"x").is_err());
    }
}
