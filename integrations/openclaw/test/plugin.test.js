// The plugin against a real previewd: registration as OpenClaw sees it, every mode, the
// local copy of rendered files, error mapping and the gateway proxy route.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";

import { PLUGIN_DIR, buildPrompt, invokeTool, loadPlugin, readJson, resolveTool } from "./host.js";
import { startPreviewd } from "./previewd.js";
import { saveFile, sweepExpired } from "../src/files.js";

/** The built-in tool's parameter names (OpenClaw's extensions/diffs). */
const BUILT_IN_FIELDS = [
  "before", "after", "patch", "path", "lang", "title", "mode", "theme", "layout",
  "fileQuality", "fileFormat", "fileScale", "fileMaxWidth", "imageQuality", "imageFormat",
  "imageScale", "imageMaxWidth", "expandUnchanged", "ttlSeconds", "baseUrl",
];

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

let previewd;
let fileDir;
let host;

before(async () => {
  previewd = await startPreviewd();
  fileDir = tempDir("gateway-files-");
  host = await loadPlugin({ previewdUrl: `${previewd.url}/`, fileDir });
});

after(async () => {
  await previewd?.stop();
  fs.rmSync(fileDir, { recursive: true, force: true });
});

describe("registration", () => {
  test("the package and manifest are what the OpenClaw loader reads", () => {
    const pkg = readJson("package.json");
    const manifest = readJson("openclaw.plugin.json");
    assert.equal(pkg.type, "module");
    assert.deepEqual(pkg.openclaw.extensions, ["./index.js"]);
    assert.equal(manifest.id, "diffs");
    assert.deepEqual(manifest.contracts.tools, ["diffs"]);
    assert.deepEqual(manifest.configSchema.required, ["previewdUrl"]);
    const skill = fs.readFileSync(path.join(PLUGIN_DIR, manifest.skills[0], "diffs", "SKILL.md"), "utf8");
    assert.match(skill, /^---\nname: diffs\ndescription: .+\n---\n/);
  });

  test("one tool named diffs with the built-in tool's schema, and the prompt guidance", async () => {
    const { registered } = host;
    assert.equal(registered.tools.length, 1);
    assert.equal(registered.tools[0].opts.name, "diffs");
    const tool = resolveTool(registered, "diffs");
    assert.equal(tool.label, "Diffs");
    assert.equal(tool.parameters.additionalProperties, false);
    assert.deepEqual(Object.keys(tool.parameters.properties).sort(), [...BUILT_IN_FIELDS].sort());
    assert.deepEqual(tool.parameters.properties.mode.enum, ["view", "file", "image", "both"]);
    assert.deepEqual(tool.parameters.properties.fileQuality.enum, ["standard", "hq", "print"]);
    assert.equal(tool.parameters.properties.ttlSeconds.maximum, 21600);
    assert.equal(tool.parameters.properties.patch.maxLength, 2 * 1024 * 1024);
    const prompt = await buildPrompt(registered);
    assert.match(prompt.prependSystemContext, /`diffs` tool/);
    assert.match(prompt.prependSystemContext, /details\.filePath/);
    assert.equal(registered.routes.length, 0, "no gateway route unless proxyViewer");
  });

  test("a config without previewdUrl is refused by the manifest schema", async () => {
    await assert.rejects(loadPlugin({ fileDir }), /previewdUrl is required/);
  });
});

