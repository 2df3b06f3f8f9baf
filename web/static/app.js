/* skullcam table app: one small hand-written script, no framework, nothing from a CDN.
 * Every page renders from the server's JSON and stays live through one EventSource
 * (/events); pages never poll. Writes are JSON fetches; a 403 with {pin: true} asks for
 * the table's PIN once and retries. */
"use strict";

/* A name in right-to-left script set apart (first-strong isolate) from the text around it: in
 * "Total: Ana 10 · عليّ 10 · Ben 20" the number after an Arabic name was drawn before it, so
 * numbers paired with the wrong names. Left-to-right names are left as they are. */
const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
function bidi(text) {
  return RTL_LETTER.test(text) ? "\u2068" + text + "\u2069" : text;
}

/* A number as the pages show it: a negative one with the minus sign (U+2212), as a printed
 * score sheet has it. The TV showed "-40" where the tricks page showed "−40"; the server's
 * pages use the same rule (the "number" filter, web/i18n.py's number_text). A fraction has
 * the language's decimal mark: es, it and da write a comma ("2,5"), where a point reads as
 * a thousands separator. */
function num(n) {
  const text = n < 0 ? "\u2212" + -n : String(n);
  return text.replace(".", SK.t("decimal_mark"));
}

const SK = (() => {
  const strings = JSON.parse(document.getElementById("i18n").textContent);
  const cardOrder = JSON.parse(document.getElementById("card-names").textContent);
  const cardNames = Object.fromEntries(cardOrder);
  const dataEl = document.getElementById("page-data");
  const pageData = dataEl ? JSON.parse(dataEl.textContent) : {};
  // A data folder that cannot be written (base.html says why at the top): nothing offers a change.
  const folderReadOnly = document.body.dataset.readOnly === "1";

  /* The string `key` with its {fields} filled in one pass, as the server's str.format does: a
   * value filled in is never read again. Filled one field after another, a value holding a
   * later field's blank had it filled too: a player named "{n}" read "2" once the play's
   * number was filled after the name. (Not `Object.hasOwn`: older phones' browsers lack it.) */
  const own = (obj, k) => Object.prototype.hasOwnProperty.call(obj, k);
  function t(key, fields) {
    const given = fields || {};
    return (strings[key] || key).replace(/\{(\w+)\}/g,
      (blank, k) => (own(given, k) ? bidi(String(given[k])) : blank));
  }
  const card = (id) => cardNames[id] || id;

  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else if (k === "class") el.className = v;
      else if (k === "dataset") Object.assign(el.dataset, v);
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }

  /* Text written only when it changes: a live region (aria-live, role=status) re-reads
   * whatever is written into it, and the pages redraw on every event of the game. */
  function setText(el, text) {
    if (el.textContent !== text) el.textContent = text;
  }
  /* A message a live region says again when it is the last one again: the same text written
   * over itself is no change, so nothing was read ("Bid saved: Ana, 1" a second time, after
   * another phone changed her bid and this one set it back; "Saved" twice in a row). Every
   * other time a no-break space follows it, unseen, so the text differs. */
  function say(el, text) {
    el.textContent = el.textContent === text ? text + "\u00a0" : text;
  }
  /* A sign (★, ↑) with its meaning: shown as the sign, said as the words, and the words as a
   * tooltip where there is a pointer. */
  function sign(mark, meaning, attrs) {
    return h("span", Object.assign({title: meaning}, attrs || {}),
      h("span", {"aria-hidden": "true"}, mark), h("span", {class: "sr-only"}, meaning));
  }

  function toast(text, bad) {
    const el = document.getElementById("toast");
    if (!el) return;
    say(el, text);
    el.className = "toast" + (bad ? " bad" : "");
    el.hidden = false;
    clearTimeout(toast.timer);
    // An error stays long enough to be read at the table; the page's form-error keeps it.
    toast.timer = setTimeout(() => { el.hidden = true; }, bad ? 6000 : 2500);
  }

  /* Asks for the table's PIN; resolves true once the server took it, false when the dialog
   * closes without it (Cancel, or Escape). The focus goes back to the control that asked: the
   * browser gives it back only to that very element, and an event of the game that redrew the
   * page while the dialog was open had replaced it (the bid rows), so the focus went nowhere. */
  function askPin() {
    const dlg = document.getElementById("pin-dialog");
    const form = document.getElementById("pin-form");
    const input = document.getElementById("pin-input");
    const err = document.getElementById("pin-error");
    const asker = document.activeElement;
    const again = asker && asker !== document.body ? selectorOf(asker) : null;
    return new Promise((resolve) => {
      let taken = false;
      err.textContent = "";
      input.value = "";
      document.getElementById("pin-cancel").onclick = () => dlg.close();
      dlg.onclose = () => {
        const back = asker && asker.isConnected ? asker : again && document.querySelector(again);
        if (back) back.focus({preventScroll: true});
        else document.getElementById("main").focus();
        resolve(taken);
      };
      form.onsubmit = async (ev) => {
        ev.preventDefault();
        // Emptied first, so that a second wrong PIN is announced again (#pin-error is an alert).
        err.textContent = "";
        const res = await fetch("/api/pin", {
          method: "POST", headers: {"Content-Type": "application/json"},
          body: JSON.stringify({pin: input.value}), credentials: "same-origin",
        });
        const body = await res.json().catch(() => ({}));
        if (res.ok) { taken = true; dlg.close(); } else { err.textContent = body.error_text || body.error || res.statusText; }
      };
      dlg.showModal();
      input.focus();
    });
  }

  /* The JSON body of an answer; an answer that is not JSON (a proxy's error page, a dropped
   * connection) becomes {error: "<status> <text>"} so the page can still say what happened. */
  async function readBody(res) {
    const data = await res.json().catch(() => null);
    if (data && typeof data === "object") return data;
    return res.ok ? {} : {error: (res.status + " " + res.statusText).trim()};
  }

  /* fetch, with a phone off the table's Wi-Fi said in the page's language (the browser's
   * own "Failed to fetch" is English whatever the page). */
  async function reach(url, options) {
    try { return await fetch(url, options); }
    catch (e) { throw new Error(t("no_connection")); }
  }

  /* Why the server refused: in the page's language where it has it (error_text). */
  function refusedBecause(data, res) {
    return data.error_text || data.error || (res.status + " " + res.statusText).trim();
  }

  /* POST JSON; resolves to the body, or throws Error(message) for the page to show: a
   * refused write (400) carries the server's one-line reason in {"error": ...}. */
  // A double tap sends the same request twice before the page moves on: two games set up, two
  // confirmations on a trick's history. The same request as the last one sent, while that is
  // still on its way, gets its answer instead of a second write. Only the last one: a bid
  // tapped 1, 2, 1 must end on 1.
  let latest = null;
  function api(url, body) {
    const key = url + " " + JSON.stringify(body || {});
    if (latest === null || latest.key !== key) {
      const sent = {key, promise: null};
      sent.promise = post(url, body).finally(() => { if (latest === sent) latest = null; });
      latest = sent;
    }
    return latest.promise;
  }
  async function post(url, body, retried) {
    const res = await reach(url, {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify(body || {}), credentials: "same-origin",
    });
    const data = await readBody(res);
    if (res.status === 403 && data.pin && !retried) {
      if (await askPin()) return post(url, body, true);
    }
    if (!res.ok) throw new Error(refusedBecause(data, res));
    return data;
  }

  async function getJSON(url) {
    const res = await reach(url, {credentials: "same-origin"});
    const data = await readBody(res);
    if (!res.ok) throw new Error(refusedBecause(data, res));
    return data;
  }

  /* One EventSource per page; onChange(kind, data) for every event. The browser resends
   * Last-Event-ID on reconnect, so nothing is missed; onOpen refreshes the state anyway. */
  // The last event the page has seen: at first, the newest one when the server drew it.
  if (window.SK_LAST_EVENT === undefined && document.body.dataset.lastEvent) {
    window.SK_LAST_EVENT = Number(document.body.dataset.lastEvent);
  }
  function stream(gameId, onChange, onOpen, lastEvent = window.SK_LAST_EVENT) {
    const params = new URLSearchParams();
    if (gameId) params.set("game", gameId);
    if (lastEvent) params.set("last_event_id", lastEvent);
    const url = "/events" + (params.toString() ? "?" + params : "");
    const es = new EventSource(url);
    const kinds = ["game_created", "game_finished", "bids", "live", "trick", "correction",
      "settings", "prompt", "prompt_answered", "imported", "reopened", "replaced", "camera"];
    for (const k of kinds) {
      es.addEventListener(k, (ev) => {
        window.SK_LAST_EVENT = Number(ev.lastEventId);
        const data = JSON.parse(ev.data);
        if (k === "replaced") showReplaced(data);
        onChange(k, data);
      });
    }
    es.onopen = () => { setOffline(false); if (onOpen) onOpen(); };
    es.onerror = () => {
      setOffline(true);
      // The browser retries a dropped stream by itself, but not one the server refused (503:
      // too many pages open): try again a little later, from the last event seen.
      if (es.readyState === EventSource.CLOSED) {
        setTimeout(() => stream(gameId, onChange, onOpen, window.SK_LAST_EVENT), 5000);
      }
    };
    // A page left for another stays in the browser's back/forward cache with its stream still
    // open; six of those take every connection the browser allows to this server, and the next
    // page hangs. So the stream closes when the page is hidden, and opens again (from the last
    // event seen) if the page is shown again from that cache.
    // (Not {once: true} for pageshow: the page's own first pageshow, persisted false, comes
    // after this runs and would use it up.)
    window.addEventListener("pagehide", () => es.close(), {once: true});
    window.addEventListener("pageshow", function again(ev) {
      if (!ev.persisted) return;
      window.removeEventListener("pageshow", again);
      stream(gameId, onChange, onOpen, window.SK_LAST_EVENT);
    });
    window.SK_STREAM = es;
    return es;
  }
  /* A newer game has taken this one's place at the table (the store's "replaced" event on
   * this game): every page of it says so at once, with the way to the new game's bids. */
  function showReplaced(data) {
    const el = document.getElementById("replaced");
    if (!el || String(data.game_id) !== document.body.dataset.game) return;
    document.getElementById("replaced-link").href = "/game/" + data.by + "/bids";
    el.hidden = false;
  }
  /* The live stream dropped (the server restarting, the phone off the Wi-Fi): said on every
   * page that follows the game, not only on the TV, before a tap finds out. */
  function setOffline(off) {
    const el = document.getElementById("tv-offline") || document.getElementById("offline");
    if (el) el.hidden = !off;
    document.body.classList.toggle("offline", off);
  }

  function showError(err) {
    const el = document.getElementById("form-error");
    if (el) el.textContent = err ? (err.message || String(err)) : "";
    if (err) toast(err.message || String(err), true);
  }

  function fmtTimes() {
    for (const el of document.querySelectorAll("time[data-ts]")) {
      const d = new Date(Number(el.dataset.ts) * 1000);
      el.textContent = d.toLocaleString(document.documentElement.lang);
    }
  }

  /* A round's bids against its tricks, in words: "2 over", "1 under", "as many as the tricks". */
  function bidBalance(total, cards) {
    return total > cards ? t("bids_over", {n: total - cards})
      : total < cards ? t("bids_under", {n: cards - total}) : t("bids_even");
  }

  /* Prompts: phones answer them; the TV shows them read-only. */
  /* A question's text. A data folder that cannot be written answers nothing (the notice at
   * the top says so, and no button is drawn): each question is said as what is not known
   * ("key_open": "Round 1, trick 1 looks doubtful.", "Ana won with Rosie: who leads next is
   * not recorded yet."), not asked of a table that cannot answer it. */
  function promptText(p, players) {
    const [key, fields] = promptWords(p, players);
    return t(folderReadOnly ? key + "_open" : key, fields);
  }
  function promptWords(p, players) {
    const name = p.player !== null && p.player !== undefined ? players[p.player] : "";
    // One that cannot be resolved is corrected, not confirmed (promptChoices offers Correct only).
    if (p.kind === "flagged") {
      const key = p.confirmable === false ? "prompt_flagged_correct" : "prompt_flagged";
      return [key, {round: p.round, trick: (p.trick || 0) + 1}];
    }
    // Rosie's choice read from who led the next trick (the store follows it meanwhile): said,
    // and confirmed in one tap, not asked as if nothing were known while play went on.
    if (p.kind === "rosie" && isSeat(p.read_choice, players)) {
      return ["prompt_rosie_read", {name: name, leader: players[p.read_choice]}];
    }
    return ["prompt_" + p.kind, {name: name}];
  }
  function isSeat(value, players) { return Number.isInteger(value) && value >= 0 && value < players.length; }
  function rosieChoices(p, players) {
    const seats = players.map((n, i) => [i, n]);
    if (!isSeat(p.read_choice, players)) return seats;
    return [[p.read_choice, t("rosie_read_yes", {leader: players[p.read_choice]})],
      ...seats.filter(([i]) => i !== p.read_choice)];
  }
  function promptChoices(p, players) {
    switch (p.kind) {
      case "tigress": return [["pirate", t("as_pirate")], ["escape", t("as_escape")]];
      case "rosie": return rosieChoices(p, players);
      case "rascal_bet": return [[0, "0"], [10, "10"], [20, "20"]];
      case "harry": return [[-1, "−1"], [0, "0"], [1, "+1"]];
      // A trick that cannot be resolved is corrected, not confirmed (the server refuses it).
      default: return p.confirmable === false ? [["correct", t("correct")]]
        : [["confirm", t("confirm")], ["correct", t("correct")]];
    }
  }
  function renderPrompts(container, state, readOnly) {
    if (!container) return;
    const players = state.game.players;
    // #prompts is a live region: redrawn on every event, it would read the open questions out
    // again each time. Only a question asked or answered redraws it.
    // A question's reasons count too: a doubt the camera adds while it is open is drawn.
    // So does Rosie's choice read from the next lead: the question then says it.
    const ids = (state.prompts || []).map((p) => p.id + ":" + (p.flag_texts || []).join("|") + ":" + p.confirmable
      + ":" + p.read_choice).join(",");
    if (container.dataset.ids === ids) return;
    container.dataset.ids = ids;
    container.replaceChildren(...(state.prompts || []).map((p) => {
      const buttons = readOnly || folderReadOnly ? [] : promptChoices(p, players).map(([value, label]) =>
        h("button", {type: "button", class: "big prompt-answer", dataset: {prompt: p.id, answer: value},
          onclick: async () => {
            // "Correct" opens the trick's page and leaves the question open: it closes when
            // the trick is corrected there (or confirmed), not when a player backs out.
            if (p.kind === "flagged" && value === "correct" && p.trick !== null) {
              location.href = "/game/" + p.game_id + "/round/" + p.round + "/trick/" + p.trick;
              return;
            }
            try { await api("/api/prompt/" + p.id + "/answer", {answer: value}); }
            catch (e) { showError(e); }
          }}, label));
      const textId = container.id + "-" + p.id;
      // A doubtful trick's question says what is in doubt ("Ana's Parrot 13 was swapped for
      // ..."): Confirm alone, with no reason, asked the table to confirm blind.
      // Not on the TV, which cannot scroll: a few questions' reasons pushed the scores off it.
      const why = !readOnly && (p.flag_texts || []).length
        ? h("p", {class: "hint prompt-why"}, p.flag_texts.map((f) => "⚠ " + f).join(" · ")) : null;
      return h("div", {class: "prompt", role: "group", "aria-labelledby": textId, dataset: {kind: p.kind}},
        h("p", {class: "prompt-text", id: textId}, promptText(p, players)), why, h("div", {class: "row"}, buttons));
    }));
  }

  return {t, card, cardOrder, h, setText, say, sign, api, getJSON, stream, toast, showError, fmtTimes, renderPrompts, bidBalance, pageData, readOnly: folderReadOnly};
})();

