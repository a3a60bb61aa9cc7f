// previewd's HTTP API as the plugin uses it: one call (`POST /api/v1/diffs`) and one fetch
// (the rendered file behind `fileUrl`).

import { exchange } from "./http.js";
import { PreviewdError, ToolInputError } from "./errors.js";

/** Normalised plugin settings for talking to previewd. */
export function clientSettings(pluginConfig = {}) {
  const raw = typeof pluginConfig.previewdUrl === "string" ? pluginConfig.previewdUrl.trim() : "";
  if (!/^https?:\/\//i.test(raw)) {
    throw new Error("diffs (previewd): set plugins.entries.diffs.config.previewdUrl to previewd's http(s) URL");
  }
  return {
    baseUrl: raw.replace(/\/+$/, ""),
    apiToken: typeof pluginConfig.apiToken === "string" && pluginConfig.apiToken ? pluginConfig.apiToken : undefined,
    timeoutMs: Number.isFinite(pluginConfig.timeoutMs) ? pluginConfig.timeoutMs : 120_000,
    // previewd trusts the gateway as a proxy exactly when the gateway forwards the viewer.
    forwardSelf: pluginConfig.proxyViewer === true,
  };
}

/**
 * Sends a tool call to previewd and resolves to its `details`. Contract errors (400
 * `invalid_request`) become a `ToolInputError` with previewd's message, which is the
 * contract's text byte for byte; every other failure is a `PreviewdError`.
 */
export async function createDiff(settings, input) {
  const headers = { "content-type": "application/json", accept: "application/json" };
  if (settings.apiToken) headers.authorization = `Bearer ${settings.apiToken}`;
  const body = Buffer.from(JSON.stringify(input));
  headers["content-length"] = String(body.length);
  let answer;
  try {
    answer = await exchange(`${settings.baseUrl}/api/v1/diffs`, {
      method: "POST",
      headers,
      body,
      timeoutMs: settings.timeoutMs,
      forwardSelf: settings.forwardSelf,
    });
  } catch (error) {
    throw new PreviewdError(`previewd is unreachable at ${settings.baseUrl}: ${reason(error)}`, {
      code: "unreachable",
    });
  }
  let parsed;
  try {
    parsed = JSON.parse(answer.body.toString("utf8"));
  } catch {
    throw new PreviewdError(`previewd answered ${answer.status} without JSON`, { status: answer.status });
  }
  if (answer.status === 200 && parsed && typeof parsed.details === "object" && parsed.details) {
    return parsed.details;
  }
  const code = parsed?.error?.code;
  const message = parsed?.error?.message ?? `previewd answered ${answer.status}`;
  if (answer.status === 400 && code === "invalid_request") {
    throw new ToolInputError(message);
  }
  if (code === "unauthorized") {
    throw new PreviewdError(
      "previewd refused the plugin's API token: set plugins.entries.diffs.config.apiToken to previewd's security.api_token",
      { code, status: answer.status },
    );
  }
  throw new PreviewdError(message, { code, status: answer.status });
}

/**
 * The bytes of an artifact's rendered file. `fileUrl` is built for the agent's side (it may
 * name the gateway's public base); the gateway fetches the same route from previewd itself.
 */
export async function fetchFile(settings, fileUrl) {
  const at = new URL(fileUrl).pathname.indexOf("/plugins/diffs/file/");
  if (at < 0) {
    throw new PreviewdError("previewd's fileUrl does not name a diff file route", { code: "file_fetch_failed" });
  }
  const route = new URL(fileUrl).pathname.slice(at);
  let answer;
  try {
    answer = await exchange(`${settings.baseUrl}${route}`, {
      timeoutMs: settings.timeoutMs,
      forwardSelf: settings.forwardSelf,
    });
  } catch (error) {
    throw new PreviewdError(`cannot fetch the rendered diff file from previewd: ${reason(error)}`, {
      code: "file_fetch_failed",
    });
  }
  if (answer.status !== 200) {
    const text = answer.body.toString("utf8").slice(0, 200);
    throw new PreviewdError(`cannot fetch the rendered diff file from previewd: ${answer.status} ${text}`, {
      code: "file_fetch_failed",
      status: answer.status,
    });
  }
  return answer.body;
}

function reason(error) {
  const cause = error?.code ?? error?.cause?.code;
  return cause ? `${error.message} (${cause})` : String(error?.message ?? error);
}
