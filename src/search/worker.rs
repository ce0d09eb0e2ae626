//! One search thread's search of a root: principal variation search with quiescence, the hash
//! table, null move, late-move reductions and shallow-depth pruning. Lazy SMP runs several of
//! these on one table; `thread.rs` holds what they share and the loop each runs.

use super::correction::{CorrectionHistory, Slots};
use super::crumbs::{Breadcrumbs, CRUMB_PLIES, SHARED_NODE_REDUCTION};
use super::draw::rule_score;
use super::history::{Continuations, History};
use super::movepick::{MovePicker, SkipQuiets, KEEP_QUIETS};
use super::params::*;
use super::reductions::reduction;
use super::score::*;
use super::see::{see_ge, value, SEE_VALUE};
use super::thread::{Role, Shared};
use super::Learnt;
use crate::board::check_info::CheckInfo;
use crate::board::movegen::MoveList;
use crate::board::position::Position;
use crate::board::types::{Color, Move, Piece, PieceType};
use crate::eval::Evaluator;
use crate::search::tt::{score_from_tt, score_to_tt, Bound, TtHit, TtView};
use std::sync::atomic::Ordering;

/// The frames before the root's ([`Worker::frames`]).
const BEFORE_ROOT: usize = 2;

/// How often (in nodes) a thread publishes its node count and looks at the clock.
const CHECK_INTERVAL: u64 = 1024;

#[derive(Clone, Copy)]
struct Frame {
    static_eval: i32,
    /// The move made from this ply, for counter-moves and to tell a null move: the parent
    /// sets it before every child it searches, None before a null move.
    moved: Option<(Piece, Move)>,
    /// The node is on a principal variation, or its hash entry says it was (`TtHit::pv`).
    tt_pv: bool,
    /// The static evaluation before its correction, for the node's singular search.
    raw_eval: i32,
    /// The move a singular-extension search of this node leaves out (its hash move), while
    /// that search runs.
    excluded: Option<Move>,
}

pub(super) struct Worker<'a> {
    /// What every thread of the search shares.
    pub(super) shared: &'a Shared<'a>,
    /// The main thread's part, or a helper's.
    pub(super) role: Role,
    /// This thread's number among the search's (the main thread is 0).
    thread: usize,
    pos: Position,
    eval: Evaluator,
    /// The table's buckets themselves: one load fewer a probe than through the table.
    tt: TtView<'a>,
    history: History,
    correction: CorrectionHistory,
    /// Fixed-size tables indexed by ply (with the ply known below MAX_PLY, no bounds checks).
    /// In the worker itself, not behind a box: one pointer load fewer at each use. A ply's
    /// frame is `frames[ply + BEFORE_ROOT]` ([`Worker::frame`]): the two before the root's are
    /// never written, so the moves one and two plies back and the evaluation two back are
    /// read without testing the ply.
    frames: [Frame; MAX_PLY + 4],
    /// Triangular PV table, one row per ply (on the heap: built in place, not on the stack).
    pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    /// Set once the search must unwind; results of the interrupted iteration are discarded.
    pub(super) stopped: bool,
    /// Root moves not to search: `banmoves` and the lines already found for MultiPV.
    pub(super) root_excluded: Vec<Move>,
    /// The node count at which the search stops (the role's).
    node_limit: u64,
    /// The depth of the iteration under way.
    iteration_depth: i32,
    /// With more than one thread: the crumbs threads leave near the root (the shared ones,
    /// kept here to be read without going through `shared`).
    crumbs: Option<&'a Breadcrumbs>,
    /// Set for the first iteration, which neither a stop nor a limit cuts short: every search
    /// answers with a move it has searched and reported.
    pub(super) unstoppable: bool,
    /// The node count at which `visit` next does more than count (0: at the next node).
    next_check: u64,
    /// The hash of the position the move last picked leads to (`prefetch_child`), for
    /// `make_move_hashed`: kept here rather than in a register across the pruning tests.
    child_hash: u64,
}

/// An array of `N` copies of `value`, built on the heap (not on the stack first).
fn boxed_array<T: Clone, const N: usize>(value: T) -> Box<[T; N]> {
    vec![value; N]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("the vector has N elements"))
}