describe("calls delegated to previewd", () => {
  test("view mode answers with previewd's viewer details and the caller context", async () => {
    const context = { agentId: "ag-1", sessionId: "se-1", messageChannel: "chan", agentAccountId: "acc" };
    const call = await invokeTool(
      host.registered,
      "diffs",
      { before: "a\nb\n", after: "a\nc\n", path: "src/x.rs", mode: "view" },
      context,
    );
    assert.ok(call.ok, call.message);
    const d = call.result.details;
    assert.match(d.artifactId, /^[0-9a-f]{20}$/);
    assert.equal(d.viewerPath, `/plugins/diffs/view/${d.artifactId}/${d.viewerPath.split("/").pop()}`);
    assert.equal(d.viewerUrl, `${previewd.url}${d.viewerPath}`);
    assert.equal(d.title, "src/x.rs");
    assert.equal(d.inputKind, "before_after");
    assert.equal(d.fileCount, 1);
    assert.equal(d.mode, "view");
    assert.deepEqual(d.context, context);
    assert.ok(Date.parse(d.expiresAt) > Date.now());
    assert.equal(d.filePath, undefined);
    assert.match(call.result.content[0].text, /Diff viewer: http/);
    const page = await fetch(d.viewerUrl);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type"), /^text\/html/);
  });

  test("file mode copies the PNG into the gateway folder and filePath names the copy", async () => {
    const call = await invokeTool(host.registered, "diffs", {
      patch: "--- a/n.txt\n+++ b/n.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n",
      mode: "file",
      fileScale: 1,
    });
    assert.ok(call.ok, call.message);
    const d = call.result.details;
    assert.equal(d.viewerUrl, undefined, "file mode makes no viewer");
    assert.equal(path.dirname(path.dirname(d.filePath)), fileDir);
    assert.equal(d.filePath, path.join(fileDir, d.artifactId, "diff.png"));
    assert.equal(d.path, d.filePath);
    assert.equal(d.imagePath, d.filePath);
    const local = fs.readFileSync(d.filePath);
    const served = fs.readFileSync(path.join(previewd.dataDir, d.artifactId, "diff.png"));
    assert.ok(local.equals(served), "the copy has previewd's bytes");
    assert.ok(local.subarray(0, 8).equals(PNG_SIGNATURE));
    assert.equal(d.fileBytes, local.length);
    assert.equal(d.imageBytes, local.length);
    assert.equal(d.fileFormat, "png");
    assert.equal(d.format, "png");
    assert.equal(d.fileScale, 1);
    assert.equal(d.fileMaxWidth, 960);
    assert.equal(d.inputKind, "patch");
    assert.match(d.fileUrl, new RegExp(`^${previewd.url}/plugins/diffs/file/${d.artifactId}/[0-9a-f]{48}$`));
    assert.match(call.result.content[0].text, new RegExp(`Rendered PNG file: ${d.filePath}`));
  });

  test("both mode with a PDF keeps the viewer and copies the PDF", async () => {
    const call = await invokeTool(host.registered, "diffs", {
      before: "x\n",
      after: "y\n",
      mode: "both",
      fileFormat: "pdf",
      title: "Both",
    });
    assert.ok(call.ok, call.message);
    const d = call.result.details;
    assert.equal(d.mode, "both");
    assert.equal((await fetch(d.viewerUrl)).status, 200);
    const local = fs.readFileSync(d.filePath);
    assert.equal(local.subarray(0, 5).toString(), "%PDF-");
    assert.ok(local.equals(fs.readFileSync(path.join(previewd.dataDir, d.artifactId, "diff.pdf"))));
    assert.equal(d.fileError, undefined);
  });

  test("previewd's contract errors are the same tool input errors", async () => {
    const cases = [
      [{ patch: "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", before: "a" }, "Provide either patch or before/after input, not both."],
      [{ before: "only" }, "Provide patch or both before and after text."],
      [{ patch: "just words" }, "Patch input did not contain any file diffs."],
      [{ before: "a", after: "b", baseUrl: "ftp://x.example" }, "baseUrl must use http or https: ftp://x.example"],
      [{ before: "a", after: "b", title: "t".repeat(1025) }, "title exceeds maximum size (1024 bytes)."],
    ];
    for (const [params, message] of cases) {
      // The schema check (the host's) would stop the oversized title first; the tool itself
      // must still give previewd's message when it is called directly.
      const tool = resolveTool(host.registered, "diffs");
      await assert.rejects(tool.execute("c", params), (error) => {
        assert.equal(error.name, "ToolInputError");
        assert.equal(error.status, 400);
        assert.equal(error.message, message);
        return true;
      });
    }
    const call = await invokeTool(host.registered, "diffs", { before: "same\n", after: "same\n" });
    assert.ok(call.ok);
    assert.equal(call.result.details.changed, false);
    assert.equal(call.result.content[0].text, "Before and after are identical — no changes to render.");
  });

  test("an unreachable previewd is a tool failure, not the model's error", async () => {
    const { registered } = await loadPlugin({ previewdUrl: "http://127.0.0.1:9", fileDir });
    const call = await invokeTool(registered, "diffs", { before: "a", after: "b" });
    assert.equal(call.ok, false);
    assert.equal(call.name, "PreviewdError");
    assert.equal(call.status, 500);
    assert.match(call.message, /^previewd is unreachable at http:\/\/127\.0\.0\.1:9: /);
  });
});

