// SheetJS baseline for benches/sheet_compare.sh: read a workbook and render every sheet
// with sheet_to_html (the chat client's current XLSX preview). Run from a folder where
// `npm install xlsx` was done: node sheet_sheetjs.js IN.xlsx OUT.html
const XLSX = require("xlsx");
const fs = require("fs");
const wb = XLSX.readFile(process.argv[2], { cellStyles: true, cellNF: true });
let html = "";
for (const name of wb.SheetNames) html += XLSX.utils.sheet_to_html(wb.Sheets[name]);
fs.writeFileSync(process.argv[3], html);
console.log(wb.SheetNames.length + " sheets, " + html.length + " bytes of HTML");
