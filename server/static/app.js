// The page: a photo of the table (POST /api/recognize) drawn with every tile outlined, corrections by hand
// (POST /api/table after each), a typed hand (POST /api/score), one context form and one readout for both.
// Plain JS, no build step, nothing fetched from outside this server.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const LOW_CONFIDENCE = 0.6;
const ROLES = ["concealed", "meld", "pond", "dora", "wall", "stray"];
const FACE_ROWS = ["123456789", "123456789", "123456789", "1234567"].map((d, i) =>
  [...d].map((n) => n + "mpsz"[i]).concat(i < 3 ? ["0" + "mps"[i]] : []));
const parseTiles = (s) => (s.match(/[0-9]+[mpsz]/g) || []).flatMap((g) => [...g.slice(0, -1)].map((d) => d + g.slice(-1)));

const state = {
  mode: "photo",
  file: null, // the photo as chosen, sent again when the reading options change
  photo: null, // {url, width, height, mirrored}
  tiles: null, // the tiles the user corrects: [{kind, polygon, confidence}], in display coordinates
  table: null, // the server's last answer for them
  history: [], // earlier tile lists, for undo
  highlight: new Set(), // tiles of the problem clicked
  problem: null,
  adding: false,
  dora: null, // dora indicators the user gave (null: none, the photo's are used)
  ura: [],
  typed: null, // the last /api/score answer
  recognizing: false,
  dirty: false, // the context changed while a photo was being read
  seq: { table: 0, score: 0, recognize: 0 },
};

// ---------------------------------------------------------------- talking to the server

function errorText(res, body, text) {
  if (body && body.error) return body.error;
  if (body && body.detail) {
    if (typeof body.detail === "string") return body.detail;
    return body.detail.map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("; ");
  }
  return `${res.status} ${res.statusText}${text ? ": " + text.slice(0, 200) : ""}`;
}

async function api(path, options = {}) {
  let res;
  try {
    res = await fetch(path, options);
  } catch (e) {
    throw new Error(`${path}: ${e.message} (is the server running?)`);
  }
  const text = await res.text();
  let body = null;
  try { body = JSON.parse(text); } catch { /* not JSON: said below */ }
  if (!res.ok) throw new Error(errorText(res, body, text));
  if (body === null) throw new Error(`${path}: the answer is not JSON`);
  return body;
}

const postJson = (path, data) => api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) });

function showError(message) {
  $("banner-text").textContent = `${t("error")}: ${message}`;
  $("banner").hidden = false;
}

function clearError() {
  $("banner").hidden = true;
}

// ---------------------------------------------------------------- the context form

function contextFromForm(fromPhoto) {
  const win = $("win").value;
  const tsumo = win === "tsumo";
  const last = $("haitei").checked;
  const ctx = {
    seat_wind: $("seat_wind").value, round_wind: $("round_wind").value,
    tsumo, win_from: tsumo ? null : win,
    riichi: $("riichi").checked || $("double_riichi").checked, double_riichi: $("double_riichi").checked,
    ippatsu: $("ippatsu").checked, haitei: last && tsumo, houtei: last && !tsumo,
    rinshan: $("rinshan").checked, chankan: $("chankan").checked,
    dora_indicators: state.dora || [], ura_indicators: state.ura,
    honba: Math.max(0, +$("honba").value || 0), riichi_sticks: Math.max(0, +$("sticks").value || 0),
  };
  if (!fromPhoto) ctx.discards = parseTiles($("discards").value).map((tile) => ({ tile }));
  return ctx;
}

function photoDora() {
  return (state.mode === "photo" && state.table && state.table.context && state.table.context.dora_indicators) || [];
}

// A row of chosen tiles (click one to remove it) and a "+" to add one with the picker.
function drawTilesField(el, tiles, auto, onChange) {
  const chips = tiles.map((c, i) => `<button type="button" class="chip${auto ? " auto" : ""}" data-i="${i}" title="${esc(c)} ✕">${tileImg(c, "small")}</button>`);
  const note = auto && tiles.length ? `<small class="hint">${t("from_photo")}</small>` : "";
  el.innerHTML = chips.join("") + note + `<button type="button" class="chip add" title="${esc(t("add"))}">+</button>`;
  el.querySelectorAll(".chip[data-i]").forEach((b) => b.addEventListener("click", () => onChange(tiles.filter((_, i) => i !== +b.dataset.i))));
  el.querySelector(".chip.add").addEventListener("click", (e) => openPicker(e.clientX, e.clientY, null, [], (code) => onChange([...tiles, code])));
}

