// The readout panel, shared by the photo and the typed hand: tenpai or shanten, waits with the copies left and
// their value, furiten and why, and for a complete hand its yaku, fu, points and who pays what.
"use strict";

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

// One tile face as an image (a face-down tile has no art: a coloured block).
function tileImg(code, cls = "") {
  if (code === "back") return `<span class="tile back-face ${cls}" role="img" aria-label="${esc(t("face_down"))}" title="${esc(t("face_down"))}" data-tile="back"></span>`;
  return `<img class="tile ${cls}" src="/tiles/${esc(code)}.svg" alt="${esc(tileName(code))}" title="${esc(tileLabel(code))}" data-tile="${esc(code)}">`;
}

const tileRow = (codes, cls = "") => codes.map((c) => tileImg(c, cls)).join("");

// A value's count: "2 han 40 fu", or the yakuman it is ("double yakuman"); and its limit where that is no yakuman's
// own (a yakuman reached by han is a kazoe yakuman), so that "yakuman" is never said twice.
const countText = (v) => (v.yakuman ? yakumanName(v.yakuman) : t("han_fu", v.han, v.fu));
const limitText = (v) => (v.yakuman || !v.limit ? "" : limitName(v.limit === "yakuman" ? "kazoe" : v.limit));

function valueText(v) {
  if (!v) return t("no_yaku");
  const limit = limitText(v);
  return `${t("points", v.points)}${t("gap")}<small>${t("paren", countText(v) + (limit ? " " + limit : ""))}</small>`;
}

function verdictHtml(r) {
  // a ron in furiten is no win: its verdict says so, the value it would have follows struck through (winHtml)
  if (r.win && r.furiten_ron) return `<p class="big verdict" data-verdict="furiten-ron">${t("furiten_ron_on")} ${tileImg(r.win_tile)}</p>`;
  if (r.win) return `<p class="big verdict" data-verdict="win">${t("won_on")} ${tileImg(r.win_tile)} ` +
    `<small>${esc(termName(r.win.reading))}${t("list_comma")}${esc(t("wait_kind", termName(r.win.wait)))}</small></p>`;
  if (r.shanten === 0) return `<p class="big verdict" data-verdict="tenpai">${t("tenpai")}</p>`;
  if (r.shanten < 0) return `<p class="big verdict" data-verdict="complete">${t("complete")}</p>`;
  return `<p class="big verdict" data-verdict="shanten" data-shanten="${r.shanten}">${t("shanten", r.shanten)}</p>`;
}

function waitsHtml(r) {
  if (!r.waits.length) return "";
  const rows = r.waits.map((w) => `<tr class="wait" data-tile="${esc(w.tile)}">
    <td>${tileImg(w.tile)}</td><td class="unseen${w.unseen ? "" : " none"}">${t("unseen", w.unseen)}</td>
    <td class="${w.ron ? "" : "no-yaku"}">${t("ron")}: ${valueText(w.ron)}</td>
    <td class="${w.tsumo ? "" : "no-yaku"}">${t("tsumo")}: ${valueText(w.tsumo)}</td></tr>`);
  return `<h3>${t("waits")}</h3><table class="waits">${rows.join("")}</table>`;
}

// Not tenpai: the draws that take the hand nearer; 14 tiles: the best discards, most draws left first (tenhou.net's 牌理)
const drawTiles = (draws) => tileRow(draws.map((d) => d.tile), "small");
const drawsLeft = (draws) => draws.reduce((n, d) => n + d.unseen, 0);

function discardsHtml(r) {
  const nearer = r.draws.length ? `<p class="draws">${t("nearer_on", drawTiles(r.draws), drawsLeft(r.draws))}</p>` : "";
  return nearer + r.discards.map((d) => `<div class="discard" data-tile="${esc(d.discard)}">` + (d.shanten === 0
    ? t("discard_then", tileImg(d.discard), drawTiles(d.draws), d.unseen)
    : t("discard_nearer", tileImg(d.discard), d.shanten, drawTiles(d.draws), d.unseen)) + "</div>").join("");
}

function furitenHtml(f) {
  if (!f || !f.furiten) return "";
  const reasons = f.reasons.map((r) => esc(messageText(r))).join(t("list_sep"));
  return `<p class="furiten" data-kind="${esc(f.kind)}"><b>${esc(t("furiten_" + f.kind))}</b>: ${reasons}</p>`;
}

function paymentsHtml(w) {
  // a tsumo all pay alike: "4000 all" (4000オール), as tables call it; else who pays what, the sentence's first letter up
  const alike = w.payments.length > 1 && w.payments.every((p) => p.points === w.payments[0].points && p.honba === w.payments[0].honba);
  const pays = (alike ? [w.payments[0]] : w.payments).map((p) => (alike ? t("pays_all", p.points) : t("pays", t(p.payer), p.points)) +
    (p.honba ? t(alike ? "honba_each" : "honba_extra", p.honba) : ""));
  if (pays.length) pays[0] = pays[0].charAt(0).toUpperCase() + pays[0].slice(1);
  return `<p class="payments">${pays.map((p) => `<span class="pay">${esc(p)}</span>`).join(t("list_sep"))}${t("sentence_end")}${t("sentence_gap")}${esc(t("winner_gains", w.winner_gain))}</p>`;
}

const DORA_LINES = ["dora", "aka dora", "ura dora", "kita"];
const FURITEN_RON_NOTE = "furiten: this hand cannot win by ron"; // rules.readout's note, for other clients

