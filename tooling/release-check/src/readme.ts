// A README section as a script: every command of its ```sh blocks, in order (a `cd` carries
// over, as in the reader's shell); a ```yaml block whose first line is `# FILE` is written to FILE
// where the reader is; a ```text block right after a ```sh block is the output of that block's last
// command, which the caller compares.

export interface WalkthroughScript {
  /** A bash script (set -euo pipefail) running the commands from the folder it starts in. */
  text: string;
  /** How many commands it runs. */
  commands: number;
  /** Outputs the README shows: the file the script writes the command's stdout to, and the text. */
  outputs: { command: string; file: string; text: string }[];
}

interface Block {
  lang: string;
  body: string;
}

/** The text of a `## title` section (up to the next `## `). */
export function section(markdown: string, title: string): string {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README has no "## ${title}" section`);
  const end = markdown.indexOf("\n## ", start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

function blocks(text: string): Block[] {
  const out: Block[] = [];
  const re = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ lang: m[1] ?? "", body: m[2] ?? "" });
  return out;
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}

export function readmeWalkthrough(
  readme: string,
  opts: { title?: string; envFor?: (command: string) => Record<string, string> } = {},
): WalkthroughScript {
  const lines = ["set -euo pipefail", 'WALKTHROUGH_ROOT="$(pwd)"'];
  const outputs: WalkthroughScript["outputs"] = [];
  let commands = 0;
  let last: { command: string; index: number } | null = null;
  for (const b of blocks(section(readme, opts.title ?? "Custom plugins"))) {
    if (b.lang === "sh") {
      last = null;
      for (const raw of b.body.split("\n")) {
        const command = raw.trim();
        if (command === "" || command.startsWith("#")) continue;
        commands++;
        const env = Object.entries(opts.envFor?.(command) ?? {})
          .map(([k, v]) => `${k}=${shellQuote(v)} `)
          .join("");
        lines.push(`echo ${shellQuote(`$ ${command}`)}`);
        lines.push(`${env}${command}`);
        last = { command, index: lines.length - 1 };
      }
    } else if (b.lang === "yaml" && /^# [\w./-]+\n/.test(b.body)) {
      const file = (/^# ([\w./-]+)\n/.exec(b.body) as RegExpExecArray)[1] as string;
      lines.push(`cat > ${shellQuote(file)} <<'KUBESCHED_README_EOF'\n${b.body}KUBESCHED_README_EOF`);
      last = null;
    } else if (b.lang === "text" && last) {
      const file = `output-${outputs.length + 1}.txt`;
      // The command as written, its stdout kept for the comparison.
      lines[last.index] = `${lines[last.index]} > "$WALKTHROUGH_ROOT/${file}"`;
      outputs.push({ command: last.command, file, text: b.body });
      last = null;
    }
  }
  return { text: `${lines.join("\n")}\n`, commands, outputs };
}