function drawContextTiles() {
  const auto = state.dora === null;
  drawTilesField($("dora"), auto ? photoDora() : state.dora, auto, (next) => { state.dora = next.length ? next : null; drawContextTiles(); rescore(); });
  drawTilesField($("ura"), state.ura, false, (next) => { state.ura = next; drawContextTiles(); rescore(); });
}

function drawDealer() {
  const dealer = $("seat_wind").value === "E";
  $("dealer").textContent = dealer ? t("dealer") : t("non_dealer");
  $("dealer").classList.toggle("on", dealer);
}

let rescoreTimer = null;

function rescoreSoon() {
  clearTimeout(rescoreTimer);
  rescoreTimer = setTimeout(rescore, 120);
}

function rescore() {
  if (state.mode === "typed") return scoreTyped();
  if (state.recognizing) { state.dirty = true; return; }
  if (state.tiles) rescoreTable();
}

// ---------------------------------------------------------------- typed hand

async function scoreTyped() {
  const hand = $("hand").value.trim();
  if (!hand) return;
  const seq = ++state.seq.score;
  const body = { hand, win_tile: $("win_tile").value.trim() || null, ruleset: $("ruleset").value || "tenhou", context: contextFromForm(false) };
  try {
    const r = await postJson("/api/score", body);
    if (seq !== state.seq.score) return;
    state.typed = r;
    clearError();
    drawReadout();
  } catch (e) {
    if (seq === state.seq.score) showError(e.message);
  }
}

// ---------------------------------------------------------------- photo and table

function mirrorPolygon(polygon) {
  if (!state.photo || !state.photo.mirrored) return polygon;
  return polygon.map(([x, y]) => [state.photo.width - x, y]);
}

function tilesOf(table) {
  return table.tiles.map((tile) => ({ kind: tile.kind, polygon: tile.polygon.map((p) => [...p]), confidence: tile.confidence }));
}

function setStatus(text) {
  $("photo-status").textContent = text;
}

async function recognize() {
  if (!state.file) return;
  const file = state.file;
  const form = new FormData();
  form.append("photo", file);
  form.append("context", JSON.stringify(contextFromForm(true)));
  form.append("ruleset", $("ruleset").value || "tenhou");
  form.append("seat", $("seat").value);
  form.append("mirrored", String($("mirrored").checked));
  if ($("profile").value) form.append("profile", $("profile").value);
  const seq = ++state.seq.recognize;
  state.seq.table++; // an answer for the previous photo's tiles no longer applies
  state.recognizing = true;
  state.dirty = false;
  setStatus(t("reading"));
  $("stage").classList.add("busy");
  try {
    const table = await api("/api/recognize", { method: "POST", body: form });
    if (seq !== state.seq.recognize) return;
    clearError();
    await showPhoto(URL.createObjectURL(file), table);
  } catch (e) {
    if (seq !== state.seq.recognize) return;
    showError(e.message);
  } finally {
    if (seq === state.seq.recognize) {
      state.recognizing = false;
      setStatus("");
      $("stage").classList.remove("busy");
      if (state.dirty && state.tiles) rescoreTable();
    }
  }
}

function loadImage(url) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error("the browser cannot show this photo"));
    img.src = url;
  });
}

// Shows a photo and its table (from /api/recognize, or any table JSON with its image: the tests' hook).
async function showPhoto(url, table) {
  if (!table || !Array.isArray(table.tiles)) throw new Error(t("bad_table"));
  let width = table.width, height = table.height;
  try {
    const img = await loadImage(url);
    width = width || img.naturalWidth;
    height = height || img.naturalHeight;
  } catch (e) {
    showError(e.message); // the tiles can still be drawn over an empty frame
  }
  if (state.photo && state.photo.url !== url && state.photo.url.startsWith("blob:")) URL.revokeObjectURL(state.photo.url);
  state.photo = { url, width: width || 1000, height: height || 750, mirrored: Boolean(table.mirrored) };
  state.tiles = tilesOf(table);
  state.table = table;
  state.history = [];
  state.highlight = new Set();
  state.problem = null;
  $("photo-img").src = url;
  setMode("photo", false);
  drawPhoto();
}

