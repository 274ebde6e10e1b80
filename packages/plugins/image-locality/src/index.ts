// @kubesched/plugin-image-locality — upstream pkg/scheduler/framework/plugins/imagelocality
import { definePlugin } from "@kubesched/framework";
import { ImageLocality, name } from "./image-locality";

export { ImageLocality, name, normalizedImageName } from "./image-locality";

/** The ImageLocality plugin (no args). */
export const imageLocalityPlugin = definePlugin<undefined>({
  name,
  factory: (_args, handle) => new ImageLocality(handle),
});
