// Screenshots page 1 of a standalone previewd document page (`previewd preview file.docx
// --format html`) in headless Chromium: the viewport is the first page's width (plus a
// margin), the page frame is shown at its real size (no shrink-to-pane, no shadow), and the
// capture is cropped to the page box: its width and the section's page height from the top
// of the frame (the page's script breaks a frame into pages where its text runs past the
// page; the harness waits for it, and page 1 is the first frame's page height).
//
//   node shoot_docx.js PAGE.html OUT.png   ->  prints {"width": W, "height": H} (px)
//
// Needs playwright-core (NODE_PATH pointing at its node_modules) and /usr/bin/chromium.
"use strict";
const path = require("path");
const { chromium } = require("playwright-core");

const [page_, out] = process.argv.slice(2);
if (!page_ || !out) {
  console.error("usage: node shoot_docx.js PAGE.html OUT.png");
  process.exit(2);
}

const CSS = `
  html, body { margin: 0 !important; background: #fff !important; }
  .docx { padding: 0 !important; background: #fff !important; }
  .docx-page { max-width: none !important; box-shadow: none !important; margin: 0 !important; }
  *, *::before, *::after { animation: none !important; transition: none !important; caret-color: transparent !important; }
`;

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--font-render-hinting=none", "--hide-scrollbars"],
  });
  try {
    const context = await browser.newContext({
      viewport: { width: 1300, height: 1100 },
      deviceScaleFactor: 1,
      colorScheme: "light",
    });
    const page = await context.newPage();
    await page.goto("file://" + path.resolve(page_), { waitUntil: "load" });
    await page.addStyleTag({ content: CSS });
    const box = await page.evaluate(async () => {
      const p = document.querySelector(".docx-page");
      if (!p) return null;
      const pt = (name) => {
        const v = getComputedStyle(p).getPropertyValue(name).trim();
        return v.endsWith("pt") ? (parseFloat(v) * 96) / 72 : parseFloat(v);
      };
      await Promise.all(Array.from(document.images).map((im) => (im.decode ? Promise.race([im.decode().catch(() => {}), new Promise((r) => setTimeout(r, 2000))]) : null)));
      await document.fonts.ready;
      // The page's script breaks the first frame into pages once the fonts are in (and
      // again if a face loads late): wait until it has not done so for half a second.
      const settled = () => {
        const t = Number(document.documentElement.dataset.docxPaginated || 0);
        return t > 0 && Date.now() - t > 500;
      };
      for (let i = 0; i < 200 && !settled(); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const r = p.getBoundingClientRect();
      return {
        x: r.left + window.scrollX,
        y: r.top + window.scrollY,
        width: Math.round(r.width),
        height: Math.round(pt("--page-h") || r.height),
      };
    });
    if (!box) throw new Error("no .docx-page in the page");
    // Wide pages (landscape) need a wider viewport so nothing reflows.
    await page.setViewportSize({ width: Math.max(1300, box.width + 40), height: 1100 });
    await page.screenshot({ path: out, fullPage: true, clip: { x: box.x, y: box.y, width: box.width, height: box.height } });
    console.log(JSON.stringify({ width: box.width, height: box.height }));
  } finally {
    await browser.close();
  }
})().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