/* ------------------------------------------------------------------ setup */
function initSetup() {
  const {h, t, api, pageData, showError} = SK;
  const list = document.getElementById("player-list");
  const dealer = document.getElementById("first-dealer");
  const rows = () => [...list.querySelectorAll("input.player-name")];
  function refreshDealer() {
    // The placeholder goes once a name is typed: the label stays for a screen reader.
    rows().forEach((inp, i) => {
      const label = t("player") + " " + (i + 1);
      inp.placeholder = label;
      inp.setAttribute("aria-label", label);
    });
    // At the rules' limits a tap did nothing, and said nothing: "+ Add player" at eight
    // players (a game night of eight), ✕ at two.
    const full = rows().length >= 8;
    document.getElementById("add-player").disabled = full;
    document.getElementById("players-full").hidden = !full;
    for (const btn of list.querySelectorAll("button.remove")) btn.disabled = rows().length <= 2;
    const keep = dealer.value;
    dealer.replaceChildren(...rows().map((inp, i) =>
      h("option", {value: i}, inp.value.trim() || t("player") + " " + (i + 1))));
    if (keep && Number(keep) < rows().length) dealer.value = keep;
  }
  function addRow(name) {
    if (rows().length >= 8) return;
    const input = h("input", {class: "player-name", list: "known-names", maxlength: 40, value: name || "",
      placeholder: t("player") + " " + (rows().length + 1), oninput: refreshDealer, autocomplete: "off"});
    const li = h("li", {}, input, h("button", {type: "button", class: "remove", "aria-label": t("remove"),
      onclick: () => { if (rows().length > 2) { li.remove(); refreshDealer(); } }}, "✕"));
    list.append(li);
    refreshDealer();
    return input;
  }
  for (let i = 0; i < 3; i++) addRow("");
  const same = document.getElementById("same-players");
  if (same) same.onclick = () => {
    // A rematch: the last game's players in their seats, its first dealer and its rules.
    const last = pageData.last;
    list.replaceChildren();
    last.players.forEach((name) => addRow(name));
    dealer.value = String(last.first_dealer);
    writeSettings(last.settings);
    rows()[0].focus();
  };
  document.getElementById("add-player").onclick = () => { const inp = addRow(""); if (inp) inp.focus(); };
  document.getElementById("setup-form").onsubmit = async (ev) => {
    ev.preventDefault();
    showError(null);
    // Blank rows are dropped, so the dealer's place is counted among the named players only.
    const named = rows().map((r, i) => [i, r.value.trim()]).filter(([, v]) => v);
    const players = named.map(([, v]) => v);
    const firstDealer = named.findIndex(([i]) => i === Number(dealer.value || 0));
    if (firstDealer < 0) { showError(new Error(t("dealer_unnamed"))); return; }
    const settings = readSettings(pageData.defaults);
    try {
      const res = await api("/api/games", {players, first_dealer: firstDealer, settings});
      location.href = res.url;
    } catch (e) { showError(e); }
  };
}

/* `values` -> the settings inputs (the inverse of readSettings). */
function writeSettings(values) {
  for (const el of document.querySelectorAll("[data-setting]")) {
    const value = values[el.dataset.setting];
    if (value === undefined) continue;
    if (el.dataset.kind === "bool") el.checked = !!value;
    else el.value = String(value);
  }
}

/* Settings inputs -> only the keys that differ from `base`. */
function readSettings(base) {
  const out = {};
  for (const el of document.querySelectorAll("[data-setting]")) {
    const key = el.dataset.setting;
    let value;
    if (el.dataset.kind === "bool") value = el.checked;
    else if (el.dataset.kind === "int") value = el.value === "" ? NaN : Number(el.value);
    else value = el.value;
    if (el.dataset.kind === "int" && !Number.isInteger(value)) value = el.value;
    if (value !== base[key]) out[key] = value;
  }
  return out;
}

/* ------------------------------------------------------------------ settings */
function initSettings() {
  const {api, pageData, showError, toast, t} = SK;
  const gameId = document.body.dataset.game;
  let values = pageData.values;
  document.getElementById("settings-form").onsubmit = async (ev) => {
    ev.preventDefault();
    showError(null);
    const changes = readSettings(values);
    try {
      const res = await api("/api/game/" + gameId + "/settings", {settings: changes});
      values = Object.assign({}, values, res.settings, changes);
      const state = await SK.getJSON("/api/game/" + gameId + "/state");
      const tot = document.getElementById("saved-totals");
      if (state.score.ok) {
        tot.textContent = t("saved") + " · " + state.game.players.map((n, i) =>
          bidi(n) + " " + num(state.score.score.totals[i])).join(" · ");
      } else tot.textContent = t("saved");
      toast(t("saved"));
    } catch (e) { showError(e); }
  };
  // The camera records only into an unfinished game: finishing asks first, and a game
  // finished by mistake can be resumed here.
  const finish = document.getElementById("finish-game");
  if (finish) finish.onclick = async () => {
    if (!window.confirm(t("confirm_finish"))) return;
    try { await api("/api/game/" + gameId + "/finish", {}); location.href = "/game/" + gameId + "/tricks"; }
    catch (e) { showError(e); }
  };
  const resume = document.getElementById("resume-game");
  if (resume) resume.onclick = async () => {
    try { await api("/api/game/" + gameId + "/resume", {}); location.href = "/game/" + gameId + "/bids"; }
    catch (e) { showError(e); }
  };
}

