// explorer.js — the controls, the address (#shfl:... / #bank:...) and the SVG pictures.
// The rules themselves are in model.js. Bad input draws no picture, only a message by its control.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

function el(tag, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// ------------------------------------------------------------------------------------------------
// The address
// ------------------------------------------------------------------------------------------------
function readHash() {
  const raw = location.hash.replace(/^#/, "");
  let h;
  try { h = decodeURIComponent(raw); } catch (e) { h = raw; }  // a malformed %-escape: read it as typed
  const m = /^(shfl|bank):(.*)$/.exec(h);
  if (!m) return null;
  const params = Object.create(null);  // a key such as __proto__ is a plain key here
  for (const part of m[2].split(",")) {
    const i = part.indexOf("=");
    if (i > 0) params[part.slice(0, i)] = part.slice(i + 1);
  }
  return {view: m[1], params};
}

// The address follows the controls a moment after the last change (browsers limit how often a
// page may rewrite it); the picture itself is drawn at once.
let writingHash = false, hashTimer = null, lastState = "";
function stateText(view, params) {
  return "#" + view + ":" + Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/g, ",")}`).join(",");
}
function writeHash(view, params) {
  lastState = stateText(view, params);
  clearTimeout(hashTimer);
  const before = location.hash;
  hashTimer = setTimeout(() => {
    // A link followed meanwhile (the address changed under us) wins over the controls' old state.
    if (location.hash === lastState || location.hash !== before) return;
    writingHash = true;
    try { history.replaceState(null, "", lastState); } catch (e) { /* the address stays as it was */ }
    writingHash = false;
  }, 120);
}

function showView(view) {
  for (const v of ["shfl", "bank"]) {
    $("view-" + v).hidden = v !== view;
    $("tab-" + v).setAttribute("aria-selected", v === view ? "true" : "false");
  }
  document.body.dataset.view = view;
}

function setError(id, msg) {
  const e = $(id + "-err");
  e.textContent = msg || "";
  $(id).classList.toggle("bad", !!msg);
  $(id).setAttribute("aria-invalid", msg ? "true" : "false");
}

// A <select> given a value from the address that none of its options has selects nothing and
// reads ""; the value asked for is kept, for the message beside the control and for the address.
function setSelect(id, value) {
  const e = $(id);
  if ([...e.options].some((o) => o.value === value)) { e.value = value; delete e.dataset.asked; }
  else { e.selectedIndex = -1; e.dataset.asked = value; }
}
function selectValue(id) {
  const e = $(id);
  if (e.selectedIndex >= 0) { delete e.dataset.asked; return {v: e.value}; }
  return {asked: e.dataset.asked || ""};
}
function optionList(id) {
  return [...$(id).options].map((o) => o.value).join(", ");
}

function parseIntIn(text, lo, hi, what) {
  const t = text.trim();
  if (!/^[0-9]+$/.test(t)) return {err: `${what} must be a whole number from ${lo} to ${hi}`};
  const v = Number(t);
  if (v < lo || v > hi) return {err: `${what} ${v} is out of range [${lo}, ${hi}]`};
  return {v};
}

// ------------------------------------------------------------------------------------------------
// Shuffles
// ------------------------------------------------------------------------------------------------
const SH = {lane: 28, gap: 2, left: 96, top: 34, rowGap: 150, box: 26};

function shflInput() {
  const sel = selectValue("shfl-op");
  const known = sel.v !== undefined && Object.prototype.hasOwnProperty.call(WarpModel.OPS, sel.v);
  const op = known ? sel.v : (sel.v !== undefined ? sel.v : sel.asked);
  const argName = known ? WarpModel.OPS[op].arg : "arg";
  setError("shfl-op", known ? "" : `op '${op}' is not one of ${optionList("shfl-op")}`);
  $("shfl-arg-name").textContent = argName;
  let ok = known;
  const a = parseIntIn($("shfl-arg").value, 0, 32, argName);
  setError("shfl-arg", a.err); ok = ok && !a.err;
  const wt = $("shfl-width").value.trim();
  let width = null, werr = "";
  if (!/^[0-9]+$/.test(wt)) werr = "width must be a whole number: 1, 2, 4, 8, 16 or 32";
  else if (Number(wt) < 1 || Number(wt) > 32) werr = `width ${Number(wt)} is out of range [1, 32]`;
  else if (!WarpModel.validWidth(Number(wt))) werr = `width ${Number(wt)} is not a power of two (1, 2, 4, 8, 16 or 32)`;
  else width = Number(wt);
  setError("shfl-width", werr); ok = ok && !werr;
  const mt = $("shfl-mask").value.trim();
  const mask = WarpModel.parseMask(mt);
  let merr = "";
  if (mask === null) merr = "mask expects 0x and 1 to 8 hex digits, or a decimal number below 2^32";
  else if (mask === 0) merr = "mask 0 names no lane: no lane would call the shuffle";
  setError("shfl-mask", merr); ok = ok && !merr;
  writeHash("shfl", {op, arg: $("shfl-arg").value.trim(), width: wt, mask: mt});
  return ok ? {op, arg: a.v, width, mask} : null;
}

function renderShfl() {
  try { drawShfl(); } finally { rendered(); }
}
function drawShfl() {
  const s = shflInput();
  const pic = $("shfl-picture");
  pic.textContent = "";
  if (!s) {
    $("shfl-call").textContent = "Fix the input marked above: no picture is drawn for it.";
    $("shfl-call").className = "call bad";
    $("shfl-table").textContent = "";
    pic.dataset.state = "invalid";
    return;
  }
  const r = WarpModel.predict(s);
  const o = WarpModel.OPS[s.op];
  $("shfl-call").className = "call";
  $("shfl-call").textContent = `${o.intrinsic}(${WarpModel.hex8(s.mask)}, var, ${s.arg}, ${s.width}): ` +
    `${32 / s.width} sub-group${s.width < 32 ? "s" : ""} of ${s.width} lane${s.width > 1 ? "s" : ""}; ` +
    `lane l passes var = ${WarpModel.kValueBase} + l, so each value names the lane it came from.`;
  $("shfl-table").textContent = WarpModel.table(s, r);

  const W = SH.left + 32 * SH.lane + 20, H = SH.top + SH.rowGap + SH.box + 64;
  const svg = el("svg", {id: "shfl-svg", width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": "32 lanes, an arrow from each lane's source lane",
    "data-op": s.op, "data-arg": s.arg, "data-width": s.width, "data-mask": WarpModel.hex8(s.mask)});
  const defs = el("defs", {}, svg);
  for (const [id, cls] of [["head-read", "read"], ["head-undefined", "undefined"]]) {
    const m = el("marker", {id, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse"}, defs);
    el("path", {d: "M0,0 L10,5 L0,10 z", class: "head " + cls}, m);
  }
  const pat = el("pattern", {id: "hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)"}, defs);
  el("line", {x1: 0, y1: 0, x2: 0, y2: 6, class: "hatch"}, pat);

  const x = (l) => SH.left + l * SH.lane;
  const yTop = SH.top, yBot = SH.top + SH.rowGap;
  // sub-group bands
  for (let g = 0; g < 32 / s.width; ++g) {
    const x0 = x(g * s.width) - 1, w = s.width * SH.lane;
    el("rect", {x: x0, y: yTop - 20, width: w, height: yBot + SH.box + 24 - (yTop - 20), class: "band" + (g % 2)}, svg);
    if (s.width >= 4 || g === 0)
      el("text", {x: x0 + 3, y: H - 8, class: "small"}, svg, s.width >= 4 ? `sub-group ${g}` : `sub-groups of ${s.width}`);
  }
  el("text", {x: 4, y: yTop + 17, class: "rowlabel"}, svg, "var (lane)");
  el("text", {x: 4, y: yBot + 17, class: "rowlabel"}, svg, "got");
  el("text", {x: 4, y: yTop - 6, class: "small"}, svg, "lane");
  for (let l = 0; l < 32; ++l) {
    const inMask = ((s.mask >>> l) & 1) === 1;
    el("text", {x: x(l) + SH.box / 2, y: yTop - 6, class: "small mid"}, svg, String(l));
    const g = el("g", {class: "src-lane", "data-lane": l}, svg);
    el("rect", {x: x(l), y: yTop, width: SH.box, height: SH.box, class: "lane " + (inMask ? "in" : "notinmask"), "data-lane": l}, g);
    el("text", {x: x(l) + SH.box / 2, y: yTop + 17, class: "val mid"}, g, String(WarpModel.kValueBase + l));
  }
  // arrows first, boxes on top
  for (let l = 0; l < 32; ++l) {
    const t = r[l];
    if (t.state === "notinmask") continue;
    el("line", {x1: x(t.src) + SH.box / 2, y1: yTop + SH.box + 2, x2: x(l) + SH.box / 2, y2: yBot - 3,
      class: "arrow " + t.state, "marker-end": `url(#head-${t.state})`, "data-lane": l, "data-src": t.src}, svg);
  }
  for (let l = 0; l < 32; ++l) {
    const t = r[l];
    const apart = t.state === "notinmask" ? 14 : 0;  // lanes outside the mask sit lower, apart
    const g = el("g", {class: "dst-lane", "data-lane": l, "data-state": t.state, "data-src": t.src, "data-got": WarpModel.got(t)}, svg);
    el("rect", {x: x(l), y: yBot + apart, width: SH.box, height: SH.box, class: "lane " + t.state, "data-lane": l}, g);
    el("text", {x: x(l) + SH.box / 2, y: yBot + apart + 17, class: "got mid " + t.state, "data-lane": l}, g, WarpModel.got(t));
    el("text", {x: x(l) + SH.box / 2, y: yBot + SH.box + apart + 12, class: "small mid"}, g, String(l));
  }
  pic.appendChild(svg);
  pic.dataset.state = "drawn";
}

