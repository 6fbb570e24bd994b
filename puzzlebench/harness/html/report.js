"use strict";
// The report's behaviour: sortable and filterable tables, the per-puzzle table drawn a page
// at a time from the embedded JSON, and a puzzle's page (#puzzle/K) from its chunk file.
const DATA = JSON.parse(document.getElementById("data").textContent);
const PAGE_ROWS = 100;
const PB = { chunks: {}, waiting: {} };
window.PB = PB;

function cellValue(td) {
  const v = td.getAttribute("data-v");
  const n = Number(v);
  return v === "" || v === null ? null : (isNaN(n) ? v : n);
}

function compareValues(a, b) {
  if (a === null && b === null) return 0;
  if (a === null) return 1;            // missing values last, whichever the direction
  if (b === null) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return COLLATOR.compare(String(a), String(b));
}

const COLLATOR = new Intl.Collator(undefined, { numeric: true });   // one, not one a comparison

function markSorted(th, direction) {
  for (const other of th.parentNode.children) other.classList.remove("asc", "desc");
  th.classList.add(direction > 0 ? "asc" : "desc");
}

function sortStatic(table, column, th) {
  const direction = th.classList.contains("asc") ? -1 : 1;
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  rows.sort((x, y) => {
    const a = cellValue(x.cells[column]), b = cellValue(y.cells[column]);
    if (a === null || b === null) return compareValues(a, b);
    return direction * compareValues(a, b);
  });
  for (const row of rows) body.appendChild(row);
  markSorted(th, direction);
}

function setUpStaticTables() {
  for (const table of document.querySelectorAll("table.sortable")) {
    Array.from(table.tHead.rows[0].cells).forEach((th, column) =>
      th.addEventListener("click", () => sortStatic(table, column, th)));
  }
}

function setUpFilters() {
  for (const box of document.querySelectorAll(".filters")) {
    const section = document.getElementById(box.getAttribute("data-for"));
    const rows = Array.from(section.querySelectorAll("tr[data-solver]"));
    const solvers = [...new Set(rows.map(r => r.getAttribute("data-solver")))];
    const label = document.createElement("span");
    label.textContent = "solvers: ";
    box.appendChild(label);
    const checks = solvers.map(name => {
      const l = document.createElement("label");
      const input = document.createElement("input");
      input.type = "checkbox"; input.checked = true; input.value = name;
      input.className = "solver-filter";
      l.appendChild(input); l.appendChild(document.createTextNode(" " + name));
      box.appendChild(l);
      return input;
    });
    const status = document.createElement("select");
    status.className = "status-filter";
    for (const [value, text] of [["", "any status"], ["has-timeouts", "with timeouts"], ["has-errors", "with errors"],
                                 ["has-wrong", "with wrong answers"], ["clean", "every puzzle solved"]]) {
      const option = document.createElement("option");
      option.value = value; option.textContent = text; status.appendChild(option);
    }
    box.appendChild(status);
    const apply = () => {
      const shown = new Set(checks.filter(c => c.checked).map(c => c.value));
      for (const row of rows) {
        const flags = row.getAttribute("data-status");
        const wanted = status.value === "" || (status.value === "clean" ? flags === "" || flags === null
                                                                          : (flags || "").split(" ").includes(status.value));
        row.hidden = !(shown.has(row.getAttribute("data-solver")) && (wanted || flags === null));
      }
    };
    for (const c of checks) c.addEventListener("change", apply);
    status.addEventListener("change", apply);
  }
}

// -- the per-puzzle table ------------------------------------------------------------------------

const table = { order: [], page: 0, key: null, direction: 1, solvers: DATA.solvers.map(() => true) };

