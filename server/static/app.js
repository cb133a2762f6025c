// The page: a photo of the table (POST /api/recognize) drawn with every tile outlined, corrections by hand
// (POST /api/table after each), a typed hand (POST /api/score), one context form and one readout for both.
// Plain JS, no build step, nothing fetched from outside this server.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const LOW_CONFIDENCE = 0.5; // as vision.table.CHECK_BELOW; a table's own check.below is used where it gives one
const ROLES = ["concealed", "meld", "pond", "dora", "wall", "stray"];
const KITA = "kita"; // three players' norths set aside: a role of its own, in the legend only where a tile has it
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
  dora: null, // dora indicators the user gave (null: none, the photo's are used; []: none at all)
  ura: [],
  photoKey: null, // which photo is shown: its file (read again, mirrored, it is the same photo), or a script's url
  indicatorsOf: null, // the photoKey of the photo shown when the user set dora or ura indicators: another has its own
  typed: null, // the last /api/score answer
  recognizing: false,
  status: "", // the key of the photo's status line
  scoring: false, // the tiles' table asked of the server and not yet answered: the readout says so
  dirty: false, // the context changed while a photo was being read
  seq: { table: 0, score: 0, recognize: 0 },
  drawDeclared: {}, // what seats declared at an exhaustive draw, set in its panel: {left: false}
  houseRules: null, // the house rules' options and their values (/api/house-rules)
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
  if (!res.ok) throw Object.assign(new Error(errorText(res, body, text)), { part: body && body.part }); // the part refused
  if (body === null) throw new Error(`${path}: the answer is not JSON`);
  return body;
}

const postJson = (path, data) => api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) });

// Text the page writes (an error, a status line) is given as a function where it is the page's own words, t(...),
// so that a language chosen after says it again in that language; the server's words are given as they came and
// said again through messageText.
const said = (text) => (typeof text === "function" ? text() : text);
let bannerText = "";
const sayings = new Map(); // a status line's id -> its text as given, said again by redrawAll

function sayIn(id, text) {
  sayings.set(id, text);
  $(id).textContent = said(text);
}

function showError(message) {
  bannerText = message;
  $("banner-text").textContent = `${t("error")}: ${messageText(said(message))}`;
  $("banner").hidden = false;
}

function clearError() {
  $("banner").hidden = true;
}

// ---------------------------------------------------------------- the context form

function contextFromForm(fromPhoto) {
  const win = $("win").value;
  const tsumo = win === "tsumo";  // an exhaustive draw: no win, the hand's waits (and every seat's: drawAtTableHtml)
  const last = $("haitei").checked;
  const ctx = {
    seat_wind: $("seat_wind").value, round_wind: $("round_wind").value,
    tsumo, win_from: tsumo || win === "draw" ? null : win,
    riichi: $("riichi").checked || $("double_riichi").checked, double_riichi: $("double_riichi").checked,
    ippatsu: $("ippatsu").checked, haitei: last && tsumo, houtei: last && !tsumo,
    rinshan: $("rinshan").checked, chankan: $("chankan").checked,
    other_winner_nearer: $("double_ron").checked,  // the nearer winner takes the honba and the sticks
    dora_indicators: indicators().dora || [], ura_indicators: indicators().ura,
    // as typed: a count the rules refuse (negative, over 100) is said by the server, not sent as another
    honba: +$("honba").value || 0, riichi_sticks: +$("sticks").value || 0,
    kita: $("kita").closest("label").hidden ? 0 : +$("kita").value || 0,  // where the ruleset has it (seatsForRuleset)
    pao: $("pao").value || null,  // none named: a photo's melds say who fed a big set's last one (vision.table.liable_for)
  };
  if (!fromPhoto) ctx.discards = parseTiles($("discards").value).map((tile) => ({ tile }));
  return ctx;
}

function photoDora() {
  const table = state.mode === "live" ? live.table : state.mode === "photo" ? state.table : null;
  return (table && table.context && table.context.dora_indicators) || [];
}

// A row of chosen tiles (click one to remove it) and a "+" to add one with the picker.
function drawTilesField(el, tiles, auto, onChange) {
  // drawn again under the focus (an answer's dora): the focus stays on the chip, or the +, in its place
  const focused = el.contains(document.activeElement) ? document.activeElement.dataset.i ?? "add" : null;
  const chips = tiles.map((c, i) => `<button type="button" class="chip${auto ? " auto" : ""}" data-i="${i}" title="${esc(c)} ✕" ` +
    `aria-label="${esc(t("remove_tile", tileName(c)))}">${tileImg(c, "small")}</button>`);
  const note = auto && tiles.length ? `<small class="hint">${t("from_photo")}</small>` : "";
  el.innerHTML = chips.join("") + note + `<button type="button" class="chip add" title="${esc(t("add"))}" aria-label="${esc(t("add"))}">+</button>`;
  el.querySelectorAll(".chip[data-i]").forEach((b) => b.addEventListener("click", () => onChange(tiles.filter((_, i) => i !== +b.dataset.i))));
  el.querySelector(".chip.add").addEventListener("click", (e) => {
    const box = e.currentTarget.getBoundingClientRect(); // by the button, where a key pressed it too (no pointer there)
    openPicker(box.left, box.bottom, null, [], (code) => onChange([...tiles, code]));
  });
  if (focused !== null) (el.querySelector(`.chip[data-i="${focused}"]`) || el.querySelector(".chip.add")).focus({ preventScroll: true });
}

// The dora indicators: the photo's (state.dora null) until the user changes them; the row emptied of a photo's
// means none (the tile the photo took for one is not: /api/table's dora_from_photo). Typed and live, an empty row
// is the frame's or none alike. Indicators set by hand belong to the photo shown then (another hand's, the next
// photo's likely are not): set before any, to the next one read.
function drawContextTiles() {
  const { dora, ura } = indicators();
  const auto = dora === null;
  // a change keeps the other row as shown (in Live, the photo's indicators are left behind with both)
  drawTilesField($("dora"), auto ? photoDora() : dora, auto, (next) => {
    Object.assign(state, { dora: next.length ? next : state.mode === "photo" && state.table ? [] : null, ura });
    indicatorsChanged();
  });
  drawTilesField($("ura"), ura, false, (next) => {
    Object.assign(state, { dora, ura: next });
    indicatorsChanged();
  });
}

// The indicators that stand in the view shown: in Live not those set by hand on the photo in the Photo tab (the
// frames' own are read; a frame frozen would drop them).
function indicators() {
  if (state.mode === "live" && indicatorsOfShownPhoto()) return { dora: null, ura: [] };
  return { dora: state.dora, ura: state.ura };
}

function indicatorsChanged() {
  // set for the photo shown; in Live or for a typed hand, for no photo yet (a frame frozen takes them)
  state.indicatorsOf = state.mode === "photo" && state.photo ? state.photoKey : null;
  drawContextTiles();
  rescore();
}

// Whether the indicators set by hand are of the photo shown, and so not of the next.
const indicatorsOfShownPhoto = () => Boolean(state.indicatorsOf && state.photo && state.indicatorsOf === state.photoKey);

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
  if (state.mode === "live") return sendLiveOptions();
  if (state.mode === "calib") return;
  if (state.recognizing) { state.dirty = true; return; }
  if (state.file && state.file !== state.shownFile) recognize(); // chosen, and refused for its rules alone
  else if (state.tiles) rescoreTable();
}

// ---------------------------------------------------------------- typed hand

async function scoreTyped() {
  const hand = $("hand").value.trim();
  if (!hand) { // emptied: nothing to score, and nothing refused
    state.seq.score++;
    state.typed = null;
    markRefused(null, ["hand", "win_tile"]);
    clearError();
    drawReadout();
    return;
  }
  const seq = ++state.seq.score;
  const body = { hand, win_tile: $("win_tile").value.trim() || null, ruleset: rulesetSpec(), context: contextFromForm(false) };
  try {
    const r = await postJson("/api/score", body);
    if (seq !== state.seq.score) return;
    if ($("win").value === "draw" && r.tiles === 14) {  // no 14th tile at a draw: valued, it would read as a ron
      state.typed = null;
      drawReadout();
      showError(() => t("draw_fourteen"));
      markRefused("hand");
      return;
    }
    state.typed = r;
    clearError();
    markRefused(null);
    drawReadout();
  } catch (e) {
    if (seq !== state.seq.score) return;
    state.typed = null; // the readout of the hand before would stand beside the error as this one's
    drawReadout();
    showError(e.message);
    markRefused(e.part);
  }
}

// The field of the part the server refused (its answer's ``part``) marked invalid, the others of ``parts`` not (a
// photo's answer says nothing of the typed hand); a refusal of the context, or of the parts together (a winning
// tile the hand lacks), marks none: the banner says what.
const REFUSED_FIELDS = { hand: "hand", win_tile: "win_tile", ruleset: "house_rules" };
function markRefused(part, parts = Object.keys(REFUSED_FIELDS)) {
  for (const name of parts) {
    if (name === part) $(REFUSED_FIELDS[name]).setAttribute("aria-invalid", "true");
    else $(REFUSED_FIELDS[name]).removeAttribute("aria-invalid");
  }
}