/* ------------------------------------------------------------------ home */
/* On this machine, with the table locked by wrong PINs: the host lets phones in again. */
function initHome() {
  const {api, showError, t} = SK;
  const unlock = document.getElementById("pin-unlock");
  if (!unlock) return;
  unlock.onclick = async () => {
    showError(null);
    try {
      await api("/api/pin/unlock", {});
      document.getElementById("host-pin-locked").textContent = t("host_pin_unlocked");
      unlock.remove();
    } catch (e) { showError(e); }
  };
}

/* ------------------------------------------------------------------ bids (phone) */
function initBids() {
  const {h, t, setText, say, api, getJSON, stream, renderPrompts, showError, pageData, bidBalance} = SK;
  const gameId = document.body.dataset.game;
  let state = pageData.state;
  let shownRound = state.round;
  let roundBids = null; // bids of a round other than the current one
  let roundBalls = null; // and its cannonball calls (Rascal's scoring)
  let roundCards = null; // and the cards dealt in it (the server's count: rounds cap, tie-break)
  // After the game, a stray tap must not change the final score: bids are locked until a
  // player asks to change one, and says yes.
  let unlocked = false;

  // The server counts the cards (the game's rounds setting, a tie-break round dealt as the
  // last): a page that worked it out itself offered bids the server then refused.
  function cardsFor(r) {
    return r === state.round ? state.cards : roundCards;
  }
  async function loadRound(r) {
    shownRound = r;
    if (r === state.round) { roundBids = null; render(); return; }
    const res = await getJSON("/api/game/" + gameId + "/round/" + r + "/bids");
    roundBids = res.bids;
    roundBalls = res.cannonball;
    roundCards = res.cards;
    render();
  }
  /* "Go to round N" (showScoreStop, showRoundMovedOn) hides itself once the page is there:
   * the focus it had goes on to the first bid still to enter in that round (why the player
   * went there), not to the page's top, where a keyboard user started over. */
  async function goToRound(r) {
    const pressed = document.activeElement;
    await loadRound(r);
    if (pressed && pressed.closest("[hidden]")) firstBidControl().focus();
  }
  /* The shown round's first bid button of the first player without a bid (any player's
   * first, where every bid is in), or ◀/▶ where the bids are locked. */
  function firstBidControl() {
    const bids = shownRound === state.round ? state.bids : roundBids;
    const rows = document.getElementById("bid-rows");
    const player = Math.max(bids.indexOf(null), 0);
    return rows.querySelector('.bid-button[data-player="' + player + '"]:enabled')
      || rows.querySelector(".bid-button:enabled")
      || [document.getElementById("prev-round"), document.getElementById("next-round")].find((b) => !b.disabled)
      || document.body;
  }
  function render() {
    const cards = cardsFor(shownRound);
    const bids = shownRound === state.round ? state.bids : roundBids;
    document.getElementById("round-title").textContent =
      t("round") + " " + shownRound + " " + t("of") + " " + state.rounds + " · " + cards + " " + t(cards === 1 ? "card_dealt" : "cards_dealt");
    const prev = document.getElementById("prev-round");
    const next = document.getElementById("next-round");
    const had = document.activeElement;
    prev.disabled = shownRound <= 1;
    next.disabled = shownRound >= state.round;
    // A round button that has just run out (◀ on round 1, ▶ on the round being played) hands
    // the focus to the other: a disabled button drops it to the page's top, and a screen
    // reader lost its place.
    const other = had === prev ? next : had === next ? prev : null;
    if (other && had.disabled && !other.disabled) other.focus();
    const total = bids.reduce((a, b) => a + (b || 0), 0);
    const missing = bids.filter((b) => b === null).length;
    const cls = total > cards ? "over" : total < cards ? "under" : "even";
    // #bid-total is a live region: its parts are written only when they change, or every
    // event of the game (a setting, a trick, another phone's bid) would read it out again.
    const totalEl = document.getElementById("bid-total");
    if (!totalEl.firstChild) {
      totalEl.append(h("span", {class: "big-number", id: "bid-total-number"}), h("span", {class: "slash"}, " / "),
        h("span", {class: "big-number", id: "bid-total-cards"}), h("span", {class: "label", id: "bid-total-label"}));
    }
    const number = document.getElementById("bid-total-number");
    if (number.className !== "big-number " + cls) number.className = "big-number " + cls;
    setText(number, String(total));
    setText(document.getElementById("bid-total-cards"), String(cards));
    // Over or under in words once every bid is in: the number's colour alone said it.
    setText(document.getElementById("bid-total-label"), " " + t("total_bids") + " · " + t("tricks_available") + " · " +
      (missing ? (missing === 1 ? t("one_still_to_bid") : t("still_to_bid", {n: missing})) : bidBalance(total, cards)));
    const rascal = state.settings.scoring === "rascal";
    // An earlier round's calls too: a call set wrong there is put right from ◀, as its bids are.
    const balls = (shownRound === state.round ? state.cannonball : roundBalls) || [];
    // A game a newer one has replaced at the table is locked too: a phone left on its page
    // must not take tonight's bids into it (#replaced says so, with the way to the new game).
    // Not a finished game's round whose bids were never entered: no final score stands for a
    // stray tap to change, and the camera ends a game whether or not its bids are in.
    const stop = state.score.missing_bids;
    const open = state.finished && !state.replaced_by && !!stop && stop.round === shownRound;
    const shut = (state.finished || !!state.replaced_by) && !unlocked && !open;
    // A data folder that cannot be written shows the bids, with nothing to unlock.
    const locked = shut || SK.readOnly;
    const over = document.getElementById("game-over");
    over.hidden = !state.finished && !shut;
    if (!over.hidden) {
      const names = winnerNames(state);
      const ask = !state.finished ? t("confirm_bid_replaced")
        : stop ? t("confirm_bid_unscored", {round: stop.round}) : t("confirm_bid_after_game");
      over.replaceChildren(
        ...(state.finished ? [h("strong", {}, t("game_over") + (names ? " · " + t("winner_is", {names})
          : resultWaits(state) ? " · " + t("result_waits")
          : endedUnplayed(state) ? " · " + t("no_rounds_played") : "")), ...finalStandings(state)] : []),
        ...(shut && !SK.readOnly ? [" ", h("button", {type: "button", id: "unlock-bids", onclick: () => {
          if (window.confirm(ask)) { unlocked = true; render(); }
        }}, t("change_a_bid"))] : []));
    }
    const rowsEl = document.getElementById("bid-rows");
    const focused = focusedRowControl(rowsEl);
    rowsEl.replaceChildren(...state.game.players.map((name, p) => {
      const buttons = [];
      for (let b = 0; b <= cards; b++) {
        buttons.push(h("button", {type: "button", class: "bid-button" + (bids[p] === b ? " on" : ""),
          disabled: locked, dataset: {player: p, bid: b}, "aria-pressed": bids[p] === b ? "true" : "false",
          // Said as "Bid 1 · Ana", not "1": a screen reader hears whose bid the button sets.
          "aria-label": t("bid") + " " + b + " · " + name,
          // A second tap on the lit bid (a phone passed round in the dark) changes nothing:
          // clearing it would lose the bid without a word.
          onclick: () => { if (bids[p] !== b) setBid(p, b); }}, String(b)));
      }
      const extras = [];
      if (p === state.dealer && shownRound === state.round) extras.push(h("span", {class: "tag"}, t("dealer")));
      if (p === state.leader && shownRound === state.round) extras.push(h("span", {class: "tag lead"}, t("leads")));
      if (rascal) {
        extras.push(h("label", {class: "tag cannon"}, h("input", {type: "checkbox", checked: !!balls[p], disabled: locked, dataset: {player: p},
          // The call alone: resending the bid this page last saw would undo another phone's.
          onchange: (ev) => setBid(p, undefined, ev.target.checked)}), " " + t("cannonball")));
      }
      // Each player's buttons are a group named by the player.
      const nameId = "bid-name-" + p;
      return h("div", {class: "bid-row", role: "group", "aria-labelledby": nameId, dataset: {player: p}},
        h("div", {class: "bid-name"}, h("span", {id: nameId}, name), " ", extras),
        h("div", {class: "bid-buttons"}, buttons));
    }));
    const again = focused && rowsEl.querySelector(focused);
    if (again) again.focus({preventScroll: true});
    const warn = document.getElementById("bids-missing");
    if (shownRound === state.round) showMissingBids(warn, state); else warn.hidden = true;
    showScoreStop(state, shownRound, (r) => goToRound(r).catch(showError));
    showRoundMovedOn(state, shownRound, (r) => goToRound(r).catch(showError));
    // A table with no TV learns here that the camera records nothing (skullcam run found none).
    showCameraMissing(document.getElementById("no-camera"), state);
    document.getElementById("camera-how").hidden = SK.readOnly
      || !(state.camera_missing && state.camera_missing_why === "no_camera") || !!state.finished;
    // A trick the camera missed (or every trick, with no camera) is entered on the tricks page:
    // linked at the top while no camera records, else under the bids, out of the way.
    const byHand = document.getElementById("enter-by-hand");
    if (byHand) {
      byHand.hidden = !!(state.finished || state.replaced_by || state.demo);
      const anchor = document.getElementById(state.camera_missing ? "no-camera" : "bid-totals");
      if (byHand.previousElementSibling !== anchor) anchor.after(byHand);
      const link = byHand.querySelector("a");
      const title = handEntryTitle(state);
      link.className = title ? "button" : "";
      link.textContent = title || t("enter_trick_link");
    }
    renderPrompts(document.getElementById("prompts"), state, false);
    const sc = scoreShown(state);
    // A finished game's totals are in the game-over box, best first (finalStandings).
    document.getElementById("bid-totals").textContent = sc && !finalStandings(state).length
      ? t("total") + ": " + state.game.players.map((n, i) => bidi(n) + "\u00a0" + num(sc.totals[i])).join(" · ") : "";
    // Bids never entered are said at the top (showScoreStop), not again down here.
    const se = document.getElementById("score-error");
    setText(se, state.score.ok || stop ? "" : t("score_error") + " " + (state.score.error_text || state.score.error));
    // What the score warns about (a trick scored as led, a tie-break round that does not
    // count): the totals above stand with that caveat, as the tricks page says.
    document.getElementById("score-warnings").replaceChildren(
      ...scoreWarnings(state).map((w) => h("p", {class: "warning"}, "⚠ " + w)));
  }
  async function setBid(player, bid, cannonball) {
    showError(null);
    const body = {round: shownRound, player};
    if (bid !== undefined) body.bid = bid;
    if (cannonball !== undefined) body.cannonball = cannonball;
    try {
      const res = await api("/api/game/" + gameId + "/bids", body);
      // The server's answer, cannonball calls too: a phone whose live stream is down would
      // otherwise draw the box it just ticked from its old state, unticked.
      if (shownRound === state.round) { state.bids = res.bids; state.cannonball = res.cannonball; }
      else { roundBids = res.bids; roundBalls = res.cannonball; }
      render();
      // Said to a screen reader (#bid-saved is a polite live region): the lit button alone
      // tells only those who see it that the tap reached the server.
      const name = state.game.players[player];
      say(document.getElementById("bid-saved"),
        bid !== undefined ? t("bid_saved", {name, bid}) : t("saved") + ": " + name);
    } catch (e) {
      // Refused (e.g. clearing a bid once the round has tricks): the rows go back to what the
      // page last had from the server (a ticked cannonball box unticks) and the reason stays.
      render();
      showError(e);
    }
  }
  async function refresh() {
    try {
      const fresh = await getJSON("/api/game/" + gameId + "/state");
      // A phone on the round being played follows the game to the next round; one that went
      // back (◀) to fix an earlier round's bid stays there, or its next tap would land in the
      // new round. So does one whose round's bids are being entered (some in, some not): a
      // game night of eight, bids tapped in late as the camera ended the round, put three of
      // them into the next round.
      const partlyBid = state.bids.some((b) => b === null) && state.bids.some((b) => b !== null);
      const following = shownRound === state.round && !partlyBid;
      state = fresh;
      if (following || shownRound > state.round) { shownRound = state.round; roundBids = null; render(); }
      else await loadRound(shownRound);
    } catch (e) { showError(e); }
  }
  document.getElementById("prev-round").onclick = () => loadRound(shownRound - 1).catch(showError);
  document.getElementById("next-round").onclick = () => loadRound(shownRound + 1).catch(showError);
  render();
  stream(gameId, (kind) => { if (kind !== "live") refresh(); }, refresh);
}

