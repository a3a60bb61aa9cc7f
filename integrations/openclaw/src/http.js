// One HTTP exchange with previewd over node:http(s).
//
// When previewd lists the gateway in `security.trusted_proxies` (the set-up in which the
// gateway also forwards `/plugins/diffs/*`), previewd reads the client's address from
// `X-Forwarded-For` and refuses a request that has none. The gateway's own calls then say
// that the client is the gateway itself: the local address of the very socket the request
// goes out on, known only once it is connected, so the headers are sent after `connect`.

import http from "node:http";
import https from "node:https";

/**
 * Sends one request and resolves to `{ status, headers, body }` (body a Buffer).
 * `forwardSelf` adds `X-Forwarded-For: <this socket's local address>`.
 */
export function exchange(url, { method = "GET", headers = {}, body, timeoutMs, forwardSelf = false }) {
  const target = new URL(url);
  const transport = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(target, { method, headers });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    const send = () => {
      if (forwardSelf) req.setHeader("x-forwarded-for", req.socket.localAddress);
      req.end(body);
    };
    if (!forwardSelf) {
      send();
      return;
    }
    req.on("socket", (socket) => {
      if (socket.connecting) socket.once(target.protocol === "https:" ? "secureConnect" : "connect", send);
      else send();
    });
  });
}
