// A minimal OpenClaw host for the tests: it loads the plugin the way the gateway does —
// the entry named by package.json `openclaw.extensions`, the manifest beside it, the
// plugin config checked against the manifest's `configSchema` — and gives `register` the
// parts of OpenClawPluginApi this plugin uses (registerTool with tool factories, on,
// registerHttpRoute, pluginConfig, logger, config). Tool calls are checked against the
// tool's parameter schema first and errors are classified as the gateway does (an error
// named `ToolInputError` is the model's, with its `status`).
//
// The real `openclaw` package is not loaded here: 2026.9.6 needs Node >= 24.16 and a
// 644 MB install, and its test API (`plugin-sdk/plugin-test-api`) is not published.

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const PLUGIN_DIR = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), "..");

export function readJson(rel) {
  return JSON.parse(fs.readFileSync(path.join(PLUGIN_DIR, rel), "utf8"));
}

/** Loads and registers the plugin; resolves to the host's view of what it registered. */
export async function loadPlugin(pluginConfig) {
  const pkg = readJson("package.json");
  const manifest = readJson("openclaw.plugin.json");
  const entry = pkg.openclaw?.extensions?.[0];
  if (!entry) throw new Error("package.json has no openclaw.extensions entry");
  const mod = await import(pathToFileURL(path.join(PLUGIN_DIR, entry)).href);
  const plugin = mod.default;
  if (plugin.id !== manifest.id) throw new Error(`entry id ${plugin.id} != manifest id ${manifest.id}`);
  const problems = validate(manifest.configSchema, pluginConfig, "config");
  if (problems.length) throw new Error(`invalid plugin config: ${problems.join("; ")}`);
  const registered = { tools: [], hooks: new Map(), routes: [], logs: [] };
  const api = {
    id: plugin.id,
    name: plugin.name,
    source: path.join(PLUGIN_DIR, entry),
    rootDir: PLUGIN_DIR,
    registrationMode: "full",
    config: {},
    pluginConfig,
    logger: {
      debug: (m) => registered.logs.push(["debug", m]),
      info: (m) => registered.logs.push(["info", m]),
      warn: (m) => registered.logs.push(["warn", m]),
      error: (m) => registered.logs.push(["error", m]),
    },
    registerTool(tool, opts = {}) {
      registered.tools.push({ tool, opts });
    },
    on(hookName, handler) {
      const list = registered.hooks.get(hookName) ?? [];
      list.push(handler);
      registered.hooks.set(hookName, list);
    },
    registerHttpRoute(params) {
      if (!params.path?.startsWith("/plugins/") || typeof params.handler !== "function") {
        throw new Error("malformed HTTP route");
      }
      registered.routes.push(params);
    },
  };
  plugin.register(api);
  return { plugin, manifest, registered, api };
}

/** The tool `name` as the gateway would build it for one turn. */
export function resolveTool(registered, name, toolContext = {}) {
  for (const { tool, opts } of registered.tools) {
    const resolved = typeof tool === "function" ? tool(toolContext) : tool;
    if (resolved?.name === name && (opts.name === undefined || opts.name === name)) return resolved;
  }
  throw new Error(`no tool ${name}`);
}

/**
 * Calls a tool as the gateway does: schema check, then `execute`. Resolves to
 * `{ ok: true, result }` or `{ ok: false, status, name, message }`.
 */
export async function invokeTool(registered, name, params, toolContext = {}) {
  const tool = resolveTool(registered, name, toolContext);
  const problems = validate(tool.parameters, params, "params");
  if (problems.length) return { ok: false, status: 400, name: "SchemaError", message: problems.join("; ") };
  try {
    return { ok: true, result: await tool.execute("call-1", params) };
  } catch (error) {
    const isInput = error?.name === "ToolInputError";
    return {
      ok: false,
      status: isInput ? (error.status ?? 400) : 500,
      name: error?.name,
      message: error?.message,
      error,
    };
  }
}

/** Runs every `before_prompt_build` handler and merges their results. */
export async function buildPrompt(registered) {
  const merged = {};
  for (const handler of registered.hooks.get("before_prompt_build") ?? []) {
    Object.assign(merged, (await handler({ prompt: "", messages: [] }, {})) ?? {});
  }
  return merged;
}

/** The JSON Schema subset the manifests and tool schemas here use. */
export function validate(schema, value, at) {
  const out = [];
  if (schema.type === "object") {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${at} must be an object`];
    for (const key of schema.required ?? []) if (!(key in value)) out.push(`${at}.${key} is required`);
    for (const [key, v] of Object.entries(value)) {
      const sub = schema.properties?.[key];
      if (!sub) {
        if (schema.additionalProperties === false) out.push(`${at}.${key} is not allowed`);
        continue;
      }
      out.push(...validate(sub, v, `${at}.${key}`));
    }
    return out;
  }
  if (schema.type === "string") {
    if (typeof value !== "string") return [`${at} must be a string`];
    if (schema.enum && !schema.enum.includes(value)) out.push(`${at} must be one of ${schema.enum.join(", ")}`);
    if (schema.pattern && !new RegExp(schema.pattern).test(value)) out.push(`${at} must match ${schema.pattern}`);
    return out;
  }
  if (schema.type === "number") {
    if (typeof value !== "number" || !Number.isFinite(value)) return [`${at} must be a number`];
    if (schema.minimum !== undefined && value < schema.minimum) out.push(`${at} must be >= ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) out.push(`${at} must be <= ${schema.maximum}`);
    return out;
  }
  if (schema.type === "boolean" && typeof value !== "boolean") return [`${at} must be a boolean`];
  return out;
}