async function rescoreTable() {
  const seq = ++state.seq.table;
  const body = {
    tiles: state.tiles.map((tile) => ({ kind: tile.kind, polygon: mirrorPolygon(tile.polygon), confidence: tile.confidence })),
    context: contextFromForm(true), ruleset: $("ruleset").value || "tenhou", seat: $("seat").value,
  };
  try {
    const table = await postJson("/api/table", body);
    if (seq !== state.seq.table) return;
    table.tiles.forEach((tile) => { tile.polygon = mirrorPolygon(tile.polygon); });
    state.table = table;
    state.highlight = new Set();
    state.problem = null;
    clearError();
    drawPhoto();
  } catch (e) {
    if (seq === state.seq.table) showError(e.message);
  }
}

// A correction: change a copy of the tiles, keep the old ones for undo, score again.
function changeTiles(change) {
  state.history.push(state.tiles);
  state.tiles = state.tiles.map((tile) => ({ ...tile, polygon: tile.polygon.map((p) => [...p]) }));
  change(state.tiles);
  $("undo").disabled = false;
  rescoreTable();
}

function undo() {
  if (!state.history.length) return;
  state.tiles = state.history.pop();
  $("undo").disabled = !state.history.length;
  rescoreTable();
}

function correctTile(index, action) {
  changeTiles((tiles) => {
    if (action === "delete") tiles.splice(index, 1);
    else if (action === "turn") { const [p0, p1, p2, p3] = tiles[index].polygon; tiles[index].polygon = [p3, p0, p1, p2]; }
    else tiles[index] = { ...tiles[index], kind: action === "back" ? "back" : action, confidence: 1 };
  });
}

const centre = (polygon) => [polygon.reduce((s, p) => s + p[0], 0) / polygon.length, polygon.reduce((s, p) => s + p[1], 0) / polygon.length];

// A new tile centred at (x, y): the size and turn of the nearest tile, or an upright tile of a typical size.
function newTilePolygon(x, y) {
  let best = null, bestD = Infinity;
  for (const tile of state.tiles) {
    const [cx, cy] = centre(tile.polygon);
    const d = (cx - x) ** 2 + (cy - y) ** 2;
    if (d < bestD) { best = tile; bestD = d; }
  }
  if (!best) {
    const w = state.photo.width * 0.03, h = w * 4 / 3;
    return [[x - w / 2, y - h / 2], [x + w / 2, y - h / 2], [x + w / 2, y + h / 2], [x - w / 2, y + h / 2]];
  }
  const [cx, cy] = centre(best.polygon);
  return best.polygon.map(([px, py]) => [px - cx + x, py - cy + y]);
}

function addTileAt(x, y, clientX, clientY) {
  setAdding(false);
  const polygon = newTilePolygon(x, y);
  openPicker(clientX, clientY, null, ["back"], (code) => changeTiles((tiles) => tiles.push({ kind: code, polygon, confidence: 1 })));
}

function setAdding(on) {
  if (on === state.adding) return;
  state.adding = on;
  $("add-mode").setAttribute("aria-pressed", String(on));
  $("stage").classList.toggle("adding", on);
  setStatus(on ? t("add_hint") : "");
}

// ---------------------------------------------------------------- drawing the table over the photo

function svgEl(name, attrs = {}, text = null) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== null) el.textContent = text;
  return el;
}

const pointsAttr = (polygon) => polygon.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
const side = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);

// The convex hull of points (monotone chain), to outline a meld's tiles together.
function hull(points) {
  const ps = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list) => {
    const out = [];
    for (const p of list) {
      while (out.length >= 2 && cross(out[out.length - 2], out[out.length - 1], p) <= 0) out.pop();
      out.push(p);
    }
    out.pop();
    return out;
  };
  return half(ps).concat(half([...ps].reverse()));
}

function labelSize(polygon) {
  const short = Math.min(side(polygon[0], polygon[1]), side(polygon[1], polygon[2]));
  return Math.max(short * 0.5, state.photo.width / 110);
}

