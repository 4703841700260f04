// Sounds, off by default (the "Sounds" setting, kept in localStorage): a short tick when a move is seen played,
// a rising two-note chime when the turn passes to a seat this browser holds. Synthesized with the Web Audio API
// (oscillators, no audio files). window.hexarenaSounds counts the sounds played, by kind.
import { h } from "./dom.js";

const SETTING = "hexarena.sounds";
export const soundsOn = () => localStorage.getItem(SETTING) === "on";
window.hexarenaSounds = window.hexarenaSounds || { move: 0, turn: 0 };

// kind -> notes: [Hz, start s, length s, waveform, volume]
const NOTES = {
  move: [[880, 0, 0.07, "triangle", 0.25]],
  turn: [[659, 0.1, 0.16, "sine", 0.22], [988, 0.25, 0.28, "sine", 0.22]],
};

let audio = null;
function context() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!audio && Ctx) audio = new Ctx();
  if (audio && audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

function note(ctx, [hz, start, length, type, volume]) {
  const at = ctx.currentTime + start;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(hz, at);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

// Play the sound of `kind` ("move", "turn") if the setting is on.
export function sound(kind) {
  if (!soundsOn()) return;
  window.hexarenaSounds[kind] += 1;
  try {
    const ctx = context();
    if (ctx) NOTES[kind].forEach((n) => note(ctx, n));
  } catch {
    // no sound where the browser makes none
  }
}

// The setting's checkbox (its change, a click, also lets the page make sounds: browsers wait for one).
export const soundSetting = () => h("label.setting", {},
  h("input", { type: "checkbox", id: "sound-setting", checked: soundsOn(), onchange: (ev) => {
    localStorage.setItem(SETTING, ev.target.checked ? "on" : "off");
    if (ev.target.checked) {
      try {
        context();
      } catch {
        // (no Web Audio: the setting is kept all the same)
      }
    }
  } }),
  " Sounds");
