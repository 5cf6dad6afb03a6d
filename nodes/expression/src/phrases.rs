//! What the robot says, in English and Russian. Every situation has several phrases, used in a
//! shuffled round so none repeats before the others have been said. What must be said (an
//! illegal move, the result) always is; comments on the play come now and then, not on every
//! move.

use std::collections::HashMap;
use std::str::FromStr;

use crate::emotion::Attitude;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    English,
    Russian,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("language must be \"en\" or \"ru\", not {0:?}")]
pub struct BadLanguage(pub String);

impl FromStr for Language {
    type Err = BadLanguage;
    fn from_str(s: &str) -> Result<Language, BadLanguage> {
        match s.trim().to_ascii_lowercase().as_str() {
            "en" | "english" => Ok(Language::English),
            "ru" | "russian" => Ok(Language::Russian),
            _ => Err(BadLanguage(s.to_string())),
        }
    }
}

impl Language {
    /// The espeak-ng voice of this language.
    pub fn espeak_voice(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Russian => "ru",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Situation {
    Greeting,
    Resumed,
    /// The human's move lowered the robot's chances markedly.
    GoodHumanMove,
    /// The human's move raised the robot's chances markedly.
    BadHumanMove,
    RobotCapture,
    HumanCapture,
    RobotPromotion,
    HumanPromotion,
    /// `{squares}`: the squares that differ from the nearest legal result.
    IllegalMove,
    RepeatedIllegalMove,
    NothingMoved,
    Ambiguous,
    ArmFailed,
    /// `{squares}`: the squares to put right.
    BoardMismatch,
    PlannerTimeout,
    /// The planner does not answer; the robot waits for it.
    PlannerAway,
    /// `{move}`: the move the robot suggests to the human (/game/hint).
    Hint,
    /// The coach judged the human's move a blunder.
    HumanBlunder,
    /// The coach judged the human's move the only one that holds.
    HumanBrilliant,
    RobotWon,
    HumanWon,
    Draw,
}

impl Situation {
    /// Said every time; the rest are comments, made now and then.
    pub fn is_required(self) -> bool {
        !matches!(
            self,
            Situation::GoodHumanMove
                | Situation::BadHumanMove
                | Situation::RobotCapture
                | Situation::HumanCapture
                | Situation::RobotPromotion
                | Situation::HumanPromotion
                | Situation::PlannerTimeout
        )
    }
}

/// The phrases of one situation in one language and attitude.
fn phrases(
    situation: Situation,
    language: Language,
    attitude: Attitude,
) -> &'static [&'static str] {
    use Attitude::{Negative as N, Positive as P};
    use Language::{English as En, Russian as Ru};
    use Situation::*;
    match (situation, language, attitude) {
        (Greeting, En, _) => &[
            "Let's play! Good luck.",
            "Hello! Shall we play a game of draughts?",
            "A new game. I am ready.",
        ],
        (Greeting, Ru, _) => &[
            "Давайте играть! Удачи.",
            "Здравствуйте! Сыграем в шашки?",
            "Новая партия. Я готов.",
        ],
        (Resumed, En, _) => &[
            "Where were we? Let's go on.",
            "I am back. The game goes on.",
        ],
        (Resumed, Ru, _) => &[
            "На чём мы остановились? Продолжим.",
            "Я снова здесь. Игра продолжается.",
        ],
        (GoodHumanMove, En, P) => &[
            "Brilliant move!",
            "Well played!",
            "Oh, that was a strong move.",
            "You play very well.",
        ],
        (GoodHumanMove, Ru, P) => &[
            "Блестящий ход!",
            "Отлично сыграно!",
            "О, сильный ход.",
            "Вы очень хорошо играете.",
        ],
        (GoodHumanMove, En, N) => &[
            "Hmm. Lucky move.",
            "You will not get away with that.",
            "Not bad. For a human.",
        ],
        (GoodHumanMove, Ru, N) => &[
            "Хм. Везучий ход.",
            "Это вам так не пройдёт.",
            "Неплохо. Для человека.",
        ],
        (BadHumanMove, En, P) => &[
            "Sorry, but I don't think this move was good for you.",
            "Are you sure? Think again next time.",
            "Careful, that may cost you.",
        ],
        (BadHumanMove, Ru, P) => &[
            "Извините, но мне кажется, этот ход был не лучшим для вас.",
            "Вы уверены? В следующий раз подумайте ещё.",
            "Осторожнее, это может дорого стоить.",
        ],
        (BadHumanMove, En, N) => &[
            "A mistake! Thank you.",
            "That was a weak move.",
            "Now you are in trouble.",
        ],
        (BadHumanMove, Ru, N) => &["Ошибка! Спасибо.", "Слабый ход.", "Теперь у вас проблемы."],
        (RobotCapture, En, _) => &["I take this one.", "Mine!", "A capture."],
        (RobotCapture, Ru, _) => &["Эту я забираю.", "Моя!", "Взятие."],
        (HumanCapture, En, P) => &["Nicely taken.", "Good capture."],
        (HumanCapture, Ru, P) => &["Хорошее взятие.", "Ловко взяли."],
        (HumanCapture, En, N) => &["You will pay for that.", "Grr. My piece!"],
        (HumanCapture, Ru, N) => &["Вы за это заплатите.", "Ррр. Моя шашка!"],
        (RobotPromotion, En, _) => &["I have a king now.", "Crowned!"],
        (RobotPromotion, Ru, _) => &["Теперь у меня дамка.", "В дамки!"],
        (HumanPromotion, En, P) => &["Congratulations, a king!", "Your piece is a king now."],
        (HumanPromotion, Ru, P) => &["Поздравляю, дамка!", "Ваша шашка стала дамкой."],
        (HumanPromotion, En, N) => &[
            "A king. It will not save you.",
            "So you have a king. So what.",
        ],
        (HumanPromotion, Ru, N) => &["Дамка. Вас это не спасёт.", "Ну дамка. И что."],
        (IllegalMove, En, _) => &[
            "That move is not allowed. Please check squares {squares} and make another move.",
            "Sorry, that is against the rules. Look at squares {squares}, please.",
            "I cannot accept that move. Squares {squares} are wrong.",
        ],
        (IllegalMove, Ru, _) => &[
            "Так ходить нельзя. Проверьте поля {squares} и сделайте другой ход.",
            "Извините, это против правил. Посмотрите на поля {squares}.",
            "Я не могу принять этот ход. Неверные поля: {squares}.",
        ],
        (RepeatedIllegalMove, En, _) => &[
            "Again not allowed! Squares {squares}. Remember: captures are compulsory.",
            "Still wrong, squares {squares}. Please put the pieces back and try again.",
        ],
        (RepeatedIllegalMove, Ru, _) => &[
            "Опять нельзя! Поля {squares}. Помните: бить обязательно.",
            "Снова неверно, поля {squares}. Верните шашки и попробуйте ещё раз.",
        ],
        (NothingMoved, En, _) => &[
            "Nothing has moved. Make your move, then press the button.",
            "I see no move yet.",
        ],
        (NothingMoved, Ru, _) => &[
            "Ничего не сдвинулось. Сделайте ход и нажмите кнопку.",
            "Я пока не вижу хода.",
        ],
        (Ambiguous, En, _) => &[
            "I am not sure which move you made. Please tell me.",
            "That could be more than one move. Which one was it?",
        ],
        (Ambiguous, Ru, _) => &[
            "Я не уверен, какой ход вы сделали. Подскажите, пожалуйста.",
            "Это может быть несколько ходов. Какой из них?",
        ],
        (ArmFailed, En, _) => &[
            "Oops, my hand slipped.",
            "Something went wrong with my arm. Let me try again.",
        ],
        (ArmFailed, Ru, _) => &[
            "Ой, рука соскользнула.",
            "Что-то не так с моей рукой. Попробую ещё раз.",
        ],
        (BoardMismatch, En, _) => &[
            "The board is not right. Please fix squares {squares} and press the button.",
            "Something is off on squares {squares}. Could you put it right?",
        ],
        (BoardMismatch, Ru, _) => &[
            "На доске что-то не так. Поправьте поля {squares} и нажмите кнопку.",
            "Неверно на полях {squares}. Поправьте, пожалуйста.",
        ],
        (PlannerTimeout, En, _) => &[
            "Let me play this one quickly.",
            "No time to think. Here is my move.",
        ],
        (PlannerTimeout, Ru, _) => &["Сыграю этот ход быстро.", "Некогда думать. Вот мой ход."],
        (PlannerAway, En, _) => &[
            "My thinking computer does not answer. Please wait a moment.",
            "I have lost my train of thought. Give me a moment.",
        ],
        (PlannerAway, Ru, _) => &[
            "Мой компьютер для размышлений не отвечает. Подождите немного.",
            "Я потерял нить рассуждений. Дайте мне минутку.",
        ],
        (HumanBlunder, En, P) => &[
            "Sorry, but I don't think this move was good for you.",
            "Oh no. I am afraid that was a mistake.",
            "Careful! That move gives me a chance.",
        ],
        (HumanBlunder, Ru, P) => &[
            "Извините, но, по-моему, этот ход был не в вашу пользу.",
            "Ой. Боюсь, это была ошибка.",
            "Осторожнее! Этот ход даёт мне шанс.",
        ],
        (HumanBlunder, En, N) => &[
            "Ha! That was a mistake.",
            "Thank you for that present.",
            "A blunder. I will not let it go.",
        ],
        (HumanBlunder, Ru, N) => &[
            "Ха! Это была ошибка.",
            "Спасибо за подарок.",
            "Зевок. Я этим воспользуюсь.",
        ],
        (HumanBrilliant, En, P) => &[
            "Brilliant move!",
            "The only move, and you found it. Well done!",
        ],
        (HumanBrilliant, Ru, P) => &["Блестящий ход!", "Единственный ход, и вы его нашли. Браво!"],
        (HumanBrilliant, En, N) => &[
            "Hmm. A strong move, I must admit.",
            "You found the only move. Impressive.",
        ],
        (HumanBrilliant, Ru, N) => &[
            "Хм. Сильный ход, признаю.",
            "Вы нашли единственный ход. Впечатляет.",
        ],
        (Hint, En, _) => &[
            "I would play {move}.",
            "If I were you, I would play {move}.",
            "Try {move}.",
        ],
        (Hint, Ru, _) => &[
            "Я бы сыграл {move}.",
            "На вашем месте я бы пошёл {move}.",
            "Попробуйте {move}.",
        ],
        (RobotWon, En, P) => &[
            "I won this time. Thank you for a lovely game!",
            "Good game! Would you like a rematch?",
        ],
        (RobotWon, Ru, P) => &[
            "В этот раз победил я. Спасибо за прекрасную партию!",
            "Хорошая игра! Хотите реванш?",
        ],
        (RobotWon, En, N) => &["Victory is mine!", "I won. As expected."],
        (RobotWon, Ru, N) => &["Победа за мной!", "Я выиграл. Как и ожидалось."],
        (HumanWon, En, P) => &[
            "You won! Congratulations, well deserved.",
            "Bravo, you beat me!",
        ],
        (HumanWon, Ru, P) => &[
            "Вы выиграли! Поздравляю, заслуженно.",
            "Браво, вы меня обыграли!",
        ],
        (HumanWon, En, N) => &["You won. This time.", "I demand a rematch!"],
        (HumanWon, Ru, N) => &["Вы выиграли. На этот раз.", "Требую реванша!"],
        (Draw, En, _) => &["A draw. A fair result.", "Nobody wins today. A draw."],
        (Draw, Ru, _) => &[
            "Ничья. Справедливый результат.",
            "Сегодня никто не выиграл. Ничья.",
        ],
    }
}

/// Squares named as a person reads them: "12", "12 and 16", "12, 16 and 19".
pub fn list_squares(squares: &[u8], language: Language) -> String {
    let and = match language {
        Language::English => "and",
        Language::Russian => "и",
    };
    let names: Vec<String> = squares.iter().map(u8::to_string).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {and} {last}", rest.join(", ")),
    }
}

