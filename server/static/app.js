// Sends the form to /api/score and draws the readout. Plain JS, no build step.
const $ = (id) => document.getElementById(id);
const tiles = (s) => (s.match(/[0-9]+[mpsz]/g) || []).flatMap((g) => [...g.slice(0, -1)].map((d) => d + g.slice(-1)));
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));

async function loadRulesets() {
  const res = await fetch("/api/rulesets");
  const names = Object.keys(await res.json());
  $("ruleset").innerHTML = names.map((n) => `<option>${esc(n)}</option>`).join("");
}

function request() {
  const win = $("win").value;
  const last = $("haitei").checked;
  return {
    hand: $("hand").value,
    win_tile: $("win_tile").value.trim() || null,
    ruleset: $("ruleset").value || "tenhou",
    context: {
      seat_wind: $("seat_wind").value, round_wind: $("round_wind").value,
      tsumo: win === "tsumo", win_from: win === "tsumo" ? null : win,
      riichi: $("riichi").checked || $("double_riichi").checked, double_riichi: $("double_riichi").checked,
      ippatsu: $("ippatsu").checked, haitei: last && win === "tsumo", houtei: last && win !== "tsumo",
      rinshan: $("rinshan").checked, chankan: $("chankan").checked,
      dora_indicators: tiles($("dora").value), ura_indicators: tiles($("ura").value),
      honba: +$("honba").value || 0, riichi_sticks: +$("sticks").value || 0,
      discards: tiles($("discards").value).map((t) => ({ tile: t })),
    },
  };
}

function render(r) {
  const out = [];
  if (r.win) {
    const w = r.win;
    out.push(`<p>Won on <b>${esc(r.win_tile)}</b> (${esc(w.reading)}, ${esc(w.wait)} wait)</p>`);
    if (!w.valid) out.push(`<p class="error">No yaku: this hand cannot win.</p>`);
    out.push("<table>" + w.yaku.map(([n, h]) => `<tr><td>${esc(n)}</td><td>${w.yakuman ? "yakuman" : h + " han"}</td></tr>`).join("") + "</table>");
    if (w.valid) {
      out.push(`<p class="big">${w.yakuman ? w.yakuman + "× yakuman" : `${w.han} han ${w.fu} fu`} ${esc(w.limit)} — ${w.points} points</p>`);
      out.push("<table>" + w.fu_items.map(([n, f]) => `<tr><td>${esc(n)}</td><td>${f} fu</td></tr>`).join("") + "</table>");
      out.push("<p>" + w.payments.map((p) => `${esc(p.payer)} pays ${p.points}${p.honba ? " + " + p.honba + " honba" : ""}`).join("; ") + `. Winner gains ${w.winner_gain}.</p>`);
    }
  } else if (r.tiles === 13) {
    out.push(`<p class="big">${r.tenpai ? "Tenpai" : r.shanten + "-shanten"}</p>`);
    out.push("<table>" + r.waits.map((w) => `<tr><td><b>${esc(w.tile)}</b></td><td>${w.unseen} unseen</td><td>${w.ron ? "ron " + w.ron.points : "no ron"}</td><td>${w.tsumo ? "tsumo " + w.tsumo.points : "no tsumo"}</td></tr>`).join("") + "</table>");
  } else {
    out.push(`<p class="big">${r.shanten}-shanten</p>`);
    out.push(r.discards_to_tenpai.map((d) => `<div>discard ${esc(d.discard)} → waits ${d.waits.map(esc).join(" ")}</div>`).join(""));
  }
  if (r.furiten.furiten) out.push(`<p class="error">Furiten (${esc(r.furiten.kind)}): ${r.furiten.reasons.map(esc).join("; ")}</p>`);
  out.push(r.notes.map((n) => `<p><i>${esc(n)}</i></p>`).join(""));
  $("readout").innerHTML = out.join("");
}

$("hand-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const res = await fetch("/api/score", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request()) });
  const body = await res.json();
  if (!res.ok) $("readout").innerHTML = `<p class="error">${esc(body.error || JSON.stringify(body.detail))}</p>`;
  else render(body);
});

loadRulesets();
