// Snapshot files parsed once and read again from memory: `kubesched sweep` loads the same snapshot
// for every cell (with another node pool and workload scale each time), and parsing its YAML was
// a quarter of a cell's time and much of its allocation. A cache keeps, per regular file (path,
// size, modification time), the objects read from it (already trimmed, before validation) and the
// list envelopes' metadata; a later load takes a structured clone of them, counts the file's size
// against its input budget and replays the metadata, so it returns what reading the file again
// would. Only a file read whole without errors is kept: a load that found errors reads again and
// reports them in full.
import fs from "node:fs";
import type { InputBudget } from "./input-reader";
import { type ListMetadataHandler, type RawObject, readObjects, type SnapshotInput } from "./read-objects";

type Json = Record<string, unknown>;

interface ParsedInput {
  objects: RawObject[];
  listMetadata: { metadata: Json; origin: string }[];
}

/** Parsed snapshot files of one process, for `LoadOptions.parsedInputs`. */
export class ParsedInputCache {
  private readonly inputs = new Map<string, ParsedInput>();

  /** Files held. */
  get size(): number {
    return this.inputs.size;
  }

  /**
   * The objects of `input`, from memory when this file (same size and modification time) was
   * read before; else read (readObjects) and kept when reading found no error.
   */
  read(
    input: SnapshotInput,
    errors: string[],
    opts: { budget: InputBudget; onListMetadata?: ListMetadataHandler },
  ): RawObject[] {
    const stat = "path" in input ? statFile(input.path) : undefined;
    if (stat === undefined) return [...readObjects(input, errors, opts)];
    const key = JSON.stringify([input.name, "path" in input ? input.path : "", stat.size, stat.mtimeMs]);
    const held = this.inputs.get(key);
    if (held !== undefined) {
      opts.budget.take(input.name, stat.size);
      for (const m of held.listMetadata) opts.onListMetadata?.(structuredClone(m.metadata), m.origin);
      return structuredClone(held.objects);
    }
    const listMetadata: ParsedInput["listMetadata"] = [];
    const before = errors.length;
    const objects = [
      ...readObjects(input, errors, {
        ...opts,
        onListMetadata: (metadata, origin) => {
          listMetadata.push({ metadata: structuredClone(metadata), origin });
          opts.onListMetadata?.(metadata, origin);
        },
      }),
    ];
    if (errors.length === before) this.inputs.set(key, { objects: structuredClone(objects), listMetadata });
    return objects;
  }
}

/** Size and modification time of a regular file (a FIFO or a device is read every time). */
function statFile(path: string): fs.Stats | undefined {
  try {
    const s = fs.statSync(path);
    return s.isFile() ? s : undefined;
  } catch {
    return undefined;
  }
}