impl<'a> Worker<'a> {
    /// Thread `thread` of the search `shared` describes (0 is the main thread), starting from
    /// what it learnt in the game's earlier searches.
    pub(super) fn new(shared: &'a Shared<'a>, thread: usize, memory: Learnt) -> Self {
        let role = Role::for_thread(thread, shared.limits, shared.options);
        // Before the root: no move, and an evaluation no node's exceeds (never improving).
        let empty = Frame {
            static_eval: i32::MAX,
            moved: None,
            tt_pv: false,
            raw_eval: 0,
            excluded: None,
        };
        let network = shared.options.network.clone();
        Worker {
            shared,
            node_limit: role.node_limit(shared.limits),
            role,
            thread,
            pos: shared.root.clone(),
            eval: Evaluator::with_network(shared.root, memory.eval_caches, network),
            tt: shared.tt.view(),
            history: memory.history.for_new_search(),
            correction: memory.correction,
            frames: [empty; MAX_PLY + 4],
            pv: boxed_array([None; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_excluded: shared.options.banned.clone(),
            iteration_depth: 0,
            crumbs: shared.crumbs.as_ref(),
            unstoppable: false,
            next_check: 0,
            child_hash: 0,
        }
    }

    /// What this search learnt, for the next search of the game.
    pub(super) fn into_learnt(self) -> Learnt {
        Learnt {
            history: self.history,
            correction: self.correction,
            eval_caches: self.eval.into_caches(),
        }
    }

    /// The principal variation of the last root search.
    pub(super) fn root_pv(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]]
            .iter()
            .flatten()
            .copied()
            .collect()
    }

    pub(super) fn publish_nodes(&self) {
        self.shared.publish_nodes(self.thread, self.nodes);
    }

