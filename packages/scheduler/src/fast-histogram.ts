// A histogram vector for the scheduler's hot paths. prom-client's labelled `observe` validates
// and hashes the label object on every call; plugin execution durations are observed once per
// plugin per node on sampled cycles, where that cost halved throughput. Here a series is looked
// up once and kept: observing is a bucket search and two additions. The vector registers itself
// in a prom-client registry, so the exposition format is prom-client's.
import type { Metric, Registry } from "prom-client";

/** One labelled series. */
export class HistogramSeries {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly buckets: readonly number[],
  ) {
    this.counts = new Float64Array(buckets.length);
  }

  observe(value: number): void {
    const b = this.buckets;
    for (let i = 0; i < b.length; i++) {
      if (value <= (b[i] as number)) {
        (this.counts as Float64Array)[i] = (this.counts[i] as number) + 1;
        break;
      }
    }
    this.sum += value;
    this.count += 1;
  }

  /** `n` observations of the same value (a batch's average per node). */
  observeN(value: number, n: number): void {
    const b = this.buckets;
    for (let i = 0; i < b.length; i++) {
      if (value <= (b[i] as number)) {
        (this.counts as Float64Array)[i] = (this.counts[i] as number) + n;
        break;
      }
    }
    this.sum += value * n;
    this.count += n;
  }
}

interface PromValue {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

export class FastHistogramVec {
  readonly type = "histogram";
  readonly aggregator = "sum";
  private readonly series = new Map<string, HistogramSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    readonly buckets: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  /** The series for these label values (in `labelNames` order); keep it for hot paths. */
  child(...values: string[]): HistogramSeries {
    const key = values.join("\u0000");
    let s = this.series.get(key);
    if (!s) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((n, i) => {
        labels[n] = values[i] ?? "";
      });
      s = new HistogramSeries(labels, this.buckets);
      this.series.set(key, s);
    }
    return s;
  }

  /** prom-client's collection protocol: cumulative buckets, `+Inf`, `_sum`, `_count`. */
  async get(): Promise<{
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: PromValue[];
  }> {
    const values: PromValue[] = [];
    for (const s of this.series.values()) {
      let acc = 0;
      this.buckets.forEach((le, i) => {
        acc += s.counts[i] as number;
        values.push({ labels: { ...s.labels, le }, value: acc, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { ...s.labels, le: "+Inf" }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...s.labels }, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series.clear();
  }
}
