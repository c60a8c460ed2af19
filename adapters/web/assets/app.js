// zaria companion: carries the identity on every call, swaps the
// server-rendered screens and sends the page's actions. No framework, no
// build step; every text it shows comes from the server (the catalogs)
// and is set as text, never as HTML.
(function () {
  'use strict';
  var base = document.body.dataset.base;
  var tg = null; // Telegram.WebApp, once its script has loaded
  var auth = null;
  var chat = null;
  var current = 'sheets';
  var timers = {};

  function $(sel, root) { return (root || document).querySelector(sel); }
  function tpl(id) { var t = document.getElementById(id); return t ? t.content.textContent : ''; }
  function haptic(kind) {
    try {
      if (!tg || !tg.HapticFeedback) return;
      if (kind === 'tap') tg.HapticFeedback.selectionChanged();
      else tg.HapticFeedback.notificationOccurred(kind);
    } catch (e) { /* an old client */ }
  }

  function status(text) {
    var s = $('#screen');
    s.textContent = '';
    var p = document.createElement('p');
    p.className = 'note';
    p.id = 'status';
    p.textContent = text;
    s.appendChild(p);
  }

  function call(method, url, body) {
    var opt = { method: method, headers: { 'Authorization': auth }, credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' };
    if (body) {
      opt.headers['Content-Type'] = 'application/json';
      opt.body = JSON.stringify(body);
    }
    return fetch(base + url, opt).then(function (r) {
      if (r.status === 401 || r.status === 403) {
        if (session || $('#ended')) ended(); else status(tpl('msg-noauth'));
        throw new Error('auth');
      }
      if (r.status === 429) { toast(tpl('msg-busy')); throw new Error('busy'); }
      if (!r.ok) throw new Error('http ' + r.status);
      var fresh = r.headers.get('Zaria-Session');
      if (fresh && session) setSession(fresh);
      return r;
    });
  }

  // The session: what the launch (Telegram's initData, a one-time link,
  // the widget's OpenID token) was traded for, kept in memory only. The
  // server renews it while the page is used; a page left open but idle
  // renews it every third of its life while shown.
  var session = false;
  var renewEvery = 0;
  var renewedAt = 0;
  function setSession(s, life) {
    session = true;
    auth = 'Bearer ' + s;
    renewedAt = Date.now();
    if (life) renewEvery = life * 1000 / 3;
  }
  function renewSoon() {
    if (!session || document.hidden || $('#ended') || Date.now() - renewedAt < renewEvery) return;
    call('POST', 'api/hello').then(function (r) { return r.json(); }).then(function (h) {
      if (h.session) setSession(h.session, h.renew);
    }).catch(function () {});
  }
  setInterval(renewSoon, 30000);
  document.addEventListener('visibilitychange', renewSoon);

  // ended: the session is over (its limit reached, the page left unused,
  // the user no longer in the chat). The screen stays as it was, what was
  // typed and not sent is kept for the next opening, and the page offers
  // to open it again.
  // reopen: a one-time link cannot be opened twice; the chat gives another.
  var reopen = function () { saveDrafts(); var b = $('#ended'); if (b) b.remove(); status(tpl('msg-noauth')); };
  function ended() {
    session = false;
    saveDrafts();
    if ($('#ended')) return;
    var box = document.createElement('div');
    box.id = 'ended';
    box.setAttribute('role', 'alert');
    var p = document.createElement('p');
    p.textContent = tpl('msg-ended');
    var b = document.createElement('button');
    b.type = 'button';
    b.id = 'reopen';
    b.textContent = tpl('msg-reopen');
    box.appendChild(p);
    box.appendChild(b);
    document.body.appendChild(box);
  }
  function resumed() {
    var box = $('#ended');
    if (box) box.remove();
    dropDrafts();
  }

  // Drafts: values typed and not sent, by screen and field, in this
  // device's storage for the next opening of the page in this chat.
  function fieldKey(el) {
    var f = el.closest('form');
    var row = el.closest('[data-value]');
    var sc = el.closest('.screen');
    return (sc ? sc.dataset.screen : '') + '|' + (f ? f.className + '|' + (f.dataset.char || '') + '|' + (f.dataset.name || '') + '|' + (f.dataset.id || '') : '') +
      '|' + (row ? charOf(el) + '|' + row.dataset.value : '') + '|' + (el.name || el.id || '');
  }
  function draftsKey() { return 'zaria.drafts.' + (chat || ''); }
  function unsent() {
    var out = {};
    document.querySelectorAll('#screen input:not([type=hidden]), #screen textarea').forEach(function (el) {
      if (el.value !== el.defaultValue) out[fieldKey(el)] = el.value;
    });
    return out;
  }
  function saveDrafts() {
    var d = unsent();
    try { if (Object.keys(d).length) localStorage.setItem(draftsKey(), JSON.stringify(d)); } catch (e) { /* no storage */ }
  }
  function dropDrafts() { try { localStorage.removeItem(draftsKey()); } catch (e) { /* no storage */ } }
  function restoreDrafts() {
    var d;
    try { d = JSON.parse(localStorage.getItem(draftsKey()) || 'null'); } catch (e) { d = null; }
    if (!d) return;
    var left = 0;
    document.querySelectorAll('#screen input:not([type=hidden]), #screen textarea').forEach(function (el) {
      var k = fieldKey(el);
      if (k in d) { el.value = d[k]; delete d[k]; var det = el.closest('details'); if (det) det.open = true; }
    });
    for (var k in d) if (Object.prototype.hasOwnProperty.call(d, k)) left++;
    try { if (left) localStorage.setItem(draftsKey(), JSON.stringify(d)); else dropDrafts(); } catch (e) { /* no storage */ }
  }

  // Telegram's conventions: the back button returns to the characters
  // from any other tab (Android's back would close the app); closing asks
  // first while a typed value is unsent; no vertical swipe closes the app
  // mid-stepper.
  function conventions() {
    if (!tg) return;
    try {
      if (tg.BackButton) { if (current === 'sheets') tg.BackButton.hide(); else tg.BackButton.show(); }
      var typed = Object.keys(unsent()).length > 0;
      if (typed !== !!tg.isClosingConfirmationEnabled) {
        if (typed) tg.enableClosingConfirmation(); else tg.disableClosingConfirmation();
      }
    } catch (e) { /* an old client */ }
  }
  document.addEventListener('input', conventions);

  // toast shows text where the screen shows replies (the screen stays).
  function toast(text) {
    var t = $('#toast') || $('#result') || $('#odds');
    if (t) draw(t, { error: true, lines: [[{ t: text }]] });
  }

  // The reply as the chat shows it: lines of styled spans, as text.
  // reveal scrolls a result into the middle of the screen: at its bottom
  // edge a phone's keyboard bar or the Mini App's button hid it.
  function reveal(el) {
    if (el && el.textContent) el.scrollIntoView({ block: 'center' });
  }

  function draw(el, res) {
    if (!el) return;
    el.textContent = '';
    el.classList.toggle('error', !!res.error);
    (res.lines || []).forEach(function (line) {
      var p = document.createElement('p');
      line.forEach(function (s) {
        var n = document.createElement(s.s === 'b' ? 'b' : s.s === 'i' ? 'i' : s.s === 'c' ? 'code' : 'span');
        n.textContent = s.t;
        p.appendChild(n);
      });
      el.appendChild(p);
    });
    if (res.choices && res.choices.length) {
      var box = document.createElement('div');
      box.className = 'choices';
      res.choices.forEach(function (c) {
        var b = document.createElement('button');
        b.type = 'button';
        b.className = 'padkey';
        b.textContent = c.label;
        b.addEventListener('click', function () { pressPad({ op: 'pad', button: c.button, values: c.values || [] }); });
        box.appendChild(b);
      });
      el.appendChild(box);
    }
    if (res.note) {
      var w = document.createElement('p');
      w.className = 'warn';
      w.textContent = res.note;
      el.appendChild(w);
    }
  }

  // swap puts a server-rendered screen in place. The tab bar comes with
  // every screen, but when its tabs are the same ones the buttons already
  // shown stay (only the current one changes), so a tab is never replaced
  // under the user's thumb.
  function swap(html) {
    var s = $('#screen');
    var old = $('nav.tabs', s);
    // Server-rendered with html/template: every user text is escaped there.
    s.innerHTML = html;
    var fresh = $('nav.tabs', s);
    if (old && fresh && old.textContent === fresh.textContent &&
        old.children.length === fresh.children.length) {
      for (var i = 0; i < old.children.length; i++) {
        var a = old.children[i], b = fresh.children[i];
        if (a.dataset.go !== b.dataset.go) return;
        if (b.hasAttribute('aria-current')) a.setAttribute('aria-current', 'page');
        else a.removeAttribute('aria-current');
      }
      fresh.replaceWith(old);
    }
  }

  // load reads a screen. Only the last one asked for is shown: a slower
  // answer to an earlier tap does not cover it; #screen is aria-busy
  // while a screen is on its way.
  var loading = 0;
  function load(screen, after) {
    current = screen;
    var seq = ++loading;
    $('#screen').setAttribute('aria-busy', 'true');
    return call('GET', 'c/' + chat + '/s/' + screen).then(function (r) { return r.text(); }).then(function (html) {
      if (seq !== loading) return;
      var s = $('#screen');
      var open = openTools();
      swap(html);
      reopenTools(open);
      s.removeAttribute('aria-busy');
      var lang = $('.screen', s);
      if (lang) document.documentElement.lang = lang.dataset.lang;
      restoreDrafts();
      conventions();
      if (screen === 'dice') setupDice();
      if (screen === 'history') showHistory();
      if (screen === 'rules') setupRules();
      lastOrder = screen === 'order' ? html : '';
      if (after) after();
    }).catch(function (e) {
      if (seq !== loading) return;
      $('#screen').removeAttribute('aria-busy');
      if (e.message !== 'auth' && e.message !== 'busy') status(tpl('msg-network'));
    });
  }

  // The turn order follows the chat: read again every few seconds while
  // it is shown, unless the user is typing or tapping; the reply shown
  // stays.
  var lastOrder = '';
  function follow() {
    if (current !== 'order' || document.hidden || Object.keys(timers).length || $('#screen').hasAttribute('aria-busy')) return;
    var a = document.activeElement;
    if (a && a.closest && a.closest('form')) return;
    call('GET', 'c/' + chat + '/s/order').then(function (r) { return r.text(); }).then(function (html) {
      if (current !== 'order' || html === lastOrder || $('#screen').hasAttribute('aria-busy')) return;
      var toast = $('#toast');
      var s = $('#screen');
      var open = openTools();
      swap(html);
      reopenTools(open);
      lastOrder = html;
      var fresh = $('#toast', s);
      if (toast && fresh) fresh.replaceWith(toast);
    }).catch(function () {});
  }
  setInterval(follow, 4000);

  // The GM's tools of a combatant (moves, an NPC's conditions) stay open
  // when the turn order is read again.
  function openTools() {
    var open = {};
    document.querySelectorAll('.fighter details.tools[open]').forEach(function (d) { open[fighterOf(d)] = true; });
    return open;
  }
  function reopenTools(open) {
    document.querySelectorAll('.fighter details.tools').forEach(function (d) { if (open[fighterOf(d)]) d.open = true; });
  }
  function fighterOf(el) { var f = el.closest('.fighter'); return f ? f.dataset.name : ''; }

  function act(body) {
    return call('POST', 'c/' + chat + '/do', body).then(function (r) { return r.json(); });
  }

  // Sheets: every change is the chat command, run by the server.
  function sheetAct(body) {
    return act(body).then(function (res) {
      haptic(res.error ? 'error' : 'success');
      return load('sheets', function () { draw($('#toast'), res); });
    });
  }

  // Hit points: taps add up; one /pj pv ±N once they stop.
  var hpTaps = {};
  function hpTap(btn) {
    var npc = btn.closest('[data-npc]');
    var row = npc || btn.closest('[data-hp]');
    var out = $('output', row);
    var ch = npc ? '' : charOf(btn);
    var key = ch + '\u0000' + (npc ? npc.dataset.npc : row.dataset.hp);
    var n = (hpTaps[key] || 0) + parseInt(btn.dataset.hd, 10);
    hpTaps[key] = n;
    out.textContent = String(parseInt(out.dataset.cur, 10) + n);
    out.classList.toggle('pending', n !== 0);
    clearTimeout(timers[key]);
    timers[key] = setTimeout(function () {
      delete timers[key];
      delete hpTaps[key];
      if (n === 0) return;
      if (npc) screenAct('order', { op: 'npchp', name: npc.dataset.npc, n: n });
      else sheetAct({ op: 'hp', char: ch, name: row.dataset.hp, n: n });
    }, 700);
  }

  // Rules: − and + move a fork's number, a band's bound or a table's
  // cell (its row and column picked first; "-", impossible, below the
  // lowest), a list picks a house rule's choice; once the taps stop, the
  // odds it would move (/system try, nothing saved) show beside it, and
  // Save makes the change (/system edit).
  var cellPicks = {};
  function ruleBody(rn, op) {
    var b = { op: op, system: rn.closest('.ruleset').dataset.system, name: rn.dataset.name };
    var part = rn.dataset.part || '';
    var v = ruleValue(rn);
    if (part) b.part = part;
    if (part === 'cell') { b.row = +$('.cellrow', rn).value; b.col = +$('.cellcol', rn).value; b.value = v; }
    else if (part === 'rule') b.value = v;
    else b.n = parseInt(v, 10);
    return b;
  }
  function ruleValue(rn) { var c = $('select.rulechoice', rn); return c ? c.value : $('output', rn).dataset.v; }
  function ruleShow(rn, v) {
    var out = $('output', rn);
    out.dataset.v = v;
    out.textContent = v === '-' ? rn.dataset.none : v;
  }
  function ruleChanged(rn) {
    var c = $('select.rulechoice', rn);
    var out = $('output', rn);
    var changed = ruleValue(rn) !== (c ? c.dataset.cur : out.dataset.cur);
    if (out) out.classList.toggle('pending', changed);
    $('.rulesave', rn).disabled = !changed;
    var key = 'rule\u0000' + (rn.dataset.part || '') + '\u0000' + rn.dataset.name;
    clearTimeout(timers[key]);
    var pv = $('.rulepreview', rn);
    pv.textContent = '';
    if (!changed) return;
    var body = ruleBody(rn, 'rulepreview');
    timers[key] = setTimeout(function () {
      delete timers[key];
      act(body).then(function (res) {
        if (JSON.stringify(ruleBody(rn, 'rulepreview')) === JSON.stringify(body)) draw(pv, res);
      }).catch(function () {});
    }, 600);
  }
  function ruleCells(rn) {
    return rn.dataset.cells.split(';').map(function (r) { return r.split(','); });
  }
  function ruleAdjust(btn) {
    var rn = btn.closest('.rulenum');
    var d = parseInt(btn.dataset.d, 10);
    var v = ruleValue(rn);
    var next;
    if (rn.dataset.part === 'cell') {
      // "-" sits below the table's lowest number (0 at least).
      var low = 0;
      ruleCells(rn).forEach(function (r) { r.forEach(function (c) { if (c !== '-') low = Math.min(low, +c); }); });
      if (v === '-') next = d > 0 ? low : '-';
      else if (d < 0 && +v <= low) next = '-';
      else next = Math.min(+rn.dataset.max, +v + d);
    } else {
      next = Math.min(+rn.dataset.max, Math.max(+rn.dataset.min, parseInt(v, 10) + d));
    }
    ruleShow(rn, String(next));
    ruleChanged(rn);
  }
  // A cell picked: its value now, nothing pending.
  function rulePick(rn) {
    var r = +$('.cellrow', rn).value - +rn.dataset.rows;
    var c = +$('.cellcol', rn).value - +rn.dataset.cols;
    var v = (ruleCells(rn)[r] || [])[c];
    if (v === undefined) return;
    cellPicks[rn.closest('.ruleset').dataset.system + '\u0000' + rn.dataset.name] = [$('.cellrow', rn).value, $('.cellcol', rn).value];
    $('output', rn).dataset.cur = v;
    ruleShow(rn, v);
    ruleChanged(rn);
  }
  // The rules screen read again: each table at the cell picked last.
  function setupRules() {
    document.querySelectorAll('.rulecell').forEach(function (rn) {
      var p = cellPicks[rn.closest('.ruleset').dataset.system + '\u0000' + rn.dataset.name];
      if (!p) return;
      $('.cellrow', rn).value = p[0];
      $('.cellcol', rn).value = p[1];
      rulePick(rn);
    });
  }

  // A request for a roll: the chat's button pressed (or /ask typed) on
  // the server; the dice screen read again, the request's message under
  // it as the chat shows it.
  function askAct(body) {
    return act(body).then(function (res) {
      haptic(res.error ? 'error' : 'success');
      return load('dice', function () { draw($('#result'), res); reveal($('#result')); });
    }).catch(function () {});
  }

  // The turn order, the tables and decks: the reply on the page, the
  // screen read again.
  function screenAct(screen, body, keep) {
    return act(body).then(function (res) {
      haptic(res.error ? 'error' : 'success');
      if (keep) { draw($('#toast'), res); return; }
      return load(screen, function () { draw($('#toast'), res); });
    }).catch(function () {});
  }

  function charOf(el) { var a = el.closest('[data-char]'); return a ? a.dataset.char : ''; }

  function setLater(input) {
    var row = input.closest('[data-value]');
    var key = charOf(input) + '\u0000' + row.dataset.value;
    clearTimeout(timers[key]);
    timers[key] = setTimeout(function () {
      delete timers[key];
      sheetAct({ op: 'set', char: charOf(input), name: row.dataset.value, value: String(input.value) });
    }, 700);
  }

  // Dice.
  var dice = { sides: 0 };
  function stepValue(field) {
    var o = $('.stepper[data-field="' + field + '"] output');
    return o ? parseInt(o.textContent, 10) : 0;
  }
  // A check's form (the core's, from the system's file): each field's
  // value as the page sends it; the server writes the command.
  function numberValue(box, key) {
    var src = $('.src', box);
    if (src && src.value !== '#') return key ? src.value : src.selectedOptions[0].dataset.n;
    return $('output', box).textContent;
  }
  function fieldValue(el) {
    switch (el.dataset.kind) {
      case 'flag': return $('input', el).checked ? '1' : '';
      case 'word': return $('select', el).value;
      case 'terms':
        var parts = [];
        el.querySelectorAll('.num').forEach(function (p) { parts.push(numberValue(p, true)); });
        return parts.join('+');
    }
    var sel = $(':scope > select', el);
    return sel ? sel.value : numberValue(el, false);
  }
  function diceRequest(op) {
    var key = $('#system') ? $('#system').value : '';
    if (key) {
      var fields = {};
      document.querySelectorAll('.form[data-form="' + key + '"] [data-kind]').forEach(function (el) {
        if (el.parentElement.closest('[data-kind]')) return; // a part of terms
        fields[el.dataset.key] = fieldValue(el);
      });
      return { op: op, form: key, fields: fields };
    }
    if (!dice.sides) return null;
    var q = { op: op, n: stepValue('n'), sides: dice.sides, mod: stepValue('mod') };
    if (advantage()) q.adv = +$('#adv').value;
    return q;
  }
  // advantage: the tray holds the roll the core's advantage takes.
  function advantage() {
    var t = $('.tray');
    return !!t && !($('#system') && $('#system').value) && dice.sides === +t.dataset.advSides && stepValue('n') === +t.dataset.advCount;
  }
  var oddsTimer = null;
  function refresh() {
    var sys = $('#system') ? $('#system').value : '';
    document.querySelectorAll('.form').forEach(function (el) { el.hidden = el.dataset.form !== sys; });
    document.querySelectorAll('.num').forEach(function (el) {
      var src = $('.src', el);
      $('.steprow', el).hidden = !!src && src.value !== '#';
    });
    if ($('#adv-row')) $('#adv-row').hidden = !advantage();
    document.querySelectorAll('.die').forEach(function (b) {
      b.setAttribute('aria-pressed', String(!sys && +b.dataset.sides === dice.sides));
    });
    var q = diceRequest('odds');
    $('#roll').disabled = !q;
    $('#pick').hidden = !!q;
    clearTimeout(oddsTimer);
    if (!q) { $('#odds').textContent = ''; return; }
    oddsTimer = setTimeout(function () {
      act(q).then(function (res) { draw($('#odds'), res); }).catch(function () {});
    }, 350);
  }
  function setupDice() {
    dice.sides = 0;
    document.querySelectorAll('#system, #adv, .form select, .form input').forEach(function (s) { s.addEventListener('change', refresh); });
    refresh();
  }

  // History: the chat's last rolls as /historial shows them (the core's
  // reply, in the chat's time zone), on the page only. A roll's line has
  // a 📊 that opens the picture of its distribution under it (the chat's
  // odds button: nothing rolled, nothing logged). Named so as not to hide
  // window.history.
  function showHistory() {
    act({ op: 'history' }).then(function (res) {
      var box = $('#history');
      draw(box, res);
      var label = box.parentNode.dataset.chart || '📊';
      var totals = res.totals || [];
      (res.commands || []).forEach(function (c, i) {
        var p = box.children[i];
        if (!c || !p) return;
        var b = document.createElement('button');
        b.type = 'button';
        b.className = 'chartbtn';
        b.dataset.command = c;
        if (typeof totals[i] === 'number') b.dataset.total = String(totals[i]);
        b.setAttribute('aria-label', label);
        b.setAttribute('aria-expanded', 'false');
        b.textContent = '📊';
        p.appendChild(b);
      });
    }).catch(function () {});
  }

  // picture toggles the distribution picture of a history line's roll.
  function picture(btn) {
    var p = btn.closest('p');
    var open = p.nextElementSibling && p.nextElementSibling.classList.contains('chart') ? p.nextElementSibling : null;
    if (open) { open.remove(); btn.setAttribute('aria-expanded', 'false'); return; }
    btn.disabled = true;
    var q = { command: btn.dataset.command };
    if (btn.dataset.total) q.actual = +btn.dataset.total;
    call('POST', 'c/' + chat + '/chart', q).then(function (r) {
      var fig = document.createElement('div');
      fig.className = 'chart';
      if ((r.headers.get('Content-Type') || '').indexOf('image/png') === 0) {
        return r.blob().then(function (b) {
          // A data: URL: the page's CSP allows no blob: pictures.
          return new Promise(function (ok, bad) {
            var fr = new FileReader();
            fr.onload = function () { ok(fr.result); };
            fr.onerror = bad;
            fr.readAsDataURL(b);
          });
        }).then(function (url) {
          var img = document.createElement('img');
          img.alt = btn.dataset.command;
          img.src = url;
          fig.appendChild(img);
          return fig;
        });
      }
      return r.json().then(function (res) {
        fig.classList.add('reply');
        draw(fig, res);
        return fig;
      });
    }).then(function (fig) {
      p.after(fig);
      btn.setAttribute('aria-expanded', 'true');
      haptic('success');
    }).catch(function () {}).then(function () { btn.disabled = false; });
  }

  // The pad editor: every change is the /pad command, the screen read
  // again with the reply on top.
  function scopeOf(el) { var p = el.closest('.padedit'); return p ? p.dataset.scope : ''; }

  function pressPad(body) {
    act(body).then(function (res) {
      haptic(res.error ? 'error' : 'success');
      draw($('#result'), res);
      reveal($('#result'));
    }).catch(function () {});
  }

  document.addEventListener('click', function (ev) {
    var t = ev.target;
    var go = t.closest('[data-go]');
    if (go) { load(go.dataset.go); return; }
    if (t.id === 'reopen') { reopen(); return; }
    var step = t.closest('[data-delta]');
    if (step) {
      haptic('tap');
      var box = step.closest('.stepper');
      var d = parseInt(step.dataset.delta, 10);
      var input = $('input', box);
      if (input) {
        input.value = (parseInt(input.value, 10) || 0) + d;
        setLater(input);
        return;
      }
      var out = $('output', box);
      var v = (parseInt(out.textContent, 10) || 0) + d;
      v = Math.max(+box.dataset.min, Math.min(+box.dataset.max, v));
      out.textContent = String(v);
      refresh();
      return;
    }
    var ar = t.closest('.askroll, .askclose');
    if (ar) {
      haptic('tap');
      ar.disabled = true;
      var q = { op: ar.classList.contains('askroll') ? 'askroll' : 'askclose', button: +ar.closest('[data-ask]').dataset.ask };
      if (ar.dataset.char) q.char = ar.dataset.char;
      askAct(q);
      return;
    }
    var key = t.closest('.padkey[data-button], .padkey[data-alias]');
    if (key) {
      haptic('tap');
      if (key.dataset.button) pressPad({ op: 'pad', button: +key.dataset.button });
      else pressPad({ op: 'alias', name: key.dataset.alias });
      return;
    }
    var die = t.closest('.die');
    if (die) {
      haptic('tap');
      dice.sides = +die.dataset.sides;
      if ($('#system')) $('#system').value = '';
      refresh();
      return;
    }
    if (t.id === 'roll') {
      var q = diceRequest('roll');
      if (!q) return;
      t.disabled = true;
      act(q).then(function (res) {
        haptic(res.error ? 'error' : 'success');
        draw($('#result'), res);
        reveal($('#result'));
      }).catch(function () {}).then(function () { t.disabled = false; });
      return;
    }
    var hp = t.closest('.hpstep');
    if (hp) { haptic('tap'); hpTap(hp); return; }
    var unc = t.closest('.uncond');
    if (unc) { sheetAct({ op: 'uncond', char: charOf(unc), name: unc.dataset.cond }); return; }
    if (t.closest('.undo')) { sheetAct({ op: 'undo' }); return; }
    if (t.id === 'next') { screenAct('order', { op: 'next' }); return; }
    var rm = t.closest('.remove');
    if (rm) { screenAct('order', { op: 'remove', name: rm.dataset.name }); return; }
    var mv = t.closest('.move');
    if (mv) { screenAct('order', { op: 'move', name: fighterOf(mv), n: +mv.dataset.to }); return; }
    var nu = t.closest('.npcuncond');
    if (nu) { screenAct('order', { op: 'npcuncond', name: fighterOf(nu), value: nu.dataset.cond }); return; }
    if (t.closest('.reopen')) { screenAct('order', { op: 'reopen' }); return; }
    var end = t.closest('.end');
    if (end) {
      if (end.dataset.armed !== '1') { end.dataset.armed = '1'; end.textContent = end.dataset.confirm; return; }
      screenAct('order', { op: 'end' });
      return;
    }
    if (t.id === 'history-again') { showHistory(); return; }
    var cb = t.closest('.chartbtn');
    if (cb) { picture(cb); return; }
    var pm = t.closest('.padmove');
    if (pm) { screenAct('pad', { op: 'padmove', button: +pm.dataset.id, n: +pm.dataset.to, scope: scopeOf(pm) }); return; }
    var pr = t.closest('.padremove');
    if (pr) {
      if (pr.dataset.armed !== '1') { pr.dataset.armed = '1'; pr.textContent = pr.dataset.confirm; return; }
      screenAct('pad', { op: 'padremove', button: +pr.dataset.id, scope: scopeOf(pr) });
      return;
    }
    var ra = t.closest('.ruleadj');
    if (ra) { ruleAdjust(ra); return; }
    var rs = t.closest('.rulesave');
    if (rs) { screenAct('rules', ruleBody(rs.closest('.rulenum'), 'ruleset')); return; }
    var rt = t.closest('.rolltable');
    if (rt) { screenAct('tables', { op: 'table', name: rt.dataset.name }, true); return; }
    var dr = t.closest('.draw');
    if (dr) { screenAct('tables', { op: 'draw', name: dr.dataset.name }); return; }
    var sh = t.closest('.shuffle');
    if (sh) { screenAct('tables', { op: 'shuffle', name: sh.dataset.name }); return; }
    var gone = t.closest('.tabledelete, .deckdelete');
    if (gone) {
      if (gone.dataset.armed !== '1') { gone.dataset.armed = '1'; gone.textContent = gone.dataset.confirm; return; }
      screenAct('tables', { op: gone.classList.contains('tabledelete') ? 'tabledelete' : 'deckdelete', name: gone.dataset.name });
      return;
    }
    var use = t.closest('.use');
    if (use) { sheetAct({ op: 'use', char: use.dataset.char }); return; }
    var mc = t.closest('.marksclear');
    if (mc) { sheetAct({ op: 'marksclear', char: mc.dataset.char }); return; }
    var del = t.closest('.delete');
    if (del) {
      if (del.dataset.armed !== '1') {
        del.dataset.armed = '1';
        del.textContent = del.dataset.confirm;
        return;
      }
      act({ op: 'delete', char: del.dataset.char }).then(function (res) {
        haptic(res.error ? 'error' : 'success');
        return load('sheets', function () {
          draw($('#toast'), res);
          // The same undo as /pj deshacer, for as long as the core keeps it.
          if (!res.error) $('.undo').hidden = false;
        });
      });
    }
  });

  document.addEventListener('change', function (ev) {
    var t = ev.target;
    if (t.classList && t.classList.contains('val')) setLater(t);
    if (t.classList && (t.classList.contains('cellrow') || t.classList.contains('cellcol'))) rulePick(t.closest('.rulenum'));
    if (t.classList && t.classList.contains('rulechoice')) ruleChanged(t.closest('.rulenum'));
  });

  document.addEventListener('submit', function (ev) {
    var f = ev.target;
    ev.preventDefault();
    var name = f.elements.name ? f.elements.name.value.trim() : '';
    if (f.classList.contains('asknew')) askAct({ op: 'ask', value: f.elements.check.value.trim(), name: f.elements.chars.value.trim() });
    else if (f.classList.contains('create')) sheetAct({ op: 'create', name: name });
    else if (f.classList.contains('rename')) sheetAct({ op: 'rename', char: f.dataset.char, name: name });
    else if (f.classList.contains('addcond')) sheetAct({ op: 'cond', char: f.dataset.char, name: name, n: parseInt(f.elements.rounds.value, 10) || 0 });
    else if (f.classList.contains('sethp')) sheetAct({ op: 'set', char: f.dataset.char, name: f.dataset.name, value: f.elements.max.value + '/' + f.elements.max.value });
    else if (f.classList.contains('addfoe')) {
      var foe = { op: 'add', name: name, value: f.elements.init.value.trim() };
      if (f.elements.hp.value !== '') foe.hp = parseInt(f.elements.hp.value, 10);
      screenAct('order', foe);
    } else if (f.classList.contains('npccond')) {
      screenAct('order', { op: 'npccond', name: fighterOf(f), value: name, n: parseInt(f.elements.rounds.value, 10) || 0 });
    } else if (f.classList.contains('join')) {
      screenAct('order', { op: 'join', value: f.elements.init.value.trim() });
    } else if (f.classList.contains('rows')) {
      screenAct('tables', { op: 'rows', name: f.dataset.new ? name : f.dataset.name, value: f.elements.rows.value, diff: f.dataset.dice || '' });
    }
    else if (f.classList.contains('tablerename')) screenAct('tables', { op: 'tablerename', name: f.dataset.name, value: name });
    else if (f.classList.contains('rulename')) screenAct('rules', { op: 'rulename', system: f.closest('.ruleset').dataset.system, name: f.dataset.name, value: name });
    else if (f.classList.contains('cards')) screenAct('tables', { op: 'deckcreate', name: name, value: f.elements.cards.value });
    else if (f.classList.contains('padrename')) screenAct('pad', { op: 'padrename', button: +f.dataset.id, name: name, scope: scopeOf(f) });
    else if (f.classList.contains('padadd')) screenAct('pad', { op: 'padadd', name: name, value: f.elements.command.value.trim(), scope: scopeOf(f) });
    else if (f.classList.contains('add-value')) sheetAct({ op: 'set', char: f.dataset.char, name: name, value: f.elements.value.value.trim() });
  });

  function hello() {
    call('POST', 'api/hello').then(function (r) { return r.json(); }).then(function (h) {
      chat = h.chat;
      if (h.session) setSession(h.session, h.renew);
      load('sheets');
    }).catch(function (e) {
      if (e.message === 'busy') status(tpl('msg-busy'));
      else if (e.message !== 'auth') status(tpl('msg-network'));
    });
  }

  // The Matrix room widget (Element Web/Desktop): answer the client's
  // toWidget requests, ask it for an OpenID token (fromWidget get_openid)
  // and trade that for a session; the server asks the user's homeserver
  // whose token it is.
  function widget() {
    var q = new URLSearchParams(location.search);
    chat = q.get('chat') || '';
    if (!/^[A-Za-z0-9_-]{22}$/.test(chat) || window.parent === window) { status(tpl('msg-noauth')); return; }
    var wid = q.get('widgetId') || '';
    // Element's theme: the URL's (its template filled in), then each
    // theme_change.
    function theme(name) {
      var n = String(name || '');
      if (!n || n.charAt(0) === '$') return;
      document.documentElement.dataset.theme = /dark|black/i.test(n) ? 'dark' : 'light';
    }
    theme(q.get('theme'));
    var asked = false;
    var done = false;
    reopen = function () { asked = false; done = false; ask(); };
    function ask() {
      if (asked) return;
      asked = true;
      window.parent.postMessage({ api: 'fromWidget', widgetId: wid, requestId: 'zaria-openid', action: 'get_openid', data: {} }, '*');
    }
    function creds(c) {
      if (done) return;
      if (!c || c.state === 'blocked' || !c.access_token) { if (!$('#ended')) status(tpl('msg-noauth')); return; }
      done = true;
      fetch(base + 'api/openid', { method: 'POST', headers: { 'Content-Type': 'application/json' }, credentials: 'omit',
        body: JSON.stringify({ chat: chat, access_token: c.access_token, matrix_server_name: c.matrix_server_name }) })
        .then(function (r) { if (!r.ok) throw new Error('auth'); return r.json(); })
        .then(function (s) {
          var again = !!$('#ended');
          setSession(s.session, s.renew);
          if (again) resumed(); else load('sheets');
        })
        .catch(function () { if (!$('#ended')) status(tpl('msg-noauth')); });
    }
    window.addEventListener('message', function (ev) {
      if (ev.source !== window.parent) return;
      var d = ev.data;
      if (!d || typeof d !== 'object') return;
      if (d.api === 'toWidget' && !d.response) {
        if (typeof d.widgetId === 'string') wid = d.widgetId;
        var res = {};
        if (d.action === 'capabilities') res = { capabilities: [] };
        if (d.action === 'openid_credentials') creds(d.data);
        if (d.action === 'theme_change') theme(d.data && d.data.name);
        var answer = {};
        for (var k in d) answer[k] = d[k];
        answer.response = res;
        window.parent.postMessage(answer, ev.origin);
        if (d.action === 'capabilities') setTimeout(ask, 0);
        return;
      }
      if (d.api === 'fromWidget' && d.requestId === 'zaria-openid' && d.response) {
        var r = d.response;
        if (r.state === 'allowed') creds(r);
        else if (r.state === 'blocked' && !$('#ended')) status(tpl('msg-noauth'));
        // "request": the client asks the user; openid_credentials follows.
      }
    });
    setTimeout(ask, 2000); // a client that sends no capabilities first
  }

  function start() {
    if (/\/w$/.test(location.pathname)) { widget(); return; }
    if (tg && tg.initData) {
      auth = 'tma ' + tg.initData;
      try { tg.ready(); tg.expand(); } catch (e) { /* not in Telegram */ }
      // Opened again: the launch data may still be young enough (it is
      // signed once per opening); if not, close, and the chat's button
      // opens the page afresh with what was typed.
      try {
        if (tg.disableVerticalSwipes) tg.disableVerticalSwipes();
        if (tg.BackButton) tg.BackButton.onClick(function () { load('sheets'); });
      } catch (e) { /* an old client */ }
      reopen = function () {
        auth = 'tma ' + tg.initData;
        call('POST', 'api/hello').then(function (r) { return r.json(); }).then(function (h) {
          setSession(h.session, h.renew);
          resumed();
        }).catch(function () {
          saveDrafts();
          try { tg.close(); } catch (e) { /* not in Telegram */ }
        });
      };
      hello();
      return;
    }
    var m = location.pathname.match(/\/l\/([A-Za-z0-9_-]{22})$/);
    if (m) {
      // The link works once: take it out of the address bar and history.
      history.replaceState(null, '', base);
      fetch(base + 'api/redeem', { method: 'POST', headers: { 'Content-Type': 'application/json' }, credentials: 'omit', body: JSON.stringify({ link: m[1] }) })
        .then(function (r) { if (!r.ok) throw new Error('auth'); return r.json(); })
        .then(function (s) { chat = s.chat; setSession(s.session, s.renew); load('sheets'); })
        .catch(function () { status(tpl('msg-noauth')); });
      return;
    }
    status(tpl('msg-noauth'));
  }
  // Telegram's script is loaded only when Telegram opened the page: its
  // launch data in the fragment, or kept by the script for a reload.
  function fromTelegram() {
    if (/\/w$/.test(location.pathname) || /\/l\//.test(location.pathname)) return false;
    if (/[#&]tgWebAppData=/.test(location.hash)) return true;
    try { return !!sessionStorage.getItem('__telegram__initParams'); } catch (e) { return false; }
  }
  function boot() { tg = window.Telegram && window.Telegram.WebApp; start(); }
  if (fromTelegram() && document.body.dataset.tg) {
    var sc = document.createElement('script');
    sc.src = document.body.dataset.tg;
    sc.onload = boot;
    sc.onerror = boot;
    document.head.appendChild(sc);
  } else {
    boot();
  }
})();
