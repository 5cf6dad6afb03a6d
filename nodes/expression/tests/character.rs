//! Scripted games: evaluation and event sequences in, emotions, eyes and phrases out.

use expression::{
    eyes, list_squares, pose, Attitude, Emotion, EmotionModel, GameEvent, Gaze, Language,
    PhraseBook, Situation, BOARD_TILT_DEG,
};

#[test]
fn a_capture_makes_it_happy_and_an_illegal_move_angry_then_disgusted() {
    let mut m = EmotionModel::new(Attitude::Negative);
    assert_eq!(
        m.on_event(&GameEvent::Capture { by_robot: true }),
        Emotion::Happy
    );
    assert_eq!(m.on_event(&GameEvent::IllegalMove), Emotion::Angry);
    assert_eq!(m.on_event(&GameEvent::IllegalMove), Emotion::Disgust);
    // The corrected move ends the anger.
    assert_eq!(m.on_event(&GameEvent::HumanMoved), Emotion::Neutral);
    assert_eq!(m.on_event(&GameEvent::IllegalMove), Emotion::Angry);
}

#[test]
fn surprise_and_fear_only_on_an_abrupt_change() {
    let mut m = EmotionModel::new(Attitude::Positive);
    assert_eq!(m.on_evaluation(0.50), Emotion::Neutral);
    // Gradual: no surprise however far it goes.
    for p in [0.55, 0.60, 0.62] {
        assert_ne!(m.on_evaluation(p), Emotion::Surprise);
    }
    assert_eq!(m.on_evaluation(0.95), Emotion::Surprise);
    assert!((m.last_change() - 0.33).abs() < 1e-5);
    // The next search without a jump shows the level again.
    assert_eq!(m.on_evaluation(0.93), Emotion::Sad);
    assert_eq!(m.on_evaluation(0.50), Emotion::Fear);
}

#[test]
fn the_attitude_reads_the_same_probability_differently() {
    let script = [0.5, 0.6, 0.72, 0.8, 0.9];
    let mut kind = EmotionModel::new(Attitude::Positive);
    let mut rival = EmotionModel::new(Attitude::Negative);
    for p in script {
        kind.on_evaluation(p);
        rival.on_evaluation(p);
    }
    // Winning: the benevolent robot feels for the human, the rival gloats.
    assert_eq!(kind.emotion(), Emotion::Sad);
    assert_eq!(rival.emotion(), Emotion::Happy);

    let mut kind = EmotionModel::new(Attitude::Positive);
    let mut rival = EmotionModel::new(Attitude::Negative);
    for p in [0.5, 0.4, 0.3, 0.25] {
        kind.on_evaluation(p);
        rival.on_evaluation(p);
    }
    assert_eq!(
        kind.emotion(),
        Emotion::Happy,
        "rejoices at the human's good play"
    );
    assert_eq!(rival.emotion(), Emotion::Angry);
    for p in [0.15, 0.08] {
        rival.on_evaluation(p);
    }
    assert_eq!(rival.emotion(), Emotion::Sad);
}

#[test]
fn hysteresis_keeps_the_face_from_flickering() {
    let mut m = EmotionModel::new(Attitude::Negative);
    m.on_evaluation(0.60);
    let mut faces = Vec::new();
    // Around the 0.65 boundary, within the margin.
    for p in [0.66, 0.64, 0.67, 0.63, 0.68, 0.64] {
        faces.push(m.on_evaluation(p));
    }
    assert!(faces.iter().all(|&e| e == Emotion::Neutral), "{faces:?}");
    // Clearly past it: the level changes, and stays on a small step back.
    assert_eq!(m.on_evaluation(0.72), Emotion::Happy);
    assert_eq!(m.on_evaluation(0.63), Emotion::Happy);
    assert_eq!(m.on_evaluation(0.58), Emotion::Neutral);
}

