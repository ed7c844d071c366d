// How every page writes a rating, as the terminal does: whole points, thousands
// grouped ("1,512"), a "?" after a provisional one, and a change with its sign.
"use strict";

/// "1,512", or "1,350?" while provisional.
function ratingShown(points, provisional) {
  return `${points.toLocaleString("en-US")}${provisional ? "?" : ""}`;
}

/// "+14", "−385" (a true minus sign), "±0".
function changeShown(change) {
  if (change === 0) return "±0";
  return change > 0 ? `+${change.toLocaleString("en-US")}` : `−${(-change).toLocaleString("en-US")}`;
}

/// "Ada 1,500 → 1,086? (−414)": one person's change after a game.
function ratingChangeWords(change) {
  return `${change.player} ${ratingShown(change.before, false)} → ` +
    `${ratingShown(change.after, change.provisional)} (${changeShown(change.change)})`;
}

/// "3×3, 3 in a row": a board, as every page names it.
function boardWords(size, win) {
  return `${size}×${size}, ${win} in a row`;
}