/* The control of the bid rows that has the keyboard's focus, as a selector that finds it in
 * the rows drawn again: every event of the game redraws them, and the focus went back to the
 * page's top, so a player tabbing to their bid started over after each key press. */
function focusedRowControl(rowsEl) {
  const el = document.activeElement;
  if (!el || !rowsEl.contains(el) || el.dataset.player === undefined) return null;
  return selectorOf(el);
}

/* A selector that finds `el` again once a redraw has replaced it: its id, or its tag and its
 * data- attributes (a bid button is its player's and its bid's); null for an element with
 * neither, which nothing tells apart from its neighbours. */
function selectorOf(el) {
  if (el.id) return "#" + CSS.escape(el.id);
  const data = Array.from(el.attributes).filter((a) => a.name.startsWith("data-"));
  if (!data.length) return null;
  return el.tagName.toLowerCase() + data.map((a) => "[" + a.name + '="' + CSS.escape(a.value) + '"]').join("");
}

/* A page left on an earlier round (its bids were being entered as the round ended, or ◀ went
 * back to fix one) says that the game has gone on, with the way there, in a line that stays
 * in view: the ▶ to it was at the top of the page, out of view of a phone scrolled down to the
 * sixth player's bids, and nothing else said the round had ended. */
function showRoundMovedOn(state, shownRound, goTo) {
  const {t, setText} = SK;
  const el = document.getElementById("round-moved-on");
  el.hidden = shownRound >= state.round || !!state.finished;
  if (el.hidden) return;
  setText(document.getElementById("round-moved-on-text"), t("round_started", {round: state.round}));
  const go = document.getElementById("round-moved-on-go");
  setText(go, t("go_to_round", {round: state.round}));
  go.onclick = () => goTo(state.round);
}

/* Why the score stops, when it is for bids never entered (the state's score.missing_bids),
 * said at the top of the bids page, short, with a button to that round where the page shows
 * another: the whole reason lay under every player's bid buttons (seven players: 1,200 px
 * down a 640 px phone), so a phone on the round being played never saw it. */
function showScoreStop(state, shownRound, goTo) {
  const {t, setText} = SK;
  const stop = state.score.missing_bids;
  const el = document.getElementById("score-stop");
  el.hidden = !stop;
  if (!stop) return;
  const all = stop.players.length === state.game.players.length;
  const names = stop.players.map((p) => bidi(state.game.players[p])).join(", ");
  setText(document.getElementById("score-stop-text"), all ? t("score_stops_no_bids", {round: stop.round})
    : t("score_stops_bids_of", {round: stop.round, names}));
  const go = document.getElementById("score-stop-go");
  go.hidden = stop.round === shownRound;
  setText(go, t("go_to_round", {round: stop.round}));
  go.onclick = () => goTo(stop.round);
}

/* ------------------------------------------------------------------ prompts page */
function initPrompts() {
  const {getJSON, stream, renderPrompts, pageData} = SK;
  const gameId = document.body.dataset.game;
  let state = pageData.state;
  const render = () => {
    renderPrompts(document.getElementById("prompts"), state, false);
    // Said, not left as a bare heading, once the last question is answered.
    document.getElementById("no-prompts").hidden = (state.prompts || []).length > 0;
  };
  const refresh = async () => { state = await getJSON("/api/game/" + gameId + "/state"); render(); };
  render();
  // A trick recorded (or abilities turned on) can read Rosie's choice from who led next.
  const asks = ["correction", "trick", "settings"];
  stream(gameId, (kind) => { if (kind.startsWith("prompt") || asks.includes(kind)) refresh(); }, refresh);
}

/* The score to show: the whole game's, or while a round cannot be scored (a bid missing, a
 * card to correct) the rounds before it, so nobody's total drops to 0 meanwhile. */
function scoreShown(state) {
  return state.score.ok ? state.score.score : (state.score.so_far || null);
}

/* What a score that stands warns about, in the page's language (the state API's
 * score.warning_texts; the English score.warnings from a server that has none). */
function scoreWarnings(state) {
  if (!state.score.ok) return [];
  return state.score.warning_texts || state.score.score.warnings || [];
}

/* A game over with no round scored (finished right after setup): it has no winner, not
 * every player tied at 0 as "Captain of the Seven Seas". */
function endedUnplayed(state) {
  return state.finished && state.score.ok && !state.score.score.rounds.some((r) => !r.in_progress);
}

/* A finished game's score, or null: before the end, for a game with no round scored, and
 * while its score stops (the rounds before the stop named a winner the missing bids or the
 * corrected card could still change). */
function finalScore(state) {
  return state.finished && state.score.ok && !endedUnplayed(state) ? state.score.score : null;
}

/* A finished game whose result waits for an answer that changes the score (Rascal's bet,
 * Harry's change, a doubtful Tigress): the winner it would name could still change, and a
 * tie under tie=extra_round would even reopen the game. */
function resultWaits(state) {
  return !!finalScore(state) && !!state.result_waits;
}

/* The winners' names once the game is over ("" where finalScore has none, or while its
 * result waits for answers). */
function winnerNames(state) {
  const sc = finalScore(state);
  return sc && !resultWaits(state)
    ? (sc.leaders || []).map((i) => bidi(state.game.players[i])).join(", ") : "";
}

/* A finished game's totals, best first, and the way to the full final scores: a phone at
 * the table showed only the winner's name, and the totals were on the TV alone. */
function finalStandings(state) {
  const {h, t} = SK;
  const sc = finalScore(state);
  if (!sc) return [];
  const order = state.game.players.map((_, p) => p).sort((a, b) => sc.totals[b] - sc.totals[a] || a - b);
  // The link on a line of its own, because after " · " a phone wraps it to the next line and
  // leaves the dot hanging at the end of the totals ("Søren −50 ·").
  return [h("br"), h("span", {id: "final-standings"}, t("total") + ": " + order.map(
    (p) => bidi(state.game.players[p]) + " " + num(sc.totals[p])).join(" · ")), h("br"),
    h("a", {href: "/game/" + state.game.id + "/tv"}, t("final_scores"))];
}

/* The notice for too few frames read a second, naming what they come from (``source``: the
 * camera, the demo or a recording; a notice without one is the camera's): a table playing a
 * file has no camera to look at. ``speed``: a file played faster than this machine reads it. */
function slowNotice(source, speed) {
  if (speed) return source === "demo" ? "camera_slow_demo_replay" : "camera_slow_replay";
  return {demo: "camera_slow_demo", recording: "camera_slow_recording"}[source] || "camera_slow";
}

/* Why nothing records the table's game (skullcam run found no camera, its camera fails, or
 * a recording's frames ran out), or why the camera recording it sees badly (its picture froze,
 * is almost black, or is blurred), has moved from the seat calibration, or has too few of its
 * frames read a second (a recording played too fast for this machine: at what speed), said in
 * ``el`` until the game is over. */
function showCameraMissing(el, state, tv = false) {
  const why = {camera_failed: "camera_failed", frames_ended: "camera_frames_ran_out"};
  const notices = {frozen: "camera_frozen", dark: "camera_dark", blurred: "camera_blurred", moved: "camera_moved",
    slow: "camera_slow"};
  let notice = state.camera_notice ? notices[state.camera_notice.why] : undefined;
  // A recording (or the demo) played faster than this machine reads it: it is played slower,
  // the camera has nothing to mend.
  const speed = notice === "camera_slow" ? state.camera_notice.speed : undefined;
  if (notice === "camera_slow") notice = slowNotice(state.camera_notice.source, speed);
  const none = tv ? "no_camera_tv" : "no_camera";  // the TV's has no command line to type
  // A folder that cannot be written has no camera recording into it: what the state holds was
  // left by the run before ("No camera ... Enter them by hand", which cannot be done there),
  // and the read-only notice at the top says nothing is recorded.
  el.hidden = SK.readOnly || !(state.camera_missing || notice) || !!state.finished;
  SK.setText(el, SK.t(state.camera_missing ? why[state.camera_missing_why] || none : notice || none,
    speed ? {speed: num(speed)} : undefined));
  el.title = el.textContent;  // the TV cuts a long notice to two lines
}

/* "Enter round 2 trick 1 by hand": the trick the hand-entry form fills, named where the table
 * must enter it (null where the plain "Camera missed a trick?" link will do): every trick
 * while no camera records, and a place before the table's next trick, left free by a trick
 * taken back (the camera goes on after the last trick and never fills it), which may be in
 * an earlier round than the one being played. */
