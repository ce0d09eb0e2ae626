//! Relations between pieces (the attack/guard table): a piece attacked and unguarded, attacked
//! by something cheaper, or attacked more often than guarded is a liability. Threats against
//! the side that is not to move weigh more, since the side to move can cash them in now.

use super::mobility::Attacks;
use super::params::{
    ATTACKED_BY_CHEAPER, CHEAPER_MARGIN, HANGING, OUTNUMBERED, PIECE_VALUE, RELATIONS_ON_MOVE,
    RELATIONS_WAITING,
};
use super::score::Score;
use super::trace::{weight, Tracer};
use super::wide::Wide;
use crate::board::position::Position;
use crate::board::types::{Color, PieceType};

/// Is `attacker` worth clearly less than `victim`? The king attacks too, but it is never a
/// cheap attacker.
const fn cheaper(attacker: usize, victim: usize) -> bool {
    attacker != 0 && PIECE_VALUE[attacker].0 + CHEAPER_MARGIN <= PIECE_VALUE[victim].0
}

/// The attacking piece types (king left out) from the cheapest to the dearest.
const BY_VALUE: [usize; 6] = {
    let mut order = [1, 2, 3, 4, 5, 6];
    // Insertion sort, stable, so equal values keep type order.
    let mut i = 1;
    while i < 6 {
        let mut j = i;
        while j > 0 && PIECE_VALUE[order[j - 1]].0 > PIECE_VALUE[order[j]].0 {
            let t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
            j -= 1;
        }
        i += 1;
    }
    order
};

/// `CHEAPER_COUNT[victim]`: how many of [`BY_VALUE`] are cheaper than the victim. Cheaper
/// means a value below a threshold, so the cheaper types are always the first ones; checked
/// here while building.
const CHEAPER_COUNT: [usize; 7] = {
    let mut counts = [0; 7];
    let mut victim = 1;
    while victim < 7 {
        let mut n = 0;
        while n < 6 && cheaper(BY_VALUE[n], victim) {
            n += 1;
        }
        let mut rest = n;
        while rest < 6 {
            assert!(
                !cheaper(BY_VALUE[rest], victim),
                "cheaper types not a prefix"
            );
            rest += 1;
        }
        counts[victim] = n;
        victim += 1;
    }
    counts
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
/// Are the penalty weights all non-negative, with 16 pieces at the largest of them below 2^14
/// a half? Then a penalty's halves lie in `0..1 << 14`, what [`Score::halved_non_negative`]
/// asks. The tuner may fit any weights: when they break this, the general scaling serves.
const HALVING_EXACT: bool = {
    let mut exact = true;
    let mut k = 0;
    while k < 7 {
        let (h, c, o) = (HANGING[k], ATTACKED_BY_CHEAPER[k], OUTNUMBERED[k]);
        let (mg, eg) = (h.0 + c.0 + o.0, h.1 + c.1 + o.1);
        let non_negative = h.0 >= 0 && c.0 >= 0 && o.0 >= 0 && h.1 >= 0 && c.1 >= 0 && o.1 >= 0;
        exact &= non_negative && 16 * mg < 1 << 14 && 16 * eg < 1 << 14;
        k += 1;
    }
    exact
};

const HANGING_S: [Score; 7] = table(HANGING);
const CHEAPER_S: [Score; 7] = table(ATTACKED_BY_CHEAPER);
const OUTNUMBERED_S: [Score; 7] = table(OUTNUMBERED);

/// The relations term of `color` (zero or negative), given what each side attacks.
#[inline(always)]
pub fn evaluate<T: Tracer>(
    pos: &Position,
    color: Color,
    ours: &Attacks,
    theirs: &Attacks,
    tracer: &mut T,
) -> Score {
    let attacked = theirs.all & Wide::load(&pos.colors[color.index()]);
    if attacked.is_empty() {
        return Score::ZERO;
    }
    let weight = if pos.side_to_move() == color {
        RELATIONS_ON_MOVE
    } else {
        RELATIONS_WAITING
    };
    let guarded = ours.all;
    let outnumbered = theirs.double.and_not(ours.double) & guarded;
    let mut penalty = Score::ZERO;
    // The attacked pieces of the types not yet seen: once none is left, the rest is skipped.
    let mut rest = attacked;
    // Called once per victim type, so each one ORs only the attacker types it needs.
    let mut victims_of = |kind: PieceType, rest: &mut Wide| {
        let k = kind.index();
        // One vector AND whatever the kind: a mask to the kind's confinement would only add one.
        let victims = attacked & Wide::load(&pos.pieces_of(color)[k]);
        // The pawns come last, once something attacked is left: pawns, or the king alone.
        // Without victims every count below is zero, so they need no test of their own.
        if kind != PieceType::Pawn && victims.is_empty() {
            return;
        }
        *rest = rest.and_not(victims);
        let mut cheap = Wide::empty();
        for &attacker in &BY_VALUE[..CHEAPER_COUNT[k]] {
            cheap |= theirs.by_kind[attacker];
        }
        // Red's advisors and elephants and Black's pawns (ranks 0-6) stand in the low half,
        // Black's advisors in the high half: there one 64-bit popcount counts a set of them.
        let count = |set: Wide| {
            let bits = set.bb().bits();
            (match (color, kind) {
                (Color::Red, PieceType::Advisor | PieceType::Elephant)
                | (Color::Black, PieceType::Pawn) => (bits as u64).count_ones(),
                (Color::Black, PieceType::Advisor) => ((bits >> 64) as u64).count_ones(),
                _ => set.count(),
            }) as i32
        };
        let hanging = count(victims.and_not(guarded));
        let by_cheaper = count(victims & cheap);
        let outnumbered = count(victims & outnumbered);
        penalty +=
            HANGING_S[k] * hanging + CHEAPER_S[k] * by_cheaper + OUTNUMBERED_S[k] * outnumbered;
        tracer.weight(color, weight::HANGING + k, -weight * hanging);
        tracer.weight(color, weight::ATTACKED_BY_CHEAPER + k, -weight * by_cheaper);
        tracer.weight(color, weight::OUTNUMBERED + k, -weight * outnumbered);
    };
    // Advisors and elephants are seldom attacked: one test for both (masking each with its
    // confinement here measured more instructions).
    let own = pos.pieces_of(color);
    let defenders = Wide::load(&own[PieceType::Advisor.index()])
        | Wide::load(&own[PieceType::Elephant.index()]);
    if !(attacked & defenders).is_empty() {
        victims_of(PieceType::Advisor, &mut rest);
        victims_of(PieceType::Elephant, &mut rest);
    }
    victims_of(PieceType::Horse, &mut rest);
    if !rest.is_empty() {
        victims_of(PieceType::Rook, &mut rest);
        if !rest.is_empty() {
            victims_of(PieceType::Cannon, &mut rest);
            if !rest.is_empty() {
                victims_of(PieceType::Pawn, &mut rest);
            }
        }
    }
    // Half weight, the usual one for the side to move, is one shift of the packed halves.
    if HALVING_EXACT && weight * 2 == 64 {
        -penalty.halved_non_negative()
    } else {
        -penalty.scaled(weight, 64)
    }
}
