// Docs that stand alone: every link in the repository's Markdown (the README, docs/, every
// package's README, bench/, tooling/) stays inside the repository and points at a file that exists
// (and at a heading that exists, for a `#fragment` into Markdown), and no text names a path that
// resolves outside the repository (`../shared/...`, `/work/...md`): a clone has only what is in it. Web links
// (http/https) are left alone.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./workspace";

const skipDirs = new Set(["node_modules", "dist", ".git", ".turbo", "coverage", "packed"]);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return skipDirs.has(e.name) ? [] : markdownFiles(path.join(dir, e.name));
    return e.name.endsWith(".md") ? [path.join(dir, e.name)] : [];
  });
}

/** The text outside fenced code blocks (commands in them are the reader's, not links). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, "");
}

/** GitHub's anchors for the headings of a Markdown text. */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const text = (m[1] ?? "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function linkTargets(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, "");
  const out: string[] = [];
  for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1] as string);
  for (const m of text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)) out.push(m[1] as string);
  for (const m of text.matchAll(/\b(?:src|href)="([^"]+)"/g)) out.push(m[1] as string);
  return out;
}

/** What is wrong with the links of one Markdown file (empty: nothing). */
export function linkProblems(file: string, markdown: string, root: string = repoRoot): string[] {
  const problems: string[] = [];
  const where = path.relative(root, file);
  const inside = (p: string) => {
    const rel = path.relative(root, p);
    return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
  };
  for (const target of linkTargets(markdown)) {
    if (/^(https?:|mailto:)/i.test(target)) continue;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/")) {
      problems.push(`${where}: link ${target} leaves the repository`);
      continue;
    }
    const hash = target.indexOf("#");
    const linkPath = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
    const fragment = hash < 0 ? "" : decodeURIComponent(target.slice(hash + 1));
    const resolved = linkPath === "" ? file : path.resolve(path.dirname(file), linkPath);
    if (!inside(resolved)) {
      problems.push(`${where}: link ${target} leaves the repository`);
      continue;
    }
    if (!existsSync(resolved)) {
      problems.push(`${where}: link ${target}: no such file in the repository`);
      continue;
    }
    if (fragment && resolved.endsWith(".md") && statSync(resolved).isFile()) {
      if (!headingAnchors(readFileSync(resolved, "utf8")).has(fragment)) {
        problems.push(`${where}: link ${target}: no heading with that anchor`);
      }
    }
  }
  // Paths in the text (often in backticks) that climb out of the repository.
  for (const m of prose(markdown).matchAll(/(?<![\w/.])((?:\.\.\/)+[\w.-][\w./-]*)/g)) {
    const p = m[1] as string;
    if (!inside(path.resolve(path.dirname(file), p)))
      problems.push(`${where}: ${p} is outside the repository`);
  }
  // Absolute paths to documents (a machine's files, not the repository's).
  for (const m of prose(markdown).matchAll(/(?<![\w.:/<>-])(\/[\w.-]+\/[\w./-]*\.md)\b/g)) {
    problems.push(`${where}: ${m[1]} is outside the repository`);
  }
  return problems;
}

describe("links in the repository's Markdown", () => {
  const files = markdownFiles(repoRoot);

  it("finds the README, docs/ and the package READMEs", () => {
    const rel = files.map((f) => path.relative(repoRoot, f));
    expect(rel).toContain("README.md");
    expect(rel).toContain(path.join("docs", "README.md"));
    expect(rel).toContain(path.join("packages", "framework", "README.md"));
  });

  it("stay inside the repository and point at files and headings that exist", () => {
    const problems = files.flatMap((f) => linkProblems(f, readFileSync(f, "utf8")));
    expect(problems).toEqual([]);
  });

  it("are caught when they leave the repository or point nowhere", () => {
    const file = path.join(repoRoot, "README.md");
    const bad = [
      "See [the design](../shared/design/ARCHITECTURE.md).",
      "The contract is in `../shared/design/ARCHITECTURE.md`, the plan in `/work/shared/design/ARCHITECTURE.md`.",
      "[abs](/work/shared/design/ARCHITECTURE.md) and [file](file:///etc/passwd)",
      "[missing](docs/nope.md) and [anchor](docs/simulate.md#no-such-heading)",
    ].join("\n\n");
    expect(linkProblems(file, bad)).toEqual([
      "README.md: link ../shared/design/ARCHITECTURE.md leaves the repository",
      "README.md: link /work/shared/design/ARCHITECTURE.md leaves the repository",
      "README.md: link file:///etc/passwd leaves the repository",
      "README.md: link docs/nope.md: no such file in the repository",
      "README.md: link docs/simulate.md#no-such-heading: no heading with that anchor",
      "README.md: ../shared/design/ARCHITECTURE.md is outside the repository",
      "README.md: ../shared/design/ARCHITECTURE.md is outside the repository",
      "README.md: /work/shared/design/ARCHITECTURE.md is outside the repository",
      "README.md: /work/shared/design/ARCHITECTURE.md is outside the repository",
    ]);
    const good =
      "[docs](docs/README.md), [cycle](docs/scheduling-cycle.md#where-the-observer-wraps), [web](https://kubernetes.io), [here](#quick-start)";
    expect(linkProblems(file, `# x\n\n## Quick start\n\n${good}`)).toEqual([]);
  });
});