function handEntryTitle(state) {
  if (state.hand_round === null || state.hand_round === undefined) return null;
  const gap = state.hand_round !== state.round || state.hand_trick !== state.next_trick;
  return state.camera_missing || gap
    ? SK.t("enter_trick_title", {round: state.hand_round, trick: state.hand_trick + 1}) : null;
}

/* The trick on the table, or null while no card lies there. The camera publishes an empty
 * trick when the last card is taken back: read as a trick, it hid the last trick on the TV
 * after a reload of the state, where the live event showed it. */
function liveTrick(live) {
  return live && live.plays && live.plays.length ? live : null;
}

/* The players with no bid in a round whose play has started, said in ``el`` where the table
 * looks, at once, not only once the round's score cannot be computed. */
function showMissingBids(el, state) {
  const started = state.tricks.length > 0 || !!liveTrick(state.live);
  const names = started && !state.finished ? state.game.players.filter((_, p) => state.bids[p] === null) : [];
  // Written only when it changes: on the phones it is a status line a screen reader reads out.
  if (el.hidden !== !names.length) el.hidden = !names.length;
  SK.setText(el, names.length ? SK.t("bids_missing", {names: names.map(bidi).join(", ")}) : "");
}

/* ------------------------------------------------------------------ TV */
const PALETTE = ["#ffd166", "#06d6a0", "#4cc9f0", "#f72585", "#ff8c42", "#b8f2e6", "#c77dff", "#e9ff70"];

/* Where the chart's end marks go: [player, mark x, mark y, line end x] for each [player,
   line end y, line end x]. Marks (34 units wide) of totals close together lay on one another:
   only a tie stepped aside, so 8 totals 10 points apart over a range of 150 overlapped in a
   staircase. Each mark keeps its line end's height and takes the first lane beside it that
   is clear of every mark placed before it, to the left past leftFrom (the last round). */
function endMarks(marks, leftFrom, k = 1) {
  const GAP = 36 * k;  // a mark's width and a little air
  const placed = [];
  for (const [p, my, lx] of marks) {
    const step = lx > leftFrom ? -GAP : GAP;
    let mx = lx;
    while (placed.some(([, px, py]) => Math.abs(px - mx) < GAP && Math.abs(py - my) < GAP)) mx += step;
    placed.push([p, mx, my, lx]);
  }
  return placed;
}

/* The chart in its 800 x 360 viewBox; k enlarges its text, end marks and the margins they
   need (fitChart in initTV): a chart drawn small took its labels down with it. */
function chartSVG(state, k = 1) {
  const {h} = SK;
  const NS = "http://www.w3.org/2000/svg";
  const s = (tag, attrs, ...kids) => {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    for (const k of kids) el.append(k instanceof Node ? k : document.createTextNode(String(k)));
    return el;
  };
  const players = state.game.players;
  // The round being played scores 0 until it ends: drawn, it would flatten every line.
  const sc = scoreShown(state);
  const rounds = (sc ? sc.rounds : []).filter((r) => !r.in_progress);
  // Margins for the axis labels (32 units: .chart .axis, times k).
  const W = 800, H = 360, L = 84 * k, R = 20, T = 16 * k, B = 44 * k;
  const series = players.map((_, p) => {
    let sum = 0;
    return [0].concat(rounds.map((r) => (sum += r.points[p])));
  });
  const all = series.flat();
  let lo = Math.min(0, ...all), hi = Math.max(10, ...all);
  if (hi === lo) hi = lo + 10;
  const n = Math.max(state.rounds, 1);
  const x = (i) => L + (W - L - R) * i / n;
  const y = (v) => T + (H - T - B) * (hi - v) / (hi - lo);
  const svg = s("svg", {viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": SK.t("score_chart"),
    style: `--k: ${k}`});
  svg.append(s("line", {x1: L, x2: W - R, y1: y(0), y2: y(0), class: "zero"}));
  // The round numbers, every other one (or fewer) where they would touch, the last one always.
  const every = Math.ceil(1.4 * 32 * k / ((W - L - R) / n));
  for (let i = 1; i <= n; i++) {
    if ((n - i) % every === 0) svg.append(s("text", {x: x(i), y: H - 8 * k, "text-anchor": "middle", class: "axis"}, i));
  }
  // Before a round has scored there is nothing to plot, and an axis of "10" over "0" with
  // every player's mark on the "0" would say otherwise. The round numbers and the zero
  // line stay, so the board keeps its shape.
  if (!rounds.length) return h("div", {}, svg);
  for (const v of [lo, hi]) {
    svg.append(s("text", {x: L - 10 * k, y: y(v) + 10 * k, "text-anchor": "end", class: "axis"}, num(Math.round(v))));
  }
  const marks = [];
  series.forEach((pts, p) => {
    const d = pts.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    svg.append(s("path", {d, stroke: PALETTE[p % 8], class: "line"}));
    marks.push([p, y(pts[pts.length - 1]), x(pts.length - 1)]);
  });
  // The player's number in the line's end mark, as in the table's swatch: two colours a
  // colour-blind player cannot tell apart still say whose line it is.
  // A mark stepped aside is joined to its line's end by a stroke of its colour, under the
  // marks it passes.
  const ends = endMarks(marks, W - R - 150, k);
  for (const [p, mx, my, lx] of ends) {
    if (mx !== lx) svg.append(s("line", {x1: lx, x2: mx, y1: my, y2: my, stroke: PALETTE[p % 8], class: "lead"}));
  }
  for (const [p, mx, my] of ends) {
    svg.append(s("circle", {cx: mx, cy: my, r: 17 * k, fill: PALETTE[p % 8]}));
    svg.append(s("text", {x: mx, y: my + 8 * k, "text-anchor": "middle", class: "mark"}, p + 1));
  }
  return h("div", {}, svg);
}