    /// Counts a node; true when the search has to stop. The limits and the stop signal are
    /// looked at every `CHECK_INTERVAL` nodes (and at the node limit), not at every node.
    #[inline]
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        self.nodes >= self.next_check && self.check_in()
    }

    /// `visit` at a check: publishes the node count, reads the clock, the node limit and the
    /// stop signal, and sets the count of the next check (every node, once stopped). The
    /// search stops when it is over for every thread; a helper also abandons an iteration
    /// another thread has completed, as the main thread moves on past it.
    #[inline(never)]
    fn check_in(&mut self) -> bool {
        if self.stopped {
            // Unwinding: a re-search its caller started before seeing the stop is no node.
            self.nodes -= 1;
            return true;
        }
        let signals = self.shared.signals;
        if self.nodes >= self.node_limit {
            signals.stop.store(true, Ordering::Relaxed);
        }
        if self.nodes % CHECK_INTERVAL == 0 {
            self.publish_nodes();
            if self.role.out_of_time(signals) {
                signals.stop.store(true, Ordering::Relaxed);
            }
        }
        let overtaken =
            !self.role.is_main() && self.shared.deepest_completed() >= self.iteration_depth;
        if (self.shared.over() || overtaken) && !self.unstoppable {
            self.stopped = true;
        }
        self.next_check = if self.stopped {
            0
        } else {
            ((self.nodes / CHECK_INTERVAL + 1) * CHECK_INTERVAL).min(self.node_limit)
        };
        self.stopped
    }

    /// The frame of `ply` (below MAX_PLY).
    #[inline(always)]
    fn frame(&mut self, ply: usize) -> &mut Frame {
        &mut self.frames[ply + BEFORE_ROOT]
    }

    /// Searches the root to `depth` with the window (alpha, beta).
    pub(super) fn search_root(&mut self, alpha: i32, beta: i32, depth: i32) -> i32 {
        self.iteration_depth = depth;
        self.seldepth = 0;
        self.negamax(alpha, beta, depth, 0, false)
    }

    /// Out of line: only a PV node's new best move (rare) records it; inlined, the row's
    /// address and length were worked out at every node.
    #[inline(never)]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = Some(mv);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Exchange value of the opponent's most valuable piece (what a capture can win at most).
    fn best_victim_value(&self) -> i32 {
        let them = !self.pos.side_to_move();
        // Dearest first, so the usual answer (a rook) is found by the first test.
        const BY_VALUE: [PieceType; 6] = [
            PieceType::Rook,
            PieceType::Cannon,
            PieceType::Horse,
            PieceType::Advisor,
            PieceType::Elephant,
            PieceType::Pawn,
        ];
        const _: () = {
            let mut i = 1;
            while i < BY_VALUE.len() {
                assert!(SEE_VALUE[BY_VALUE[i - 1] as usize] >= SEE_VALUE[BY_VALUE[i] as usize]);
                i += 1;
            }
        };
        BY_VALUE
            .into_iter()
            .find(|&kind| self.pos.pieces(them, kind).any())
            .map_or(0, value)
    }

    /// Delta pruning's test: does `score` stay at or below `alpha` even with the opponent's
    /// most valuable piece won ([`Worker::best_victim_value`])? No piece is worth more than a
    /// rook, so most nodes are told without looking for one.
    #[inline(always)]
    fn out_of_reach(&self, score: i32, alpha: i32) -> bool {
        const MAX_VICTIM: i32 = SEE_VALUE[PieceType::Rook as usize];
        score + MAX_VICTIM + delta_margin() <= alpha
            && score + self.best_victim_value() + delta_margin() <= alpha
    }

    /// Can the side to move still threaten much? Null move is unsafe in endings without
    /// attacking pieces, where zugzwang is common.
    fn has_attackers(&self) -> bool {
        let us = self.pos.side_to_move();
        (self.pos.pieces(us, PieceType::Rook)
            | self.pos.pieces(us, PieceType::Horse)
            | self.pos.pieces(us, PieceType::Cannon))
        .any()
    }

    /// Principal variation search of the node at `ply` to `depth`, fail-soft.
    fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        // No node is deeper than MAX_PLY - 1 (both searches stop there): saying so spares
        // the ply-indexed tables their bounds checks.
        let ply = ply.min(MAX_PLY - 1);
        // Step 1. Initialise the node; a check extends (evasions are few, and mates hide
        // behind checks); at the horizon, quiescence takes over.
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = ply;
        let in_check = self.pos.in_check();
        if in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        if ply > 0 {
            // Step 2. The rules end the game here (repetition, 60-move rule, bare material),
            // or the tree is as deep as it may go.
            if let Some(score) = rule_score(&self.pos, ply, self.eval.material()) {
                return score;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check {
                    0
                } else {
                    self.eval.evaluate(&self.pos)
                };
            }
            // Step 3. Mate-distance pruning: no line from here beats a mate already found
            // nearer the root.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(-mated_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 4. Transposition table lookup: a deep enough bound settles a non-PV node.
        // The bucket is kept for the store at the end. (Not in quiescence: there keeping it
        // measured dearer than finding it again.)
        // A singular-extension search leaves the hash move out: the entry describes the node
        // with it, so it neither settles this search nor is replaced by it.
        let excluded = self.frame(ply).excluded;
        let slot = self.tt.slot(self.pos.hash());
        let hit = match excluded {
            None => slot.probe(self.pos.hash()),
            Some(_) => None,
        };
        if let Some(hit) = hit {
            let score = score_from_tt(hit.score, ply);
            if !pv_node && hit.depth >= depth && hit.bound.settles(score, alpha, beta) {
                return score;
            }
        }
        let tt_pv = pv_node || hit.is_some_and(|hit| hit.pv);
        self.frame(ply).tt_pv = tt_pv;
        // Lazy SMP: a crumb here while this thread searches the node; another thread's crumb
        // means it is searching this node too, and late quiets are reduced more.
        let visit = match self.crumbs {
            Some(crumbs) if ply < CRUMB_PLIES => Some(crumbs.enter(self.pos.hash(), self.thread)),
            _ => None,
        };
        let shared_node = visit.as_ref().is_some_and(|v| v.another_thread_here);

        // Step 5. Static evaluation. A hash score of any depth beats it where its bound
        // allows: a mate a shallower search found keeps the node from being cut on a material
        // count.
        // Corrected by what searches of positions with the same structure found.
        // In check there is no static evaluation to correct, nor a correction to learn.
        let slots = if in_check {
            Slots::UNUSED
        } else {
            Slots::of(&self.pos, self.eval.material())
        };
        // Looked up once: the lazy test and the static evaluation add the same.
        let correction = if in_check {
            0
        } else {
            self.correction.correction(slots)
        };
        let raw_eval = match self.known_eval(in_check, hit) {
            Some(score) => score,
            // The node was evaluated before its singular search: the same position.
            None if excluded.is_some() => self.frame(ply).raw_eval,
            None => {
                // Lazy reverse futility (step 6 on the incremental evaluation alone): so far
                // above beta that the rest of the evaluation cannot matter.
                if !pv_node
                    && ply > 0
                    && depth <= rfp_max_depth()
                    && !is_mate(beta)
                    && self.eval.lazy_applies()
                {
                    let floor = |lazy| corrected(lazy, false, correction) - lazy_eval_margin();
                    let cuts = |floor| floor > -hopeless() && floor - rfp_margin() * depth >= beta;
                    let lazy = self.eval.lazy(&self.pos);
                    if cuts(floor(lazy)) {
                        let scaled = floor(self.eval.scaled(&self.pos, lazy));
                        if cuts(scaled) {
                            return scaled;
                        }
                    }
                }
                self.eval.evaluate_fresh(&self.pos)
            }
        };
        let static_eval = corrected(raw_eval, in_check, correction);
        self.frame(ply).static_eval = static_eval;
        self.frame(ply).raw_eval = raw_eval;
        // Two plies back from the root and its children: a frame before the root, whose
        // evaluation no node's exceeds.
        let improving = !in_check && static_eval > self.frames[ply + BEFORE_ROOT - 2].static_eval;
        let eval = match hit.map(|hit| (hit.bound, score_from_tt(hit.score, ply))) {
            Some((bound, score)) if !in_check && bound.settles(score, static_eval, static_eval) => {
                score
            }
            _ => static_eval,
        };

        // Whole-node pruning, not when beta is a mate or a rule win: "eval >= beta" against
        // such a bound proves nothing, and cutting there hides mates. Nor when the side to
        // move is hopelessly behind: then only a mate changes the result, and passing or
        // standing on the material count would hide the opponent's quiet mating threats.
        if !pv_node
            && !in_check
            && ply > 0
            && excluded.is_none()
            && eval > -hopeless()
            && eval < MATE_BOUND
            && !is_mate(beta)
        {
            // Step 6. Reverse futility: far above beta at low depth, a quiet move will not
            // drop it.
            if depth <= rfp_max_depth() && eval - rfp_margin() * (depth - improving as i32) >= beta
            {
                return eval;
            }
            // Step 7. Null move: if passing still fails high, a real move will too.
            if depth >= nmp_min_depth()
                && eval >= beta
                && self.frames[ply + BEFORE_ROOT - 1].moved.is_some()
                && self.has_attackers()
            {
                let r = nmp_base()
                    + depth / nmp_depth_div()
                    + ((eval - beta) / nmp_eval_div()).min(nmp_eval_max());
                self.frame(ply).moved = None;
                self.pos.make_null_move();
                let score = -self.negamax(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.pos.unmake_null_move();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // The hash move, once the node is known to need its moves.
        let tt_move = hit.and_then(|h| h.mv).filter(|&mv| self.pos.is_legal(mv));

        // Step 8. Internal iterative reduction: without a hash move this node's ordering is
        // poor; search it shallower first.
        if depth >= iir_min_depth()
            && tt_move.is_none()
            && excluded.is_none()
            && (pv_node || cut_node)
            && !in_check
        {
            depth -= 1;
        }

        // Step 9. Loop over the moves, best-ordered first.
        let us = self.pos.side_to_move();
        // The frames one and two plies back (before the root: no move).
        let previous = self.frames[ply + BEFORE_ROOT - 1].moved;
        let before_previous = self.frames[ply + BEFORE_ROOT - 2].moved;
        let continuations = Continuations::new([previous, before_previous]);
        let mut picker = MovePicker::new(
            tt_move,
            self.history.killers[ply],
            self.history.counter(continuations),
            continuations,
        );
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut searched = 0;
        let mut quiets_tried = MoveList::new();
        let mut captures_tried = MoveList::new();
        let mut checks: Option<CheckInfo> = None;
        let original_alpha = alpha;

        // Halved unless improving: a shift instead of a division, the count being positive.
        const _: () = assert!(*range::lmp_base.start() >= 0);
        let late_quiets = (lmp_base() + depth * depth) >> (!improving as i32);
        loop {
            // Step 10. Shallow pruning. It needs one move searched and no mate in sight;
            // checks are never pruned. (With alpha a win, quiets are pruned near the leaves;
            // deeper iterations search them, which finds mates faster than a full-width tree.)
            let may_prune = ply > 0 && !in_check && best_score > -MATE_BOUND;
            // Late-move pruning and futility: quiet moves late in the list, or far below alpha
            // at low depth, are not worth a search, unless they check or push a pawn at the
            // king. The picker passes them over by this test, in a tight loop (most nodes
            // prune dozens).
            let prune_quiets = may_prune
                && depth <= shallow_max_depth()
                && (quiets_tried.len() as i32 >= late_quiets
                    || static_eval + futility_base() + futility_per_depth() * depth <= alpha);
            let skip_quiets = prune_quiets.then(|| PrunedQuiets {
                pos: &self.pos,
                checks: checks.get_or_insert_with(|| CheckInfo::new(&self.pos)),
            });
            let Some(mv) = picker.next(&self.pos, &self.history, skip_quiets) else {
                break;
            };
            self.prefetch_child(mv);
            if (ply == 0 && self.root_excluded.contains(&mv)) || Some(mv) == excluded {
                continue;
            }
            let victim = self.pos.piece_at(mv.to());
            let capture = victim.is_some();
            // A good capture already passed SEE at 0, above any capture margin.
            const _: () = assert!(*range::see_capture_margin.end() <= 0);
            if may_prune && depth <= shallow_max_depth() && !picker.handed_out_good_capture() {
                // Captures that lose material by exchange, and quiets that put a piece where
                // it is lost (more leeway for them higher up).
                let see_margin = if capture {
                    see_capture_margin() * depth
                } else {
                    see_quiet_margin() * depth * depth
                };
                let loses = || !see_ge(&self.pos, mv, see_margin);
                let checking = || self.gives_check(mv, checks.as_ref());
                // The quiets left while quiets are pruned check (or push a pawn at the king):
                // for them the check test settles it first. (The same test either way; only
                // the order of its two parts differs.)
                #[allow(clippy::if_same_then_else)]
                let pruned = if prune_quiets && !capture {
                    !checking() && loses()
                } else {
                    loses() && !checking()
                };
                if pruned {
                    continue;
                }
            }

            // Step 11. Singular extension: when the hash move is the only good one (every other
            // move fails low against a bound below its hash score, in a shallower search), it
            // is searched a ply deeper; when it is not alone and its score beats beta or the
            // node is a cut node, a ply shallower. (No multi-cut: cutting the node when another
            // move also beats beta hid a slow mate from the mates test, 7.6 M nodes against
            // 0.27 M.)
            let mut extension = 0;
            if let Some(hit) = hit.filter(|_| Some(mv) == tt_move && ply > 0) {
                let tt_score = score_from_tt(hit.score, ply);
                if depth >= se_min_depth()
                    && hit.depth >= depth - 3
                    && hit.bound != Bound::Upper
                    && !is_mate(tt_score)
                    && (ply as i32) < 2 * self.iteration_depth
                {
                    let singular_beta = tt_score - se_margin() * depth / 16;
                    let tt_pv_here = self.frame(ply).tt_pv;
                    self.frame(ply).excluded = Some(mv);
                    let score = self.negamax(
                        singular_beta - 1,
                        singular_beta,
                        (depth - 1) / 2,
                        ply,
                        cut_node,
                    );
                    self.frame(ply).excluded = None;
                    self.frame(ply).tt_pv = tt_pv_here;
                    self.frame(ply).static_eval = static_eval;
                    self.frame(ply).raw_eval = raw_eval;
                    if self.stopped {
                        return 0;
                    }
                    // The search below left another child's hash for the make.
                    self.prefetch_child(mv);
                    if score < singular_beta {
                        extension = 1;
                    } else if tt_score >= beta || cut_node {
                        extension = -1;
                    }
                }
            }

            // Step 12. Make the move.
            let piece = self
                .pos
                .piece_at(mv.from())
                .expect("a legal move has a mover");
            self.frame(ply).moved = Some((piece, mv));
            self.pos
                .make_move_hashed(mv, piece, victim, self.child_hash, &mut self.eval);
            let gives_check = self.pos.in_check();
            searched += 1;
            let new_depth = depth - 1 + extension;

            // Step 13. Search it: the first move with the full window; later ones with a
            // null window, quiets and losing captures reduced (late-move reductions),
            // re-searched when they beat alpha (a ply deeper than full depth when they beat
            // the best score by far, a ply shallower when only just) and then with the full
            // window.
            let mut score;
            if searched == 1 {
                score = -self.negamax(-beta, -alpha, new_depth, ply + 1, !pv_node && !cut_node);
            } else {
                let mut r = 0;
                if depth >= lmr_min_depth() && !gives_check && !in_check {
                    if !capture {
                        r = reduction(depth as usize, searched);
                        // Less at a node on a PV, or one that was (it may be again).
                        r += cut_node as i32 + !improving as i32 - tt_pv as i32;
                        // More where another thread is searching this node too.
                        r += shared_node as i32 * SHARED_NODE_REDUCTION;
                        r -= self.history.quiet_score(us, piece, mv, continuations)
                            / lmr_history_div();
                        r = r.clamp(0, new_depth - 1);
                    } else if !picker.handed_out_good_capture() {
                        // A capture that loses material by exchange (the picker hands those
                        // out last) is reduced like a quiet, by the table alone.
                        r = (reduction(depth as usize, searched) - tt_pv as i32)
                            .clamp(0, new_depth - 1);
                    }
                }
                score = -self.negamax(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                let mut research_depth = new_depth;
                if score > alpha && r > 0 {
                    let bar = best_score.max(alpha);
                    if score > bar + lmr_deeper_margin() + lmr_deeper_per_depth() * new_depth {
                        research_depth += 1;
                    } else if score < bar + lmr_shallower_margin() {
                        research_depth -= 1;
                    }
                    score = -self.negamax(-alpha - 1, -alpha, research_depth, ply + 1, !cut_node);
                }
                if score > alpha && pv_node {
                    let depth = new_depth.max(research_depth);
                    score = -self.negamax(-beta, -alpha, depth, ply + 1, false);
                }
            }

            // Step 14. Undo the move.
            self.pos.unmake_move_with(&mut self.eval);
            if self.stopped {
                return 0;
            }

            // Step 15. A new best move: raise alpha, record the PV, and on a cut-off reward
            // the quiet move that caused it.
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        if !capture {
                            self.reward_quiet(ply, mv, depth, continuations, &quiets_tried);
                        }
                        self.reward_capture(depth, capture.then_some(mv), &captures_tried);
                        break;
                    }
                }
            }
            if capture {
                captures_tried.push(mv);
            } else {
                quiets_tried.push(mv);
            }
        }

        // Step 16. No legal move loses, stalemate included. (At the root with every move
        // excluded there is nothing to report either.)
        if searched == 0 {
            // Leaving the hash move out of a singular search proves nothing of the node.
            return if excluded.is_some() {
                alpha
            } else {
                mated_in(ply)
            };
        }

        // Step 17. Store the result (not for a root search with moves excluded: its best
        // score is not the position's).
        let bound = bound(best_score, beta, alpha > original_alpha);
        if (ply != 0 || self.root_excluded.is_empty()) && excluded.is_none() {
            // A node failing low under a flagged one is flagged too: the move that led here
            // may refute the PV, and the position may come back on the next one.
            let tt_pv = tt_pv || bound == Bound::Upper && self.frames[ply + BEFORE_ROOT - 1].tt_pv;
            // The position is as it was (every move taken back): its hash is read again, not
            // kept across the moves; its bucket was found for the probe.
            self.tt.store_in(
                slot,
                self.pos.hash(),
                best_move,
                score_to_tt(best_score, ply),
                raw_eval,
                depth,
                bound,
                tt_pv,
            );
            // Step 18. Teach the correction history where the bound says how far the static
            // evaluation was off (not from captures: they change the structure, nor mates).
            let quiet_best = best_move.is_none_or(|mv| self.pos.piece_at(mv.to()).is_none());
            // A lower bound below the evaluation (or an upper one above) says nothing of it.
            let tells_error = match bound {
                Bound::Lower => best_score > static_eval,
                Bound::Upper => best_score < static_eval,
                Bound::Exact => true,
            };
            if !in_check && quiet_best && !is_mate(best_score) && tells_error {
                self.correction.update(slots, depth, best_score, raw_eval);
            }
        }
        best_score
    }

    /// Starts loading the hash entry and evaluation-cache bucket of the position `mv` leads
    /// to, as soon as the move is picked: they are in cache by the time the child probes them,
    /// the pruning tests and `make_move` in between.
    #[inline(always)]
    fn prefetch_child(&mut self, mv: Move) {
        let child = self.pos.hash_after(mv);
        self.tt.prefetch(child);
        self.eval.prefetch(child);
        self.child_hash = child;
    }

    /// The static evaluation where it costs nothing: none in check, the one stored with a hash
    /// hit, or the evaluation cache's.
    #[inline]
    fn known_eval(&self, in_check: bool, hit: Option<TtHit>) -> Option<i32> {
        match hit {
            _ if in_check => Some(-INFINITE),
            Some(hit) => Some(hit.eval),
            None => self.eval.cached(&self.pos),
        }
    }

    /// Does the move give check? From the node's check sets once quiets are pruned (the same
    /// answer, fewer instructions).
    #[inline]
    fn gives_check(&self, mv: Move, checks: Option<&CheckInfo>) -> bool {
        match checks {
            Some(checks) => checks.gives_check(&self.pos, mv),
            None => self.pos.gives_check(mv),
        }
    }

    /// Rewards the quiet cut move at `depth` and punishes the quiets tried before it, in the
    /// butterfly and continuation histories; the cut move becomes a killer and the counter-move.
    fn reward_quiet(
        &mut self,
        ply: usize,
        mv: Move,
        depth: i32,
        continuations: Continuations,
        tried: &MoveList,
    ) {
        let us = self.pos.side_to_move();
        let bonus = history_bonus(depth);
        let mover = |mv: Move| self.pos.piece_at(mv.from()).expect("a quiet has a mover");
        let piece = mover(mv);
        self.history
            .update_quiet(us, piece, mv, continuations, bonus);
        for &other in tried {
            let piece = mover(other);
            self.history
                .update_quiet(us, piece, other, continuations, -bonus);
        }
        self.history.add_killer(ply, mv);
        self.history.set_counter(continuations, mv);
    }

    /// At a cut-off at `depth`, rewards the capture that caused it (if one did) and punishes
    /// the captures tried before it, in the capture history.
    #[inline(always)]
    fn reward_capture(&mut self, depth: i32, cut_capture: Option<Move>, tried: &MoveList) {
        let bonus = history_bonus(depth);
        let mut update = |mv: Move, bonus: i32| {
            let piece = self.pos.piece_at(mv.from()).expect("a capture has a mover");
            let victim = self.pos.piece_at(mv.to()).expect("a capture has a victim");
            self.history.update_capture(piece, mv, victim.kind(), bonus);
        };
        if let Some(mv) = cut_capture {
            update(mv, bonus);
        }
        for &other in tried {
            update(other, -bonus);
        }
    }

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        // Called at most at MAX_PLY - 1 (by `negamax`, whose ply is capped there, and by
        // itself below it); it indexes no ply table, so it needs no cap of its own.
        debug_assert!(ply < MAX_PLY);
        // No PV length to set: quiescence records no PV, and a `negamax` at the horizon, whose
        // caller may read this ply's length, set it before handing over.
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        // The rules, as in `negamax`, but only in check: quiescence plays quiet moves only as
        // evasions, so a cycle it closes is all checks and evasions (mutual checks can go on
        // evading with check until the ply limit, a tree too large to finish).
        if in_check {
            if let Some(score) = rule_score(&self.pos, ply, self.eval.material()) {
                return score;
            }
        }
        if ply >= MAX_PLY - 1 {
            return if in_check {
                0
            } else {
                self.eval.evaluate(&self.pos)
            };
        }
        let pv_node = beta - alpha > 1;
        let hit = self.tt.probe(self.pos.hash());
        if let Some(hit) = hit {
            let score = score_from_tt(hit.score, ply);
            if !pv_node && hit.bound.settles(score, alpha, beta) {
                return score;
            }
        }

        let stand_pat = match self.known_eval(in_check, hit) {
            Some(score) => score,
            None => {
                // Lazy evaluation: the incremental part alone, far enough beyond beta, or
                // below alpha even with the best capture, settles the node as the full
                // evaluation would.
                if self.eval.lazy_applies() {
                    let lazy = self.eval.lazy(&self.pos);
                    if lazy - lazy_eval_margin() >= beta {
                        let floor = self.eval.scaled(&self.pos, lazy) - lazy_eval_margin();
                        if floor >= beta {
                            return floor;
                        }
                    } else if lazy + lazy_eval_margin() + delta_margin() <= alpha {
                        // Scaling draws a negative score up toward zero: the ceiling is
                        // checked scaled.
                        let ceiling = self.eval.scaled(&self.pos, lazy) + lazy_eval_margin();
                        if self.out_of_reach(ceiling, alpha) {
                            return ceiling;
                        }
                    }
                }
                self.eval.evaluate_fresh(&self.pos)
            }
        };
        let mut best_score = stand_pat;
        if stand_pat >= beta {
            return stand_pat;
        }
        // Delta pruning for the whole node: not even winning their best piece reaches alpha.
        if !in_check && self.out_of_reach(stand_pat, alpha) {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let original_alpha = alpha;
        let mut best_move = None;
        let tt_move = hit.and_then(|h| h.mv).filter(|&mv| self.pos.is_legal(mv));
        let mut picker = MovePicker::quiescence(tt_move, in_check);
        let mut searched = 0;
        while let Some(mv) = picker.next(&self.pos, &self.history, KEEP_QUIETS) {
            let victim = self.pos.piece_at(mv.to());
            if !in_check {
                // Delta pruning: even winning this piece cannot lift the score to alpha. Past
                // the hash move captures come most valuable victim first, so none after will.
                let gain = victim.map_or(0, |p| value(p.kind()));
                if stand_pat + gain + delta_margin() <= alpha {
                    if Some(mv) == tt_move {
                        continue;
                    }
                    break;
                }
            }
            // Only for a move that is searched: the delta test above is too short to hide a
            // load behind anyway.
            self.prefetch_child(mv);
            let piece = self
                .pos
                .piece_at(mv.from())
                .expect("a legal move has a mover");
            self.pos
                .make_move_hashed(mv, piece, victim, self.child_hash, &mut self.eval);
            searched += 1;
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.pos.unmake_move_with(&mut self.eval);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && searched == 0 {
            return mated_in(ply);
        }
        let bound = bound(best_score, beta, alpha > original_alpha);
        self.tt.store(
            self.pos.hash(),
            best_move,
            score_to_tt(best_score, ply),
            stand_pat,
            0,
            bound,
            hit.is_some_and(|hit| hit.pv),
        );
        best_score
    }
}

/// Step 10's test of a quiet move once quiets are pruned: it is passed over unless it gives
/// check (checks are never pruned) or pushes a pawn at the king.
#[derive(Clone, Copy)]
struct PrunedQuiets<'a> {
    pos: &'a Position,
    /// The node's check sets, made when the pruning starts.
    checks: &'a CheckInfo,
}

