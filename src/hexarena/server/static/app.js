// The router: #/ is the lobby, #/match/ID a match.
import { showLobby } from "./lobby.js";
import { showMatch } from "./match.js";

const root = document.getElementById("app");
let leave = null;

function route() {
  if (leave) leave();
  leave = null;
  root.replaceChildren();
  const m = location.hash.match(/^#\/match\/([^/?#]+)/);
  if (m) leave = showMatch(root, decodeURIComponent(m[1]));
  else leave = showLobby(root);
}

window.addEventListener("hashchange", route);
route();