#[test]
fn game_over_and_new_game() {
    let mut m = EmotionModel::new(Attitude::Positive);
    assert_eq!(
        m.on_event(&GameEvent::GameOver {
            robot_won: Some(false)
        }),
        Emotion::Happy
    );
    let mut r = EmotionModel::new(Attitude::Negative);
    r.on_evaluation(0.1);
    assert_eq!(
        r.on_event(&GameEvent::GameOver {
            robot_won: Some(false)
        }),
        Emotion::Sad
    );
    assert_eq!(r.on_event(&GameEvent::NewGame), Emotion::Happy);
    // A new game forgets the old probability: no surprise at the first search.
    assert_eq!(r.on_evaluation(0.5), Emotion::Neutral);
}

#[test]
fn every_emotion_has_two_distinct_mirrored_eyes_and_a_pupil_that_follows_the_gaze() {
    for e in Emotion::ALL {
        let (left, right) = eyes(e, Gaze::Player, false);
        assert_eq!(left, right.mirrored(), "{e:?}");
        assert!(
            left.lit() >= 6,
            "{e:?} draws too little:\n{}",
            left.render()
        );
    }
    let (_, board) = eyes(Emotion::Neutral, Gaze::Board, false);
    let (_, player) = eyes(Emotion::Neutral, Gaze::Player, false);
    assert_eq!(
        player.render(),
        "..####..\n.#....#.\n#......#\n#..##..#\n#..##..#\n#......#\n.#....#.\n..####.."
    );
    assert_eq!(
        board.render(),
        "..####..\n.#....#.\n#......#\n#......#\n#......#\n#..##..#\n.#.##.#.\n..####.."
    );
    // Shapes differ between emotions.
    let shapes: std::collections::HashSet<_> = Emotion::ALL
        .iter()
        .map(|&e| eyes(e, Gaze::Player, false).1)
        .collect();
    assert_eq!(shapes.len(), Emotion::ALL.len());
}

#[test]
fn a_blink_is_a_line_and_angry_brows_frown() {
    let (l, r) = eyes(Emotion::Angry, Gaze::Player, true);
    assert_eq!(l.lit(), 8);
    assert_eq!(r.render().lines().nth(4), Some("########"));
    // The angry lids fall toward the nose: the inner top corner of each eye is open.
    let (left, right) = eyes(Emotion::Angry, Gaze::Player, false);
    assert!(right.get(2, 0) && !right.get(2, 7));
    assert!(left.get(2, 7) && !left.get(2, 0));
    let p = pose(Emotion::Angry, 1.0, Gaze::Player);
    assert!(p.left_brow_deg < 0.0 && p.right_brow_deg < 0.0);
    assert_eq!(p.neck_tilt_deg, 0.0);
    assert_eq!(
        pose(Emotion::Happy, 1.0, Gaze::Board).neck_tilt_deg,
        BOARD_TILT_DEG
    );
    let cells = l.to_cells();
    assert_eq!(cells.iter().filter(|&&c| c == 1).count(), 8);
}

#[test]
fn illegal_moves_are_always_named_with_their_squares() {
    let mut book = PhraseBook::new(Language::English, Attitude::Positive, 1);
    for _ in 0..5 {
        let text = book
            .say(Situation::IllegalMove, &[12, 16, 19])
            .expect("always said");
        assert!(text.contains("12, 16 and 19"), "{text}");
    }
    let mut ru = PhraseBook::new(Language::Russian, Attitude::Positive, 1);
    let text = ru
        .say(Situation::IllegalMove, &[5, 9])
        .expect("always said");
    assert!(text.contains("5 и 9"), "{text}");
    assert_eq!(list_squares(&[7], Language::English), "7");
}

#[test]
fn phrases_do_not_repeat_before_the_others_are_said() {
    let mut book = PhraseBook::new(Language::English, Attitude::Positive, 42);
    let said: Vec<String> = (0..9)
        .filter_map(|_| book.say(Situation::Greeting, &[]))
        .collect();
    assert_eq!(said.len(), 9);
    for round in said.chunks(3) {
        let distinct: std::collections::HashSet<_> = round.iter().collect();
        assert_eq!(distinct.len(), 3, "{said:?}");
    }
    for pair in said.windows(2) {
        assert_ne!(pair[0], pair[1], "{said:?}");
    }
}

