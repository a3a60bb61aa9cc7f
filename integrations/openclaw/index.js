// OpenClaw plugin entry: the `diffs` tool backed by previewd.
//
// The default export has the shape `definePluginEntry` (openclaw/plugin-sdk/plugin-entry)
// returns — id, name, description, configSchema, register — written out so the plugin has
// no runtime dependency: the host loads it and calls `register(api)`.

import fs from "node:fs";
import { clientSettings } from "./src/client.js";
import { filesRoot } from "./src/files.js";
import { DIFFS_GUIDANCE } from "./src/guidance.js";
import { createViewerProxy } from "./src/proxy.js";
import { createDiffsTool } from "./src/tool.js";

const manifest = JSON.parse(fs.readFileSync(new URL("./openclaw.plugin.json", import.meta.url), "utf8"));

const plugin = {
  id: manifest.id,
  name: manifest.name,
  description: manifest.description,
  configSchema: manifest.configSchema,
  register(api) {
    const config = api.pluginConfig ?? {};
    const settings = clientSettings(config);
    const viewerBaseUrl =
      typeof config.viewerBaseUrl === "string" && config.viewerBaseUrl.trim() ? config.viewerBaseUrl.trim() : undefined;
    // A promise, resolved once; a call that copies a file waits for it.
    const root = filesRoot(config);
    api.registerTool(
      (toolContext) => createDiffsTool({ settings, filesRoot: root, viewerBaseUrl, logger: api.logger, toolContext }),
      { name: "diffs" },
    );
    api.on("before_prompt_build", () => ({ prependSystemContext: DIFFS_GUIDANCE }));
    if (config.proxyViewer === true) {
      api.registerHttpRoute({
        path: "/plugins/diffs",
        auth: "plugin",
        match: "prefix",
        handler: createViewerProxy(settings, api.logger),
      });
    }
  },
};

export default plugin;
