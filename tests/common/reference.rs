//! A deliberately simple xiangqi move generator that the fast one is checked against: a 10x9
//! mailbox, no tables, no bitboards, every rule spelled out as the rule book states it. It
//! shares nothing with the crate (not even the FEN reader), so a bug has to be made twice to hide.

/// The seven kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    King,
    Advisor,
    Elephant,
    Horse,
    Rook,
    Cannon,
    Pawn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Man {
    pub red: bool,
    pub kind: Kind,
}

/// Square index as the crate numbers it: rank * 9 + file, a0 = 0.
pub fn index(file: i32, rank: i32) -> usize {
    (rank * 9 + file) as usize
}

/// A move as (from index, to index).
pub type RefMove = (usize, usize);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// `cells[rank][file]`, rank 0 is Red's back rank.
    pub cells: [[Option<Man>; 9]; 10],
    pub red_to_move: bool,
}

fn on_board(file: i32, rank: i32) -> bool {
    (0..9).contains(&file) && (0..10).contains(&rank)
}

fn in_palace(red: bool, file: i32, rank: i32) -> bool {
    let ranks = if red { 0..=2 } else { 7..=9 };
    (3..=5).contains(&file) && ranks.contains(&rank)
}

/// Is `rank` on `red`'s own side of the river?
fn own_half(red: bool, rank: i32) -> bool {
    if red {
        rank <= 4
    } else {
        rank >= 5
    }
}

const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