/// Chooses what to say.
#[derive(Debug, Clone)]
pub struct PhraseBook {
    language: Language,
    attitude: Attitude,
    rng: u64,
    /// Per situation, the phrase indices still to be said in this round.
    rounds: HashMap<Situation, Vec<usize>>,
    last: HashMap<Situation, usize>,
    /// Plies since the last comment.
    quiet_plies: u32,
    /// Comments need at least this many plies since the previous one...
    pub min_gap_plies: u32,
    /// ...and then come with this probability.
    pub comment_chance: f64,
}

impl PhraseBook {
    pub fn new(language: Language, attitude: Attitude, seed: u64) -> PhraseBook {
        PhraseBook {
            language,
            attitude,
            rng: seed ^ 0x9E37_79B9_7F4A_7C15,
            rounds: HashMap::new(),
            last: HashMap::new(),
            quiet_plies: u32::MAX / 2,
            min_gap_plies: 2,
            comment_chance: 0.6,
        }
    }

    pub fn language(&self) -> Language {
        self.language
    }

    /// Counts a ply that passed; comments are spaced in plies.
    pub fn ply_passed(&mut self) {
        self.quiet_plies = self.quiet_plies.saturating_add(1);
    }

    /// The phrase for `situation`, or `None` when a comment is better left unsaid now.
    /// `squares` fills `{squares}`.
    pub fn say(&mut self, situation: Situation, squares: &[u8]) -> Option<String> {
        if !situation.is_required() {
            if self.quiet_plies < self.min_gap_plies || self.unit() >= self.comment_chance {
                return None;
            }
            self.quiet_plies = 0;
        }
        let all = phrases(situation, self.language, self.attitude);
        let index = self.next_index(situation, all.len());
        let text = all.get(index).copied().unwrap_or_default();
        Some(text.replace("{squares}", &list_squares(squares, self.language)))
    }

    /// The next phrase of a shuffled round; a new round never starts with the last one said.
    fn next_index(&mut self, situation: Situation, len: usize) -> usize {
        let round_empty = self.rounds.get(&situation).is_none_or(Vec::is_empty);
        if round_empty {
            let mut order: Vec<usize> = (0..len).collect();
            for i in (1..order.len()).rev() {
                let j = (self.next_u64() % (i as u64 + 1)) as usize;
                order.swap(i, j);
            }
            // Popped from the end: keep the last one said away from the end.
            if len > 1 && order.last() == self.last.get(&situation) {
                order.swap(0, len - 1);
            }
            self.rounds.insert(situation, order);
        }
        let index = self
            .rounds
            .get_mut(&situation)
            .and_then(Vec::pop)
            .unwrap_or(0);
        self.last.insert(situation, index);
        index
    }

    fn next_u64(&mut self) -> u64 {
        // xorshift64*: a few lines, the same sequence on every platform for a seed.
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