// The state just drawn (or refused), for a reader of the page that waits for the picture.
function rendered() { document.body.dataset.rendered = decodeURIComponent(lastState); }

// ------------------------------------------------------------------------------------------------
// Banks
// ------------------------------------------------------------------------------------------------
// 32 banks: 8 colour-blind-safe hues (Okabe-Ito and Paul Tol) for bank % 8, four lightness steps
// for bank / 8; the number is always printed too. Vermillion is kept for conflicts.
const HUES = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#F0E442", "#882255", "#999933"];
const LIGHT = [0, 0.35, 0.6, 0.8];
function mix(hex, t) {
  const n = parseInt(hex.slice(1), 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.round(v + (255 - v) * t));
  return "#" + c.map((v) => v.toString(16).padStart(2, "0")).join("");
}
const BANK_COLOURS = Array.from({length: 32}, (_, b) => mix(HUES[b % 8], LIGHT[Math.floor(b / 8)]));
function inkFor(hex) {
  const n = parseInt(hex.slice(1), 16);
  const lum = 0.2126 * ((n >> 16) & 255) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255);
  return lum < 140 ? "#ffffff" : "#000000";
}

function bankInput() {
  let ok = true;
  const get = (id, lo, hi, what) => {
    const r = parseIntIn($(id).value, lo, hi, what);
    setError(id, r.err);
    ok = ok && !r.err;
    return r.v;
  };
  const rows = get("bank-rows", 1, 64, "rows");
  const cols = get("bank-cols", 1, 64, "columns");
  const sizeSel = selectValue("bank-size");
  const size = sizeSel.v !== undefined ? Number(sizeSel.v) : null;
  setError("bank-size", size === 4 || size === 8 ? "" :
    `element size '${sizeSel.v !== undefined ? sizeSel.v : sizeSel.asked}' is not one of ${optionList("bank-size")} (bytes)`);
  ok = ok && (size === 4 || size === 8);
  const pad = get("bank-pad", 0, 32, "padding");
  let swz = get("bank-swz", 0, 63, "swizzle mask");
  if (ok && swz > 0 && ((cols & (cols - 1)) !== 0 || swz >= cols)) {
    setError("bank-swz", `column ^ (row & ${swz}) must stay inside the row: the columns (${cols}) must be a power of two above the mask`);
    ok = false;
  }
  const accessSel = selectValue("bank-access");
  const access = accessSel.v !== undefined ? accessSel.v : accessSel.asked;
  const accessKnown = ["row", "col", "expr"].includes(access) && accessSel.v !== undefined;
  setError("bank-access", accessKnown ? "" : `access '${access}' is not one of ${optionList("bank-access")}`);
  ok = ok && accessKnown;
  document.body.dataset.access = access;
  const params = {rows: $("bank-rows").value.trim(), cols: $("bank-cols").value.trim(),
    size: sizeSel.v !== undefined ? sizeSel.v : sizeSel.asked,
    pad: $("bank-pad").value.trim(), swz: $("bank-swz").value.trim(), access};
  let offsets = null, logical = null;
  setError("bank-row", ""); setError("bank-col", ""); setError("bank-expr", "");
  const stride = ok ? cols + pad : 0;
  const phys = (r, c) => r * stride + (c ^ (r & swz));
  if (access === "expr") {
    params.expr = $("bank-expr").value;
    let f = null;
    try { f = Expr.parse($("bank-expr").value); } catch (e) { setError("bank-expr", "does not parse: " + e.message); ok = false; }
    if (f && ok) {
      offsets = [];
      const total = rows * stride;
      for (let lane = 0; lane < 32 && ok; ++lane) {
        let v;
        try { v = f(lane); } catch (e) { setError("bank-expr", `lane ${lane}: ${e.message}`); ok = false; break; }
        if (!Number.isSafeInteger(v) || v < 0 || v >= total) {
          setError("bank-expr", `lane ${lane} gives ${v}: outside the tile's ${total} elements (0 to ${total - 1})`);
          ok = false;
        }
        offsets.push(v);
      }
    }
  } else if (accessKnown) {
    params.row = $("bank-row").value.trim();
    params.col = $("bank-col").value.trim();
    const r0 = parseIntIn($("bank-row").value, 0, 63, "row");
    const c0 = parseIntIn($("bank-col").value, 0, 63, "column");
    setError("bank-row", r0.err); setError("bank-col", c0.err);
    ok = ok && !r0.err && !c0.err;
    if (ok && r0.v >= rows) { setError("bank-row", `row ${r0.v} is past the tile's last row, ${rows - 1}`); ok = false; }
    if (ok && c0.v >= cols) { setError("bank-col", `column ${c0.v} is past the tile's last column, ${cols - 1}`); ok = false; }
    if (ok) {
      offsets = []; logical = [];
      for (let lane = 0; lane < 32; ++lane) {
        let r, c;
        if (access === "row") { const lin = r0.v * cols + c0.v + lane; r = Math.floor(lin / cols); c = lin % cols; }
        else { const lin = c0.v * rows + r0.v + lane; c = Math.floor(lin / rows); r = lin % rows; }
        if (r >= rows || c >= cols) {
          setError(access === "row" ? "bank-row" : "bank-col",
            `lane ${lane} would read past the tile: 32 elements in ${access === "row" ? "row" : "column"} order from (${r0.v}, ${c0.v}) do not fit`);
          ok = false; break;
        }
        logical.push([r, c]);
        offsets.push(phys(r, c));
      }
    }
  }
  writeHash("bank", params);
  return ok ? {rows, cols, size, pad, swz, access, offsets, logical} : null;
}

