// The lobby: the games with their options and rules, the new-match form, import, seeks, open and recent matches.
import * as api from "../api.js";
import { onAccount } from "../account.js";
import { h } from "../dom.js";
import { fitCells } from "../learn.js";
import { gamePanel, importPanel, matchList } from "./panels.js";
import { seekList } from "./seeks.js";

export function showLobby(root) {
  const tabs = h("div.gametabs", { role: "tablist", "aria-label": "Games" });
  const panel = h("section.card.gamepanel");
  const seeks = seekList();
  const importCard = h("section.card"); // filled once the games (and the AI's levels) are known
  const lists = [matchList("Open matches", "open"), matchList("Recent matches", "recent")];
  const timer = setInterval(() => [...lists, seeks].forEach((l) => l.refresh()), 5000);
  const page = h("div.lobby", {},
    h("div.lobby-main", {}, tabs, panel),
    h("div.lobby-side", {}, seeks, ...lists,
      importCard));
  root.append(page);
  let signedIn = false;
  let shown = null;
  const intros = api.api("GET", "/api/learn").catch(() => []);
  Promise.all([api.games(), intros]).then(([games, learned]) => {
    const intro = Object.fromEntries(learned.map((l) => [l.name, l]));
    importCard.replaceChildren(importPanel(games[0].ai_levels));
    const select = (g) => {
      shown = g;
      for (const b of tabs.children) b.setAttribute("aria-selected", String(b.dataset.game === g.name));
      panel.replaceChildren(gamePanel(g, signedIn, () => seeks.refresh(), intro[g.name]));
      panel.querySelectorAll(".card-picture svg").forEach(fitCells);
    };
    const tab = (g) => h("button.tab", { type: "button", role: "tab", dataset: { game: g.name }, onclick: () => select(g) },
      g.name, intro[g.name] && intro[g.name].first ? h("span.tab-first", {}, " start here") : null);
    tabs.append(...games.map(tab));
    seeks.setGames(games.map((g) => g.name));
    if (games.length) select(games[0]);
    off = onAccount((a, msg) => {
      seeks.setAccount(a);
      if (signedIn !== !!a) {
        signedIn = !!a;
        if (shown) select(shown);
      } else if (msg) seeks.refresh();
    });
  }).catch((e) => panel.replaceChildren(h("p.error", {}, `games: ${e.message}`)));
  let off = () => {};
  return () => {
    clearInterval(timer);
    off();
  };
}
