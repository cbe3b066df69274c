// Small helpers to build elements without innerHTML: every text a bot or a user sent stays text.

/** `el("button", { type: "button", onclick }, "Send")`: attributes, then children. */
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "className") element.className = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  element.append(...children.filter((c) => c !== undefined && c !== null));
  return element;
}

let toastTimer;

/** A short notice at the bottom, as Telegram shows a callback answer without show_alert. */
export function toast(text) {
  const box = document.getElementById("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 4000);
}

/** A modal alert with an OK button, as Telegram shows a callback answer with show_alert. */
export function alertBox(text) {
  const dialog = document.getElementById("alert");
  dialog.querySelector("p").textContent = text;
  dialog.showModal();
}

/** Shows what went wrong with a request (the fake's error text). */
export function showError(error) {
  const box = document.getElementById("error");
  box.textContent = error instanceof Error ? error.message : String(error);
  box.hidden = false;
  setTimeout(() => (box.hidden = true), 6000);
}

export function money(amount, currency) {
  if (currency === "XTR") return `${amount} ⭐`;
  return `${(amount / 100).toFixed(2)} ${currency}`;
}
