// Every word previewd draws, with its box and face: the instrument behind `words.py`,
// which matches them with LibreOffice's words (pdftotext -bbox) to find faces drawn
// wider or narrower than the reference, and text sitting elsewhere.
//
//   node words.js pptx PAGE.html [MAX_SLIDES=30]   (a deck page: one line per slide)
//   node words.js docx PAGE.html...                (document pages: page 1 of each)
//
// Prints JSON lines {name, slide, words: [[text, x, y, w, h, family, style, weight]]},
// boxes in points from the slide's or page's top left. Needs playwright-core (NODE_PATH)
// and /usr/bin/chromium, as shoot.js.
"use strict";
const path = require("path");
const { chromium } = require("playwright-core");

const [mode, ...rest] = process.argv.slice(2);
if (mode !== "pptx" && mode !== "docx") {
  console.error("usage: node words.js pptx PAGE.html [MAX] | docx PAGE.html...");
  process.exit(2);
}

// The words of the text under `root`, in points (`k` points per CSS px) from `origin`.
function collect(root, origin, k) {
  const out = [];
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let n;
  while ((n = walk.nextNode())) {
    const el = n.parentElement;
    if (el.closest("svg, template")) continue;
    const cs = getComputedStyle(el);
    const re = /\S+/g;
    let m;
    while ((m = re.exec(n.data))) {
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const rs = range.getClientRects();
      if (rs.length !== 1 || !rs[0].width) continue;
      const r = rs[0];
      out.push([m[0], (r.left - origin.left) * k, (r.top - origin.top) * k, r.width * k, r.height * k,
        cs.fontFamily.split(",")[0].replace(/['"]/g, "").trim(), cs.fontStyle, cs.fontWeight]);
    }
  }
  return out;
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--font-render-hinting=none"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1300, height: 1100 } });
    const files = mode === "pptx" ? [rest[0]] : rest;
    for (const f of files) {
      const name = path.basename(f, ".html");
      try {
        await page.goto("file://" + path.resolve(f), { waitUntil: "load", timeout: 30000 });
        if (mode === "pptx") {
          const count = await page.evaluate(() => parseInt(document.querySelector("[data-pptx]")?.getAttribute("data-count") || "0", 10));
          for (let s = 1; s <= Math.min(count, parseInt(rest[1] || "30", 10)); s++) {
            await page.evaluate((s) => { location.hash = "#slide-" + s; }, s);
            await page.waitForTimeout(100);
            const words = await page.evaluate(`(async () => { await document.fonts.ready;
              const stage = document.querySelector(".pptx-slide.is-current .pptx-stage");
              if (!stage) return [];
              const r = stage.getBoundingClientRect();
              const k = (parseFloat(getComputedStyle(stage).getPropertyValue("--sw")) || 960) / r.width;
              return (${collect})(stage, r, k); })()`);
            console.log(JSON.stringify({ name, slide: s, words }));
          }
        } else {
          const words = await page.evaluate(`(async () => { await document.fonts.ready;
            const settled = () => { const t = Number(document.documentElement.dataset.docxPaginated || 0); return t > 0 && Date.now() - t > 500; };
            for (let i = 0; i < 200 && !settled(); i++) await new Promise((r) => setTimeout(r, 50));
            const pg = document.querySelector(".docx-page");
            if (!pg) return [];
            return (${collect})(pg, pg.getBoundingClientRect(), 0.75); })()`);
          console.log(JSON.stringify({ name, slide: 1, words }));
        }
      } catch (e) {
        console.log(JSON.stringify({ name, error: String(e) }));
      }
    }
  } finally {
    await browser.close();
  }
})();