function renderBank() {
  try { drawBank(); } finally { rendered(); }
}
function drawBank() {
  const s = bankInput();
  const pic = $("bank-picture"), load = $("bank-load"), coll = $("bank-collisions"), sum = $("bank-summary");
  pic.textContent = ""; load.textContent = ""; coll.textContent = "";
  for (const k of ["wavefronts", "nway", "ideal"]) delete sum.dataset[k];
  if (!s) {
    sum.textContent = "Fix the input marked above: no picture is drawn for it.";
    sum.className = "call bad";
    pic.dataset.state = "invalid";
    return;
  }
  const bytes = s.offsets.map((o) => o * s.size);
  const a = BankModel.analyse(bytes, s.size);
  sum.className = "call";
  sum.dataset.wavefronts = a.wavefronts; sum.dataset.nway = a.nway; sum.dataset.ideal = a.ideal;
  const groups = a.groups.length;
  sum.innerHTML = "";
  const strong = document.createElement("strong");
  strong.id = "bank-nway";
  strong.textContent = a.nway === 1 ? "no bank conflict (1-way)" : `${a.nway}-way bank conflict`;
  sum.appendChild(strong);
  sum.appendChild(document.createTextNode(
    `: ${a.wavefronts} wavefront${a.wavefronts > 1 ? "s" : ""} (conflict-free: ${a.ideal}). ` +
    (groups > 1 ? `${s.size}-byte elements: the warp is served ${a.group} lanes at a time, ${groups} groups; n-way is the worst group's. `
      : "") + "n-way: the most distinct 4-byte words one bank must deliver."));

  // the tile, word by word
  const wpe = s.size / 4, wordsPerRow = (s.cols + s.pad) * wpe;
  const cell = Math.max(5, Math.min(24, Math.floor(900 / wordsPerRow)));
  const left = 44, top = 24;
  const W = left + wordsPerRow * cell + 10, H = top + s.rows * cell + 10;
  const svg = el("svg", {id: "bank-svg", width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": "the tile's words coloured by bank; the warp's words outlined"});
  const defs = el("defs", {}, svg);
  const pat = el("pattern", {id: "padhatch", width: 5, height: 5, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)"}, defs);
  el("line", {x1: 0, y1: 0, x2: 0, y2: 5, class: "padhatch"}, pat);
  const byWord = new Map();  // word -> lanes
  s.offsets.forEach((o, lane) => {
    for (let w = o * wpe; w < (o + 1) * wpe; ++w) {
      if (!byWord.has(w)) byWord.set(w, []);
      byWord.get(w).push(lane);
    }
  });
  const conflictLane = new Set();
  for (const g of a.groups)
    for (let b = 0; b < 32; ++b)
      if (g.words[b].length > 1) for (const l of g.lanes[b]) conflictLane.add(l);
  const showText = cell >= 13;
  for (let r = 0; r < s.rows; ++r) {
    if (s.rows <= 32 || r % 4 === 0) el("text", {x: left - 4, y: top + r * cell + cell * 0.72, class: "small end"}, svg, String(r));
    for (let wi = 0; wi < wordsPerRow; ++wi) {
      const word = r * wordsPerRow + wi, bank = word % 32;
      const isPad = wi >= s.cols * wpe;
      const lanes = byWord.get(word);
      const attrs = {x: left + wi * cell, y: top + r * cell, width: cell, height: cell, fill: BANK_COLOURS[bank],
        class: "word" + (isPad ? " pad" : ""), "data-word": word, "data-bank": bank};
      el("rect", attrs, svg);
      if (isPad) el("rect", {x: attrs.x, y: attrs.y, width: cell, height: cell, class: "padcover"}, svg);
      if (showText && !lanes)
        el("text", {x: attrs.x + cell / 2, y: attrs.y + cell * 0.7, class: "tiny mid", fill: isPad ? "#333" : inkFor(BANK_COLOURS[bank])}, svg, String(bank));
    }
  }
  // column header: element columns
  const step = s.cols > 32 ? 8 : 4;
  for (let c = 0; c < s.cols + s.pad; c += step)
    el("text", {x: left + c * wpe * cell + 1, y: top - 6, class: "small"}, svg, c < s.cols ? String(c) : "pad");
  // the warp's words, outlined, with the lane that reads each
  for (const [word, lanes] of byWord) {
    const r = Math.floor(word / wordsPerRow), wi = word % wordsPerRow;
    const conflict = lanes.some((l) => conflictLane.has(l));
    const x0 = left + wi * cell, y0 = top + r * cell;
    el("rect", {x: x0 + 1, y: y0 + 1, width: cell - 2, height: cell - 2, fill: BANK_COLOURS[word % 32],
      class: "accessed" + (conflict ? " conflict" : ""), "data-word": word, "data-bank": word % 32, "data-lanes": lanes.join(" ")}, svg);
    if (showText) el("text", {x: x0 + cell / 2, y: y0 + cell * 0.7, class: "tiny mid lanelabel", fill: inkFor(BANK_COLOURS[word % 32])}, svg, String(lanes[0]));
  }
  pic.appendChild(svg);
  pic.dataset.state = "drawn";

  // the banks' load: distinct words per bank, per group
  const lc = 26, lleft = 110, ltop = 22;
  const LW = lleft + 32 * lc + 120, LH = ltop + groups * (lc + 8) + 6;
  const lsvg = el("svg", {id: "bank-load-svg", width: LW, height: LH, viewBox: `0 0 ${LW} ${LH}`, role: "img",
    "aria-label": "distinct words each bank must deliver"}, load);
  el("text", {x: 4, y: 14, class: "small"}, lsvg, "words per bank:");
  for (let b = 0; b < 32; ++b) el("text", {x: lleft + b * lc + lc / 2, y: 14, class: "small mid"}, lsvg, String(b));
  a.groups.forEach((g, gi) => {
    const y = ltop + gi * (lc + 8);
    el("text", {x: 4, y: y + lc * 0.68, class: "small"}, lsvg, `lanes ${g.first}-${g.last}`);
    for (let b = 0; b < 32; ++b) {
      const n = g.words[b].length;
      el("rect", {x: lleft + b * lc + 1, y: y + 1, width: lc - 2, height: lc - 2, fill: n ? BANK_COLOURS[b] : "#ffffff",
        class: "load" + (n > 1 ? " conflict" : "") + (n ? "" : " idle"), "data-group": gi, "data-bank": b, "data-words": n}, lsvg);
      if (n) el("text", {x: lleft + b * lc + lc / 2, y: y + lc * 0.68, class: "small mid", fill: inkFor(BANK_COLOURS[b])}, lsvg, String(n));
    }
    el("text", {x: lleft + 32 * lc + 8, y: y + lc * 0.68, class: "small"}, lsvg, `→ ${g.ways} wavefront${g.ways > 1 ? "s" : ""}`);
  });

  // which lanes collide
  const lines = [];
  for (const g of a.groups)
    for (let b = 0; b < 32; ++b)
      if (g.words[b].length > 1)
        lines.push(`bank ${b}: lanes ${g.lanes[b].join(", ")} want ${g.words[b].length} different words (${g.words[b].join(", ")})`);
  const h = document.createElement("p");
  h.className = "collide-head";
  h.textContent = lines.length ? `Lanes that collide (${lines.length} bank${lines.length > 1 ? "s" : ""} asked for more than one word):`
    : "No two lanes of a group ask one bank for different words (lanes reading the same word share it).";
  coll.appendChild(h);
  if (lines.length) {
    const ul = document.createElement("ul");
    ul.id = "bank-collide-list";
    for (const t of lines) { const li = document.createElement("li"); li.textContent = t; ul.appendChild(li); }
    coll.appendChild(ul);
  }
}

function buildBankLegend() {
  const lg = $("bank-legend");
  lg.textContent = "";
  const svg = el("svg", {id: "bank-legend-svg", width: 32 * 26 + 110, height: 58, role: "img", "aria-label": "bank colours"}, lg);
  el("text", {x: 0, y: 17, class: "small"}, svg, "bank colour:");
  for (let b = 0; b < 32; ++b) {
    el("rect", {x: 110 + b * 26 + 1, y: 2, width: 24, height: 22, fill: BANK_COLOURS[b], class: "swatch", "data-bank": b}, svg);
    el("text", {x: 110 + b * 26 + 13, y: 17, class: "small mid", fill: inkFor(BANK_COLOURS[b])}, svg, String(b));
  }
  el("rect", {x: 111, y: 32, width: 22, height: 20, fill: "#ffffff", class: "accessed"}, svg);
  el("text", {x: 140, y: 46, class: "small"}, svg, "a word the warp reads (lane number inside)");
  el("rect", {x: 431, y: 32, width: 22, height: 20, fill: "#ffffff", class: "accessed conflict"}, svg);
  el("text", {x: 460, y: 46, class: "small"}, svg, "…in a bank conflict");
  el("rect", {x: 611, y: 32, width: 22, height: 20, fill: "#dddddd"}, svg);
  el("rect", {x: 611, y: 32, width: 22, height: 20, class: "padcover"}, svg);
  el("text", {x: 640, y: 46, class: "small"}, svg, "padding");
}

// ------------------------------------------------------------------------------------------------
// Start: the address decides the view and the controls
// ------------------------------------------------------------------------------------------------
const SHFL_FIELDS = {op: "shfl-op", arg: "shfl-arg", width: "shfl-width", mask: "shfl-mask"};
const BANK_FIELDS = {rows: "bank-rows", cols: "bank-cols", size: "bank-size", pad: "bank-pad", swz: "bank-swz",
  access: "bank-access", row: "bank-row", col: "bank-col", expr: "bank-expr"};

function applyHash() {
  const h = readHash();
  const view = h ? h.view : "shfl";
  const fields = view === "shfl" ? SHFL_FIELDS : BANK_FIELDS;
  if (h) {
    for (const [k, id] of Object.entries(fields)) {
      if (h.params[k] === undefined) continue;
      if ($(id).tagName === "SELECT") setSelect(id, h.params[k]); else $(id).value = h.params[k];
    }
  }
  showView(view);
  if (view === "shfl") renderShfl(); else renderBank();
}

function init() {
  buildBankLegend();
  for (const id of Object.values(SHFL_FIELDS)) { $(id).addEventListener("input", renderShfl); $(id).addEventListener("change", renderShfl); }
  for (const id of Object.values(BANK_FIELDS)) { $(id).addEventListener("input", renderBank); $(id).addEventListener("change", renderBank); }
  $("tab-shfl").addEventListener("click", () => { showView("shfl"); renderShfl(); });
  $("tab-bank").addEventListener("click", () => { showView("bank"); renderBank(); });
  window.addEventListener("hashchange", () => { if (!writingHash) applyHash(); });
  applyHash();
}
init();
