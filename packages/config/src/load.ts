// upstream: cmd/kube-scheduler/app/options (loadConfigFromFile: decode strictly, default,
// then validate). Every problem is collected; the first error never hides the others.
import { readFileSync } from "node:fs";
import { type Features, type FieldError, formatFieldError, type Registry } from "@kubesched/framework";
import { DocumentError, decodeConfiguration, parseDocumentText } from "./decode";
import { setDefaults } from "./defaults";
import { featuresOf } from "./feature-gates";
import type { KubeSchedulerConfiguration } from "./types";
import { validateConfigWithSource } from "./validation";

/** A configuration that could not be loaded; `errors` lists every problem, one per entry. */
export class ConfigError extends Error {
  readonly errors: string[];
  readonly filename: string | undefined;
  constructor(errors: string[], filename?: string) {
    super(errors.join("\n"));
    this.name = "ConfigError";
    this.errors = errors;
    this.filename = filename;
  }
}

export interface LoadOptions {
  registry: Registry;
  /** The features the plugin args are defaulted and validated with; over `kubernetesVersion`'s defaults. */
  features?: Features | undefined;
  /**
   * The release whose feature-gate defaults apply (`featuresOf`; absent: the newest): load the
   * configuration at the release `simulate` emulates, as the CLI does for --emulated-version.
   */
  kubernetesVersion?: string | undefined;
  /** Shown with the errors by callers; not part of each error line. */
  filename?: string | undefined;
}

function unique(lines: string[]): string[] {
  return [...new Set(lines)];
}

/**
 * Loads a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) from YAML or JSON text:
 * strict decoding, upstream defaults (default profile, plugin merge, plugin args defaults),
 * validation. Throws ConfigError with every error.
 */
export function loadConfig(text: string, opts: LoadOptions): KubeSchedulerConfiguration {
  const features = featuresOf(opts.kubernetesVersion, opts.features);
  const errors: FieldError[] = [];
  let cfg: KubeSchedulerConfiguration;
  let customPlugins: ReturnType<typeof customPluginsOf>;
  try {
    const v1 = decodeConfiguration(parseDocumentText(text), errors);
    cfg = setDefaults(v1, { registry: opts.registry, features }, errors);
    customPlugins = customPluginsOf(v1.profiles);
  } catch (e) {
    if (e instanceof DocumentError) throw new ConfigError(e.errors, opts.filename);
    throw e;
  }
  errors.push(...validateConfigWithSource(cfg, opts.registry, features, { customPlugins }));
  if (errors.length > 0) throw new ConfigError(unique(errors.map(formatFieldError)), opts.filename);
  return cfg;
}

function customPluginsOf(profiles: ReturnType<typeof decodeConfiguration>["profiles"]) {
  return (profiles ?? []).map((p) => p.plugins);
}

/** Reads and loads a configuration file; unreadable files are a ConfigError too. */
export function loadConfigFile(
  path: string,
  opts: Omit<LoadOptions, "filename">,
): KubeSchedulerConfiguration {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (e as Error).message;
    throw new ConfigError([`cannot read ${path}: ${why}`], path);
  }
  return loadConfig(text, { ...opts, filename: path });
}

/** The configuration kube-scheduler runs with when given no file: one profile, default-scheduler. */
export function defaultConfig(opts: {
  registry: Registry;
  features?: Features | undefined;
  /** As LoadOptions.kubernetesVersion. */
  kubernetesVersion?: string | undefined;
}): KubeSchedulerConfiguration {
  const errors: FieldError[] = [];
  const features = featuresOf(opts.kubernetesVersion, opts.features);
  const cfg = setDefaults({}, { registry: opts.registry, features }, errors);
  if (errors.length > 0) {
    // Only a plugin whose decode(undefined) fails can get here: a bug in that plugin's args spec.
    throw new Error(`defaulting plugin args failed:\n${errors.map(formatFieldError).join("\n")}`);
  }
  return cfg;
}
