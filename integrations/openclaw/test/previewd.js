// A real `previewd serve` for the tests: the binary from TEST_PREVIEWD_BIN (the Rust test
// `tests/openclaw_plugin.rs` passes cargo's), a free loopback port, a temporary workspace,
// diff store and config file. A missing binary fails the tests; it never skips them.

import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** TOML for `{ table: { key: value } }` (strings, booleans, numbers, arrays of strings). */
function toml(sections) {
  return Object.entries(sections)
    .map(([table, keys]) => [`[${table}]`, ...Object.entries(keys).map(([k, v]) => `${k} = ${JSON.stringify(v)}`)].join("\n"))
    .join("\n\n");
}

/** Starts previewd with config `sections`; resolves to `{ url, dataDir, stop }`. */
export async function startPreviewd(sections = {}) {
  const bin = process.env.TEST_PREVIEWD_BIN;
  if (!bin || !fs.existsSync(bin)) {
    throw new Error("set TEST_PREVIEWD_BIN to a built previewd binary (cargo test --test openclaw_plugin does)");
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "previewd-openclaw-"));
  const workspace = path.join(dir, "ws");
  const dataDir = path.join(dir, "diffs");
  fs.mkdirSync(workspace);
  const configFile = path.join(dir, "previewd.toml");
  const all = { ...sections, diffs: { ...(sections.diffs ?? {}), data_dir: dataDir } };
  fs.writeFileSync(configFile, `${toml(all)}\n`);
  const port = await freePort();
  // The log goes to a file, not a pipe, and the child is unref'd, so a failing test can
  // never keep the runner alive; whatever is still running is killed when it exits.
  const logFile = path.join(dir, "previewd.log");
  const log = fs.openSync(logFile, "w");
  const child = spawn(bin, ["serve", "--config", configFile, "--workspace", workspace, "--listen", `127.0.0.1:${port}`], {
    stdio: ["ignore", log, log],
    env: { ...process.env, NO_COLOR: "1" },
  });
  fs.closeSync(log);
  child.unref();
  const kill = () => child.kill("SIGTERM");
  process.once("exit", kill);
  const stderr = () => fs.readFileSync(logFile, "utf8").slice(-4000);
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`previewd exited: ${stderr()}`);
    try {
      // Any answer means it listens (behind a trusted proxy, a bare /healthz is refused).
      await fetch(`${url}/healthz`);
      break;
    } catch {
      // not listening yet
    }
    if (i > 300) {
      child.kill("SIGTERM");
      throw new Error(`previewd did not start: ${stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    dataDir,
    async stop() {
      process.off("exit", kill);
      // Waiting for the exit must keep the runner alive.
      child.ref();
      kill();
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