impl Board {
    /// Reads the placement and side-to-move fields of a FEN; no validation beyond syntax.
    pub fn from_fen(fen: &str) -> Option<Board> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next()?;
        let mut cells = [[None; 9]; 10];
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != 10 {
            return None;
        }
        for (row, text) in rows.iter().enumerate() {
            let rank = 9 - row;
            let mut file = 0;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                    continue;
                }
                let kind = match c.to_ascii_lowercase() {
                    'k' => Kind::King,
                    'a' => Kind::Advisor,
                    'b' | 'e' => Kind::Elephant,
                    'n' | 'h' => Kind::Horse,
                    'r' => Kind::Rook,
                    'c' => Kind::Cannon,
                    'p' => Kind::Pawn,
                    _ => return None,
                };
                if file >= 9 {
                    return None;
                }
                cells[rank][file] = Some(Man {
                    red: c.is_ascii_uppercase(),
                    kind,
                });
                file += 1;
            }
            if file != 9 {
                return None;
            }
        }
        let red_to_move = match fields.next() {
            None | Some("w" | "r" | "W" | "R") => true,
            Some("b" | "B") => false,
            Some(_) => return None,
        };
        Some(Board { cells, red_to_move })
    }

    pub fn at(&self, file: i32, rank: i32) -> Option<Man> {
        if on_board(file, rank) {
            self.cells[rank as usize][file as usize]
        } else {
            None
        }
    }

    fn squares(&self) -> impl Iterator<Item = (i32, i32, Man)> + '_ {
        (0..10).flat_map(move |rank| {
            (0..9).filter_map(move |file| self.at(file, rank).map(|man| (file, rank, man)))
        })
    }

    /// Moves of `red`'s pieces that follow the movement rules, ignoring checks.
    pub fn pseudo_moves(&self, red: bool) -> Vec<RefMove> {
        let mut out = Vec::new();
        for (file, rank, man) in self.squares().filter(|s| s.2.red == red) {
            let from = index(file, rank);
            // A target is fine when it is on the board and not held by a piece of ours.
            let mut push = |f: i32, r: i32| {
                if on_board(f, r) && self.at(f, r).is_none_or(|m| m.red != red) {
                    out.push((from, index(f, r)));
                }
            };
            match man.kind {
                Kind::King => {
                    for (df, dr) in ORTHOGONAL {
                        if in_palace(red, file + df, rank + dr) {
                            push(file + df, rank + dr);
                        }
                    }
                }
                Kind::Advisor => {
                    for (df, dr) in DIAGONAL {
                        if in_palace(red, file + df, rank + dr) {
                            push(file + df, rank + dr);
                        }
                    }
                }
                Kind::Elephant => {
                    for (df, dr) in DIAGONAL {
                        let (f, r) = (file + 2 * df, rank + 2 * dr);
                        let eye_empty = self.at(file + df, rank + dr).is_none();
                        if on_board(f, r) && own_half(red, r) && eye_empty {
                            push(f, r);
                        }
                    }
                }
                Kind::Horse => {
                    // One step straight (the leg, which must be empty), then one diagonal outwards.
                    for (df, dr) in ORTHOGONAL {
                        let (lf, lr) = (file + df, rank + dr);
                        if !on_board(lf, lr) || self.at(lf, lr).is_some() {
                            continue;
                        }
                        let (sf, sr) = (dr, df); // perpendicular to the leg
                        push(lf + df + sf, lr + dr + sr);
                        push(lf + df - sf, lr + dr - sr);
                    }
                }
                Kind::Rook | Kind::Cannon => {
                    for (df, dr) in ORTHOGONAL {
                        let mut screens = 0;
                        let (mut f, mut r) = (file + df, rank + dr);
                        while on_board(f, r) {
                            match self.at(f, r) {
                                None if screens == 0 => push(f, r),
                                None => {}
                                Some(_) if man.kind == Kind::Rook => {
                                    push(f, r);
                                    break;
                                }
                                Some(_) if screens == 0 => screens = 1,
                                Some(_) => {
                                    push(f, r);
                                    break;
                                }
                            }
                            f += df;
                            r += dr;
                        }
                    }
                }
                Kind::Pawn => {
                    let forward = if red { 1 } else { -1 };
                    push(file, rank + forward);
                    if !own_half(red, rank) {
                        push(file - 1, rank);
                        push(file + 1, rank);
                    }
                }
            }
        }
        out
    }

    fn king(&self, red: bool) -> Option<(i32, i32)> {
        self.squares()
            .find(|&(_, _, m)| m.red == red && m.kind == Kind::King)
            .map(|(f, r, _)| (f, r))
    }

    fn kings_face(&self) -> bool {
        let (Some((rf, rr)), Some((bf, br))) = (self.king(true), self.king(false)) else {
            return false;
        };
        rf == bf && (rr + 1..br).all(|r| self.at(rf, r).is_none())
    }

    /// Squares of `!red`'s pieces that could move onto `red`'s king.
    pub fn checkers_of(&self, red: bool) -> Vec<usize> {
        let Some((f, r)) = self.king(red) else {
            return Vec::new();
        };
        let target = index(f, r);
        let mut from: Vec<usize> = self
            .pseudo_moves(!red)
            .into_iter()
            .filter(|&(_, to)| to == target)
            .map(|(fr, _)| fr)
            .collect();
        from.sort_unstable();
        from
    }

    /// Is `red`'s king attacked, or facing the other king on an open file?
    pub fn king_in_danger(&self, red: bool) -> bool {
        self.kings_face() || !self.checkers_of(red).is_empty()
    }

    pub fn in_check(&self) -> bool {
        self.king_in_danger(self.red_to_move)
    }

    pub fn make(&mut self, (from, to): RefMove) {
        let (ff, fr) = (from % 9, from / 9);
        let (tf, tr) = (to % 9, to / 9);
        self.cells[tr][tf] = self.cells[fr][ff].take();
        self.red_to_move = !self.red_to_move;
    }

    /// Moves that do not leave the mover's king attacked or facing the other king, sorted.
    pub fn legal_moves(&self) -> Vec<RefMove> {
        let red = self.red_to_move;
        let mut moves: Vec<RefMove> = self
            .pseudo_moves(red)
            .into_iter()
            .filter(|&mv| {
                let mut after = self.clone();
                after.make(mv);
                !after.king_in_danger(red)
            })
            .collect();
        moves.sort_unstable();
        moves
    }
}