function initTV() {
  const {h, t, card, sign, getJSON, stream, renderPrompts, bidBalance} = SK;
  const fixedGame = document.body.dataset.game;
  // A data folder that cannot be written: the TV cuts its notice to two lines (app.css).
  const readOnlyNote = document.getElementById("read-only-note");
  if (readOnlyNote) readOnlyNote.title = readOnlyNote.textContent;
  let state = null;
  let bannerTimer = null;
  let bannerTrick = null;

  function ranking() {
    const sc = scoreShown(state);
    const totals = sc ? sc.totals : state.game.players.map(() => 0);
    const order = state.game.players.map((_, i) => i).sort((a, b) => totals[b] - totals[a] || a - b);
    const rank = [];
    order.forEach((p, i) => { rank[p] = i > 0 && totals[p] === totals[order[i - 1]] ? rank[order[i - 1]] : i + 1; });
    return {totals, order, rank};
  }
  /* The live winner's tag: "winning now", or a star where the row has no room for the words
   * (they stay in its title and for a screen reader). Cut to fit, the tag read "winn" at 720p
   * in English, and the bold row cut the winner's name and card too ("Anne-Soph…"). */
  const winningNow = () => h("span", {class: "tag winning-now", title: t("winning_now")},
    h("span", {class: "words"}, t("winning_now")), h("span", {class: "star", "aria-hidden": "true"}, "★"));
  function fitWinningNow(li) {
    if (!li || !li.querySelector(".winning-now")) return;
    li.classList.remove("short");
    li.querySelector(".words").classList.remove("sr-only");
    const cut = [...li.children].some((part) => part.scrollWidth > part.clientWidth);
    li.classList.toggle("short", cut);
    li.querySelector(".words").classList.toggle("sr-only", cut);
  }
  // The TV's window resized (a browser window, not a TV): the room for the words changed.
  new ResizeObserver(() => fitWinningNow(document.querySelector("#tv-live-cards li.winning")))
    .observe(document.getElementById("tv-live-cards"));
  /* Where the line on why the last trick's winner won goes, read whole (a TV has no hover to
   * read the rest): under the score table, in the room its rows leave; where they leave too
   * little (eight under a head full of notices), under the cards while the chart stays; else
   * not at all. Under the cards it took the chart's room, cut at two lines: under eight cards
   * the chart of a game of eight with a question open left a 1080p screen (237 px of the 248
   * it needs); under six long names with a question open too; under four, at 1080p with a
   * question open, the chart was 305 px high (398 now). Where neither place has room for it
   * whole, it is one line under the score table, cut with "…" (the whole in its title):
   * left out, eight cards under a head full of notices never said why in Italian at 720p. */
  function placeWhy() {
    const why = document.getElementById("tv-why");
    const bottom = (el) => el.getBoundingClientRect().bottom;
    const chart = () => document.querySelector("#tv-chart svg").getBoundingClientRect().height;
    const live = document.querySelector(".tv-live"), scores = document.querySelector(".tv-scores");
    const underScores = () => { scores.append(why); return bottom(why) <= bottom(scores) + 0.5; };
    why.hidden = true;
    why.classList.remove("clamped");
    why.removeAttribute("title");
    if (!why.textContent || document.getElementById("tv-board").hidden) return;
    const alone = chart();  // the chart's height without the line
    why.hidden = false;
    if (underScores()) return;
    live.append(why);
    // Under the cards, the questions come after it: neither may leave the column.
    const end = Math.max(bottom(why), bottom(document.getElementById("tv-prompts")));
    if (end <= bottom(live.parentElement) + 0.5 && !(alone > 0 && chart() === 0)) return;
    why.classList.add("clamped");
    why.title = why.textContent;
    why.hidden = !underScores();
  }
  /* The questions the column holds whole, and a line counting the rest ("+1 more question on
   * the phones"): the board cannot scroll, and under eight cards a third question lay past
   * the column's foot, unseen, with nothing saying it was there. The later ones give way. */
  function fitPrompts() {
    const box = document.getElementById("tv-prompts");
    const asked = [...box.querySelectorAll(".prompt")];
    box.querySelector(".tv-more")?.remove();
    asked.forEach((p) => { p.hidden = false; });
    const end = document.querySelector(".tv-side").getBoundingClientRect().bottom + 0.5;
    const fits = () => box.getBoundingClientRect().bottom <= end;
    if (document.getElementById("tv-board").hidden || fits()) return;
    const more = h("p", {class: "tv-more"});
    box.append(more);
    for (let k = asked.length - 1; k >= 0; k--) {
      asked[k].hidden = true;
      const n = asked.length - k;
      more.textContent = n === 1 ? t("tv_more_question") : t("tv_more_questions", {n});
      if (fits()) return;
    }
  }
  /* One short line for the room under the head, what the score warns about (the totals
   * stand, with a caveat the tricks page details), and why the score stops, across the
   * board's foot. Both take the side column's room, so they are set before it is fitted: set
   * after, the column was fitted to the room the last render left, and when the score stopped
   * under eight cards the third question ran under the red line, uncounted, until the next
   * event (1080p, in Spanish); when it went on again, a question stayed counted with room
   * for it. */
  function showScoreNotices() {
    const warnings = scoreWarnings(state);
    const warned = document.getElementById("tv-warnings");
    warned.hidden = !warnings.length;
    warned.textContent = warnings.map((w) => "⚠ " + w).join(" · ");
    warned.title = warned.textContent;
    const err = document.getElementById("tv-error");
    err.hidden = state.score.ok;
    err.textContent = state.score.ok ? "" : t("score_error") + " " + (state.score.error_text || state.score.error);
  }
  // A window resized (a browser window, not a TV): the room each place leaves changed.
  /* The chart's text at its heading's size (secondary text, 3.2vh on a TV): drawn in the room
   * the cards, the questions and the line on why leave, its round numbers and totals were
   * 11-18 px at 720p, too small to read from the sofa. Once the chart's size on the screen is
   * known, it is drawn again with its text (and the margins it needs) enlarged to that. */
  function fitChart() {
    const box = document.getElementById("tv-chart");
    const ctm = box.querySelector("svg")?.getScreenCTM();
    if (!state || !state.game || !ctm || !ctm.a) return;
    const want = parseFloat(getComputedStyle(document.querySelector(".tv-chart h2")).fontSize);
    const k = Math.max(1, want / (32 * ctm.a));
    if (Math.abs(k - Number(box.querySelector("svg").style.getPropertyValue("--k"))) > 0.01) {
      box.replaceChildren(chartSVG(state, k));
    }
  }
  new ResizeObserver(() => { placeWhy(); fitPrompts(); fitChart(); })
    .observe(document.getElementById("tv-board"));
  function render() {
    const empty = !state || !state.game;
    document.getElementById("tv-empty").hidden = !empty;
    document.getElementById("tv-board").hidden = empty;
    if (empty) return;
    const players = state.game.players;
    document.getElementById("tv-round").textContent = state.finished
      ? t("game_over") : t("round") + " " + state.round + " / " + state.rounds;
    // The game over, the head names the winner, big; the last round's dealer, leader and bids
    // would read as if play went on.
    const fin = state.finished;
    for (const id of ["tv-dealer", "tv-leader", "tv-bidtotal"]) document.getElementById(id).hidden = fin;
    document.getElementById("tv-demo").hidden = !state.demo;  // the demo's game, not the table's
    const winners = winnerNames(state);
    const winner = document.getElementById("tv-winner");
    const unplayed = endedUnplayed(state);
    const waits = resultWaits(state);
    winner.hidden = !winners && !unplayed && !waits;
    winner.textContent = winners ? t("winner_is", {names: winners})
      : waits ? t("result_waits") : unplayed ? t("no_rounds_played") : "";
    document.getElementById("tv-dealer").textContent = t("dealer") + ": " + players[state.dealer];
    // Who leads is Rosie's winner's call while that question is open: said, not left blank.
    const rosie = (state.prompts || []).find((p) => p.kind === "rosie");
    document.getElementById("tv-leader").textContent = state.leader !== null
      ? t("leads") + ": " + players[state.leader]
      : rosie ? t("leads") + ": " + t("rosie_chooses", {name: players[rosie.player] || ""}) : "";
    const bidSum = state.bids.reduce((a, b) => a + (b || 0), 0);
    // "Bids 6 / 4 tricks · 2 over", with its unit: a bare "6 / 4" says nothing.
    const allIn = state.bids.every((b) => b !== null);
    // Until all are in, how many are: "Bids 0 / 6 tricks" read as everyone bidding 0.
    const balance = " · " + (allIn ? bidBalance(bidSum, state.cards)
      : t("bids_in", {count: state.bids.filter((b) => b !== null).length, players: players.length}));
    document.getElementById("tv-bidtotal").textContent =
      t("bids") + " " + bidSum + " / " + state.cards + " " + t("tricks").toLowerCase() + balance;
    showMissingBids(document.getElementById("tv-missing-bids"), state);
    // skullcam run found no camera for the table's game: the board must not look watched.
    showCameraMissing(document.getElementById("tv-no-camera"), state, true);
    const {totals, order, rank} = ranking();
    const live = liveTrick(state.live);
    const overBid = (p) => state.bids[p] !== null && state.tricks_won[p] > state.bids[p];
    const table = document.getElementById("tv-table");
    const tbody = table.querySelector("tbody");
    // Seven or eight players: smaller rows, so the notices above leave every row in view.
    table.classList.toggle("many", players.length > 6);
    table.classList.toggle("over", fin);  // no Bid and Won columns
    tbody.replaceChildren(...order.map((p) => h("tr", {class: (live && live.winner === p ? "winning " : "") + (p === state.leader ? "leader" : ""), dataset: {player: p}},
      h("td", {class: "rank"}, rank[p]),
      h("td", {class: "name"}, h("span", {class: "swatch", style: "background:" + PALETTE[p % 8], "aria-hidden": "true"}, String(p + 1)), h("span", {class: "pname"}, players[p]),
        !fin && p === state.dealer ? h("span", {class: "tag", title: t("dealer")}, t("dealer_short")) : null),
      h("td", {class: "bid"}, fin ? "" : state.bids[p] === null ? "–" : state.bids[p],
        // A cannonball call changes what the bid is worth: the room sees who made one.
        !fin && (state.cannonball || [])[p] ? h("span", {class: "tag cannon"}, t("cannonball")) : null),
      // Over the bid: red, and an arrow for whoever cannot tell the red.
      h("td", {class: "won" + (overBid(p) ? " over" : "")}, fin ? "" : state.tricks_won[p],
        !fin && overBid(p) ? sign("↑", t("over_bid"), {class: "over-mark"}) : null),
      h("td", {class: "total"}, num(totals[p])))));
    const liveList = document.getElementById("tv-live-cards");
    // With nothing on the table, show the last trick (dimmed) and its winner: at a round's
    // start the last round's, or the room could not check how that round ended.
    const last = live ? null : state.last_trick;
    const shown = live || last;
    liveList.classList.toggle("past", !live && !!last);
    liveList.classList.toggle("many", !!shown && shown.plays.length > 6);
    liveList.replaceChildren(...(shown ? shown.plays : []).map((pl) =>
      h("li", {class: shown.winner === pl.player ? "winning" : ""},
        h("span", {class: "who", title: players[pl.player]}, players[pl.player]), " ", h("span", {class: "what"}, card(pl.card)),
        shown.winner === pl.player ? (live ? winningNow() : sign("★", t("trick_winner"), {class: "tag"})) : null)));
    fitWinningNow(liveList.querySelector("li.winning"));
    // "Last trick · Trick 2": "Last trick 2" read as "the last two tricks". The last
    // round's names its round: "Last trick · Round 3, trick 5".
    if (last) {
      const which = last.round === state.round ? t("trick") + " " + (last.trick + 1)
        : t("round_trick", {round: last.round, trick: last.trick + 1});
      liveList.prepend(h("li", {class: "caption"}, t("last_trick") + " · " + which));
    }
    // Why the last trick's winner won, in one sentence of the replay page's explanation: the
    // star on a card did not say why that card beat the others.
    SK.setText(document.getElementById("tv-why"), (last && last.why) || "");
    document.getElementById("tv-chart").replaceChildren(chartSVG(state));
    renderPrompts(document.getElementById("tv-prompts"), state, true);
    showScoreNotices();
    placeWhy();
    fitPrompts();
    fitChart();
  }
  // The banner's bonus on the condition the scorer pays it (the trick event's bonus_paid,
  // from rules.Settings.bonus_paid): a house rule, Rascal's scoring, a cannonball called.
  const BONUS_NOTE = {exact: "bonus_if_made", always: "bonus_kept", rascal: "bonus_rascal"};
  // What the bonus is for, and who collects it: "+20 for the Jolly Roger 14 if Ana makes their
  // bid" ("+20 bonus if bid made" did not say). The replay page words it the same way
  // (pages._bonus_note).
  // Each card's bonus item worded by the server (explain_i18n.bonus_items_for_script, every
  // card a trick can hold), as the replay page's note and the explanation say it: "+40 por
  // capturar al Skull King". A card it does not know is named as the card lists name it.
  const bonusItems = SK.pageData.bonus_items || {};
  const bonusItem = (b) => {
    const worded = (bonusItems[b.card] || [])[b.captured ? 1 : 0];
    return worded ? worded.split("{points}").join(num(b.points))
      : t(b.captured ? "bonus_for_capture" : "bonus_for_card", {points: b.points, card: card(b.card)});
  };
  function bonusNote(ev, name) {
    const what = (ev.bonus_for || []).map(bonusItem).join(", ");
    return t(BONUS_NOTE[ev.bonus_paid] || "bonus_if_made", {what: what || "+" + ev.bonus, name});
  }
  // A Loot's alliance with the winner pays both as much as a capture: the banner says it as
  // the replay page's explanation does ("Loot alliance: Eve and Dag (+20 each if both bids
  // are exact)"), from the page's wording (explain_i18n.loot_alliance_for_script).
  function allianceNote(a) {
    const players = state.game.players;
    const vals = {loot_player: players[a.loot], winner_player: players[a.winner], points: num(a.points)};
    return (SK.pageData.loot_alliance || "").replace(/\{(loot_player|winner_player|points)\}/g, (m, k) => vals[k]);
  }
  function banner(ev) {
    if (!state || !state.game) return;
    const el = document.getElementById("tv-banner");
    const name = ev.winner !== null && ev.winner !== undefined ? state.game.players[ev.winner] : null;
    // Only the parts there are: replaceChildren writes a null child as the text "null".
    el.replaceChildren(
      h("div", {class: "banner-main"}, name ? t("trick_won_by", {name}) : t("no_winner")),
      ...(ev.bonus && name ? [h("div", {class: "banner-bonus"}, bonusNote(ev, name))] : []),
      ...(name ? (ev.loot_alliances || []).map((a) => h("div", {class: "banner-alliance"}, allianceNote(a))) : []));
    bannerTrick = ev.round + "/" + ev.trick;
    showBanner(el, 5000);
  }
  // Why nobody won (the Kraken, or a trick the White Whale discards), as the replay page's
  // explanation words it in the page's language, once the trick's state is in: the state's
  // last_trick.banner_why, the sentence the TV shows under the last trick less the Kraken's
  // "nobody wins it" (the head says it: the banner read "nobody wins" twice). "Nobody wins
  // this trick" alone said neither (a game night).
  function bannerWhy(ev) {
    const last = state && state.last_trick;
    const el = document.getElementById("tv-banner");
    if ((ev.winner !== null && ev.winner !== undefined) || bannerTrick !== ev.round + "/" + ev.trick) return;
    if (!last || last.round !== ev.round || last.trick !== ev.trick || !last.banner_why || el.querySelector(".banner-why")) return;
    el.querySelector(".banner-main").after(h("div", {class: "banner-why"}, last.banner_why));
  }
  function hideBannerOf(ev) {
    // The trick the banner names was corrected (a card swapped before the pickup, or a fix on
    // a phone): its winner may have changed, and the board below already shows what stands.
    if (bannerTrick !== ev.round + "/" + ev.trick) return;
    clearTimeout(bannerTimer);
    document.getElementById("tv-banner").hidden = true;
  }
  function showBanner(el, ms) {
    el.hidden = false;
    clearTimeout(bannerTimer);
    bannerTimer = setTimeout(() => { el.hidden = true; }, ms);
  }
  function roundResult(ev) {
    // The trick that ends a round moves the board to the next one at once: the banner keeps
    // the round just scored in view a while ("Round 1: Ana +20 · Ben −10 ...").
    const scored = state && state.score && state.score.ok ? state.score.score.rounds[ev.round - 1] : null;
    if (!scored || scored.in_progress) return;
    const el = document.getElementById("tv-banner");
    const sign = (v) => (v > 0 ? "+" : "") + num(v);
    const parts = state.game.players.map((name, p) => bidi(name) + " " + sign(scored.points[p]));
    el.append(h("div", {class: "banner-round"}, t("round") + " " + ev.round + ": " + parts.join(" · ")));
    showBanner(el, 9000);
  }
  // Most events reload the game; a card laid while a reload is on its way comes as a live
  // event, and the reload's answer may have been read before it: the cards laid since are put
  // back on the answers to the reloads asked before the event, or they would leave the TV
  // until the next card. A reload asked after it (a trick recorded since)
  // already holds it, or what replaced it. An answer older than one already shown is dropped.
  let asked = 0, shown = 0;
  let liveMeanwhile = null;  // {data, asked}: the event, and how many reloads were asked before it
  async function refresh() {
    const mine = ++asked;
    const fresh = await getJSON(fixedGame ? "/api/game/" + fixedGame + "/state" : "/api/tv/state");
    if (mine < shown) return;
    shown = mine;
    state = fresh;
    if (liveMeanwhile && mine <= liveMeanwhile.asked) {
      if (state.game && liveMeanwhile.data.game_id === state.game.id) {
        state.live = liveTrick(liveMeanwhile.data);
      }
    } else {
      liveMeanwhile = null;
    }
    render();
    window.SK_TV_STATE = state;
  }
  refresh();
  stream(fixedGame || null, (kind, data) => {
    if (kind === "live" && state && state.game && data.game_id === state.game.id) {
      if (shown < asked) liveMeanwhile = {data, asked};
      state.live = liveTrick(data);
      render();
      return;
    }
    if (kind === "trick" && state && state.game && data.game_id === state.game.id) {
      banner(data);
      refresh().then(() => { bannerWhy(data); roundResult(data); });
      return;
    }
    if (kind === "correction" && state && state.game && data.game_id === state.game.id) hideBannerOf(data);
    refresh();
  }, refresh);
}