function tileMark(tile, index) {
  const low = tile.confidence < LOW_CONFIDENCE;
  const classes = ["tile-mark", "role-" + (tile.role || "stray")];
  if (low) classes.push("low");
  if (state.highlight.has(index)) classes.push("hl");
  const g = svgEl("g", { class: classes.join(" "), "data-index": index, "data-kind": tile.kind, "data-role": tile.role || "stray",
    tabindex: 0, role: "button", "aria-label": tile.kind });
  const size = labelSize(tile.polygon);
  g.append(svgEl("title", {}, `${tile.kind} · ${t("role_" + (tile.role || "stray"))} · ${(tile.confidence * 100).toFixed(0)}%`));
  g.append(svgEl("polygon", { points: pointsAttr(tile.polygon), "stroke-dasharray": low ? `${size * 0.3} ${size * 0.2}` : "none" }));
  g.append(svgEl("line", { class: "top", x1: tile.polygon[0][0], y1: tile.polygon[0][1], x2: tile.polygon[1][0], y2: tile.polygon[1][1] }));
  if (tile.kind !== "back" || low) {
    const [cx, cy] = centre(tile.polygon);
    const label = (tile.kind === "back" ? "#" : tile.kind) + (low ? "?" : "");
    g.append(svgEl("text", { x: cx, y: cy, "font-size": size, "stroke-width": size * 0.2 }, label));
  }
  return g;
}

function meldMark(meld, tiles) {
  const corners = meld.tile_indices.flatMap((i) => tiles[i].polygon);
  const [cx, cy] = centre(corners);
  const outline = hull(corners).map(([x, y]) => [cx + (x - cx) * 1.08, cy + (y - cy) * 1.08]);
  const g = svgEl("g", { class: "meld-mark", "data-kind": meld.kind, "data-source": meld.source || "" });
  g.append(svgEl("polygon", { points: pointsAttr(outline) }));
  g.append(svgEl("title", {}, t(meld.kind) + (meld.source ? " · " + t("from_seat", t(meld.source)) : "")));
  if (meld.source) {  // the source over the meld's middle: "from left", 上家から
    const top = Math.min(...outline.map((p) => p[1]));
    const size = labelSize(tiles[meld.tile_indices[0]].polygon) * 0.8;
    g.append(svgEl("text", { x: cx, y: top - size * 0.4, "font-size": size, "stroke-width": size * 0.2 }, t("from_seat", t(meld.source))));
  }
  return g;
}

function drawOverlay() {
  const svg = $("overlay");
  const { width, height } = state.photo;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("preserveAspectRatio", "none");
  const tiles = state.table.tiles;
  const marks = tiles.map(tileMark);
  const melds = (state.table.seats || []).flatMap((s) => s.melds).filter((m) => m.tile_indices.every((i) => tiles[i])).map((m) => meldMark(m, tiles));
  svg.replaceChildren(...melds, ...marks);
}

function drawLegend() {
  const items = ROLES.map((r) => `<span class="key role-${r}"><i></i>${t("role_" + r)}</span>`);
  items.push(`<span class="key low"><i></i>${t("low_conf")} (&lt; ${LOW_CONFIDENCE * 100}%)</span>`);
  $("legend").innerHTML = items.join("") + `<span class="hint">${t("tap_hint")}</span>`;
}

function drawProblems() {
  const problems = state.table.problems || [];
  const el = $("problems");
  el.hidden = !problems.length;
  el.innerHTML = `<h3>${t("problems")}</h3><ul>` + problems.map((p, i) =>
    `<li><button type="button" data-problem="${i}" aria-pressed="${state.problem === i}">${esc(p.message)}` +
    (p.tiles.length ? ` <small>(${p.tiles.length})</small>` : "") + "</button></li>").join("") + "</ul>";
  el.querySelectorAll("button[data-problem]").forEach((b) => b.addEventListener("click", () => selectProblem(+b.dataset.problem)));
}

function selectProblem(i) {
  const same = state.problem === i;
  state.problem = same ? null : i;
  state.highlight = new Set(same ? [] : state.table.problems[i].tiles);
  drawOverlay();
  drawProblems();
  if (!same) $("stage").scrollIntoView({ block: "nearest", behavior: "smooth" });
}

