// Jittered exponential backoff (upstream apimachinery pkg/util/wait backoff.go: Backoff.Step,
// delay, Jitter and DelayWithReset), as the reflector uses it.
import type { Clock } from "@kubesched/framework";

export interface BackoffConfig {
  /** The first delay, in ms. */
  durationMs: number;
  /** The largest base delay, in ms; once reached, every later step is capMs (jittered). */
  capMs: number;
  /** Steps before the base delay stops growing. */
  steps: number;
  factor: number;
  /** Each delay d becomes d + random * jitter * d. */
  jitter: number;
}

/**
 * client-go reflector.go's defaults: 800 ms doubling to 30 s, jitter 1.0 (so 0.8–1.6 s, then
 * 1.6–3.2 s, ..., at most 30–60 s), reset every 2 minutes.
 */
export const reflectorBackoff: BackoffConfig = {
  durationMs: 800,
  capMs: 30_000,
  steps: Math.ceil(30_000 / 800),
  factor: 2,
  jitter: 1,
};
export const reflectorBackoffResetMs = 120_000;

/** wait.Jitter: `d` plus up to `maxFactor` times itself, at random. */
export function jitter(d: number, maxFactor: number, random: () => number = Math.random): number {
  const f = maxFactor <= 0 ? 1 : maxFactor;
  return d + random() * f * d;
}

/**
 * Backoff.DelayWithReset: a function giving the next delay; the progression restarts from the
 * first delay when more than `resetMs` have passed since it last (re)started.
 */
export function delayWithReset(
  b: BackoffConfig,
  clock: Clock,
  resetMs: number,
  random: () => number = Math.random,
): () => number {
  let duration = b.durationMs;
  let steps = b.steps;
  let lastStart = clock.now();
  return () => {
    if (clock.now() - lastStart > resetMs) {
      duration = b.durationMs;
      steps = b.steps;
      lastStart = clock.now();
    }
    // wait.delay()
    if (steps < 1) return b.jitter > 0 ? jitter(duration, b.jitter, random) : duration;
    steps--;
    const current = duration;
    let next = b.factor !== 0 ? current * b.factor : current;
    if (b.capMs > 0 && next > b.capMs) {
      next = b.capMs;
      steps = 0;
    }
    duration = next;
    return b.jitter > 0 ? jitter(current, b.jitter, random) : current;
  };
}