impl SkipQuiets for PrunedQuiets<'_> {
    #[inline(always)]
    fn skips(&self, mv: Move) -> bool {
        !self.checks.gives_check(self.pos, mv) && !pawn_nears_king(self.pos, mv)
    }
}

/// A pawn advancing into the last three ranks, beside the enemy palace: a quiet move, but one
/// many mates are built from, so late-move pruning and futility leave it alone.
#[inline(always)]
pub(crate) fn pawn_nears_king(pos: &Position, mv: Move) -> bool {
    let to_rank = mv.to().rank();
    let deep = match pos.side_to_move() {
        Color::Red => to_rank >= 7 && to_rank > mv.from().rank(),
        Color::Black => to_rank <= 2 && to_rank < mv.from().rank(),
    };
    deep && pos
        .piece_at(mv.from())
        .is_some_and(|p| p.kind() == PieceType::Pawn)
}

/// What a cut-off at `depth` adds to the histories of the move that caused it (and takes from
/// the moves tried before it): growing with the depth's square, up to a cap.
#[inline(always)]
fn history_bonus(depth: i32) -> i32 {
    (depth * depth * history_bonus_per_depth2()).min(history_bonus_max())
}

/// What a search of a node proved of its score `best_score`: at least that (it reached
/// `beta`), exactly that (it raised alpha), or at most that (every move failed low).
#[inline(always)]
fn bound(best_score: i32, beta: i32, raised_alpha: bool) -> Bound {
    if best_score >= beta {
        Bound::Lower
    } else if raised_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// The static evaluation plus the correction history's learnt error `correction` (none in
/// check).
#[inline(always)]
fn corrected(raw: i32, in_check: bool, correction: i32) -> i32 {
    if in_check {
        return raw;
    }
    (raw + correction).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;
    use crate::board::notation::play;
    use crate::search::tt::TranspositionTable;
    use crate::search::{Limits, Options, Signals};

    /// Mutual checks that go round: Red's horse shuttles h7-f8 and Black's advisor f7-e8, and
    /// each move screens or unscreens a cannon, so every move evades a check with a check.
    /// Quiescence searches every evasion in check; without the rules it followed such cycles to
    /// the ply limit on branch after branch (a datagen game hung in one for minutes, in the
    /// depth-1 iteration no limit stops). Back at the start of the cycle, the rules' draw.
    #[test]
    fn quiescence_judges_a_repeated_position_in_check_by_the_rules() {
        let mut pos =
            Position::from_fen("5cb2/3k3C1/4ba1N1/8p/9/9/8P/p8/4A4/5K3 w - - 0 1").unwrap();
        play(&mut pos, "h7f8 f7e8 f8h7 e8f7");
        assert!(pos.in_check());
        let tt = TranspositionTable::new(1);
        let (signals, limits, options) =
            (Signals::default(), Limits::default(), Options::default());
        let root_moves = legal_moves(&pos).iter().copied().collect();
        let shared = Shared::new(&pos, &tt, &signals, &limits, &options, root_moves, 1);
        let mut worker = Worker::new(&shared, 0, Learnt::default());
        assert_eq!(worker.qsearch(-INFINITE, INFINITE, 4), 0);
        assert_eq!(worker.nodes, 1, "judged before any move");
    }
}