function seatSummary(seat, tiles) {
  const parts = [];
  if (seat.concealed.length) parts.push(tileRow(seat.concealed.map((i) => tiles[i].kind), "small"));
  if (seat.hidden) parts.push(esc(t("hidden", seat.hidden)));
  for (const m of seat.melds) {
    parts.push(`<span class="meld-tiles">${tileRow(m.tiles, "small")}<small>${esc(t(m.kind))}${m.source ? " · " + esc(t("from_seat", t(m.source))) : ""}</small></span>`);
  }
  if (seat.pond.length) parts.push(esc(t("pond_n", seat.pond.length)));
  if (seat.riichi) parts.push(`<b class="badge on">${esc(t("riichi_seat"))}</b>`);
  if (!parts.length) return "";
  return `<div class="seat" data-seat="${esc(seat.seat)}"><b>${esc(t(seat.seat))}</b> ${parts.join(" ")}</div>`;
}

function drawSeats() {
  const rows = (state.table.seats || []).map((s) => seatSummary(s, state.table.tiles)).join("");
  $("seats").innerHTML = rows ? `<h3>${t("table")}</h3>${rows}` : "";
  $("seats").hidden = !rows;
}

function drawPhoto() {
  if (!state.table || !state.photo) return;
  $("stage").hidden = false;
  $("toolbar").hidden = false;
  $("legend").hidden = false;
  $("undo").disabled = !state.history.length;
  drawOverlay();
  drawLegend();
  drawProblems();
  drawSeats();
  drawContextTiles();
  drawReadout();
}

function drawReadout() {
  const el = $("readout");
  if (state.mode === "typed") {
    if (state.typed) renderReadout(el, state.typed);
    else el.hidden = true;
    return;
  }
  const table = state.table;
  if (!table) { el.hidden = true; return; }
  renderReadout(el, table.readout, { notes: table.notes || [], hand: table.hand, problems: (table.problems || []).length > 0 });
}

function svgPoint(evt) {
  const svg = $("overlay");
  const p = svg.createSVGPoint();
  p.x = evt.clientX;
  p.y = evt.clientY;
  return p.matrixTransform(svg.getScreenCTM().inverse());
}

function openTilePicker(index, clientX, clientY) {
  openPicker(clientX, clientY, state.tiles[index].kind, ["back", "turn", "delete"], (action) => correctTile(index, action));
}

function onOverlayKey(evt) {
  const mark = evt.target.closest(".tile-mark");
  if (!mark || (evt.key !== "Enter" && evt.key !== " ")) return;
  evt.preventDefault();
  const box = mark.getBoundingClientRect();
  openTilePicker(+mark.dataset.index, box.right, box.bottom);
}

function onOverlayClick(evt) {
  if (!state.table) return;
  if (state.adding) {
    const p = svgPoint(evt);
    addTileAt(p.x, p.y, evt.clientX, evt.clientY);
    return;
  }
  const mark = evt.target.closest(".tile-mark");
  if (!mark) return;
  openTilePicker(+mark.dataset.index, evt.clientX, evt.clientY);
}

// ---------------------------------------------------------------- the tile picker

let pickerDone = null;

function buildPicker() {
  $("picker-faces").innerHTML = FACE_ROWS.map((row) => `<div class="face-row">` +
    row.map((c) => `<button type="button" class="face" data-code="${c}" title="${c}">${tileImg(c)}</button>`).join("") + "</div>").join("");
  $("picker").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-code], button[data-act]");
    if (!b) return;
    const done = pickerDone;
    closePicker();
    if (done) done(b.dataset.code || b.dataset.act);
  });
  $("picker-close").addEventListener("click", closePicker);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") { closePicker(); setAdding(false); } });
  document.addEventListener("pointerdown", (e) => {
    if (!$("picker").hidden && !$("picker").contains(e.target) && !e.target.closest(".tile-mark, .chip.add, #overlay")) closePicker();
  });
}

// Opens the picker at a point of the window; ``actions``: which of back / turn / delete to offer.
function openPicker(clientX, clientY, current, actions, done) {
  const picker = $("picker");
  pickerDone = done;
  picker.querySelectorAll("button[data-code]").forEach((b) => b.classList.toggle("current", b.dataset.code === current));
  picker.querySelectorAll("button[data-act]").forEach((b) => { b.hidden = !actions.includes(b.dataset.act); });
  picker.querySelector('button[data-act="back"]').classList.toggle("current", current === "back");
  picker.style.left = "0px"; // measured at its natural size, then placed where it fits whole
  picker.style.top = "0px";
  picker.hidden = false;
  const { width, height } = picker.getBoundingClientRect();
  const { clientWidth, clientHeight } = document.documentElement; // the window less its scroll bars
  picker.style.left = Math.max(4, Math.min(clientX + 8, clientWidth - width - 4)) + "px";
  picker.style.top = Math.max(4, Math.min(clientY + 8, clientHeight - height - 4)) + "px";
}

