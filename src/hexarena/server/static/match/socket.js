// The match's feed: the match object once, then every change over the live socket; the game's player names and
// the signed-in account (whose seats are mine too) as they come.
import * as api from "../api.js";
import { me } from "../account.js";

// Follow the match of `ctrl`; onMissing(error) when it cannot be read. The function that stops it.
export function follow(ctrl, onMissing) {
  me().then((a) => {
    ctrl.account = a;
    if (a) ctrl.ui.redraw(); // (a guest's page stays as drawn: a redraw would close an open chooser)
  }).catch(() => {});
  api.getMatch(ctrl.id).then((m) => {
    ctrl.accept(m);
    api.games().then((gs) => {
      ctrl.players = (gs.find((g) => g.name === m.game) || {}).players || null;
      ctrl.ui.redraw();
    }).catch(() => {});
  }).catch(onMissing);
  return api.live(ctrl.id, (m) => ctrl.accept(m), (up) => {
    ctrl.connected = up;
    ctrl.ui.redraw();
  });
}
