// `/plugins/diffs/*` on the gateway, forwarded to previewd, so viewer and file links can use
// the gateway's public address. previewd must list the gateway in `security.trusted_proxies`:
// it then takes the client address from the `X-Forwarded-For` set here, which replaces any
// the client sent (a client must not choose its own address), and keeps its own rules —
// loopback only unless `diffs.allow_remote_viewer`, tokens, lock-out — per real client.

import { exchange } from "./http.js";

/** Response headers passed back to the client as previewd set them. */
const PASSED_HEADERS = [
  "content-type", "content-length", "content-security-policy", "content-disposition",
  "cache-control", "x-content-type-options", "referrer-policy", "retry-after",
];

/** A gateway HTTP route handler (`(req, res) => Promise<boolean>`) for `settings`. */
export function createViewerProxy(settings, logger) {
  return async function diffsViewerProxy(req, res) {
    const url = new URL(req.url ?? "/", "http://gateway.invalid");
    if (!url.pathname.startsWith("/plugins/diffs/")) return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { "content-type": "text/plain; charset=utf-8", allow: "GET, HEAD" });
      res.end("Method not allowed");
      return true;
    }
    const client = req.socket.remoteAddress ?? "";
    let answer;
    try {
      answer = await exchange(`${settings.baseUrl}${url.pathname}`, {
        method: req.method,
        headers: { "x-forwarded-for": client.replace(/^::ffff:/, "") },
        timeoutMs: settings.timeoutMs,
      });
    } catch (error) {
      logger?.warn?.(`diffs: previewd unreachable for a viewer request: ${error.message}`);
      res.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
      res.end("Bad gateway");
      return true;
    }
    const headers = {};
    for (const name of PASSED_HEADERS) {
      if (answer.headers[name] !== undefined) headers[name] = answer.headers[name];
    }
    res.writeHead(answer.status, headers);
    res.end(req.method === "HEAD" ? undefined : answer.body);
    return true;
  };
}
