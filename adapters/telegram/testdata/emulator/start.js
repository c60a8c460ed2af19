// Starts telegram-test-api on 127.0.0.1 and a free port, and prints
// {"port":N} once listening. Used by the Go smoke tests:
//   node start.js [port]
// The package ships no runnable server (no bin/ or config/), and its own
// listen() turns port 0 into 9000, so we serve its express app ourselves.
'use strict';
const http = require('http');
const TelegramServer = require('telegram-test-api');

const tg = new TelegramServer({ host: '127.0.0.1', port: 1 /* unused */, storeTimeout: 3600 });
// Methods the emulator lacks, answered the way Telegram does.
const STUBS = { setMyCommands: true, deleteMyCommands: true, getMyCommands: [], getChatAdministrators: [] };
const srv = http.createServer((req, res) => {
  const m = /^\/bot[^/]+\/([A-Za-z]+)(\?|$)/.exec(req.url);
  if (m && Object.prototype.hasOwnProperty.call(STUBS, m[1])) {
    req.resume();
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ ok: true, result: STUBS[m[1]] }));
    return;
  }
  tg.webServer(req, res);
});
srv.listen(Number(process.argv[2] || 0), '127.0.0.1', () => {
  console.log(JSON.stringify({ port: srv.address().port }));
});
// Exit at once: a graceful close can wait for idle keep-alive connections.
const stop = () => { srv.closeAllConnections(); process.exit(0); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