function closePicker() {
  $("picker").hidden = true;
  pickerDone = null;
}

// ---------------------------------------------------------------- modes, language, start

function setMode(mode, score = true) {
  state.mode = mode;
  $("photo-mode").hidden = mode !== "photo";
  $("typed-mode").hidden = mode !== "typed";
  document.querySelectorAll("[data-mode]").forEach((b) => b.setAttribute("aria-selected", String(b.dataset.mode === mode)));
  document.body.dataset.mode = mode;
  drawContextTiles();
  drawReadout();
  if (score) rescore();
}

function redrawAll() {
  applyLang();
  drawDealer();
  drawContextTiles();
  if (state.table && state.photo) drawPhoto();
  else drawReadout();
  if (state.adding) setStatus(t("add_hint"));
}

async function loadOptions() {
  try {
    const names = Object.keys(await api("/api/rulesets"));
    $("ruleset").innerHTML = names.map((n) => `<option${n === "tenhou" ? " selected" : ""}>${esc(n)}</option>`).join("");
  } catch (e) {
    showError(e.message);
  }
  try {
    const { profiles } = await api("/api/profiles");
    if (profiles.length) {
      $("profile").innerHTML += profiles.map((p) => `<option>${esc(p)}</option>`).join("");
      $("profile-box").hidden = false;
    }
  } catch { /* no profiles: the select stays hidden */ }
}

function wireDrop() {
  const drop = $("photo-mode");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); $("drop").classList.add("over"); });
  drop.addEventListener("dragleave", () => $("drop").classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    $("drop").classList.remove("over");
    const file = e.dataTransfer.files && e.dataTransfer.files[0];
    if (file) { state.file = file; recognize(); }
  });
}

function wire() {
  document.querySelectorAll("[data-lang]").forEach((b) => b.addEventListener("click", () => { setLang(b.dataset.lang); redrawAll(); }));
  document.querySelectorAll("[data-mode]").forEach((b) => b.addEventListener("click", () => setMode(b.dataset.mode)));
  $("banner-close").addEventListener("click", clearError);
  $("photo").addEventListener("change", (e) => {
    const file = e.target.files[0];
    e.target.value = ""; // the same file chosen again reads again
    if (file) { state.file = file; recognize(); }
  });
  $("mirrored").addEventListener("change", recognize);
  $("profile").addEventListener("change", recognize);
  $("undo").addEventListener("click", undo);
  $("add-mode").addEventListener("click", () => {
    if (!state.tiles) { showError(t("photo_first")); return; }
    setAdding(!state.adding);
  });
  $("overlay").addEventListener("click", onOverlayClick);
  $("overlay").addEventListener("keydown", onOverlayKey);
  const context = $("context");
  context.addEventListener("change", (e) => { if (e.target.id === "seat_wind") drawDealer(); rescoreSoon(); });
  context.addEventListener("input", (e) => { if (e.target.type === "number") rescoreSoon(); });
  context.addEventListener("submit", (e) => e.preventDefault());
  $("hand-form").addEventListener("submit", (e) => { e.preventDefault(); scoreTyped(); });
  $("hand-form").addEventListener("change", rescoreSoon); // hand, winning tile, discards: scored when left
  wireDrop();
}

// Kept on window for scripts and the browser tests: load a table JSON (as /api/table or /api/recognize give it)
// over an image URL, and look at the state.
window.riichiLens = {
  loadTable: (table, imageUrl) => showPhoto(imageUrl, table),
  state,
};

window.addEventListener("error", (e) => showError(e.message));
window.addEventListener("unhandledrejection", (e) => showError(String(e.reason && e.reason.message || e.reason)));

buildPicker();
wire();
redrawAll();
setMode("photo", false);
loadOptions().then(() => { document.body.dataset.ready = "true"; });