// ---------------------------------------------------------------- photo and table

function mirrorPolygon(polygon) {
  if (!state.photo || !state.photo.mirrored) return polygon;
  return polygon.map(([x, y]) => [state.photo.width - x, y]);
}

// The tiles as the page keeps them for corrections, each with its role as last read (drawn with it until the
// table comes back scored)
function tilesOf(table) {
  return table.tiles.map((tile) => ({ kind: tile.kind, polygon: tile.polygon.map((p) => [...p]), confidence: tile.confidence,
    fixed: !!tile.fixed, candidates: tile.candidates || [], role: tile.role }));
}

// The table as corrected before the server has scored it (or when it refused to): its marks are the corrected
// tiles, so a tap picks the tile it shows, and no readout of the tiles before stays on screen.
function unscored(table, tiles) {
  return { ...table, tiles, seats: [], readout: null, hand: null, problems: [], suggestions: [] };
}

// The photo's status line, by its key in the page's strings ("" for none): said again in a language chosen after.
function setStatus(key) {
  state.status = key;
  $("photo-status").textContent = key ? t(key) : "";
}

// The photo read again with another option (mirrored, the tile set): asked first where it would drop corrections
// made to its tiles, and ``undoOption`` puts the option back when the user keeps them.
function readAgain(undoOption) {
  if (state.history.length && state.file && !window.confirm(t("drop_corrections"))) { undoOption(); return; }
  recognize();
}