describe("when the rendered file cannot be fetched", () => {
  // In front of previewd: the API call passes, the file route answers 503.
  let front;
  let frontUrl;
  before(async () => {
    front = http.createServer(async (req, res) => {
      if (req.url.startsWith("/plugins/diffs/file/")) {
        res.writeHead(503, { "content-type": "text/plain" }).end("unavailable");
        return;
      }
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const r = await fetch(`${previewd.url}${req.url}`, {
        method: req.method,
        headers: { "content-type": "application/json" },
        body: Buffer.concat(chunks),
      });
      res.writeHead(r.status, { "content-type": "application/json" }).end(Buffer.from(await r.arrayBuffer()));
    });
    await new Promise((resolve) => front.listen(0, "127.0.0.1", resolve));
    frontUrl = `http://127.0.0.1:${front.address().port}`;
  });
  after(() => new Promise((resolve) => front.close(resolve)));

  test("file mode fails and both keeps the viewer with fileError", async () => {
    const { registered } = await loadPlugin({ previewdUrl: frontUrl, fileDir });
    const file = await invokeTool(registered, "diffs", { before: "a\n", after: "z\n", mode: "file" });
    assert.equal(file.ok, false);
    assert.equal(file.name, "PreviewdError");
    assert.equal(file.message, "cannot fetch the rendered diff file from previewd: 503 unavailable");
    const both = await invokeTool(registered, "diffs", { before: "a\n", after: "z\n", mode: "both" });
    assert.ok(both.ok, both.message);
    const d = both.result.details;
    assert.ok(d.viewerUrl.startsWith(`${previewd.url}/plugins/diffs/view/`));
    assert.equal(d.fileError, "cannot fetch the rendered diff file from previewd: 503 unavailable");
    assert.equal(d.imageError, d.fileError);
    for (const field of ["filePath", "path", "imagePath", "fileUrl", "fileBytes"]) {
      assert.equal(d[field], undefined, `${field} is gone with the file`);
    }
    assert.match(both.result.content[0].text, /^Diff viewer: .*\nNo rendered file: cannot fetch/);
  });
});

describe("without a browser on previewd's side", () => {
  let bare;
  let native;
  before(async () => {
    // The Chromium engine chosen on purpose: its failure is what the plugin must map.
    bare = await startPreviewd({
      browser: { executable_path: "/nonexistent/chromium" },
      export: { engine: "chromium" },
    });
    // The default engine draws natively and needs no browser.
    native = await startPreviewd({ browser: { executable_path: "/nonexistent/chromium" } });
  });
  after(async () => {
    await bare?.stop();
    await native?.stop();
  });

  test("with the default (native) engine file mode still works", async () => {
    const { registered } = await loadPlugin({ previewdUrl: native.url, fileDir });
    const call = await invokeTool(registered, "diffs", { before: "a\n", after: "b\n", mode: "file" });
    assert.ok(call.ok, call.message);
    assert.ok(call.result.details.fileBytes > 0);
  });

  test("file mode fails with the contract's message and both keeps the viewer", async () => {
    const { registered } = await loadPlugin({ previewdUrl: bare.url, fileDir });
    const call = await invokeTool(registered, "diffs", { before: "a\n", after: "b\n", mode: "file" });
    assert.equal(call.ok, false);
    assert.notEqual(call.name, "ToolInputError");
    assert.ok(
      call.message.startsWith(
        "Diff PNG/PDF rendering requires a Chromium-compatible browser. Set browser.executablePath or install Chrome/Chromium. ",
      ),
      call.message,
    );
    const both = await invokeTool(registered, "diffs", { before: "a\n", after: "b\n", mode: "both" });
    assert.ok(both.ok, both.message);
    assert.equal((await fetch(both.result.details.viewerUrl)).status, 200);
    assert.match(both.result.details.fileError, /^Diff PNG\/PDF rendering requires/);
    assert.equal(both.result.details.imageError, both.result.details.fileError);
    assert.equal(both.result.details.filePath, undefined);
  });
});

