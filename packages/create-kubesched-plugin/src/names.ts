// Predictable names: `demo-gate` with scope `@acme` is the package
// `@acme/kubesched-plugin-demo-gate`, in the folder `kubesched-plugin-demo-gate`, registering the
// plugin `DemoGate` with args kind `DemoGateArgs`.

export interface PluginNames {
  /** kebab-case, as given: "demo-gate". */
  kebab: string;
  /** The plugin's name in profiles: "DemoGate". */
  pascal: string;
  /** For identifiers: "demoGate". */
  camel: string;
  /** The npm package: "@acme/kubesched-plugin-demo-gate" (unscoped without a scope). */
  packageName: string;
  /** The folder created: "kubesched-plugin-demo-gate". */
  dir: string;
}

const kebabName = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const pascalName = /^[A-Z][a-zA-Z0-9]*$/;
const scopeName = /^@[a-z0-9][a-z0-9._-]*$/;

/** "DemoGate" → "demo-gate"; a kebab-case name is returned as it is. */
export function toKebab(name: string): string {
  return pascalName.test(name) ? name.replace(/(?<=[a-z0-9])([A-Z])/g, "-$1").toLowerCase() : name;
}

/** Problems with the name and scope (empty when both are usable). */
export function nameProblems(name: string, scope: string | undefined): string[] {
  const problems: string[] = [];
  const kebab = toKebab(name);
  if (!kebabName.test(kebab)) {
    problems.push(
      `invalid plugin name "${name}": use kebab-case letters and digits starting with a letter (demo-gate) or PascalCase (DemoGate)`,
    );
  }
  if (scope !== undefined && !scopeName.test(scope.startsWith("@") ? scope : `@${scope}`)) {
    problems.push(`invalid scope "${scope}": an npm scope is lowercase, like @acme`);
  }
  return problems;
}

export function pluginNames(name: string, scope?: string): PluginNames {
  const kebab = toKebab(name);
  const pascal = kebab
    .split("-")
    .map((w) => (w[0] as string).toUpperCase() + w.slice(1))
    .join("");
  const dir = `kubesched-plugin-${kebab}`;
  const at = scope === undefined ? "" : `${scope.startsWith("@") ? scope : `@${scope}`}/`;
  return {
    kebab,
    pascal,
    camel: (pascal[0] as string).toLowerCase() + pascal.slice(1),
    packageName: `${at}${dir}`,
    dir,
  };
}