/* ------------------------------------------------------------------ replay */
/* The labels over the trick's picture in CSS pixels, not the picture's: the overlay is the
 * picture's size in its own pixels (its viewBox), so on a 360 px phone a 640 px picture drew
 * 15-unit labels 8 px tall. The CSS sizes them by --label-scale (picture pixels per CSS pixel).
 * Then each label, top to bottom, takes the spot beside its card (above, below, left, right;
 * flush with either edge or centred) that lies inside the picture, off every label placed
 * before it and over the least of the other cards: drawn above its card whatever was there,
 * a label two cards wide lay over its neighbour on a phone. Where every spot is taken it is
 * moved below (or above) the labels it would cover. Run again whenever the picture's width
 * changes. */
function fitReplayLabels(svg) {
  const {width: W, height: H} = svg.viewBox.baseVal;
  const scale = W / svg.getBoundingClientRect().width;
  if (!(scale > 0 && Number.isFinite(scale))) return;  // not laid out yet
  svg.style.setProperty("--label-scale", String(scale));
  const gap = 3 * scale;
  const cards = [...svg.querySelectorAll("rect")].map((rect) => rect.getBBox());
  const area = (a, b) => Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
    Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  // How far apart two boxes are (0 where they touch or overlap).
  const apart = (a, b) => Math.hypot(Math.max(0, a.x - b.x - b.width, b.x - a.x - a.width),
    Math.max(0, a.y - b.y - b.height, b.y - a.y - a.height));
  const placed = [];
  // Not "> 0": a label slid to just past another's margin met it again by a rounding error
  // (1e-14 px²) and was slid to the same place for ever, the page frozen (eight cards in a row,
  // two of them corrected, on a 360 px phone).
  const hit = (spot) => placed.find((p) => area({x: p.x - gap, y: p.y - gap,
    width: p.width + 2 * gap, height: p.height + 2 * gap}, spot) > 1e-3);
  const inside = (x, y, w, h) => ({x: Math.max(0, Math.min(x, W - w)), y: Math.max(0, Math.min(y, H - h)), width: w, height: h});
  /* A spot free of every label placed, anywhere on the picture: the cheapest, then the nearest
   * to its card. Where neither a spot beside its card nor one slid up or down from there is
   * free (seven or eight cards piled up on a 360 px phone: eight two-line labels are taller
   * than the picture), the label lay over the others, 1,448 px² of them in Italian. */
  const freeSpot = (card, w, h, cost) => {
    const step = 6 * scale;
    let best = null, bestCost = Infinity, bestApart = Infinity;
    for (let y = 0; y + h <= H; y += step) {
      for (let x = 0; x + w <= W; x += step) {
        const spot = {x, y, width: w, height: h};
        if (hit(spot)) continue;
        const c = cost(spot), d = apart(card, spot);
        if (c < bestCost || (c === bestCost && d < bestApart)) [best, bestCost, bestApart] = [spot, c, d];
      }
    }
    return best;
  };
  // The text's own box, where the server put it (getBBox leaves out its transform), and its card.
  const labels = [...svg.querySelectorAll("text")].map((text, i) => ({text, card: cards[i], box: text.getBBox()}));
  labels.sort((a, b) => a.card.y - b.card.y);
  // Each label beside its card where there is room; where a label found none free anywhere
  // near, it lay over the others: then each label takes the best free spot on the picture.
  const place = (anywhere) => {
    placed.length = 0;
    let clear = true;
    for (const {text, card, box} of labels) {
      clear = placeLabel(text, card, box, anywhere) && clear;
    }
    return clear;
  };
  // Places one label (a transform) and says whether it is clear of the labels placed before.
  function placeLabel(text, card, box, anywhere) {
    const {width: w, height: h} = box;
    const xs = [card.x, card.x + card.width - w, card.x + (card.width - w) / 2];
    if (text.getAttribute("text-anchor") === "end") xs.reverse();  // the edge the server chose first
    const ys = [card.y, card.y + (card.height - h) / 2, card.y + card.height - h];
    const spots = [...xs.map((x) => [x, card.y - gap - h]), ...xs.map((x) => [x, card.y + card.height + gap]),
      ...ys.map((y) => [card.x - gap - w, y]), ...ys.map((y) => [card.x + card.width + gap, y])]
      .map(([x, y]) => inside(x, y, w, h));
    // A spot nearer another card than its own reads as that card's label (its number says
    // otherwise): it costs as much as lying over a card.
    const cost = (spot) => hit(spot) ? Infinity
      : cards.reduce((sum, c) => sum + area(c, spot) * (c === card ? 0.5 : 1), 0)
        + (cards.some((c) => c !== card && apart(c, spot) < apart(card, spot)) ? w * h : 0);
    const cheapest = (among) => among.reduce((a, b) => (cost(b) < cost(a) ? b : a));
    let best = (anywhere && freeSpot(card, w, h, cost)) || cheapest(spots);
    const slide = (from, down) => {
      const spot = {...from};
      for (let on; (on = hit(spot));) spot.y = down ? on.y + on.height + gap : on.y - gap - h;
      return spot;
    };
    if (hit(best)) best = slide(spots[0], true);
    if (best.y + h > H) best = slide(spots[0], false);
    if (best.y < 0) {
      // No room above or below its first spot: slid up past the picture's top, it lay over
      // the page above (eight cards in Italian on a 360 px phone). The cheapest of the other
      // spots, slid clear of the labels, that stays on the picture; else the one that covers
      // the least of the other labels.
      const onPicture = spots.flatMap((from) => [slide(from, true), slide(from, false)])
        .filter((spot) => spot.y >= 0 && spot.y + h <= H);
      const covered = (spot) => placed.reduce((sum, p) => sum + area(p, spot), 0);
      best = onPicture.length ? cheapest(onPicture)
        : freeSpot(card, w, h, cost) || spots.reduce((a, b) => (covered(b) < covered(a) ? b : a));
    }
    const clear = !hit(best);
    text.setAttribute("transform", `translate(${best.x - box.x} ${best.y - box.y})`);
    placed.push(best);
    return clear;
  }
  if (!place(false)) place(true);
}

