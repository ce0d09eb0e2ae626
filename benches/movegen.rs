//! Wall-clock benches of the move generator (criterion): legal generation and make/unmake on the
//! bench.fen positions perft.txt has a depth-1 count for, and perft 4 from the start position.
//! Every bench asserts the count it times. Run: `cargo bench --bench movegen`.

#[path = "support/mod.rs"]
mod support;

use chariot::board::movegen::legal_moves;
use chariot::commands::perft::perft;
use chariot::data::{bench_fens, expected_perft, perft_cases};
use chariot::Position;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use support::position;

/// A bench.fen position with its reference number of legal moves.
struct Case {
    name: String,
    pos: Position,
    moves: u64,
}

/// bench.fen positions that perft.txt gives a legal-move count for, named by bench.fen line.
fn cases() -> Vec<Case> {
    let table = perft_cases();
    let cases: Vec<Case> = bench_fens()
        .iter()
        .enumerate()
        .filter_map(|(i, fen)| {
            let moves = expected_perft(&table, fen, 1)?;
            Some(Case {
                name: format!("line{}", i + 1),
                pos: position(fen),
                moves,
            })
        })
        .collect();
    assert!(
        cases.len() >= 3,
        "want at least 3 bench.fen positions with a depth-1 count in perft.txt"
    );
    cases
}

fn movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for case in cases() {
        group.throughput(Throughput::Elements(case.moves));
        group.bench_with_input(BenchmarkId::from_parameter(&case.name), &case, |b, case| {
            b.iter(|| {
                let moves = legal_moves(black_box(&case.pos));
                assert_eq!(moves.len() as u64, case.moves, "{}", case.name);
                moves
            })
        });
    }
    group.finish();
}

fn make_unmake(c: &mut Criterion) {
    let mut group = c.benchmark_group("make_unmake");
    for case in cases() {
        let moves = legal_moves(&case.pos);
        assert_eq!(moves.len() as u64, case.moves, "{}", case.name);
        let hash = case.pos.hash();
        let mut pos = case.pos.clone();
        group.throughput(Throughput::Elements(case.moves));
        group.bench_function(BenchmarkId::from_parameter(&case.name), |b| {
            b.iter(|| {
                // Sum the hashes seen so the work cannot be skipped.
                let mut seen = 0u64;
                for &mv in &moves {
                    pos.make_move(black_box(mv));
                    seen = seen.wrapping_add(pos.hash());
                    pos.unmake_move();
                }
                assert_eq!(
                    pos.hash(),
                    hash,
                    "{}: unmake did not restore the hash",
                    case.name
                );
                seen
            })
        });
    }
    group.finish();
}

fn perft4(c: &mut Criterion) {
    let start = Position::startpos();
    let expected = expected_perft(&perft_cases(), Position::START_FEN, 4)
        .expect("perft.txt has no depth-4 count for the start position");
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .throughput(Throughput::Elements(expected));
    group.bench_function("startpos_4", |b| {
        let mut pos = start.clone();
        b.iter(|| {
            let nodes = perft(black_box(&mut pos), 4);
            assert_eq!(nodes, expected, "perft 4 from the start position");
            nodes
        })
    });
    group.finish();
}

criterion_group!(benches, movegen, make_unmake, perft4);
criterion_main!(benches);
