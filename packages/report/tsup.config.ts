import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base";
import { bundleClient, clientScriptModule } from "./src/client-bundle";

// The page's script is bundled from src/client/ now, at build time: dist/ never depends on the
// workspace's generated copy being fresh.
export default defineConfig({
  ...baseConfig,
  esbuildPlugins: [
    {
      name: "report-client-script",
      setup(build) {
        build.onLoad({ filter: /[\\/]client-script\.generated\.ts$/ }, () => ({
          contents: clientScriptModule(bundleClient()),
          loader: "ts",
        }));
      },
    },
  ],
});