function puzzleColumns() {
  const columns = [
    { label: "set", value: i => DATA.sets[DATA.set[i]], text: i => DATA.sets[DATA.set[i]] },
    { label: "line", value: i => DATA.line[i], text: i => String(DATA.line[i]) },
    { label: "kind", value: i => DATA.kind[i], text: i => DATA.kind[i] || "-" },
  ];
  DATA.solvers.forEach((name, j) => {
    if (!table.solvers[j]) return;
    const status = i => DATA.status[j][i] === null ? null : DATA.statuses[DATA.status[j][i]];
    columns.push({ label: name + " status", value: status, text: i => status(i) || "-", status: true });
    columns.push({ label: name + " ms", value: i => DATA.time[j][i],
                   text: i => DATA.time[j][i] === null ? "-" : formatMs(DATA.time[j][i]) });
    columns.push({ label: name + " nodes", value: i => DATA.search[j][i],
                   text: i => DATA.search[j][i] === null ? "-" : String(DATA.search[j][i]) });
  });
  return columns;
}

function formatMs(seconds) {
  const ms = seconds * 1000;
  return ms < 100 ? ms.toPrecision(3) : ms.toFixed(0);
}

function filterPuzzles() {
  const quick = Number(document.getElementById("quick").value);
  const set = Number(document.getElementById("pset").value);
  const order = [];
  for (let i = 0; i < DATA.set.length; i++) {
    if ((quick === 0 || (DATA.flags[i] & quick)) && (set < 0 || DATA.set[i] === set)) order.push(i);
  }
  table.order = order;
  sortPuzzles();
}

function sortPuzzles() {
  if (table.key !== null) {
    const column = puzzleColumns().find(c => c.label === table.key);
    if (column) {
      const values = ranked(new Map(table.order.map(i => [i, column.value(i)])));
      const d = table.direction;
      table.order.sort((x, y) => {
        const a = values.get(x), b = values.get(y);
        return a === null || a === undefined || b === null || b === undefined
          ? compareValues(a ?? null, b ?? null) : d * compareValues(a, b) || x - y;
      });
    }
  }
  table.page = Math.min(table.page, Math.max(0, Math.ceil(table.order.length / PAGE_ROWS) - 1));
  drawPuzzles();
}

function ranked(values) {
  // texts replaced by their rank among the column's distinct texts: 50,000 rows compare numbers
  const texts = [...new Set([...values.values()].filter(v => typeof v === "string"))].sort(compareValues);
  if (!texts.length) return values;
  const rank = new Map(texts.map((t, k) => [t, k]));
  for (const [i, v] of values) if (typeof v === "string") values.set(i, rank.get(v));
  return values;
}

function drawPuzzles() {
  const columns = puzzleColumns();
  const element = document.getElementById("ptable");
  const head = document.createElement("tr");
  for (const column of columns) {
    const th = document.createElement("th");
    th.textContent = column.label;
    if (column.label === table.key) th.className = table.direction > 0 ? "asc" : "desc";
    th.addEventListener("click", () => {
      table.direction = table.key === column.label ? -table.direction : 1;
      table.key = column.label;
      sortPuzzles();
    });
    head.appendChild(th);
  }
  element.tHead.replaceChildren(head);
  const body = document.createDocumentFragment();
  const start = table.page * PAGE_ROWS;
  for (const i of table.order.slice(start, start + PAGE_ROWS)) {
    const tr = document.createElement("tr");
    tr.dataset.puzzle = i;
    for (const column of columns) {
      const td = document.createElement("td");
      const text = column.text(i);
      td.textContent = text;
      if (column.status) td.className = "st-" + text;
      tr.appendChild(td);
    }
    tr.addEventListener("click", () => { location.hash = "#puzzle/" + i; });
    body.appendChild(tr);
  }
  element.tBodies[0].replaceChildren(body);
  const pages = Math.max(1, Math.ceil(table.order.length / PAGE_ROWS));
  document.getElementById("pcount").textContent = table.order.length + " of " + DATA.set.length + " puzzles";
  document.getElementById("ppage").textContent = " page " + (table.page + 1) + " of " + pages + " ";
  document.getElementById("prev").disabled = table.page === 0;
  document.getElementById("next").disabled = table.page >= pages - 1;
}