// ``furitenRon``: the hand is in furiten for the tile it won on by ron, so no such win can be: said first, and the
// value it would have struck through (a referee read the points as owed, the reason an italic line at the end)
function winHtml(w, furitenRon = false) {
  const out = [];
  if (!w.valid) out.push(`<p class="error">${t("no_yaku_win")}</p>`);
  else if (furitenRon) out.push(`<p class="error furiten-ron">${t("furiten_no_ron")}</p>`);
  // a yakuman's han are 13 a yakuman: 26 is a double one (suuankou tanki where a ruleset counts it so)
  // a dora line of no han (riichi's ura dora with no indicator given, as Tenhou lists it) reads as one counted
  const yaku = w.yaku.filter(([n, h]) => h || !DORA_LINES.includes(n)).map(([n, h]) => `<tr><td>${esc(yakuName(n))}</td><td>${w.yakuman ? yakumanName(h / 13) : t("han", h)}</td></tr>`);
  out.push(`<h3>${t("yaku")}</h3><table class="yaku">${yaku.join("")}</table>`);
  if (!w.valid) return out.join("");
  const limit = limitText(w);
  out.push(`<p class="big total${furitenRon ? " not-paid" : ""}">${countText(w)}${limit ? ` — ${esc(limit)}` : ""} — <span class="points">${t("points", w.points)}</span></p>`);
  if (w.fu_items.length && !w.yakuman) {
    out.push(`<h3>${t("fu")}</h3><table class="fu">${w.fu_items.map(([n, f]) => `<tr><td>${esc(fuName(n))}</td><td>${f}</td></tr>`).join("")}</table>`);
  }
  out.push(paymentsHtml(w));
  return out.join("");
}

// The hand read from a photo, as tiles: concealed ones, the winning tile apart, each meld with its source.
function photoHandHtml(hand) {
  if (!hand) return "";
  const melds = hand.melds.map((m) => `<span class="meld-tiles" title="${esc(t(m.kind))}">${tileRow(m.tiles, "small")}` +
    (m.source ? `<small>${esc(t("from_seat", t(m.source)))}</small>` : "") + "</span>");
  const win = hand.win_tile ? `<span class="win-tile">${tileImg(hand.win_tile, "small")}</span>` : "";
  return `<div class="hand-tiles">${tileRow(hand.concealed, "small")}${win}${melds.join("")}</div>`;
}

// Each seat at an exhaustive draw (``vision.table.draw_at``): tenpai and its waits, noten (a hand kept face
// down is noten), or why it is not known; the noten payments once every seat is known. Each seat's select says
// what it declared, over the photo (a seat out of view, a hand misread, a tenpai player declaring noten).
function drawAtTableHtml(draw) {
  const rows = draw.seats.map((s) => {
    const said = s.tenpai === null ? `${t("draw_unknown")}` + (s.why ? `: ${esc(messageText(s.why))}` : "")
      : s.tenpai ? `${t("tenpai")} ${tileRow(s.waits, "small")}`
      : t("noten") + (s.shown === "hidden" && s.declared === null ? `${t("gap")}<small>${t("paren", t("draw_hidden"))}</small>` : "");
    const delta = s.delta === null ? "" : (s.delta > 0 ? "+" : "") + s.delta;
    const declared = s.declared === null ? "" : s.declared ? "tenpai" : "noten";
    const options = [["", "declared_as_read"], ["tenpai", "declared_tenpai"], ["noten", "declared_noten"]]
      .map(([v, key]) => `<option value="${v}"${v === declared ? " selected" : ""}>${t(key)}</option>`).join("");
    return `<tr class="draw-seat" data-seat="${s.seat}" data-tenpai="${s.tenpai}"><td class="seat-name">${esc(t(s.seat))}</td>` +
      `<td>${said}${s.nagashi ? ` <b>${t("nagashi")}</b>` : ""}</td><td class="delta">${delta}</td>` +
      `<td><select class="declare" data-seat="${s.seat}" aria-label="${esc(t("declared_label", t(s.seat)))}">` +
      `${options}</select></td></tr>`;
  });
  const unknown = draw.seats.some((s) => s.delta === null) ? `<p class="note"><i>${t("draw_no_payments")}</i></p>` : "";
  return `<section class="draw-at-table"><h3>${t("exhaustive_draw_title")}</h3><table>${rows.join("")}</table>` +
    draw.notes.map((n) => `<p class="note"><i>${esc(messageText(n))}</i></p>`).join("") + unknown + "</section>";
}

function renderReadout(el, r, { notes = [], hand = null, problems = false, noReadout = "no_readout" } = {}) {
  const out = [`<h2 class="sr-only">${t("readout_title")}</h2>`, photoHandHtml(hand)]; // its waits', yaku's, fu's h3 under it
  if (r) {
    out.push(verdictHtml(r), furitenHtml(r.furiten), waitsHtml(r), discardsHtml(r));
    if (r.win) out.push(winHtml(r.win, r.furiten_ron));
  } else if (problems) {
    out.push(`<p class="error no-readout">${t(noReadout)}</p>`);
  }
  const said = r && r.furiten_ron ? [FURITEN_RON_NOTE] : [];  // said above the value already
  const allNotes = [...notes, ...(r ? r.notes : [])].filter((n) => !said.includes(n));  // a readout's notes hold its win's
  out.push(allNotes.map((n) => `<p class="note"><i>${esc(messageText(n))}</i></p>`).join(""));
  el.innerHTML = out.join("");
  el.hidden = false;
}
