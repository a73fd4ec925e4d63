// The game page's board: lichess-pgn-viewer (static/vendor/lichess-pgn-viewer/, GPL-3.0-or-later) showing the PGN
// the page carries in data-game-pgn, which holds only the moves the page may show (the transmission delay is
// applied by the server). The moves stay readable as the page's own list; this board is extra, so without
// JavaScript (or a browser without modules) its section stays hidden.
//
// Keys (on the board or its buttons): left and right arrows step one move, Home and End go to the start and the
// last move. Each step is announced in a polite live region ("12… Nf6"). During a live round static/live.js
// replaces the moves' region and sends live:updated: the board then takes the new PGN, following the game when the
// reader was at its last move, else staying where the reader was.
(function () {
  "use strict";
  var section = document.querySelector("[data-game-viewer]");
  if (!section) return;
  var status = section.querySelector("[data-game-viewer-status]");
  var Viewer = null;
  var viewer = null;
  var shownPgn = null;

  function source() {
    return document.querySelector("[data-game-pgn]");
  }

  function ply() {
    var data = viewer.curData();
    return data.ply || 0;
  }

  function announce() {
    var data = viewer.curData();
    var text = section.dataset.startText;
    if (data.ply) {
      var number = Math.floor((data.ply - 1) / 2) + 1;
      text = number + (data.ply % 2 ? ". " : "… ") + data.san;
    }
    status.textContent = text;
    section.dataset.fen = data.fen;
  }

  function show() {
    var data = source();
    if (!data || !Viewer) return;
    var pgn = data.dataset.gamePgn;
    if (pgn === shownPgn) return;
    var initialPly = section.hasAttribute("data-live") ? "last" : 0;
    var flipped = false;
    if (viewer) {
      initialPly = viewer.canGoTo("next") ? ply() : "last"; // follow the game only from its last move
      flipped = viewer.flipped;
    }
    var old = viewer ? viewer.div : section.querySelector("[data-game-viewer-mount]");
    var mount = document.createElement("div");
    old.replaceWith(mount);
    var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    viewer = Viewer(mount, {
      pgn: pgn,
      showPlayers: true,
      showClocks: data.hasAttribute("data-clocks"),
      showMoves: "auto",
      showControls: false, // the page's own buttons, named in the page's language
      scrollToMove: false, // the mouse wheel scrolls the page
      keyboardToMove: true,
      drawArrows: false,
      initialPly: initialPly,
      lichess: false, // no links to another site
      menu: { getPgn: { enabled: false }, practiceWithComputer: { enabled: false }, analysisBoard: { enabled: false } },
      chessground: { animation: { enabled: !reduced }, coordinates: true },
    });
    if (flipped) viewer.flip();
    // the viewer's list of moves scrolls: reachable by keyboard, named (the page's own list stays the text)
    var moves = viewer.div.querySelector(".lpv__moves");
    if (moves) {
      moves.setAttribute("tabindex", "0");
      moves.setAttribute("role", "group");
      moves.setAttribute("aria-label", section.dataset.movesLabel);
    }
    var toPath = viewer.toPath; // every step (keys, buttons, a move clicked) goes through it
    viewer.toPath = function (path, focus) {
      toPath(path, focus);
      announce();
    };
    shownPgn = pgn;
    section.hidden = false;
    section.dataset.fen = viewer.curData().fen;
  }

  function go(to) {
    if (viewer) viewer.goTo(to, false);
  }

  section.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button || !viewer) return;
    if (button.dataset.go) go(button.dataset.go);
    else if (button.hasAttribute("data-flip")) viewer.flip();
  });

  section.addEventListener("keydown", function (event) {
    if (!viewer || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var onBoard = viewer.div && viewer.div.contains(event.target); // the viewer steps with the arrows itself
    var to = { Home: "first", End: "last" }[event.key];
    if (!to && !onBoard) to = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
    if (!to) return;
    event.preventDefault();
    if (onBoard) viewer.goTo(to);
    else go(to);
  });

  document.addEventListener("live:updated", show);

  import(section.dataset.viewerSrc)
    .then(function (module) {
      Viewer = module.default;
      show();
    })
    .catch(function () {}); // no board: the list of moves is the page
})();
