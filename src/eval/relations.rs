//! Relations between pieces (the attack/guard table): a piece attacked and unguarded, attacked
//! by something cheaper, or attacked more often than guarded is a liability. Threats against
//! the side that is not to move weigh more, since the side to move can cash them in now.

use super::mobility::AttackMaps;
use super::params::{
    ATTACKED_BY_CHEAPER, CHEAPER_MARGIN, HANGING, OUTNUMBERED, PIECE_VALUE, RELATIONS_ON_MOVE,
    RELATIONS_WAITING,
};
use super::score::Score;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, PieceType};

/// `CHEAPER[victim][attacker]`: the attacker is worth clearly less than the victim. The king
/// attacks too, but it is never a cheap attacker.
const CHEAPER: [[bool; 7]; 7] = {
    let mut table = [[false; 7]; 7];
    let mut victim = 1;
    while victim < 7 {
        let mut attacker = 1;
        while attacker < 7 {
            table[victim][attacker] =
                PIECE_VALUE[attacker].0 + CHEAPER_MARGIN <= PIECE_VALUE[victim].0;
            attacker += 1;
        }
        victim += 1;
    }
    table
};

const fn table(weights: [(i32, i32); 7]) -> [Score; 7] {
    let mut out = [Score::ZERO; 7];
    let mut i = 0;
    while i < 7 {
        out[i] = Score::from_pair(weights[i]);
        i += 1;
    }
    out
}
const HANGING_S: [Score; 7] = table(HANGING);
const CHEAPER_S: [Score; 7] = table(ATTACKED_BY_CHEAPER);
const OUTNUMBERED_S: [Score; 7] = table(OUTNUMBERED);

/// The relations term of `color` (zero or negative).
#[inline]
pub fn evaluate(pos: &Position, color: Color, maps: &AttackMaps) -> Score {
    let (us, them) = (color.index(), (!color).index());
    let attacked = maps.all[them] & pos.color_bb(color);
    if attacked.is_empty() {
        return Score::ZERO;
    }
    let guarded = maps.all[us];
    let outnumbered = maps.double[them] & !maps.double[us] & guarded;
    let mut penalty = Score::ZERO;
    for kind in &PieceType::ALL[1..] {
        let k = kind.index();
        let victims = attacked & pos.pieces(color, *kind);
        if victims.is_empty() {
            continue;
        }
        let mut cheap = Bitboard::EMPTY;
        for (attacker, attacks) in maps.by_kind[them].iter().enumerate().skip(1) {
            if CHEAPER[k][attacker] {
                cheap |= *attacks;
            }
        }
        penalty += HANGING_S[k] * (victims & !guarded).count() as i32
            + CHEAPER_S[k] * (victims & cheap).count() as i32
            + OUTNUMBERED_S[k] * (victims & outnumbered).count() as i32;
    }
    let weight = if pos.side_to_move() == color {
        RELATIONS_ON_MOVE
    } else {
        RELATIONS_WAITING
    };
    -penalty.scaled(weight, 64)
}
