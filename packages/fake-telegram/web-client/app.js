// The page's entry: which chat is open, who speaks in it, and the redraw on every change the
// fake streams. Each action goes through the fake's control API, as a simulated user's would.
import * as api from "./api.js";
import { clearMessages, renderMessages } from "./chat-view.js";
import { renderChats, wireChatForms } from "./chats.js";
import {
  followReplyPrompt,
  renderReplyKeyboard,
  renderReplyTo,
  renderSenders,
  wireComposer,
} from "./composer.js";
import { alertBox, showError, toast } from "./dom.js";
import { openMiniApp, wireMiniApp } from "./mini-app.js";
import { askBuyer } from "./payment.js";

const SPEAKING = new Set(["creator", "administrator", "member"]);
const PAYMENT_OUTCOME = {
  paid: "Payment sent",
  declined: "The bot declined the payment",
  timeout: "The bot did not confirm the payment in time",
  "shipping-declined": "The bot cannot ship to this address",
  "shipping-timeout": "The bot did not answer with shipping options in time",
};

const app = {
  list: { users: [], groups: [] },
  selected: undefined,
  replyTo: undefined,
  open(selected) {
    this.selected = selected;
    location.hash = `chat=${selected.id}`;
    this.setReplyTo(undefined);
    clearMessages();
    refresh();
  },
  /** Who types in the open chat, and where: a group's chosen member, or the private chat's user. */
  speaker() {
    const chosen = Number(document.getElementById("sender").value);
    if (this.selected?.kind === "group") return { sender: chosen, chatId: this.selected.id };
    return { sender: this.selected?.id, chatId: undefined };
  },
  setReplyTo(message, placeholder) {
    this.replyTo = message;
    renderReplyTo(message, placeholder);
    if (message) document.getElementById("text").focus();
  },
  refresh: () => refresh(),
};

const on = {
  reply: (message) => app.setReplyTo(message),
  openApp: (url, title) => openMiniApp(url, title),
  async press(message, button) {
    try {
      const { sender, chatId } = app.speaker();
      const press = await api.press(sender, button.callback_data, {
        chatId,
        messageId: message.message_id,
      });
      const { answer } = await api.callbackAnswer(press.callbackQueryId);
      if (answer?.text) (answer.showAlert ? alertBox : toast)(answer.text);
    } catch (error) {
      showError(error);
    }
  },
  async pay(message, invoice) {
    try {
      const buyer = await askBuyer(message.invoice.title, invoice.asks);
      if (buyer === null) return;
      const { sender, chatId } = app.speaker();
      const result = await api.pay(sender, message.message_id, { chatId, buyer });
      toast(PAYMENT_OUTCOME[result.status] ?? result.status);
    } catch (error) {
      showError(error);
    }
  },
};

function sendersOf(selected) {
  if (selected.kind === "user") {
    const user = app.list.users.find((u) => u.id === selected.id);
    return user ? [user] : [];
  }
  const group = app.list.groups.find((g) => g.id === selected.id);
  return (group?.members ?? [])
    .filter((m) => SPEAKING.has(m.status))
    .map((m) => ({ id: m.userId, name: m.name }));
}

function chatTitle(selected) {
  const found =
    selected.kind === "user"
      ? app.list.users.find((u) => u.id === selected.id)?.name
      : app.list.groups.find((g) => g.id === selected.id)?.title;
  return found ?? String(selected.id);
}

let drawnList = "";
async function draw() {
  const list = await api.getChats();
  if (JSON.stringify([list, app.selected]) !== drawnList) {
    app.list = list;
    drawnList = JSON.stringify([list, app.selected]);
    renderChats(list, app);
  }
  const selected = app.selected;
  document.getElementById("chat-panel").hidden = !selected;
  if (!selected) return;
  document.getElementById("chat-title").textContent = chatTitle(selected);
  renderSenders(sendersOf(selected));
  const view = await api.getChat(selected.id);
  if (app.selected !== selected) return;
  renderMessages(view, on);
  renderReplyKeyboard(view.keyboard, app);
  followReplyPrompt(view, app);
}

let drawing = false;
let again = false;
async function refresh() {
  if (drawing) {
    again = true;
    return;
  }
  drawing = true;
  try {
    do {
      again = false;
      await draw();
    } while (again);
  } catch (error) {
    showError(error);
  } finally {
    drawing = false;
  }
}

function start() {
  wireChatForms(app);
  wireComposer(app);
  wireMiniApp();
  document
    .querySelector("#alert button")
    .addEventListener("click", () => document.getElementById("alert").close());
  const fromHash = /chat=(-?\d+)/.exec(location.hash)?.[1];
  if (fromHash)
    app.selected = { kind: Number(fromHash) < 0 ? "group" : "user", id: Number(fromHash) };
  api.onChange(() => refresh());
  refresh();
}

start();