async function recognize() {
  if (!state.file) return;
  const file = state.file;
  const form = new FormData();
  form.append("photo", file);
  const context = contextFromForm(true);
  if (indicatorsOfShownPhoto() && file !== state.photoKey) Object.assign(context, { dora_indicators: [], ura_indicators: [] });
  form.append("context", JSON.stringify(context));
  form.append("ruleset", rulesetSpec());
  form.append("seat", $("seat").value);
  form.append("mirrored", String($("mirrored").checked));
  if ($("profile").value) form.append("profile", $("profile").value);
  const seq = ++state.seq.recognize;
  state.recognizing = true;
  state.dirty = false;
  setStatus("reading");
  $("stage").classList.add("busy");
  try {
    const table = await api("/api/recognize", { method: "POST", body: form });
    if (seq !== state.seq.recognize) return;
    dropTableAnswer(); // for the previous photo's tiles (one refused, that photo stays shown, and its answer with it)
    markRefused(null, ["ruleset"]);
    if (state.mode === "photo") clearError();
    await showPhoto(URL.createObjectURL(file), table, { inPlace: true, key: file });
    state.shownFile = file;
    $("profile").dataset.shown = $("profile").value;
    keepSoon();
  } catch (e) {
    if (seq !== state.seq.recognize) return;
    // a refused file is not sent again when mirrored or the tile set changes; one refused for the rules sent with it
    // (a house rule mistyped: the answer names the part) is, once they change
    state.file = e.part === "ruleset" || e.part === "context" ? file : state.shownFile || null;
    markRefused(e.part, ["ruleset"]);
    showError(e.message);
  } finally {
    if (seq === state.seq.recognize) {
      state.recognizing = false;
      setStatus(state.adding ? "add_hint" : ""); // pressed over a photo that stays (this one refused)
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

// Shows a photo and its table (from /api/recognize, or any table JSON with its image: the tests' hook), in the
// photo view; ``inPlace``: in the tab the user is in, as a photo read while they went on elsewhere (from Live, the
// switch would stop the camera); ``key``: which photo it is (``photoKey``).
async function showPhoto(url, table, { inPlace = false, key = url } = {}) {
  if (!table || !Array.isArray(table.tiles)) throw new Error(t("bad_table"));
  let width = table.width, height = table.height;
  try {
    const img = await loadImage(url);
    width = width || img.naturalWidth;
    height = height || img.naturalHeight;
  } catch (e) {
    showError(e.message); // the tiles can still be drawn over an empty frame
  }
  if (indicatorsOfShownPhoto() && key !== state.photoKey) { state.dora = null; state.ura = []; } // its own, not those
  state.photoKey = key;
  state.indicatorsOf = state.dora !== null || state.ura.length ? key : null; // set before any photo: now this one's
  if (state.photo && state.photo.url !== url && state.photo.url.startsWith("blob:")) URL.revokeObjectURL(state.photo.url);
  state.photo = { url, width: width || 1000, height: height || 750, mirrored: Boolean(table.mirrored) };
  state.tiles = tilesOf(table);
  state.table = table;
  state.history = [];
  state.highlight = new Set();
  state.problem = null;
  // what its seats declared at the draw: none for a photo just read, a frozen live frame's as it had them
  state.drawDeclared = Object.fromEntries(((table.draw || {}).seats || []).filter((s) => s.declared !== null && s.declared !== undefined)
    .map((s) => [s.seat, s.declared]));
  setAdding(false); // pressed over the photo before, its hint gone with it
  $("photo-img").src = url;
  if (!inPlace || state.mode === "photo") setMode("photo", false);
  drawPhoto();
}

// An answer still to come for the tiles shown no longer applies: it is dropped when it comes.
function dropTableAnswer() {
  state.seq.table++;
  state.scoring = false;
}

async function rescoreTable() {
  const seq = ++state.seq.table;
  state.scoring = true;
  showScoring();
  keepSoon();
  const wonOn = state.tiles.findIndex((tile) => tile.won);
  const body = {
    // a kind set by hand goes without the reader's candidates, so the rules never take it as another of them
    tiles: state.tiles.map((tile) => ({ kind: tile.kind, polygon: mirrorPolygon(tile.polygon), confidence: tile.confidence,
      fixed: !!tile.fixed, candidates: tile.byHand ? [] : tile.candidates || [] })),
    context: contextFromForm(true), ruleset: rulesetSpec(), seat: $("seat").value, draw_declared: state.drawDeclared,
    won_on: wonOn < 0 ? null : wonOn, dora_from_photo: !(state.dora && !state.dora.length), // [] said: none
  };
  try {
    const table = await postJson("/api/table", body);
    if (seq !== state.seq.table) return;
    state.scoring = false;
    table.tiles.forEach((tile) => { tile.polygon = mirrorPolygon(tile.polygon); });
    if (table.tiles.length === state.tiles.length) state.tiles.forEach((tile, i) => { tile.role = table.tiles[i].role; });
    state.table = table;
    state.highlight = new Set();
    state.problem = null;
    markRefused(null, ["ruleset"]);
    if (state.mode === "photo") clearError(); // not another tab's error: the photo's is said again back there
    drawPhoto();
  } catch (e) {
    if (seq !== state.seq.table) return;
    state.scoring = false;
    state.table = unscored(state.table, state.tiles); // refused (the context, say): no readout of other tiles stays
    drawPhoto();
    markRefused(e.part, ["ruleset"]);
    if (state.mode === "photo") showError(e.message); // scored again, so said again, when the user comes back
  }
}

// A correction: change a copy of the tiles, keep the old ones for undo, draw them at once, score again.
function changeTiles(change) {
  state.history.push(state.tiles);
  state.tiles = state.tiles.map((tile) => ({ ...tile, polygon: tile.polygon.map((p) => [...p]) }));
  change(state.tiles);
  showCorrected();
}

function undo() {
  if (!state.history.length) return;
  state.tiles = state.history.pop();
  showCorrected();
}

function showCorrected() {
  if (state.status === "kept_photo") setStatus("");  // no longer the photo as it was left
  state.table = unscored(state.table, state.tiles);
  state.highlight = new Set();
  state.problem = null;
  drawPhoto();
  rescoreTable();
}

function correctTile(index, action) {
  changeTiles((tiles) => {
    if (action === "delete") tiles.splice(index, 1);
    else if (action === "won") {  // the scored hand won on this tile (again: not marked), whatever the photo sets apart
      const was = tiles[index].won;
      tiles.forEach((tile) => { delete tile.won; });
      if (!was) tiles[index].won = true;
    } else if (action === "turn") { const [p0, p1, p2, p3] = tiles[index].polygon; tiles[index].polygon = [p3, p0, p1, p2]; tiles[index].fixed = true; }
    else tiles[index] = { ...tiles[index], kind: action === "back" ? "back" : action, confidence: 1, byHand: true };
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
  openPicker(clientX, clientY, null, ["back"], (code) => changeTiles((tiles) => tiles.push({ kind: code, polygon, confidence: 1 })),
    [], polygon);
}

function setAdding(on) {
  if (on === state.adding) return;
  state.adding = on;
  $("add-mode").setAttribute("aria-pressed", String(on));
  $("stage").classList.toggle("adding", on);
  setStatus(on ? "add_hint" : state.recognizing ? "reading" : "");
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

function labelSize(polygon, width) {
  const short = Math.min(side(polygon[0], polygon[1]), side(polygon[1], polygon[2]));
  return Math.max(short * 0.5, width / 110);
}

// One tile outlined in its role's colour with its kind; ``view``: {width (of the frame), highlight (a Set of
// indices), interactive (tabbable, for the photo's corrections)}.
function tileMark(tile, index, view) {
  const low = tile.confidence < view.below;
  // taken as another kind than the reader's first (a meld that could not be, a fifth copy, a white back)
  const read = tile.candidates && tile.candidates.length ? tile.candidates[0][0] : tile.kind;
  const classes = ["tile-mark", "role-" + (tile.role || "stray")];
  if (low) classes.push("low");
  if (read !== tile.kind) classes.push("reread");
  if (view.highlight.has(index)) classes.push("hl");
  if (index === view.won) classes.push("won");
  // one name for the tooltip and a screen reader (the tooltip's words left out of the name fail WCAG 2.5.3)
  const name = [tileLabel(tile.kind), t("role_" + (tile.role || "stray")), tile.seat ? t(tile.seat) : null, low ? t("low_conf") : null,
    `${(tile.confidence * 100).toFixed(0)}%`, read !== tile.kind ? t("read_as", read, tile.kind) : null].filter(Boolean).join(", ");
  const g = svgEl("g", { class: classes.join(" "), "data-index": index, "data-kind": tile.kind, "data-role": tile.role || "stray",
    "aria-label": name, ...(view.interactive ? { tabindex: 0, role: "button" } : {}) });
  const size = labelSize(tile.polygon, view.width);
  g.append(svgEl("title", {}, name));
  g.append(svgEl("polygon", { points: pointsAttr(tile.polygon), "stroke-dasharray": low ? `${size * 0.3} ${size * 0.2}` : "none" }));
  g.append(svgEl("line", { class: "top", x1: tile.polygon[0][0], y1: tile.polygon[0][1], x2: tile.polygon[1][0], y2: tile.polygon[1][1] }));
  if (tile.kind !== "back" || low) {
    const [cx, cy] = centre(tile.polygon);
    const label = (tile.kind === "back" ? "#" : tile.kind) + (low ? "?" : "");
    g.append(svgEl("text", { x: cx, y: cy, "font-size": size, "stroke-width": size * 0.2 }, label));
  }
  return g;
}

function meldMark(meld, tiles, view) {
  const corners = meld.tile_indices.flatMap((i) => tiles[i].polygon);
  const [cx, cy] = centre(corners);
  const outline = hull(corners).map(([x, y]) => [cx + (x - cx) * 1.08, cy + (y - cy) * 1.08]);
  const g = svgEl("g", { class: "meld-mark", "data-kind": meld.kind, "data-source": meld.source || "" });
  g.append(svgEl("polygon", { points: pointsAttr(outline) }));
  g.append(svgEl("title", {}, t(meld.kind) + (meld.source ? " · " + t("from_seat", t(meld.source)) : "")));
  if (meld.source) {  // the source over the meld's middle: "from left", 上家から
    const top = Math.min(...outline.map((p) => p[1]));
    const size = labelSize(tiles[meld.tile_indices[0]].polygon, view.width) * 0.8;
    g.append(svgEl("text", { x: cx, y: top - size * 0.4, "font-size": size, "stroke-width": size * 0.2 }, t("from_seat", t(meld.source))));
  }
  return g;
}

// A table's tiles and melds drawn into an <svg> laid over its frame (polygons in the frame's pixels): the photo
// and the live view both draw with this.
function renderOverlay(svg, table, width, height, highlight = new Set(), interactive = false) {
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("preserveAspectRatio", "none");
  // the tile the scored hand won on: the one the server took (set apart, or marked where it can be), else, while
  // a correction is with the server, the one marked
  const scored = (table.seats || []).find((s) => s.seat === table.seat);
  const won = scored ? scored.drawn ?? -1 : table.tiles.findIndex((tile) => tile.won);
  const view = { width, highlight, interactive, below: checkBelow(table), won };
  const tiles = table.tiles;
  const marks = tiles.map((tile, i) => tileMark(tile, i, view));
  const melds = (table.seats || []).flatMap((s) => s.melds).filter((m) => m.tile_indices.every((i) => tiles[i])).map((m) => meldMark(m, tiles, view));
  // the tile a keyboard is on stays so as the marks are drawn anew (a correction's, then the server's answer)
  const focused = svg.contains(document.activeElement) ? document.activeElement.dataset.index : undefined;
  svg.replaceChildren(...melds, ...marks);
  if (focused !== undefined && marks[+focused]) marks[+focused].focus({ preventScroll: true });
}

function drawOverlay() {
  renderOverlay($("overlay"), state.table, state.photo.width, state.photo.height, state.highlight, true);
}

// Below this sure a tile is marked unsure: the server's threshold for the tiles a readout asks to check
function checkBelow(table) {
  return table && table.check ? table.check.below : LOW_CONFIDENCE;
}

function drawLegend() {
  const kita = state.table && (state.table.tiles || []).some((tile) => tile.role === KITA) ? [KITA] : [];
  const items = [...ROLES, ...kita].map((r) => `<span class="key role-${r}"><i></i>${t("role_" + r)}</span>`);
  items.push(`<span class="key low"><i></i>${t("low_conf")}${t("gap")}${t("paren", "&lt; " + t("percent", Math.round(checkBelow(state.table) * 100)))}</span>`);
  items.push(`<span class="key won"><i></i>${t("won_tile")}</span>`);
  $("legend").innerHTML = items.join("") + `<span class="hint">${t("tap_hint")}</span>`;
}

// a problem about one seat's tiles says whose, in the page's language: a referee looks there first
function problemText(p) {
  return (p.seat ? `<b>${esc(t(p.seat))}</b>: ` : "") + esc(messageText(p.message));
}

function drawProblems() {
  const problems = state.table.problems || [];
  const el = $("problems");
  el.hidden = !problems.length;
  el.innerHTML = `<h2>${t("problems")}</h2><ul>` + problems.map((p, i) =>
    `<li><button type="button" data-problem="${i}" aria-pressed="${state.problem === i}">${problemText(p)}` +
    (p.tiles.length ? `${t("gap")}<small>${t("paren", t(p.tiles.length === 1 ? "one_tile" : "n_tiles", p.tiles.length))}</small>` : "") +
    "</button></li>").join("") + "</ul>";
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

function drawSeats(el = $("seats"), table = state.table) {
  const rows = (table.seats || []).map((s) => seatSummary(s, table.tiles)).join("");
  el.innerHTML = rows ? `<h2>${t("table")}</h2>${rows}` : "";
  el.hidden = !rows;
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
  showScoring(); // the photo's "Scoring…" goes with the photo view, left mid-correction (drawn again below there)
  if (state.mode === "typed") {
    if (state.typed) {
      renderReadout(el, state.typed);
      // a typed hand is one seat's: an exhaustive draw's payments need every seat's (a photo of the table)
      if ($("win").value === "draw") el.insertAdjacentHTML("beforeend", `<p class="note draw-typed"><i>${t("draw_typed")}</i></p>`);
    } else { el.hidden = true; el.replaceChildren(); }  // none: a refused hand's readout is not the one before
    return;
  }
  if (state.mode === "calib") { el.hidden = true; return; }
  const table = state.mode === "live" ? live.table : state.table;
  if (!table) { el.hidden = true; return; }
  renderReadout(el, table.readout, { notes: table.notes || [], hand: table.hand, problems: (table.problems || []).length > 0,
    noReadout: state.mode === "live" ? "no_readout_live" : "no_readout" });
  showScoring();
  if (state.mode === "photo") {
    if (table.readout) drawCheck(el, table);
    drawSuggestions(el, table.suggestions || []);
  }
  if ($("win").value === "draw" && table.draw) {
    el.insertAdjacentHTML("beforeend", drawAtTableHtml(table.draw));
    el.querySelectorAll("select.declare").forEach((select) => select.addEventListener("change", () => {
      if (select.value) state.drawDeclared[select.dataset.seat] = select.value === "tenpai";
      else delete state.drawDeclared[select.dataset.seat];
      rescore();
    }));
  }
}

// A correction's tiles are drawn at once and their readout when the server answers: till then the readout says it
// is coming (on a slow link it would otherwise vanish) and one still shown (the context changed) is greyed as the
// one before. Only the line and the mark change: the panel is not drawn again under a select the user just set.
function showScoring() {
  const el = $("readout");
  const on = state.mode === "photo" && state.scoring;
  el.querySelector(":scope > p.scoring")?.remove();
  if (on) el.setAttribute("aria-busy", "true"); // an empty aria-busy is false to a screen reader
  else el.removeAttribute("aria-busy");
  if (on) el.insertAdjacentHTML("afterbegin", `<p class="scoring">${esc(t("scoring"))}</p>`);
}

// Whether the readout can be trusted as it stands: the hand's tiles read less surely, taken as another kind than
// read or named by a problem (``vision.table.tiles_to_check``), with a button that lights them up on the photo.
// Photos only: a live tile's confidence is its track's share of the votes (``vision.tracker``), not measured so.
function drawCheck(el, table) {
  if (!table.check) return; // nothing said is not "read surely"
  const tiles = table.check.tiles;
  const p = document.createElement("p");
  p.className = "check " + (tiles.length ? "unsure" : "sure");
  p.textContent = tiles.length ? t("check_tiles", tiles.length) : t("read_surely", t("percent", Math.round(checkBelow(table) * 100)));
  if (tiles.length) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = t("show_them");
    button.addEventListener("click", () => {
      state.problem = null;
      state.highlight = new Set(tiles);
      drawOverlay();
      drawProblems();
      $("stage").scrollIntoView({ block: "nearest", behavior: "smooth" });
    });
    p.append(" ", button);
  }
  el.prepend(p);
}

// A 14-tile hand that is not complete, and an unsure tile whose other likely reading completes it: offered as a
// one-tap correction (the tile lights up while the offer is pointed at), never applied unasked.
function drawSuggestions(el, suggestions) {
  if (!suggestions.length) return;
  const box = document.createElement("div");
  box.className = "suggestions";
  box.innerHTML = suggestions.map((s, i) =>
    `<p data-suggestion="${i}">${t("maybe_complete", tileImg(s.read, "small"), tileImg(s.kind, "small"), t("percent", Math.round(s.probability * 100)))} ` +
    `<button type="button" data-take="${i}">${esc(t("take_it", s.kind))}</button></p>`).join("");
  for (const p of box.querySelectorAll("p[data-suggestion]")) {
    const s = suggestions[+p.dataset.suggestion];
    const light = (on) => {
      state.highlight = new Set(on ? [s.tile] : state.problem !== null ? state.table.problems[state.problem].tiles : []);
      drawOverlay();
    };
    const button = p.querySelector("button");
    p.addEventListener("mouseenter", () => light(true));
    p.addEventListener("mouseleave", () => light(false));
    button.addEventListener("focus", () => light(true));  // by keyboard too
    button.addEventListener("blur", () => light(false));
    button.addEventListener("click", () => { light(false); correctTile(s.tile, s.kind); });
  }
  el.appendChild(box);
}

function svgPoint(evt) {
  const svg = $("overlay");
  const p = svg.createSVGPoint();
  p.x = evt.clientX;
  p.y = evt.clientY;
  return p.matrixTransform(svg.getScreenCTM().inverse());
}

// The reader's other likely kinds for a tile come first in its picker: a misread tile is most often one of them.
function openTilePicker(index, clientX, clientY) {
  const tile = state.tiles[index];
  const likely = (tile.candidates || []).map(([code]) => code).filter((code) => code !== tile.kind);
  openPicker(clientX, clientY, tile.kind, ["back", "turn", "won", "delete"], (action) => correctTile(index, action), likely,
    tile.polygon);
}

// The tile as the photo shows it, enlarged at the picker's top: on a phone a far tile is a few pixels under a
// finger and its mark's label, and the picker covers its row
const ZOOM_HEIGHT = 110; // px, at most 260 wide
function drawPickerZoom(polygon) {
  const canvas = $("picker-zoom"), img = $("photo-img");
  canvas.hidden = !polygon || !img.naturalWidth || !state.photo;
  if (canvas.hidden) return;
  const xs = polygon.map((p) => p[0]), ys = polygon.map((p) => p[1]);
  const pad = 0.6 * Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 4);
  const x0 = Math.min(...xs) - pad, y0 = Math.min(...ys) - pad, w = Math.max(...xs) + pad - x0, h = Math.max(...ys) + pad - y0;
  const scale = Math.min(ZOOM_HEIGHT / h, 260 / w), dpr = window.devicePixelRatio || 1;
  canvas.style.width = `${w * scale}px`;
  canvas.style.height = `${h * scale}px`;
  canvas.width = Math.round(w * scale * dpr);
  canvas.height = Math.round(h * scale * dpr);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(scale * dpr, 0, 0, scale * dpr, -x0 * scale * dpr, -y0 * scale * dpr);
  ctx.fillStyle = "#333";
  ctx.fillRect(x0, y0, w, h);
  ctx.drawImage(img, 0, 0, state.photo.width, state.photo.height);  // in the overlay's frame, the tiles' own
  ctx.beginPath();
  polygon.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
  ctx.closePath();
  ctx.lineWidth = 2 / scale;
  ctx.strokeStyle = "#c77700";
  ctx.stroke();
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
let pickerOpener = null; // what had the focus when the picker opened

// The picker's faces, named in the page's language: drawn again when it changes (they said the first one's)
function drawPickerFaces() {
  $("picker-faces").innerHTML = FACE_ROWS.map((row) => `<div class="face-row">` +
    row.map((c) => `<button type="button" class="face" data-code="${c}" title="${c}">${tileImg(c)}</button>`).join("") + "</div>").join("");
}

function buildPicker() {
  drawPickerFaces();
  $("picker").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-code], button[data-act]");
    if (!b) return;
    const done = pickerDone;
    closePicker(false);
    if (done) done(b.dataset.code || b.dataset.act);
    returnFocus();  // to the tile as drawn again
  });
  $("picker-close").addEventListener("click", () => closePicker());
  $("picker").addEventListener("keydown", onPickerKey);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") { closePicker(); setAdding(false); } });
  document.addEventListener("pointerdown", (e) => {
    if (!$("picker").hidden && !$("picker").contains(e.target) && !e.target.closest(".tile-mark, .calib-mark, .chip.add, #overlay")) closePicker();
  });
}

// Opens the picker at a point of the window; ``actions``: which of back / turn / delete to offer; ``likely``: kinds
// offered first, in a row of their own; ``zoom``: the polygon of the photo's tile it corrects, shown enlarged.
function openPicker(clientX, clientY, current, actions, done, likely = [], zoom = null) {
  const picker = $("picker");
  if (picker.hidden) {
    const el = document.activeElement;
    const within = (selector) => el.closest && el.closest(selector) && el.closest(selector).id;
    pickerOpener = el && { el, svg: within("svg"), index: el.dataset && el.dataset.index, field: within(".tiles-field") };
  }
  pickerDone = done;
  $("picker-likely").hidden = likely.length === 0;
  $("picker-likely").querySelector(".face-row").innerHTML = likely.map((c) =>
    `<button type="button" class="face likely" data-code="${esc(c)}" title="${esc(c)}">${tileImg(c)}</button>`).join("");
  const markCurrent = (b, on) => { b.classList.toggle("current", on); if (on) b.setAttribute("aria-current", "true"); else b.removeAttribute("aria-current"); };
  picker.querySelectorAll("button[data-code]").forEach((b) => markCurrent(b, b.dataset.code === current));
  picker.querySelectorAll("button[data-act]").forEach((b) => { b.hidden = !actions.includes(b.dataset.act); });
  markCurrent(picker.querySelector('button[data-act="back"]'), current === "back");
  drawPickerZoom(zoom);
  picker.style.left = "0px"; // measured at its natural size, then placed where it fits whole
  picker.style.top = "0px";
  picker.hidden = false;
  const { width, height } = picker.getBoundingClientRect();
  const { clientWidth, clientHeight } = document.documentElement; // the window less its scroll bars
  picker.style.left = Math.max(4, Math.min(clientX + 8, clientWidth - width - 4)) + "px";
  picker.style.top = Math.max(4, Math.min(clientY + 8, clientHeight - height - 4)) + "px";
  // the focus moves in, so that a keyboard reaches the faces at once: the reader's other likely kinds, else the
  // tile's own kind (a calibration cell's), else the first face
  const first = picker.querySelector("#picker-likely:not([hidden]) button") ||
    picker.querySelector("button.current:not([hidden])") || picker.querySelector("#picker-faces button");
  first.focus({ preventScroll: true });
}

// In the picker, the arrow keys go to the nearest face that way (37 faces were as many Tabs), and Tab goes round
// its buttons, not out of the dialog behind it.
function onPickerKey(e) {
  const buttons = [...$("picker").querySelectorAll("button")].filter((b) => b.offsetParent !== null);
  const at = buttons.indexOf(document.activeElement);
  if (e.key === "Tab") {
    if (at === (e.shiftKey ? 0 : buttons.length - 1) || at < 0) {
      e.preventDefault();
      buttons.at(e.shiftKey ? -1 : 0).focus();
    }
    return;
  }
  const way = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
  if (!way || at < 0) return;
  e.preventDefault();
  const centre = (b) => { const r = b.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
  const [x, y] = centre(buttons[at]);
  let best = null, bestCost = Infinity;
  for (const b of buttons) {
    const [bx, by] = centre(b);
    const along = (bx - x) * way[0] + (by - y) * way[1], across = Math.abs((bx - x) * way[1] + (by - y) * way[0]);
    if (along <= 1) continue; // not that way
    const cost = along + 2 * across;
    if (cost < bestCost) { best = b; bestCost = cost; }
  }
  if (best) best.focus();
}

// ``back``: the focus goes back to what opened the picker (a tile, the dora's +), as a dialog's does
function closePicker(back = true) {
  const picker = $("picker");
  if (picker.hidden) return;
  const inside = picker.contains(document.activeElement);
  picker.hidden = true;
  pickerDone = null;
  if (back && inside) returnFocus();
}

// The picker's opener, or the tile drawn again in its place (a correction draws the photo's tiles anew)
function returnFocus() {
  const opener = pickerOpener;
  pickerOpener = null;
  if (!opener) return;
  const again = opener.el.isConnected ? opener.el
    : opener.svg && opener.index !== undefined ? document.querySelector(`#${opener.svg} [data-index="${opener.index}"]`)
    : opener.field && document.querySelector(`#${opener.field} .chip.add`); // a dora row drawn anew: its +
  if (again && again.focus) again.focus({ preventScroll: true });
}

// ---------------------------------------------------------------- live mode

// The live view: camera frames over the WebSocket /api/live, one frame in flight at a time (the next is sent when
// the answer for the last arrives), each answer drawn over the video; or, with the server's camera, the frames
// the server sends with its answers.
const MAX_FRAME_SIDE = 960;
const live = {
  on: false, // streaming (or starting to)
  session: 0, // bumped at each start and stop: callbacks of an older session do nothing
  source: "browser",
  ws: null,
  stream: null,
  retry: null, // the timer waiting for the video's first frame
  pending: null, // the canvas of the frame in flight
  frame: null, // the frame the newest answer belongs to: {canvas} or {url}, with width and height
  table: null, // the newest answer
  answers: 0,
  times: [], // when the last answers arrived (ms), for frames/s
  kinds: [], // the kinds shown by each of the last answers
  ms: null,
  dropped: 0,
  optionsSent: 0, // how many times options were sent, and which the server refused last (null: none)
  optionsRefused: null,
  frameOptions: 0, // the options sent before the frame in flight: its answer was read with them
};

function liveOptions() {
  return {
    context: contextFromForm(true), ruleset: rulesetSpec(), seat: $("seat").value,
    mirrored: $("live-mirrored").checked, profile: $("profile").value || null, draw_declared: state.drawDeclared,
  };
}

function sendLiveOptions() {
  if (!live.ws || live.ws.readyState !== WebSocket.OPEN) return;
  live.optionsSent++;
  live.ws.send(JSON.stringify(liveOptions()));
}

const setLiveStatus = (text) => sayIn("live-status", text);

function updateLiveUi() {
  $("live-toggle").textContent = t(live.on ? "live_stop" : "live_start");
  $("live-toggle").dataset.i18n = live.on ? "live_stop" : "live_start";
  $("freeze").disabled = !(live.table && live.frame);
}

async function startLive() {
  stopLive();
  clearError(); // started again: what stopped it before (no camera, the source refused) is said again if it still stands
  markRefused(null, ["ruleset"]); // so are house rules refused before: the options are sent again
  state.drawDeclared = {}; // another table's seats
  const session = live.session;
  const camera = $("live-source").value === "camera";
  Object.assign(live, { on: true, source: camera ? "camera" : "browser", pending: null, frame: null, table: null,
    answers: 0, times: [], kinds: [], ms: null, dropped: 0 });
  $("live-video").hidden = camera;
  $("live-img").hidden = !camera;
  $("live-img").removeAttribute("src");
  $("live-overlay").replaceChildren();
  $("live-stats").textContent = "";
  $("live-problems").hidden = true;
  $("live-seats").hidden = true;
  updateLiveUi();
  drawReadout();
  if (!camera) {
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      showError(() => t("no_camera_api"));
      stopLive();
      return;
    }
    setLiveStatus(() => t("live_starting"));
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
    } catch (e) {
      if (session === live.session) {
        // the browser's own words are English whatever the page's language: the common two said in its own
        const cause = { NotFoundError: "camera_not_found", OverconstrainedError: "camera_not_found", NotAllowedError: "camera_refused" }[e.name];
        showError(() => t("camera_failed", cause ? t(cause) : e.message || e.name));
        stopLive();
      }
      return;
    }
    if (session !== live.session) { stream.getTracks().forEach((track) => track.stop()); return; }
    live.stream = stream;
    const video = $("live-video");
    video.srcObject = stream;
    video.play().catch(() => { /* muted autoplay: plays anyway once it has data */ });
  }
  setLiveStatus(() => t("live_connecting"));
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/api/live${camera ? "?source=camera" : ""}`);
  live.ws = ws;
  ws.onopen = () => {
    if (live.ws !== ws) return;
    sendLiveOptions();
    setLiveStatus(() => t("live_waiting"));
    if (!camera) sendFrame(ws);
  };
  ws.onmessage = (e) => onLiveMessage(ws, e);
  ws.onclose = (e) => onLiveClose(ws, e);
}

function stopLive() {
  const stopping = live.on;
  live.session++;
  live.on = false;
  live.optionsRefused = null;
  clearTimeout(live.retry);
  if (live.ws) {
    const ws = live.ws;
    live.ws = null;
    try { ws.close(1000); } catch { /* already closed */ }
  }
  if (live.stream) {
    live.stream.getTracks().forEach((track) => track.stop());
    live.stream = null;
  }
  $("live-video").srcObject = null;
  if (stopping && live.frame && live.frame.canvas) { // the last frame stays under its marks, not an empty box
    $("live-img").src = live.frame.canvas.toDataURL("image/jpeg", 0.9);
    $("live-img").hidden = false;
    $("live-video").hidden = true;
  }
  if (live.answers) setLiveStatus(() => t("live_stopped"));
  else setLiveStatus("");
  updateLiveUi();
}

// The video's current picture, downscaled so its long side is at most MAX_FRAME_SIDE, sent as a JPEG.
function sendFrame(ws) {
  if (live.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
  const video = $("live-video");
  if (video.readyState < 2 || !video.videoWidth) {
    live.retry = setTimeout(() => sendFrame(ws), 100);
    return;
  }
  const scale = Math.min(1, MAX_FRAME_SIDE / Math.max(video.videoWidth, video.videoHeight));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(video.videoWidth * scale);
  canvas.height = Math.round(video.videoHeight * scale);
  canvas.getContext("2d").drawImage(video, 0, 0, canvas.width, canvas.height);
  canvas.toBlob((blob) => {
    if (live.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
    if (!blob) { live.retry = setTimeout(() => sendFrame(ws), 200); return; }
    live.pending = canvas;
    live.frameOptions = live.optionsSent;
    ws.send(blob);
  }, "image/jpeg", 0.8);
}

function onLiveMessage(ws, event) {
  if (live.ws !== ws) return;
  let msg;
  try {
    msg = JSON.parse(event.data);
  } catch {
    msg = { error: t("bad_table") };
  }
  const answer = "frame" in msg; // the answer to a frame (an options error has no frame number)
  if (msg.error) {
    showError(msg.error); // shown, and the stream goes on
    live.frameError = answer;
    if (!answer) { live.optionsRefused = live.optionsSent; markRefused(msg.part, ["ruleset"]); }
  } else if (Array.isArray(msg.tiles)) {
    // read with options sent after those refused (the server says nothing of options it takes): they stand
    const readWith = live.source === "browser" ? live.frameOptions : live.optionsSent;
    if (live.optionsRefused !== null && readWith > live.optionsRefused) {
      live.optionsRefused = null;
      markRefused(null, ["ruleset"]);
      clearError();
    }
    if (live.frameError) { clearError(); live.frameError = false; }
    acceptAnswer(msg);
  }
  if (answer && live.source === "browser") sendFrame(ws);
}

function acceptAnswer(msg) {
  const now = performance.now();
  live.answers++;
  live.times = [...live.times.slice(-9), now];
  live.kinds = [...live.kinds.slice(-4), [...new Set(msg.tiles.map((tile) => tile.kind))].sort()];
  live.ms = msg.ms ?? null;
  live.dropped = msg.dropped ?? 0;
  if (live.source === "camera") {
    live.frame = { url: msg.image, width: msg.width, height: msg.height };
    if (msg.image) $("live-img").src = msg.image;
  } else {
    live.frame = { canvas: live.pending, width: msg.width, height: msg.height };
  }
  const doraBefore = JSON.stringify(photoDora());
  live.table = msg;
  setLiveStatus(() => t("live_hint"));
  drawLive();
  if (JSON.stringify(photoDora()) !== doraBefore) drawContextTiles();
  updateLiveUi();
}

function framesPerSecond() {
  const n = live.times.length;
  return n < 2 ? null : (n - 1) / ((live.times[n - 1] - live.times[0]) / 1000);
}

function drawLive() {
  const table = live.table;
  if (!table) return;
  renderOverlay($("live-overlay"), table, table.width, table.height);
  const problems = table.problems || [];
  $("live-problems").hidden = !problems.length;
  $("live-problems").innerHTML = `<h2>${t("problems")}</h2><ul>` + problems.map((p) => `<li>${problemText(p)}</li>`).join("") + "</ul>";
  drawSeats($("live-seats"), table);
  const fps = framesPerSecond();
  $("live-stats").textContent = t("live_stats", fps === null ? "–" : fps.toFixed(1), live.ms ?? "–", live.dropped);
  if (state.mode === "live") drawReadout();
}

function onLiveClose(ws, event) {
  if (live.ws !== ws) return; // closed by stopLive
  live.ws = null;
  if (event.code === 4401) showError(() => t("access_code"));
  else if (event.code !== 1000) showError(() => t("live_closed", event.reason || event.code)); // 1000: the server said why
  stopLive();
}

// Stops streaming and opens the newest frame with its table in the photo view, to correct it there.
async function freeze() {
  const { table, frame } = live;
  if (!table || !frame) return;
  stopLive();
  let blob;
  if (frame.canvas) blob = await new Promise((resolve) => frame.canvas.toBlob(resolve, "image/jpeg", 0.92));
  else blob = await (await fetch(frame.url)).blob();
  state.file = state.shownFile = new File([blob], "live-frame.jpg", { type: "image/jpeg" }); // read again if the tile set changes
  $("profile").dataset.shown = $("profile").value; // the set the frame was read with
  $("mirrored").checked = Boolean(table.mirrored);
  state.seq.recognize++; // a photo still being read would replace the frozen frame
  dropTableAnswer(); // one for the photo's tiles would stand for the frame's
  state.recognizing = false;
  const focused = document.activeElement === $("freeze");
  await showPhoto(URL.createObjectURL(blob), table, { key: state.file });
  setStatus(""); // not the photo kept from before, if that one was said to be
  if (focused) $("tab-photo").focus(); // the button is gone with its tab: the focus to the view now shown
  keepSoon();
}

// Kept on window.riichiLens for the tests: how many answers, and the kinds each of the last ones showed.
function liveStats() {
  return {
    on: live.on, source: live.source, answers: live.answers, tiles: live.table ? live.table.tiles.length : 0,
    fps: framesPerSecond(), ms: live.ms, dropped: live.dropped, lastKinds: live.kinds.map((k) => [...k]),
  };
}

function wireLive() {
  $("live-toggle").addEventListener("click", () => { if (live.on) stopLive(); else startLive(); });
  $("live-source").addEventListener("change", () => { if (state.mode === "live") startLive(); });
  $("live-mirrored").addEventListener("change", sendLiveOptions);
  $("freeze").addEventListener("click", freeze);
}

// ---------------------------------------------------------------- calibration to the user's own set

const SUITED = (suit) => [..."123456789"].map((n) => n + suit);
const CALIB_REQUIRED = [..."1234567"].map((n) => n + "z").concat(SUITED("p"), SUITED("s"), SUITED("m"));
const calib = {
  file: null, // the grid photo, sent again with the confirmed grid
  url: null,
  width: 0,
  height: 0,
  tiles: null, // [{kind, polygon}] as the user confirms them
  found: null, // the kinds as the server gave them
  seq: 0,
};

// The grid to lay out, with the tile art: row 1 (red fives if any, honours, a face-down tile), then p, s, m.
function drawCalibOrder() {
  const group = (codes, label) => `<span class="optional" title="${esc(label)}">${tileRow(codes, "small")}<small>${esc(label)}</small></span>`;
  // the row's tiles wrap under themselves on a phone, not under the row's name (they looked a row of their own)
  const row = (n, body) => `<div class="calib-row" data-row="${n}"><b>${esc(t("calib_row", n))}</b> <span class="calib-tiles">${body}</span></div>`;
  $("calib-order").innerHTML = [
    row(1, group(["0m", "0p", "0s"], t("calib_reds")) + tileRow(CALIB_REQUIRED.slice(0, 7), "small") + group(["back"], t("calib_back"))),
    row(2, tileRow(SUITED("p"), "small")),
    row(3, tileRow(SUITED("s"), "small")),
    row(4, tileRow(SUITED("m"), "small")),
  ].join("");
}

const setCalibStatus = (text) => sayIn("calib-status", text);

function setCalibResult(text) {
  sayIn("calib-result", text);
  $("calib-result").hidden = false;
}

async function findGrid(file) {
  const seq = ++calib.seq;
  const form = new FormData();
  form.append("photo", file);
  setCalibStatus(() => t("calib_finding"));
  $("calib-result").hidden = true;
  try {
    const grid = await api("/api/calibration/grid", { method: "POST", body: form });
    if (seq !== calib.seq) return;
    clearError();
    await showGrid(grid, URL.createObjectURL(file), file);
  } catch (e) {
    if (seq !== calib.seq) return;
    // a grid checked so far stays, with its photo: a wrong photo picked by mistake does not undo the checking
    setCalibStatus(calib.tiles ? () => t("calib_found", calib.tiles.length) : "");
    showError(e.message);
  }
}

// Shows the grid found ({width, height, tiles: [{kind, polygon}]}) over its photo, for the user to confirm.
async function showGrid(grid, url, file) {
  if (!grid || !Array.isArray(grid.tiles)) throw new Error(t("bad_table"));
  let { width, height } = grid;
  try {
    const img = await loadImage(url);
    width = width || img.naturalWidth;
    height = height || img.naturalHeight;
  } catch (e) {
    showError(e.message);
  }
  if (calib.url && calib.url !== url && calib.url.startsWith("blob:")) URL.revokeObjectURL(calib.url);
  Object.assign(calib, { file, url, width: width || 1000, height: height || 750,
    tiles: grid.tiles.map((tile) => ({ kind: tile.kind, polygon: tile.polygon.map((p) => [...p]) })),
    found: grid.tiles.map((tile) => tile.kind) });
  $("calib-img").src = url;
  $("calib-found").hidden = false;
  const found = calib.tiles.length;
  setCalibStatus(() => t("calib_found", found));
  drawCalib();
}

function calibIssues() {
  const counts = new Map();
  for (const tile of calib.tiles) counts.set(tile.kind, (counts.get(tile.kind) || 0) + 1);
  const twice = [...counts].filter(([, n]) => n > 1).map(([k]) => k);
  const missing = CALIB_REQUIRED.filter((k) => !counts.has(k));
  return { twice, missing };
}

function calibMark(tile, index, twice) {
  const [p0, p1, , p3] = tile.polygon;
  const w = side(p0, p1), h = side(p0, p3);
  const [cx, cy] = centre(tile.polygon);
  const classes = ["calib-mark"];
  if (tile.kind !== calib.found[index]) classes.push("changed");
  if (twice.has(tile.kind)) classes.push("twice");
  const g = svgEl("g", { class: classes.join(" "), "data-index": index, "data-kind": tile.kind, tabindex: 0, role: "button",
    "aria-label": tileLabel(tile.kind) });
  g.append(svgEl("title", {}, tileLabel(tile.kind)));
  g.append(svgEl("polygon", { points: pointsAttr(tile.polygon) }));
  // the kind it will be learnt as: a small tile over the lower right of the tile, so the photo's face still shows
  const bw = Math.max(w * 0.45, calib.width / 80), bh = bw * 4 / 3;
  const x = cx + w / 2 - bw - w * 0.04, y = cy + h / 2 - bh - h * 0.04;
  if (tile.kind === "back") g.append(svgEl("rect", { class: "kind back", x, y, width: bw, height: bh, rx: bw * 0.12 }));
  else {
    g.append(svgEl("rect", { class: "kind", x, y, width: bw, height: bh, rx: bw * 0.12 }));
    g.append(svgEl("image", { href: `/tiles/${tile.kind}.svg`, x, y, width: bw, height: bh }));
  }
  return g;
}

function drawCalib() {
  const svg = $("calib-overlay");
  svg.setAttribute("viewBox", `0 0 ${calib.width} ${calib.height}`);
  svg.setAttribute("preserveAspectRatio", "none");
  const { twice, missing } = calibIssues();
  const twiceSet = new Set(twice);
  svg.replaceChildren(...calib.tiles.map((tile, i) => calibMark(tile, i, twiceSet)));
  const issues = [];
  if (twice.length) issues.push(t("calib_twice", twice.join(" ")));
  if (missing.length) issues.push(t("calib_missing", missing.join(" ")));
  $("calib-issues").textContent = issues.join(t("list_sep"));
  $("calib-issues").hidden = !issues.length;
}

function openCalibPicker(index, clientX, clientY) {
  openPicker(clientX, clientY, calib.tiles[index].kind, ["back"], (code) => {
    calib.tiles[index].kind = code;
    drawCalib();
  });
}

// The confirmed grid, as POST /api/calibration takes it.
function calibrationGrid() {
  return calib.tiles ? calib.tiles.map((tile) => ({ kind: tile.kind, polygon: tile.polygon.map((p) => [...p]) })) : null;
}

async function learnSet() {
  if (!calib.tiles || !calib.file) { showError(() => t("calib_photo_first")); return; }
  const name = $("calib-name").value.trim();
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(name)) { showError(() => t("calib_bad_name")); $("calib-name").focus(); return; }
  if ((state.profiles || []).includes(name) && !window.confirm(t("calib_replace", name))) { $("calib-name").focus(); return; }
  const form = new FormData();
  form.append("photo", calib.file);
  form.append("name", name);
  form.append("grid", JSON.stringify(calibrationGrid()));
  clearError(); // a refusal before this one no longer stands while this learning runs
  $("calib-learn").disabled = true;
  $("calib-progress").hidden = false;
  $("calib-result").hidden = true;
  setCalibStatus(() => t("calib_learning"));
  try {
    const r = await api("/api/calibration", { method: "POST", body: form });
    clearError();
    calib.learnt = r.name;
    setCalibResult(() => t("calib_done", r.name, r.faces.length, r.seconds) +
      (r.face_down_unsure ? " " + t("calib_back_advice") : ""));
    await loadProfiles(r.name);
  } catch (e) {
    showError(e.message);
  } finally {
    $("calib-learn").disabled = false;
    $("calib-progress").hidden = true;
    setCalibStatus("");
  }
}

function wireCalib() {
  $("calib-photo").addEventListener("change", (e) => {
    const file = e.target.files[0];
    e.target.value = "";
    if (file) findGrid(file);
  });
  $("calib-overlay").addEventListener("click", (e) => {
    const mark = e.target.closest(".calib-mark");
    if (mark) openCalibPicker(+mark.dataset.index, e.clientX, e.clientY);
  });
  $("calib-overlay").addEventListener("keydown", (e) => {
    const mark = e.target.closest(".calib-mark");
    if (!mark || (e.key !== "Enter" && e.key !== " ")) return;
    e.preventDefault();
    const box = mark.getBoundingClientRect();
    openCalibPicker(+mark.dataset.index, box.right, box.bottom);
  });
  $("calib-learn").addEventListener("click", learnSet);
  $("calib-saved").addEventListener("click", (e) => { const b = e.target.closest("button[data-delete]"); if (b) deleteSet(b.dataset.delete); });
}

// ---------------------------------------------------------------- modes, language, start

const MODES = ["photo", "live", "typed", "calib"];

function setMode(mode, score = true) {
  const before = state.mode;
  state.mode = mode;
  if (mode !== "live") stopLive(); // leaving the live view stops the camera and the socket
  if (mode !== "photo") setAdding(false); // its next tap on the photo, back there, would add a tile unasked
  for (const m of MODES) $(m + "-mode").hidden = m !== mode;
  document.querySelectorAll('.tabs [role="tab"]').forEach((b) => {
    b.setAttribute("aria-selected", String(b.dataset.mode === mode));
    b.tabIndex = b.dataset.mode === mode ? 0 : -1; // Tab goes to the chosen tab, the arrows to the others
  });
  document.body.dataset.mode = mode;
  closePicker();
  drawContextTiles();
  drawReadout();
  // the sets as they are now (one learnt, or deleted on disk), and the photo read with the one chosen
  if (mode !== "typed" && before !== mode) loadProfiles().then(readWithTheChosenSet);
  if (mode === "live" && (before !== "live" || !live.on)) { startLive(); return; }
  if (score) rescore();
}

function redrawAll() {
  applyLang();
  drawPickerFaces();
  if (!$("banner").hidden) showError(bannerText);
  for (const [id, text] of sayings) $(id).textContent = said(text);
  drawDealer();
  drawHouseOptions();
  drawContextTiles();
  if (state.table && state.photo) drawPhoto();
  else drawReadout();
  setStatus(state.status);
  drawCalibOrder();
  drawSavedSets();
  if (calib.tiles) drawCalib();
  if (live.table) drawLive();
  updateLiveUi();
}

async function loadOptions() {
  try {
    state.rulesets = await api("/api/rulesets");
    const names = Object.keys(state.rulesets);
    $("ruleset").innerHTML = names.map((n) => `<option value="${esc(n)}"${n === "tenhou" ? " selected" : ""}` +
      `${STRINGS.en[`ruleset_${n}`] ? ` data-i18n="ruleset_${esc(n)}"` : ""}>${esc(rulesetName(n))}</option>`).join("");
    state.houseRules = await api("/api/house-rules");
    drawHouseOptions();
  } catch (e) {
    showError(e.message);
  }
  await loadProfiles();
}

// What house rules can be set, and to what: on hover (a laptop) and in a list that opens under the field (a phone
// has no hover), in the page's language.
function drawHouseOptions() {
  const options = Object.entries(state.houseRules || {}).map(([name, values]) => houseOption(name, values));
  $("house_rules").title = [t("house_title"), ...options].join("\n");
  $("house-options").innerHTML = options.map((o) => `<li>${esc(o)}</li>`).join("");
}

// The ruleset sent: the preset chosen, then the house rules typed ("kuitan=no, atozuke=no"), as rules.ruleset.preset reads it
function rulesetSpec() {
  const house = $("house_rules").value.trim();
  return ($("ruleset").value || "tenhou") + (house ? `:${house}` : "");
}

// House rules typed after a preset's name, as the CLI and the API take them ("tenhou:kuitan=no"): the preset is
// chosen in its select and its name taken out of the field (it was sent as "tenhou:tenhou:kuitan=no" and refused)
function presetTypedWithHouseRules() {
  const named = /^\s*([\w-]+)\s*:(.*)$/s.exec($("house_rules").value);
  const preset = named && named[1].toLowerCase(); // "Tenhou:", as the select shows it
  if (!preset || !(state.rulesets || {})[preset]) return;
  $("ruleset").value = preset;
  $("house_rules").value = named[2].trim();
  seatsForRuleset();
}

// Three players sit self, right and left: "across" is not offered as the seat scored nor as the discarder
function seatsForRuleset() {
  const ruleset = (state.rulesets || {})[$("ruleset").value];
  const three = Boolean(ruleset && ruleset.players === 3);
  $("kita").closest("label").hidden = !(ruleset && ruleset.kita);  // norths set aside as dora: three players' rule
  for (const id of ["seat", "win", "pao"]) {
    const across = $(id).querySelector('option[value="across"]');
    across.disabled = three;
    if (three && $(id).value === "across") $(id).value = { seat: "self", win: "left", pao: "" }[id];
  }
}

// The "Tile set" select: the shipped reader, then the calibration profiles saved on the server's machine.
async function loadProfiles(select = null) {
  const el = $("profile");
  let profiles;
  try {
    ({ profiles } = await api("/api/profiles"));
  } catch (e) {
    showError(e.message);
    return;
  }
  const keep = select ?? el.value;
  while (el.options.length > 1) el.remove(1);
  for (const name of profiles) el.add(new Option(name, name));
  el.value = profiles.includes(keep) ? keep : "";
  state.profiles = profiles;
  drawSavedSets();
}

// The sets learnt, each with its Delete (the calibration tab): asked first, then gone from the Tile set select too.
function drawSavedSets() {
  const names = state.profiles || [];
  $("calib-saved").innerHTML = names.length ? names.map((name) => `<li><span>${esc(name)}</span> <button type="button" ` +
    `class="danger" data-delete="${esc(name)}" aria-label="${esc(t("calib_delete_named", name))}">${esc(t("calib_delete"))}</button></li>`).join("")
    : `<li class="hint">${esc(t("calib_none"))}</li>`;
}

async function deleteSet(name) {
  if (!window.confirm(t("calib_delete_confirm", name))) return;
  try {
    await api(`/api/profiles/${encodeURIComponent(name)}`, { method: "DELETE" });
    clearError();
  } catch (e) {
    showError(e.message);
  }
  await loadProfiles();
  if (calib.learnt === name && !state.profiles.includes(name)) $("calib-result").hidden = true; // "learnt": gone
  (document.querySelector("#calib-saved button") || $("calib-photo")).focus(); // not lost with the row
}

// The photo shown was read with one tile set and the select names another (one learnt or deleted meanwhile, chosen
// in Live): read again with it, as choosing it here does.
function readWithTheChosenSet() {
  const shown = $("profile").dataset.shown || "";
  if (state.mode === "photo" && state.file && !state.recognizing && $("profile").value !== shown) {
    readAgain(() => { $("profile").value = shown; });
  }
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
  document.querySelectorAll('.tabs [role="tab"]').forEach((b) => b.addEventListener("click", () => {
    if (b.dataset.mode !== state.mode) clearError(); // another tab's error (no camera, a refused photo) is not this one's
    setMode(b.dataset.mode);
  }));
  // the tabs as a tab list is used by keyboard: the arrow keys move between them, Home and End to the ends
  $("tab-photo").parentElement.addEventListener("keydown", (e) => {
    const tabs = [...document.querySelectorAll('.tabs [role="tab"]')];
    const at = tabs.indexOf(document.activeElement);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (at < 0 || to === undefined) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length];
    next.focus();
    next.click();
  });
  $("banner-close").addEventListener("click", () => {
    clearError();
    document.querySelector('.tabs [aria-selected="true"]').focus(); // not lost with the banner
  });
  $("photo").addEventListener("change", (e) => {
    const file = e.target.files[0];
    e.target.value = ""; // the same file chosen again reads again
    if (file) { state.file = file; recognize(); }
  });
  $("mirrored").addEventListener("change", () => readAgain(() => { $("mirrored").checked = !$("mirrored").checked; }));
  $("profile").addEventListener("change", (e) => {
    if (state.mode !== "photo") return; // live: sent with the options
    const before = e.target.dataset.shown || "";
    readAgain(() => { e.target.value = before; });
  });
  $("undo").addEventListener("click", undo);
  $("clear-photo").addEventListener("click", clearPhoto);
  $("add-mode").addEventListener("click", () => {
    if (!state.tiles) { showError(() => t("photo_first")); return; }
    setAdding(!state.adding);
  });
  $("overlay").addEventListener("click", onOverlayClick);
  $("overlay").addEventListener("keydown", onOverlayKey);
  const context = $("context");
  // kept at once too (with the photo): the answer's own keep would come too late for a reload just after
  context.addEventListener("change", (e) => {
    if (e.target.id === "seat_wind") drawDealer();
    if (e.target.id === "house_rules") presetTypedWithHouseRules();
    rescoreSoon();
    keepSoon();
  });
  context.addEventListener("input", (e) => { if (e.target.type === "number") { rescoreSoon(); keepSoon(); } });
  context.addEventListener("submit", (e) => e.preventDefault());
  $("hand-form").addEventListener("submit", (e) => { e.preventDefault(); scoreTyped(); });
  $("hand-form").addEventListener("change", rescoreSoon); // hand, winning tile, discards: scored when left
  $("hand-form").addEventListener("input", keepTyped);
  $("ruleset").addEventListener("change", seatsForRuleset); // the form scores again 120 ms after
  wireDrop();
  wireLive();
  wireCalib();
}

// ---------------------------------------------------------------- the photo kept across a reload

// A phone may drop the page while its camera app is open, and a reload or a closed tab should not lose a photo
// corrected tile by tile: the photo as chosen (or the frozen live frame), its tiles as corrected with their undo
// steps, what seats declared at a draw and the context form are kept in this browser (IndexedDB: the photo is
// megabytes) and shown again, scored again, when the page opens. The next photo read replaces them. Nothing is
// kept where the browser keeps nothing (a private window may refuse): the page works as before, said in the console.
const KEEP_DB = "riichi-lens", KEEP_STORE = "kept", KEEP_KEY = "photo", KEEP_FILE = "photo-file";
let keptFile = null; // the photo last written: megabytes, written again only when another is shown

// One connection, opened once and left open: a write on the way out (pagehide) cannot wait for one to open, the
// page being gone by then. It closes when the database is to be deleted or upgraded elsewhere (site data cleared,
// another tab), which it would otherwise block, and the next request opens another.
let keepConnection = null;
function keepDb() {
  keepConnection ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(KEEP_DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(KEEP_STORE);
    req.onsuccess = () => {
      const db = req.result;
      db.onversionchange = db.onclose = () => { db.close(); keepConnection = null; };
      resolve(db);
    };
    req.onerror = () => { keepConnection = null; reject(req.error); };
  });
  return keepConnection;
}

// Requests in one transaction; the results of those ``requests`` makes, in order.
async function keepRequests(mode, requests) {
  const db = await keepDb();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(KEEP_STORE, mode);
    const reqs = requests(tx.objectStore(KEEP_STORE));
    tx.commit?.(); // at once, not when the page next idles: a write on the way out is not lost with the page
    tx.oncomplete = () => resolve(reqs.map((req) => req.result));
    tx.onerror = tx.onabort = () => reject(tx.error);
  });
}

let keepTimer = null;
function keepSoon() {
  clearTimeout(keepTimer);
  keepTimer = setTimeout(() => { keepTimer = null; keepPhoto(); }, 200);
}

// A correction made just before a reload, or before a phone puts the page away, is kept on the way out.
function keepNow() {
  if (keepTimer === null) return;
  clearTimeout(keepTimer);
  keepTimer = null;
  keepPhoto();
}

async function keepPhoto() {
  if (!state.shownFile || !state.tiles || !state.photo) return;
  const form = Object.fromEntries([...$("context").elements].filter((el) => el.id)
    .map((el) => [el.id, el.type === "checkbox" ? el.checked : el.value]));
  const file = state.shownFile;
  const kept = {
    fileName: file.name, fileSize: file.size, width: state.photo.width, height: state.photo.height,
    mirrored: state.photo.mirrored, tiles: state.tiles, history: state.history, dora: state.dora, ura: state.ura,
    drawDeclared: state.drawDeclared, form, profileShown: $("profile").dataset.shown || "", keptAt: Date.now(),
  };
  try {
    const newFile = file !== keptFile;
    await keepRequests("readwrite", (store) => state.shownFile !== file ? []  // cleared or replaced meanwhile
      : [store.put(kept, KEEP_KEY), ...(newFile ? [store.put(file, KEEP_FILE)] : [])]);
    keptFile = file;
  } catch (e) {
    console.warn("the photo is not kept across a reload:", e);
  }
}

// The context form as kept: a value the page no longer offers (a profile since deleted) stays at its default.
function restoreForm(form) {
  for (const [id, value] of Object.entries(form || {})) {
    const el = $(id);
    if (!el || !$("context").contains(el)) continue;
    if (el.type === "checkbox") el.checked = Boolean(value);
    else if (el.tagName !== "SELECT" || [...el.options].some((o) => o.value === value && !o.disabled)) el.value = value;
  }
  seatsForRuleset();
  drawDealer();
}

// The photo put away and forgotten here (a shared machine at a tournament): the page as it opens, the context kept.
async function clearPhoto() {
  if (state.history.length && !window.confirm(t("drop_photo"))) return;
  clearTimeout(keepTimer);
  keepTimer = null;
  dropTableAnswer();
  state.seq.recognize++;
  Object.assign(state, { file: null, shownFile: null, tiles: null, table: null, history: [], drawDeclared: {},
    recognizing: false, highlight: new Set(), problem: null });
  if (indicatorsOfShownPhoto()) Object.assign(state, { dora: null, ura: [], indicatorsOf: null }); // with their photo
  if (state.photo && state.photo.url.startsWith("blob:")) URL.revokeObjectURL(state.photo.url);
  state.photo = state.photoKey = null;
  setAdding(false);
  closePicker();
  $("photo-img").removeAttribute("src");
  $("overlay").replaceChildren();
  for (const id of ["stage", "toolbar", "legend", "problems", "seats"]) $(id).hidden = true;
  $("stage").classList.remove("busy");
  setStatus("");
  clearError();
  drawContextTiles();
  drawReadout();
  try {
    await keepRequests("readwrite", (store) => [store.delete(KEEP_KEY), store.delete(KEEP_FILE)]);
    keptFile = null;
  } catch (e) {
    console.warn("the photo kept in this browser could not be forgotten:", e);
  }
}

async function restorePhoto() {
  let kept, file;
  try {
    [kept, file] = await keepRequests("readonly", (store) => [store.get(KEEP_KEY), store.get(KEEP_FILE)]);
  } catch (e) {
    console.warn("no photo kept from before:", e);
    return;
  }
  // the photo and its tiles as written together; not over a photo chosen since, nor in another tab
  if (!kept || !(file instanceof Blob) || file.size !== kept.fileSize || !Array.isArray(kept.tiles)) return;
  if (state.file || state.mode !== "photo") return;
  kept.file = keptFile = file;
  try {
    const tiles = kept.tiles;
    if (!tiles.every((tile) => typeof tile.kind === "string" && Array.isArray(tile.polygon) && tile.polygon.length === 4)) {
      throw new Error("its tiles are not as this page keeps them");  // kept by another version of the page
    }
    restoreForm(kept.form);
    $("mirrored").checked = Boolean(kept.mirrored);
    $("profile").dataset.shown = kept.profileShown || "";
    state.file = state.shownFile = kept.file;
    state.dora = kept.dora ?? null;  // set by hand on this photo: showPhoto makes them its own
    state.ura = kept.ura || [];
    await showPhoto(URL.createObjectURL(kept.file),
      unscored({ width: kept.width, height: kept.height, mirrored: kept.mirrored, notes: [] }, tiles), { key: kept.file });
    state.tiles = tiles;  // as corrected, with what was set by hand
    state.history = kept.history || [];
    state.drawDeclared = kept.drawDeclared || {};
    drawContextTiles();
    setStatus("kept_photo");
    rescoreTable();
  } catch (e) {  // what cannot be shown is forgotten, so that the next reload does not meet it again
    console.warn("the photo kept from before could not be shown, and is forgotten:", e);
    state.history = [];
    await clearPhoto();
  }
}

// The typed hand, its winning tile and discards are kept too (a few characters: localStorage), as typed.
const TYPED_KEY = "riichi-lens.typed", TYPED_FIELDS = ["hand", "win_tile", "discards"];

function keepTyped() {
  try {
    localStorage.setItem(TYPED_KEY, JSON.stringify(Object.fromEntries(TYPED_FIELDS.map((id) => [id, $(id).value]))));
  } catch (e) {
    console.warn("the typed hand is not kept across a reload:", e);
  }
}

function restoreTyped() {
  let kept;
  try {
    kept = JSON.parse(localStorage.getItem(TYPED_KEY) || "null");
  } catch (e) {
    kept = null; // not as this page keeps it: the fields keep their defaults
  }
  if (!kept || typeof kept !== "object") return;
  for (const id of TYPED_FIELDS) if (typeof kept[id] === "string") $(id).value = kept[id];
}

// Kept on window for scripts and the browser tests: load a table JSON (as /api/table or /api/recognize give it)
// over an image URL, look at the state, follow live mode, and load or read the calibration grid.
window.riichiLens = {
  loadTable: (table, imageUrl) => showPhoto(imageUrl, table),
  state,
  live,
  liveStats,
  loadGrid: (grid, imageUrl) => { setMode("calib", false); return showGrid(grid, imageUrl, null); },
  calibrationGrid,
};

window.addEventListener("error", (e) => showError(e.message));
window.addEventListener("pagehide", () => { keepNow(); stopLive(); });
document.addEventListener("visibilitychange", () => { if (document.hidden) keepNow(); });
window.addEventListener("unhandledrejection", (e) => showError(String(e.reason && e.reason.message || e.reason)));

buildPicker();
restoreTyped();
wire();
redrawAll();
setMode("photo", false);
loadOptions().then(restorePhoto).finally(() => { document.body.dataset.ready = "true"; });
