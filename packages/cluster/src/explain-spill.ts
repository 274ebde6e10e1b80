// `simulate --explain` at scale: each pod's explanation goes to a temporary file as its attempt
// ends, not into memory. An explanation lists every node the attempt filtered and scored (500 of
// 5000 nodes with upstream's adaptive percentageOfNodesToScore): ~10,000 of them held as objects
// take gigabytes. They cannot go straight to the output either: a pod's last attempt is the one
// that counts and the output lists pods in file order, so the file is read back pod by pod as
// the output is written.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AttemptExplanation, ExplanationStore } from "@kubesched/scheduler";

/**
 * An ExplanationStore in a temporary file (compact JSON, appended; a later attempt of a pod is
 * appended again and the earlier one is no longer pointed at). `close()` removes the file.
 */
export class SpillExplanationStore implements ExplanationStore {
  private readonly dir: string;
  private readonly fd: number;
  private size = 0;
  private readonly at = new Map<string, { offset: number; length: number }>();

  constructor(parent: string = tmpdir()) {
    this.dir = mkdtempSync(join(parent, "kubesched-explain-"));
    this.fd = openSync(join(this.dir, "explanations.json"), "w+");
  }

  set(podKey: string, explanation: AttemptExplanation): void {
    const bytes = Buffer.from(JSON.stringify(explanation), "utf8");
    let written = 0;
    while (written < bytes.length) {
      written += writeSync(this.fd, bytes, written, bytes.length - written, this.size + written);
    }
    this.at.set(podKey, { offset: this.size, length: bytes.length });
    this.size += bytes.length;
  }

  get(podKey: string): AttemptExplanation | undefined {
    const loc = this.at.get(podKey);
    if (loc === undefined) return undefined;
    const bytes = Buffer.allocUnsafe(loc.length);
    let read = 0;
    while (read < loc.length) {
      const n = readSync(this.fd, bytes, read, loc.length - read, loc.offset + read);
      if (n === 0) throw new Error(`explanation spill file: ${podKey}: short read at ${loc.offset + read}`);
      read += n;
    }
    return JSON.parse(bytes.toString("utf8")) as AttemptExplanation;
  }

  has(podKey: string): boolean {
    return this.at.has(podKey);
  }

  /** Bytes written to the file (every attempt recorded). */
  get bytes(): number {
    return this.size;
  }

  /** Closes and removes the file. */
  close(): void {
    closeSync(this.fd);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