function initReplay() {
  const {h, t, card, api, stream, pageData, showError} = SK;
  const overlay = document.querySelector("svg.overlay");
  if (overlay) new ResizeObserver(() => fitReplayLabels(overlay)).observe(overlay);
  const gameId = document.body.dataset.game;
  const base = "/api/game/" + gameId + "/round/" + pageData.round + "/trick/" + pageData.trick;
  const form = document.getElementById("correct-form");
  const cardSel = document.getElementById("correct-card");
  const playerSel = document.getElementById("correct-player");
  // In the deck's order (suits by number, then the specials): the cards the server offers
  // (named pirates and mermaids, the Tigress declared, the expansions in play) and the
  // trick's own. A card the round's other tricks used up says where: the commonest slip, which
  // stopped the score. Marked, not greyed out: fixing two misread cards can pass through a
  // state with one card twice.
  const offered = new Set(pageData.cards || []);
  const elsewhere = pageData.played_elsewhere || {};
  const choices = SK.cardOrder.map(([id]) => id).filter((id) => offered.has(id));
  cardSel.replaceChildren(...choices.map((id) => h("option", {value: id, title: id},
    card(id) + (id in elsewhere ? " · " + t("played_in_trick", {trick: elsewhere[id]}) : ""))));
  // A card the trick holds that a person cannot enter (an unnamed pirate) is offered to its
  // own play only, to stay selected there: the store refuses it as anyone's new card.
  const kept = new Set(pageData.kept_cards || []);
  const offerKept = (own) => {
    for (const opt of cardSel.options) opt.hidden = opt.disabled = kept.has(opt.value) && opt.value !== own;
    if (cardSel.selectedOptions[0] && cardSel.selectedOptions[0].disabled) {
      cardSel.value = [...cardSel.options].find((opt) => !opt.disabled).value;
    }
  };
  const title = document.getElementById("correct-title");
  const seated = new Set(pageData.plays.map((p) => p.player));
  let which = null;  // the play being corrected, or "add" for the card the camera missed
  let opener = null;  // the button that opened the form: focus goes back there when it closes
  const open = (heading, label, from) => {
    opener = from;
    title.textContent = heading;
    document.getElementById("correct-which").textContent = label;
    form.hidden = false;
    cardSel.focus();
  };
  const close = () => {
    form.hidden = true;
    if (opener) opener.focus();
  };
  for (const btn of document.querySelectorAll(".correct-button")) {
    btn.onclick = () => {
      which = Number(btn.dataset.play);
      const play = pageData.plays[which];
      cardSel.value = play.card;
      offerKept(play.card);
      for (const opt of playerSel.options) opt.disabled = false;
      playerSel.value = String(play.player);
      // "Correct play 3 · Marta (Parrot 9)", as the button is named; "#3" said less.
      open(t("correct_play", {n: which + 1, name: pageData.players[play.player]}), "(" + card(play.card) + ")", btn);
    };
  }
  const addBtn = document.getElementById("add-play");
  if (addBtn) addBtn.onclick = () => {
    which = "add";
    offerKept(null);
    // Only a player with no card in the trick can have had the missed one.
    for (const opt of playerSel.options) opt.disabled = seated.has(Number(opt.value));
    playerSel.value = [...playerSel.options].find((opt) => !opt.disabled).value;
    open(t("add_missing"), "", addBtn);
  };
  document.getElementById("correct-cancel").onclick = close;
  form.addEventListener("keydown", (ev) => { if (ev.key === "Escape") { ev.preventDefault(); close(); } });
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    showError(null);
    if (which === "add") {
      const body = {player: Number(playerSel.value), card: cardSel.value};
      try { await api(base + "/add", body); location.reload(); } catch (e) { showError(e); }
      return;
    }
    const play = pageData.plays[which];
    // What this page shows there: a page another phone's correction made out of date is
    // refused, not applied to a card that has since moved into this place.
    const body = {play: which, expect: {card: play.card, player: play.player}};
    if (cardSel.value !== play.card) body.card = cardSel.value;
    if (Number(playerSel.value) !== play.player) body.player = Number(playerSel.value);
    if (body.card === undefined && body.player === undefined) { close(); return; }
    try { await api(base + "/correct", body); location.reload(); } catch (e) { showError(e); }
  };
  for (const btn of document.querySelectorAll(".tigress-button")) {
    btn.onclick = async () => {
      try { await api(base + "/tigress", {as: btn.dataset.as}); location.reload(); } catch (e) { showError(e); }
    };
  }
  const choiceForm = document.getElementById("choice-form");
  if (choiceForm) choiceForm.onsubmit = async (ev) => {
    ev.preventDefault();
    showError(null);
    const value = document.getElementById("choice-value").value;
    if (value === "") return;
    try { await api(base + "/ability", {choice: Number(value)}); location.reload(); } catch (e) { showError(e); }
  };
  // A write that moves tricks asks a second tap: the first only says so on the button.
  function tappedTwice(btn, confirmKey) {
    if (btn.dataset.armed) return true;
    btn.dataset.armed = "1";
    btn.textContent = t(confirmKey);
    return false;
  }
  // Taking back a trick entered by hand asks a second tap: it moves tricks back.
  const removeBtn = document.getElementById("remove-trick");
  // The removal's own "correction" event must not reload this page (the trick moved back
  // into its place) before the answer sends it to the list: whichever came first won.
  let leaving = false;
  if (removeBtn) removeBtn.onclick = async () => {
    if (!tappedTwice(removeBtn, "remove_trick_confirm")) return;
    leaving = true;
    try { await api(base + "/remove", {}); location.replace("/game/" + gameId + "/tricks"); } catch (e) { leaving = false; showError(e); }
  };
  // A trick the camera moved to a round's first place goes back where it filed it, the
  // round's later tricks a place back with it: a second tap, as for a removal.
  const moveBackBtn = document.getElementById("move-back");
  if (moveBackBtn) moveBackBtn.onclick = async () => {
    if (!tappedTwice(moveBackBtn, "move_back_confirm")) return;
    leaving = true;
    try { await api(base + "/move-back", {}); location.replace("/game/" + gameId + "/tricks"); } catch (e) { leaving = false; showError(e); }
  };
  const confirmBtn = document.getElementById("confirm-trick");
  if (confirmBtn) confirmBtn.onclick = async () => {
    try { await api(base + "/confirm", {}); location.reload(); } catch (e) { showError(e); }
  };
  stream(gameId, (kind, data) => {
    if (leaving) return;
    if ((kind === "correction" || kind === "settings") && (data.trick_id === pageData.trick_id || kind === "settings")) {
      if (form.hidden) location.reload();
    }
  });
}

/* ------------------------------------------------------------------ history */
function initHistory() {
  const {api, showError, t} = SK;
  document.getElementById("import-button").onclick = async () => {
    showError(null);
    const file = document.getElementById("import-file").files[0];
    if (!file) { showError(new Error(t("choose_record"))); return; }
    // file.text() would turn a Latin-1 "Søren" into "S\ufffdren" without a word: decode strictly.
    let text;
    try { text = new TextDecoder("utf-8", {fatal: true}).decode(await file.arrayBuffer()); }
    catch (e) { showError(new Error(t("record_not_utf8", {file: file.name}))); return; }
    let record;
    try { record = JSON.parse(text); }
    catch (e) { showError(new Error(t("record_not_json", {file: file.name}))); return; }
    // The file's name goes with it, for the game's audit trail ("imported from the file ...").
    const url = "/api/import?file=" + encodeURIComponent(file.name);
    try { const res = await api(url, record); location.href = res.url; } catch (e) { showError(e); }
  };
}

function initTricks() {
  const {h, t, card, api, pageData, showError} = SK;
  const gameId = document.body.dataset.game;
  const form = document.getElementById("enter-form");
  const selects = form ? [...form.querySelectorAll(".enter-card")] : [];
  // The deck's order; the cards the server offers (a declared Tigress, named pirates and
  // mermaids, the expansion cards whose setting is on).
  const offered = new Set(pageData.cards || []);
  const choices = SK.cardOrder.map(([id]) => id).filter((id) => offered.has(id));
  // A card the round has no copy left of is greyed out: the commonest slip. Grouped by suit
  // (the group named as its cards are, "Parrot"), then the specials: one list of 70 was long.
  const usedUp = new Set((pageData.next_trick && pageData.next_trick.used_up) || []);
  const suits = ["green", "yellow", "purple", "black"];
  const option = (id) => h("option", {value: id, title: id, disabled: usedUp.has(id)}, card(id));
  const groups = [
    ...suits.map((suit) => h("optgroup", {label: card(suit + "-1").replace(/\s*1$/, "")},
      choices.filter((id) => id.startsWith(suit + "-")).map(option))),
    h("optgroup", {label: t("special_cards")},
      choices.filter((id) => !suits.some((suit) => id.startsWith(suit + "-"))).map(option)),
  ];
  for (const sel of selects) {
    sel.replaceChildren(h("option", {value: ""}, "—"), ...groups.map((g) => g.cloneNode(true)));
  }
  // The open questions: Rosie's choice of who leads is answered here, not on another page.
  if (pageData.state) SK.renderPrompts(document.getElementById("prompts"), pageData.state, false);
  // Cards chosen and not yet recorded are not thrown away by another page's change.
  const typing = () => selects.some((sel) => sel.value !== "");
  if (form) form.onsubmit = async (ev) => {
    ev.preventDefault();
    showError(null);
    if (selects.some((sel) => sel.value === "")) { showError(new Error(t("enter_trick_choose"))); return; }
    const next = pageData.next_trick;
    const plays = selects.map((sel) => ({player: Number(sel.dataset.player), card: sel.value}));
    // A trick the camera missed goes before the one it filed in its place (insert).
    const url = "/api/game/" + gameId + "/round/" + next.round + "/trick/" + next.trick + (next.insert ? "/insert" : "/enter");
    // Back at the form, under the trick just recorded, for the next one (the plain page after
    // a missed trick: its address asked for that one place).
    try {
      await api(url, {plays});
      if (next.insert) location.replace("/game/" + gameId + "/tricks#enter-trick");
      else { location.hash = "enter-trick"; location.reload(); }
    } catch (e) { showError(e); }
  };
  // A Rosie question answered (on a phone) can make the next trick's leader known. Cards being
  // chosen are kept through a change elsewhere (the server refuses them if it moved the trick
  // or its leader, and says whether a trick recorded meanwhile had those cards), the game's
  // end included (the last trick recorded by another phone or the camera ends it), not
  // through giving the table to another game.
  const redraw = ["trick", "correction", "settings", "prompt_answered", "reopened", "game_finished"];
  SK.stream(gameId, (kind) => {
    if (kind === "replaced" || (redraw.includes(kind) && !typing())) location.reload();
  });
}

/* A data folder that cannot be written: the fields that show a value (settings, a Tigress as
 * declared, a pirate's choice, the setup's names) stay readable and take no change; the
 * controls that only write are hidden by app.css (".writes"). */
function lockFields() {
  for (const el of document.querySelectorAll("main form :is(input, select, textarea, button), main .tigress-button")) {
    el.disabled = true;
  }
}

SK.fmtTimes();
({home: initHome, setup: initSetup, settings: initSettings, bids: initBids, prompts: initPrompts, tv: initTV,
  replay: initReplay, history: initHistory, tricks: initTricks}[document.body.dataset.page] || (() => {}))();
if (SK.readOnly) lockFields();
