import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    // Plugin packages the tests install into temporary node_modules import @kubesched/framework, which
    // the workspace links to its TypeScript sources: let vitest transform them (npm users load dist/).
    server: { deps: { inline: [/kubesched-plugins-/] } },
  },
});
