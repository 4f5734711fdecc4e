// model.js — the rules the explorer draws, ported line by line from the workbook's C++:
//   shuffles: common/warp_model.h (source_lane, shfl) and chapter 02's explorer table
//             (chapters/02_simpleShuffle/simpleShuffle_lesson.h: predict, print_table, parse_mask);
//   banks:    common/bank_model.h (wavefronts: 32 banks of 4 bytes, 128 / size lanes per group).
// tests/explorer_test.py proves the page equal to those programs in a real browser.
"use strict";

const WarpModel = (() => {
  const kWarpSize = 32;
  const kValueBase = 100;  // lane l passes var = 100 + l
  const OPS = {
    idx: {intrinsic: "__shfl_sync", arg: "srcLane"},
    up: {intrinsic: "__shfl_up_sync", arg: "delta"},
    down: {intrinsic: "__shfl_down_sync", arg: "delta"},
    xor: {intrinsic: "__shfl_xor_sync", arg: "laneMask"},
  };

  function validWidth(w) {
    return Number.isInteger(w) && w >= 1 && w <= kWarpSize && (w & (w - 1)) === 0;
  }

  // warp_model::source_lane: the PTX shfl.sync pseudo-code.
  function sourceLane(op, lane, x, width) {
    const b = x & 31;
    const segStart = lane & ~(width - 1);
    const segEnd = segStart + width - 1;
    let j = lane;
    let inRange = true;
    switch (op) {
      case "idx": j = segStart | (b & (width - 1)); break;
      case "up": j = lane - b; inRange = j >= segStart; break;
      case "down": j = lane + b; inRange = j <= segEnd; break;
      case "xor": j = lane ^ b; inRange = j <= segEnd; break;
      default: throw new Error("unknown op " + op);
    }
    return inRange ? j : lane;
  }

  const inMask = (mask, lane) => ((mask >>> lane) & 1) === 1;

  // simple_shuffle::predict: per lane {state: "read" | "undefined" | "notinmask", src}.
  function predict(s) {
    const r = [];
    for (let l = 0; l < kWarpSize; ++l) {
      if (!inMask(s.mask, l)) { r.push({state: "notinmask", src: -1}); continue; }
      const src = sourceLane(s.op, l, s.arg, s.width);
      r.push({state: inMask(s.mask, src) ? "read" : "undefined", src});
    }
    return r;
  }

  // simple_shuffle::parse_mask: "0x" + 1..8 hex digits, or decimal digits below 2^32.
  function parseMask(t) {
    if (/^0[xX][0-9a-fA-F]{1,8}$/.test(t)) return parseInt(t.slice(2), 16) >>> 0;
    if (/^[0-9]{1,10}$/.test(t)) {
      const v = Number(t);
      return v <= 0xffffffff ? v >>> 0 : null;
    }
    return null;
  }

  const pad = (v, n) => String(v).padStart(n, " ");
  const hex8 = (m) => "0x" + (m >>> 0).toString(16).padStart(8, "0");

  // simple_shuffle::print_table, heading "shuffle explorer": the same text, line for line.
  function table(s, r) {
    const o = OPS[s.op];
    const lines = ["== shuffle explorer ==",
      `${o.intrinsic}(${hex8(s.mask)}, var, ${s.arg}, ${s.width}): ${o.arg} ${s.arg}, ${32 / s.width} sub-group` +
      `${s.width < 32 ? "s" : ""} of ${s.width} lane${s.width > 1 ? "s" : ""}`,
      `Every lane passes var = ${kValueBase} + its lane id, so the value it gets names the lane it read from.`,
      "'-': not in mask, does not call the shuffle.  '?': reads a lane outside mask: undefined.",
      "lane  sub-group  logical lane  var  got  read from"];
    for (let l = 0; l < kWarpSize; ++l) {
      let line = `${pad(l, 4)}  ${pad(Math.floor(l / s.width), 9)}  ${pad(l % s.width, 12)}  ${pad(kValueBase + l, 3)}  `;
      const x = r[l];
      if (x.state === "notinmask") line += "  -  not in mask: does not call the shuffle";
      else if (x.state === "undefined") line += `  ?  lane ${pad(x.src, 2)}, which is not in mask: undefined`;
      else line += `${pad(kValueBase + x.src, 3)}  lane ${pad(x.src, 2)}${x.src === l ? " (itself)" : ""}`;
      lines.push(line);
    }
    return lines.join("\n");
  }

  // What lane l ends with, as the table's "got" column shows it.
  function got(x) {
    return x.state === "notinmask" ? "-" : x.state === "undefined" ? "?" : String(kValueBase + x.src);
  }

  return {kWarpSize, kValueBase, OPS, validWidth, sourceLane, predict, parseMask, table, got, hex8};
})();

const BankModel = (() => {
  const kBanks = 32, kBankBytes = 4;

  // wb::bank::wavefronts, with the detail the page draws: per group (128 / size lanes), per bank,
  // the distinct words and the lanes that want them.
  function analyse(bytes, size) {
    const group = size >= 4 ? 128 / size : 32;
    let total = 0, worst = 0;
    const groups = [];
    for (let g = 0; g < 32; g += group) {
      const words = Array.from({length: kBanks}, () => []);   // distinct words per bank
      const lanes = Array.from({length: kBanks}, () => []);   // lanes touching the bank
      for (let lane = g; lane < g + group && lane < bytes.length; ++lane) {
        if (bytes[lane] < 0) continue;
        for (let w = Math.floor(bytes[lane] / kBankBytes); w <= Math.floor((bytes[lane] + size - 1) / kBankBytes); ++w) {
          const b = w % kBanks;
          if (!words[b].includes(w)) words[b].push(w);
          if (!lanes[b].includes(lane)) lanes[b].push(lane);
        }
      }
      let gw = 0;
      for (const b of words) gw = Math.max(gw, b.length);
      total += gw;
      worst = Math.max(worst, gw);
      groups.push({first: g, last: Math.min(g + group, 32) - 1, ways: gw, words, lanes});
    }
    return {wavefronts: total, nway: worst, ideal: Math.floor((32 * size + 127) / 128), groups, group};
  }

  return {kBanks, kBankBytes, analyse};
})();

