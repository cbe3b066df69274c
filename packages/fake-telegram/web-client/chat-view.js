// The open chat's messages, kept in step with the fake: a message is redrawn only when it changed
// (an edit replaces it in place), a deleted one is removed, new ones are appended.
import { renderMessage } from "./messages.js";

let drawn = new Map();

/** Redraws the message list from a chat view; `on` receives the messages' actions. */
export function renderMessages(view, on) {
  const list = document.getElementById("message-list");
  const scroller = document.getElementById("messages");
  const nearBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;
  const invoices = new Map(view.invoices.map((i) => [i.messageId, i]));
  const botIds = new Set(view.botMessages.map((m) => m.message_id));
  const next = new Map();
  for (const message of view.messages) {
    const invoice = invoices.get(message.message_id);
    const signature = JSON.stringify([message, invoice]);
    const known = drawn.get(message.message_id);
    const element =
      known?.signature === signature
        ? known.element
        : renderMessage(message, { fromBot: botIds.has(message.message_id), invoice, on });
    next.set(message.message_id, { signature, element });
  }
  for (const [id, { element }] of drawn) if (next.get(id)?.element !== element) element.remove();
  [...next.values()].forEach(({ element }, index) => {
    if (list.children[index] !== element) list.insertBefore(element, list.children[index] ?? null);
  });
  drawn = next;
  if (nearBottom) scroller.scrollTop = scroller.scrollHeight;
}

/** Empties the list when another chat opens. */
export function clearMessages() {
  drawn = new Map();
  document.getElementById("message-list").replaceChildren();
}