describe("previewd behind the gateway (security.trusted_proxies)", () => {
  let proxied;
  let gateway;
  let gatewayUrl;
  let registered;
  before(async () => {
    proxied = await startPreviewd({ security: { trusted_proxies: ["127.0.0.1"] } });
    gateway = http.createServer();
    await new Promise((resolve) => gateway.listen(0, "127.0.0.1", resolve));
    gatewayUrl = `http://127.0.0.1:${gateway.address().port}`;
    ({ registered } = await loadPlugin({
      previewdUrl: proxied.url,
      viewerBaseUrl: `${gatewayUrl}/`,
      proxyViewer: true,
      fileDir,
    }));
    assert.equal(registered.routes.length, 1);
    const [route] = registered.routes;
    assert.deepEqual([route.path, route.match, route.auth], ["/plugins/diffs", "prefix", "plugin"]);
    gateway.on("request", async (req, res) => {
      if (req.url.startsWith(route.path) && (await route.handler(req, res))) return;
      res.writeHead(404).end("gateway: no route");
    });
  });
  after(async () => {
    await new Promise((resolve) => gateway?.close(resolve));
    await proxied?.stop();
  });

  test("previewd refuses a direct call without the client address", async () => {
    const r = await fetch(`${proxied.url}/api/v1/diffs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ before: "a", after: "b" }),
    });
    assert.equal(r.status, 404, "fails closed: the set-up below is what makes calls work");
  });

  test("links name the gateway, and viewer and file are served through it", async () => {
    const call = await invokeTool(registered, "diffs", { before: "p\n", after: "q\n", mode: "both" });
    assert.ok(call.ok, call.message);
    const d = call.result.details;
    assert.ok(d.viewerUrl.startsWith(`${gatewayUrl}/plugins/diffs/view/`), d.viewerUrl);
    assert.ok(d.fileUrl.startsWith(`${gatewayUrl}/plugins/diffs/file/`), d.fileUrl);
    const page = await fetch(d.viewerUrl);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-security-policy"), /default-src 'none'/);
    const file = await fetch(d.fileUrl);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get("content-type"), "image/png");
    assert.ok(Buffer.from(await file.arrayBuffer()).equals(fs.readFileSync(d.filePath)));
    const wrong = await fetch(d.fileUrl.replace(/[0-9a-f]{48}$/, "0".repeat(48)));
    assert.equal(wrong.status, 404);
    assert.equal(await wrong.text(), "Diff not found or expired");
    const post = await fetch(d.viewerUrl, { method: "POST" });
    assert.equal(post.status, 405);
  });
});

test("copies of expired artifacts are swept", async () => {
  const root = tempDir("gateway-sweep-");
  const old = await saveFile(root, {
    artifactId: "a".repeat(20),
    format: "png",
    expiresAt: new Date(Date.now() - 1000).toISOString(),
    bytes: PNG_SIGNATURE,
  });
  const live = await saveFile(root, {
    artifactId: "b".repeat(20),
    format: "pdf",
    expiresAt: new Date(Date.now() + 60_000).toISOString(),
    bytes: Buffer.from("%PDF-"),
  });
  assert.equal(await sweepExpired(root), 1);
  assert.equal(fs.existsSync(old), false);
  assert.equal(fs.existsSync(live), true);
  await assert.rejects(saveFile(root, { artifactId: "../x", format: "png", bytes: PNG_SIGNATURE }), /malformed/);
  fs.rmSync(root, { recursive: true, force: true });
});