// A small expression parser for the Banks view: integers (decimal or 0x), the name `lane`,
// + - * / % & | ^ << >> ~, unary minus, parentheses; C's precedence and integer division
// (truncation toward zero). Never eval. Every value is a C++ int, as `lane` is (the workbook
// builds with -std=c++17): what C++17 leaves undefined (or implementation-defined) for int (an
// overflow, a shift by a negative count or by 32 or more, a left shift of a negative value or out
// of int's range) is refused with a message, never drawn with JavaScript's own arithmetic.
const Expr = (() => {
  function tokenize(src) {
    const toks = [];
    const re = /\s*(?:(0[xX][0-9a-fA-F]+|[0-9]+)|([A-Za-z_][A-Za-z_0-9]*)|(<<|>>|[-+*/%&|^~()]))/y;
    let pos = 0;
    src = src.replace(/\s+$/, "");
    while (pos < src.length) {
      re.lastIndex = pos;
      const m = re.exec(src);
      if (!m) throw new Error(`unexpected '${src.slice(pos).trim()[0]}' at position ${pos + 1}`);
      if (m[1] !== undefined) {
        const v = m[1].startsWith("0x") || m[1].startsWith("0X") ? parseInt(m[1], 16) : parseInt(m[1], 10);
        if (v > INT_MAX) throw new Error(`${m[1]} does not fit an int (at most ${INT_MAX}): the expression is evaluated in int, as C++ evaluates it for lane`);
        toks.push({k: "num", v});
      }
      else if (m[2] !== undefined) {
        if (m[2] !== "lane") throw new Error(`unknown name '${m[2]}' (only 'lane' is known)`);
        toks.push({k: "lane"});
      } else toks.push({k: "op", v: m[3]});
      pos = re.lastIndex;
    }
    return toks;
  }
  const levels = [["|"], ["^"], ["&"], ["<<", ">>"], ["+", "-"], ["*", "/", "%"]];
  const INT_MAX = 2147483647, INT_MIN = -2147483648;
  function int(v, what) {
    if (v < INT_MIN || v > INT_MAX) throw new Error(`${what} = ${v} overflows int: C++ leaves that undefined`);
    return v;
  }

  function parse(src) {
    if (src.length > 200) throw new Error("expression longer than 200 characters");
    const toks = tokenize(src);
    if (!toks.length) throw new Error("empty expression");
    let i = 0;
    const peek = () => toks[i];
    function binary(level) {
      if (level === levels.length) return unary();
      let left = binary(level + 1);
      while (peek() && peek().k === "op" && levels[level].includes(peek().v)) {
        const op = toks[i++].v;
        const right = binary(level + 1);
        const l = left;
        left = (lane) => apply(op, l(lane), right(lane));
      }
      return left;
    }
    function unary() {
      const t = peek();
      if (!t) throw new Error("the expression ends too early");
      if (t.k === "op" && (t.v === "-" || t.v === "~" || t.v === "+")) {
        ++i;
        const e = unary();
        return t.v === "-" ? (lane) => { const v = e(lane); return int(-v, `-(${v})`); } : t.v === "~" ? (lane) => ~e(lane) : e;
      }
      if (t.k === "num") { ++i; return () => t.v; }
      if (t.k === "lane") { ++i; return (lane) => lane; }
      if (t.k === "op" && t.v === "(") {
        ++i;
        const e = binary(0);
        if (!peek() || peek().v !== ")") throw new Error("missing ')'");
        ++i;
        return e;
      }
      throw new Error(`unexpected '${t.v}'`);
    }
    const f = binary(0);
    if (i < toks.length) throw new Error(`unexpected '${toks[i].k === "num" ? toks[i].v : toks[i].k === "lane" ? "lane" : toks[i].v}'`);
    return f;
  }
  function shiftCount(op, a, b) {
    if (b < 0 || b > 31)
      throw new Error(`${a} ${op} ${b}: C++ leaves a shift by a negative count or by 32 or more undefined (an int has 32 bits)`);
  }
  function apply(op, a, b) {
    const what = `${a} ${op} ${b}`;
    switch (op) {
      case "+": return int(a + b, what);
      case "-": return int(a - b, what);
      case "*": return int(a * b, what);
      case "/": if (b === 0) throw new Error("division by zero"); return int(Math.trunc(a / b), what) + 0;
      case "%":
        if (b === 0) throw new Error("remainder by zero");
        if (a === INT_MIN && b === -1) throw new Error(`${what}: C++ leaves it undefined (${INT_MIN} / -1 overflows int)`);
        return a % b + 0;  // + 0: C++ has no -0
      case "&": return a & b;
      case "|": return a | b;
      case "^": return a ^ b;
      case "<<":
        shiftCount(op, a, b);
        if (a < 0 || a * 2 ** b > INT_MAX)
          throw new Error(`${what}: C++17 leaves a left shift of a negative int undefined, and one past int's range undefined or implementation-defined`);
        return a << b;
      case ">>": shiftCount(op, a, b); return a >> b;
    }
    throw new Error("unknown operator " + op);
  }
  return {parse};
})();
