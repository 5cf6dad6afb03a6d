//! The whole screen: board, face and move list on top; the game's status and the planner's
//! evaluation; what the robot says and the events side by side; the move being typed and the
//! keys. Dialogs (new game, resign) are drawn over it.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Gauge, List, ListItem, ListState, Paragraph};
use ratatui::Frame;

use checkers_msgs::msg::{GameState, Move, Position};

use super::app::{side_name, App, ColourChoice, Mode, Notice};
use super::{board_widget, face_widget};

pub const HELP: &str =
    "type a move + Enter | Up/Down + Enter: pick one | ? hint | u take back | n new game | r resign | Esc clear | q quit";

pub fn draw(frame: &mut Frame, app: &App) {
    let [top, status, gauge, logs, input, help] = Layout::vertical([
        Constraint::Length(board_widget::HEIGHT + 2),
        Constraint::Length(2),
        Constraint::Length(1),
        Constraint::Min(4),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    let [board, face, moves] = Layout::horizontal([
        Constraint::Length(board_widget::WIDTH + 2),
        Constraint::Length(face_widget::WIDTH + 2),
        Constraint::Min(12),
    ])
    .areas(top);
    draw_board(frame, app, board);
    draw_face(frame, app, face);
    draw_moves(frame, app, moves);
    draw_status(frame, app, status);
    draw_gauge(frame, app, gauge);
    let [says, events] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(logs);
    draw_log(frame, " Robot says ", app.voice.iter(), says);
    draw_log(frame, " Events ", app.events.iter(), events);
    draw_input(frame, app, input);
    frame.render_widget(
        Paragraph::new(HELP).style(Style::default().fg(Color::DarkGray)),
        help,
    );
    match &app.mode {
        Mode::Play => {}
        Mode::NewGame { colour, level } => draw_new_game(frame, app, *colour, *level),
        Mode::ConfirmResign => draw_popup(
            frame,
            " Resign ",
            vec![Line::from("Resign this game? y = yes, any other key = no")],
        ),
    }
}

fn draw_board(frame: &mut Frame, app: &App, area: Rect) {
    let block = Block::default().borders(Borders::ALL).title(" Board ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let empty_pos = Position::default();
    let no_move = Move::default();
    let (position, last_move) = match &app.state {
        Some(s) => (&s.position, &s.last_move),
        None => (&empty_pos, &no_move),
    };
    let flipped = app.human_side() == Some(GameState::SIDE_BLACK);
    frame.render_widget(
        board_widget::BoardWidget {
            position,
            last_move,
            flipped,
        },
        inner,
    );
}

fn draw_face(frame: &mut Frame, app: &App, area: Rect) {
    let block = Block::default().borders(Borders::ALL).title(" Robot ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(
        face_widget::FaceWidget {
            face: app.face.as_ref(),
        },
        inner,
    );
}

fn draw_moves(frame: &mut Frame, app: &App, area: Rect) {
    let title = if app.status() == GameState::STATUS_AMBIGUOUS {
        " Which move? "
    } else {
        " Your moves "
    };
    let items: Vec<ListItem> = app
        .choices()
        .iter()
        .map(|m| ListItem::new(m.text.clone()))
        .collect();
    let empty = items.is_empty();
    let list = List::new(items)
        .block(Block::default().borders(Borders::ALL).title(title))
        .highlight_style(Style::default().add_modifier(Modifier::REVERSED))
        .highlight_symbol("> ");
    let mut state = ListState::default();
    if !empty {
        state.select(Some(app.selected));
    }
    frame.render_stateful_widget(list, area, &mut state);
}

fn draw_status(frame: &mut Frame, app: &App, area: Rect) {
    let mut lines = vec![Line::from(Span::styled(
        app.status_line(),
        Style::default().add_modifier(Modifier::BOLD),
    ))];
    if let Some(note) = &app.graph_note {
        lines.push(Line::from(Span::styled(
            note.clone(),
            Style::default().fg(Color::Yellow),
        )));
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// The robot's win probability by its planner's last evaluation.
pub fn gauge_label(app: &App) -> Option<(f64, String)> {
    let e = app.evaluation.as_ref()?;
    let p = f64::from(e.win_probability).clamp(0.0, 1.0);
    let mut label = format!("robot ({}) wins: {:.0}%", side_name(e.side), p * 100.0);
    if !e.algorithm.is_empty() {
        label.push_str(&format!("  [{}, depth {}]", e.algorithm, e.depth));
    }
    Some((p, label))
}

fn draw_gauge(frame: &mut Frame, app: &App, area: Rect) {
    match gauge_label(app) {
        Some((ratio, label)) => frame.render_widget(
            Gauge::default()
                .gauge_style(Style::default().fg(Color::Green).bg(Color::Red))
                .ratio(ratio)
                .label(label),
            area,
        ),
        None => frame.render_widget(
            Paragraph::new("evaluation: none yet (the planner has not moved)")
                .style(Style::default().fg(Color::DarkGray)),
            area,
        ),
    }
}

/// A log panel showing its newest lines: the last ones that fit, so it scrolls as lines come.
/// A line wider than the panel goes on, indented, on the rows below (a take-back's request is
/// long, and its end says what to do).
fn draw_log<'a>(
    frame: &mut Frame,
    title: &str,
    lines: impl DoubleEndedIterator<Item = &'a String>,
    area: Rect,
) {
    let block = Block::default()
        .borders(Borders::ALL)
        .title(title.to_string());
    let inner = block.inner(area);
    let fit = usize::from(inner.height);
    let width = usize::from(inner.width);
    let mut shown: Vec<Line> = Vec::new();
    for line in lines.rev() {
        if shown.len() >= fit {
            break;
        }
        for row in wrap(line, width).into_iter().rev() {
            shown.push(Line::from(row));
        }
    }
    shown.truncate(fit);
    shown.reverse();
    frame.render_widget(Paragraph::new(shown).block(block), area);
}

/// Indent of a wrapped line's continuation rows.
const CONTINUED: &str = "    ";

/// `line` in rows of at most `width` characters, broken at spaces where it can be; the rows
/// after the first are indented.
fn wrap(line: &str, width: usize) -> Vec<String> {
    let indent = CONTINUED.chars().count();
    if width <= indent + 1 || line.chars().count() <= width {
        return vec![line.to_string()];
    }
    let mut rows = Vec::new();
    // The line's own indent (the events' right-aligned ply) is kept.
    let body = line.trim_start_matches(' ');
    let mut row = line[..line.len() - body.len()].to_string();
    let mut len = row.len();
    let mut words = 0;
    for word in body.split(' ') {
        let w = word.chars().count();
        if words > 0 && len + 1 + w > width {
            rows.push(std::mem::take(&mut row));
            row.push_str(CONTINUED);
            len = indent;
            words = 0;
        }
        if words > 0 {
            row.push(' ');
            len += 1;
        }
        // A word wider than a whole row is cut.
        let mut rest: Vec<char> = word.chars().collect();
        while len + rest.len() > width {
            let take = width.saturating_sub(len);
            row.extend(rest.drain(..take));
            rows.push(std::mem::take(&mut row));
            row.push_str(CONTINUED);
            len = indent;
        }
        len += rest.len();
        row.extend(rest);
        words += 1;
    }
    rows.push(row);
    rows
}

fn draw_input(frame: &mut Frame, app: &App, area: Rect) {
    let mut spans = vec![
        Span::styled("move> ", Style::default().add_modifier(Modifier::BOLD)),
        Span::raw(app.input.clone()),
        Span::styled("_", Style::default().add_modifier(Modifier::SLOW_BLINK)),
        Span::raw("  "),
    ];
    match &app.notice {
        Some(Notice::Info(t)) => {
            spans.push(Span::styled(t.clone(), Style::default().fg(Color::Green)))
        }
        Some(Notice::Error(t)) => spans.push(Span::styled(
            t.clone(),
            Style::default().fg(Color::LightRed),
        )),
        None => {}
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_new_game(frame: &mut Frame, app: &App, colour: usize, level: usize) {
    let mut lines = vec![Line::from("You play (Left/Right):")];
    let colours: Vec<Span> = ColourChoice::ALL
        .iter()
        .enumerate()
        .map(|(i, c)| choice_span(c.name(), i == colour))
        .collect();
    lines.push(Line::from(colours));
    lines.push(Line::from("Level (Up/Down):"));
    if app.levels.is_empty() {
        lines.push(Line::from("  (no levels found: the current one is kept)"));
    }
    for (i, l) in app.levels.iter().enumerate() {
        lines.push(Line::from(choice_span(l, i == level)));
    }
    lines.push(Line::from("Enter: start   Esc: cancel"));
    draw_popup(frame, " New game ", lines);
}

fn choice_span(text: &str, chosen: bool) -> Span<'static> {
    if chosen {
        Span::styled(
            format!(" [{text}] "),
            Style::default().add_modifier(Modifier::REVERSED),
        )
    } else {
        Span::raw(format!("  {text}  "))
    }
}

fn draw_popup(frame: &mut Frame, title: &str, lines: Vec<Line>) {
    let area = frame.area();
    let w = 50.min(area.width);
    let h = (lines.len() as u16 + 2).min(area.height);
    let popup = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(title.to_string()),
        ),
        popup,
    );
}

#[cfg(test)]
mod tests;