#[test]
fn comments_come_now_and_then_not_on_every_move() {
    let mut book = PhraseBook::new(Language::English, Attitude::Positive, 7);
    let mut spoken = 0;
    let mut consecutive = 0;
    let mut last_spoke = false;
    for _ in 0..200 {
        book.ply_passed();
        let said = book.say(Situation::GoodHumanMove, &[]).is_some();
        if said {
            spoken += 1;
            if last_spoke {
                consecutive += 1;
            }
        }
        last_spoke = said;
    }
    assert!(spoken > 20 && spoken < 100, "{spoken}");
    assert_eq!(consecutive, 0);
}

#[test]
fn the_paper_phrases_are_there() {
    let mut book = PhraseBook::new(Language::English, Attitude::Positive, 3);
    book.min_gap_plies = 0;
    book.comment_chance = 1.0;
    let good: std::collections::HashSet<String> = (0..8)
        .filter_map(|_| book.say(Situation::GoodHumanMove, &[]))
        .collect();
    assert!(good.contains("Brilliant move!"), "{good:?}");
    let bad: std::collections::HashSet<String> = (0..6)
        .filter_map(|_| book.say(Situation::BadHumanMove, &[]))
        .collect();
    assert!(
        bad.contains("Sorry, but I don't think this move was good for you."),
        "{bad:?}"
    );
}

#[test]
fn a_scripted_game_through_the_whole_face() {
    use expression::{Activity, Face};
    let mut face = Face::new(Attitude::Positive, Language::English, 5);
    face.phrase_book().min_gap_plies = 0;
    face.phrase_book().comment_chance = 1.0;
    let hello = face.on_event(&GameEvent::NewGame, &[]).expect("greets");
    assert!(!hello.is_empty());
    assert_eq!(face.emotion(), Emotion::Happy);

    assert_eq!(face.on_evaluation(0.5), None, "the robot's first search");
    face.set_activity(Activity::Moving);
    assert_eq!(face.frame(false).gaze, Gaze::Board);
    assert!(face.frame(false).pose.neck_tilt_deg > 0.0);
    face.on_event(&GameEvent::RobotMoved, &[]);
    face.set_activity(Activity::Waiting);
    assert_eq!(face.frame(false).gaze, Gaze::Player);

    // The human plays well: the robot's chances fall; the kind robot praises it.
    face.on_event(&GameEvent::HumanMoved, &[]);
    let praise = face.on_evaluation(0.30).expect("a comment");
    assert!(
        praise.contains("move") || praise.contains("play"),
        "{praise}"
    );

    // An illegal move: angry, and the squares are named.
    let scold = face
        .on_event(&GameEvent::IllegalMove, &[9, 13])
        .expect("said");
    assert!(scold.contains("9 and 13"), "{scold}");
    assert_eq!(face.frame(false).emotion, Emotion::Angry);
    let again = face.on_event(&GameEvent::IllegalMove, &[9]).expect("said");
    assert!(again.contains("9"), "{again}");
    assert_eq!(face.emotion(), Emotion::Disgust);

    // While it speaks it looks at the player even as the arm moves.
    face.set_activity(Activity::Moving);
    face.set_speaking(true);
    assert_eq!(face.gaze(), Gaze::Player);
    face.set_speaking(false);

    let bye = face
        .on_event(
            &GameEvent::GameOver {
                robot_won: Some(true),
            },
            &[],
        )
        .expect("says the result");
    assert!(bye.contains("won") || bye.contains("game"), "{bye}");
    assert_eq!(face.emotion(), Emotion::Happy);
}

#[test]
fn a_hint_is_said_with_its_move_while_the_robot_looks_at_the_board() {
    use expression::Face;
    for language in [Language::English, Language::Russian] {
        let mut face = Face::new(Attitude::Positive, language, 7);
        assert_eq!(face.gaze(), Gaze::Player);
        let said = face.on_hint("c3-d4").expect("a hint is always said");
        assert!(said.contains("c3-d4") && !said.contains("{move}"), "{said}");
        face.set_speaking(true);
        assert_eq!(
            face.gaze(),
            Gaze::Board,
            "it shows where, even while speaking"
        );
        // The human's move (or anything else that happens) ends it.
        face.on_event(&GameEvent::HumanMoved, &[]);
        face.set_speaking(false);
        assert_eq!(face.gaze(), Gaze::Player);
    }
}
