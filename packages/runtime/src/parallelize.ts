// upstream: pkg/scheduler/framework/parallelize/parallelism.go
//
// JavaScript runs plugins on one thread, so "parallel" work runs in index order. The
// parallelism value is kept because upstream derives other numbers from it (chunk sizes).

/** Upstream DefaultParallelism. */
export const DefaultParallelism = 16;

/** Upstream chunkSizeFor: sqrt(n), capped at n/parallelism + 1, at least 1. */
export function chunkSizeFor(n: number, parallelism: number): number {
  const s = Math.trunc(Math.sqrt(n));
  const r = Math.trunc(n / parallelism) + 1;
  return Math.max(Math.min(s, r), 1);
}

export class Parallelizer {
  constructor(readonly parallelism: number = DefaultParallelism) {}

  /**
   * Runs `doWorkPiece(i)` for i in [0, pieces), in order. `doWorkPiece` may return true to stop
   * early (upstream cancels the context for that).
   */
  until(pieces: number, doWorkPiece: (piece: number) => unknown): void {
    for (let i = 0; i < pieces; i++) if (doWorkPiece(i) === true) return;
  }
}
