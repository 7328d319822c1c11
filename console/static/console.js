// The referee's desk: the deadline counts down, and the page reloads when
// the game changes (a sheet in, a request ruled, a turn resolved) unless a
// form is being filled in. Everything works without this script.
(function () {
  "use strict";
  function left(ms) {
    if (ms <= 0) return null;
    var s = Math.floor(ms / 1000), d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600),
        m = Math.floor(s % 3600 / 60);
    if (d > 0) return d + "d " + h + "h " + m + "m";
    if (h > 0) return h + "h " + m + "m " + (s % 60) + "s";
    return m + "m " + (s % 60) + "s";
  }
  function tick() {
    var els = document.querySelectorAll(".countdown[data-deadline]");
    for (var i = 0; i < els.length; i++) {
      var t = left(Date.parse(els[i].getAttribute("data-deadline")) - Date.now());
      els[i].textContent = t ? "in " + t : "passed";
    }
  }
  var typing = false;
  document.addEventListener("input", function () { typing = true; });
  function watch() {
    var live = document.getElementById("live");
    if (!live || !window.fetch) return;
    var every = (parseInt(live.getAttribute("data-every"), 10) || 15) * 1000;
    setInterval(function () {
      if (typing || document.hidden) return;
      fetch(live.getAttribute("data-url"), { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (v) {
          if (v && v !== live.getAttribute("data-version")) window.location.reload();
        })
        .catch(function () {});
    }, every);
  }
  document.addEventListener("DOMContentLoaded", function () {
    tick();
    setInterval(tick, 1000);
    watch();
  });
})();