function setUpPuzzles() {
  const sets = document.getElementById("pset");
  DATA.sets.forEach((name, k) => {
    const option = document.createElement("option");
    option.value = k; option.textContent = name; sets.appendChild(option);
  });
  const boxes = document.getElementById("psolvers");
  DATA.solvers.forEach((name, j) => {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "checkbox"; input.checked = true;
    input.addEventListener("change", () => { table.solvers[j] = input.checked; drawPuzzles(); });
    label.appendChild(input); label.appendChild(document.createTextNode(" " + name));
    boxes.appendChild(label);
  });
  document.getElementById("quick").addEventListener("change", () => { table.page = 0; filterPuzzles(); });
  sets.addEventListener("change", () => { table.page = 0; filterPuzzles(); });
  document.getElementById("prev").addEventListener("click", () => { table.page--; drawPuzzles(); });
  document.getElementById("next").addEventListener("click", () => { table.page++; drawPuzzles(); });
  filterPuzzles();
}

// -- a puzzle's page -----------------------------------------------------------------------------

PB.chunk = function (number, puzzles) {
  PB.chunks[number] = puzzles;
  for (const show of PB.waiting[number] || []) show();
  delete PB.waiting[number];
};

function withChunk(number, show) {
  if (PB.chunks[number]) return show();
  if (PB.waiting[number]) return PB.waiting[number].push(show);
  PB.waiting[number] = [show];
  const script = document.createElement("script");
  script.src = "puzzles/chunk-" + number + ".js";
  script.onerror = () => { document.getElementById("pnote").textContent = "The file " + script.src + " is missing beside the page."; };
  document.head.appendChild(script);
}

function drawing(target, drawn, caption) {
  target.replaceChildren();
  if (!drawn) return;
  if (drawn.svg) target.innerHTML = drawn.svg;   // made by the kind's own drawing, its texts escaped
  else { const pre = document.createElement("pre"); pre.textContent = drawn.pre; target.appendChild(pre); }
  const c = document.createElement("figcaption"); c.textContent = caption; target.appendChild(c);
}

function shown(key, value) {
  if (value === undefined || value === null) return "-";
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => k + " " + v).join(", ");
  if (/^t_/.test(key) && typeof value === "number") return formatMs(value) + " ms";
  return String(value);
}

function recordsTable(records) {
  // every solver's full record side by side: a row a field, a column a solver
  const t = document.createElement("table");
  t.className = "records";
  const head = t.createTHead().insertRow();
  head.appendChild(document.createElement("th")).textContent = "field";
  for (const r of records) head.appendChild(document.createElement("th")).textContent = r.solver;
  const keys = [...new Set(records.flatMap(r => Object.keys(r)))].filter(k => k !== "solver");
  const body = t.createTBody();
  for (const key of keys) {
    const tr = body.insertRow();
    tr.appendChild(document.createElement("th")).textContent = key;
    for (const r of records) {
      const td = tr.insertCell();
      td.textContent = shown(key, r[key]);
      if (key === "status") td.className = "st-" + r[key];
      if (key === "error" && r[key]) td.className = "error";
    }
  }
  return t;
}

function showPuzzle(i) {
  const title = document.getElementById("ptitle");
  title.textContent = DATA.sets[DATA.set[i]] + ", line " + DATA.line[i] + " (" + (DATA.kind[i] || "?") + ", " + DATA.hash[i] + ")";
  withChunk(Math.floor(i / DATA.chunk), () => {
    const puzzle = PB.chunks[Math.floor(i / DATA.chunk)][i];
    const drawn = puzzle.drawing;
    document.getElementById("pnote").textContent = drawn.note || "";
    drawing(document.getElementById("pdraw"), drawn.puzzle || (drawn.text ? { pre: drawn.text } : null), "the puzzle");
    drawing(document.getElementById("psol"), drawn.solution || (drawn.solution_text && !drawn.puzzle ? { pre: drawn.solution_text } : null), "its verified solution");
    document.getElementById("precords").replaceChildren(recordsTable(puzzle.records));
  });
}

function route() {
  const match = /^#puzzle\/(\d+)$/.exec(location.hash);
  document.getElementById("puzzle").hidden = !match;
  document.getElementById("report").hidden = !!match;
  if (match) { showPuzzle(Number(match[1])); window.scrollTo(0, 0); }
  else if (location.hash) { const to = document.getElementById(location.hash.slice(1)); if (to) to.scrollIntoView(); }
}

setUpStaticTables();
setUpFilters();
setUpPuzzles();
window.addEventListener("hashchange", route);
route();
