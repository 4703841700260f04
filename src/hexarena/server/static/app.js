// The router: #/ is the lobby, #/match/ID a match, #/my my games, #/@/NAME (or the path /@/NAME) a player's
// profile, #/leaderboard/GAME a game's leaderboard, #/login the sign-in page, #/account the account's settings,
// #/learn and #/learn/GAME how to play, #/events the events, #/events/ID an event, #/championships the championships.
import { accountLinks, showAccount, showLogin } from "./account.js";
import { showChampionships } from "./events/championships.js";
import { showEvents } from "./events/list.js";
import { watchEventNotices } from "./events/notices.js";
import { showEvent } from "./events/page.js";
import { showLearn, showLearnIndex } from "./learn.js";
import { showLobby } from "./lobby/page.js";
import { showMatch } from "./match/page.js";
import { showMyGames, showProfile } from "./people.js";
import { showLeaderboard } from "./ratings.js";

const root = document.getElementById("app");
let leave = null;

if (location.pathname.startsWith("/@/") && !location.hash) {
  history.replaceState(null, "", `/#/@/${location.pathname.slice(3)}`);
}

function route() {
  if (leave) leave();
  leave = null;
  root.replaceChildren();
  const hash = location.hash;
  let m;
  if ((m = hash.match(/^#\/match\/([^/?#]+)/))) leave = showMatch(root, decodeURIComponent(m[1]));
  else if ((m = hash.match(/^#\/@\/([^/?#]+)/))) leave = showProfile(root, decodeURIComponent(m[1]));
  else if ((m = hash.match(/^#\/leaderboard(?:\/([^/?#]+))?$/))) leave = showLeaderboard(root, m[1] && decodeURIComponent(m[1]));
  else if ((m = hash.match(/^#\/learn\/([^/?#]+)/))) leave = showLearn(root, decodeURIComponent(m[1]));
  else if (hash === "#/learn") leave = showLearnIndex(root);
  else if ((m = hash.match(/^#\/events\/([^/?#]+)/))) leave = showEvent(root, decodeURIComponent(m[1]));
  else if (hash === "#/events") leave = showEvents(root);
  else if (hash === "#/championships") leave = showChampionships(root);
  else if (hash === "#/my") leave = showMyGames(root);
  else if (hash === "#/login") leave = showLogin(root);
  else if (hash === "#/account") leave = showAccount(root);
  else leave = showLobby(root);
}

accountLinks(document.getElementById("account-links"));
watchEventNotices(document.getElementById("notices"));
window.addEventListener("hashchange", route);
route();
