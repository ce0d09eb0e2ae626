//! Chinese move notation (炮二平五, 马８进７), the same description of a move as WXF's in
//! characters: the piece's name (Red 帅仕相马车炮兵, Black 将士象马车炮卒), its file, 进 / 退 /
//! 平 (forward, back, sideways) and the file reached or the ranks travelled. Red's numbers are
//! Chinese numerals 一..九, Black's full-width digits １..９, as Chinese books print them. Two
//! pieces of a kind on a file are 前 / 后 (前车平四); three pawns 前 / 中 / 后; four or five
//! 一 / 二 / 三 / 四 / 五 from the front; when two files hold two or more pawns, the place and
//! the file replace the name (前三平四).
//!
//! Reading accepts traditional characters (帥 將 俥 傌 馬 車 砲 進 後), and any of the three
//! kinds of numbers for either side.

use super::wxf::describe;
use crate::board::movegen::legal_moves;
use crate::{Color, Move, PieceType, Position};

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const BLACK_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

fn name(side: Color, kind: PieceType) -> char {
    match (side, kind) {
        (Color::Red, PieceType::King) => '帅',
        (Color::Black, PieceType::King) => '将',
        (Color::Red, PieceType::Advisor) => '仕',
        (Color::Black, PieceType::Advisor) => '士',
        (Color::Red, PieceType::Elephant) => '相',
        (Color::Black, PieceType::Elephant) => '象',
        (_, PieceType::Horse) => '马',
        (_, PieceType::Rook) => '车',
        (_, PieceType::Cannon) => '炮',
        (Color::Red, PieceType::Pawn) => '兵',
        (Color::Black, PieceType::Pawn) => '卒',
    }
}

/// 前 / 中 / 后 for a place among two or three on a file.
fn place_word(place: usize, count: usize) -> char {
    match (place, count - 1 - place) {
        (0, _) => '前',
        (_, 0) => '后',
        _ => '中',
    }
}

/// `mv`, legal in `pos`, in Chinese notation.
pub fn format_chinese(pos: &Position, mv: Move) -> String {
    let d = describe(pos, mv);
    let number = |n: usize| match d.side {
        Color::Red => RED_NUMERALS[n - 1],
        Color::Black => BLACK_DIGITS[n - 1],
    };
    let piece = name(d.side, d.kind);
    let source = match d.tandem {
        None => [piece, number(d.file)],
        Some((place, count)) if d.pawn_files => [place_word(place, count), number(d.file)],
        Some((place, count)) if count >= 4 => [RED_NUMERALS[place], piece],
        Some((place, count)) => [place_word(place, count), piece],
    };
    let direction = match d.direction {
        1 => '进',
        -1 => '退',
        _ => '平',
    };
    [source[0], source[1], direction, number(d.target)]
        .iter()
        .collect()
}

/// Each character of Chinese move text as one ASCII letter or digit, whatever its script or
/// kind of number; `None` for a character the notation does not use.
fn normalise(text: &str) -> Option<String> {
    let digit = |c: char| {
        let at = |list: &[char]| list.iter().position(|&x| x == c);
        at(&RED_NUMERALS)
            .or_else(|| at(&BLACK_DIGITS))
            .or_else(|| {
                c.to_digit(10)
                    .filter(|d| (1..=9).contains(d))
                    .map(|d| d as usize - 1)
            })
            .map(|i| char::from_digit(i as u32 + 1, 10).expect("1-9"))
    };
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| {
            Some(match c {
                '帅' | '帥' | '将' | '將' => 'K',
                '仕' | '士' => 'A',
                '相' | '象' => 'E',
                '马' | '馬' | '傌' => 'H',
                '车' | '車' | '俥' => 'R',
                '炮' | '砲' | '包' => 'C',
                '兵' | '卒' => 'P',
                '进' | '進' => '+',
                '退' => '-',
                '平' => '=',
                '前' => 'F',
                '中' => 'M',
                '后' | '後' => 'B',
                _ => digit(c)?,
            })
        })
        .collect()
}

/// Parses one move in Chinese notation: the legal move whose written form reads the same.
pub fn parse_chinese(pos: &Position, text: &str) -> Result<Move, String> {
    let wanted = normalise(text)
        .filter(|t| t.len() == 4)
        .ok_or_else(|| format!("'{text}' is not a move in Chinese notation"))?;
    let list = legal_moves(pos);
    let mut found = list
        .iter()
        .copied()
        .filter(|&mv| normalise(&format_chinese(pos, mv)).as_deref() == Some(wanted.as_str()));
    match (found.next(), found.next()) {
        (Some(mv), None) => Ok(mv),
        (None, _) => Err(format!("'{text}' names no legal move")),
        _ => Err(format!("'{text}' is ambiguous")),
    }
}
