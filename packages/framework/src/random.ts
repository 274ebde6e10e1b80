// Seeded randomness (upstream draws from math/rand; kubesched makes every draw reproducible).

/**
 * The random source of the scheduler and plugins (`handle.rand()`): every random choice the
 * scheduler makes (tie-breaking between equal scores, the preemption candidates' offset) draws
 * from here, so that a simulation with the same seed makes the same choices.
 * @public
 */
export interface Random {
  /** A uniform integer in [0, n). */
  intn(n: number): number;
  /** A uniform float in [0, 1). */
  float(): number;
}

/**
 * A {@link Random} from a seed (mulberry32: small, fast, good enough for tie-breaking and
 * offsets): the same seed gives the same stream.
 * @public
 */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    float: next,
    intn: (n) => Math.floor(next() * n),
  };
}
