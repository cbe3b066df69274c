// The composer: type as the chat's user (or, in a group, as the member chosen), reply to a
// message, attach a document (its caption is the text), and tap the reply keyboard's buttons.
import { sendDocument, sendText } from "./api.js";
import { el, showError } from "./dom.js";

const readBase64 = (file) =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

async function submit(app, form) {
  const text = form.elements.text.value;
  const file = form.elements.document.files[0];
  const { sender, chatId } = app.speaker();
  if (!file && text.trim() === "") return;
  if (file) {
    const content = await readBase64(file);
    await sendDocument(
      sender,
      { fileName: file.name, content, mimeType: file.type, caption: text },
      chatId,
    );
  } else {
    await sendText(sender, text, { chatId, replyTo: app.replyTo?.message_id });
  }
  form.reset();
  app.setReplyTo(undefined);
}

export function wireComposer(app) {
  const form = document.getElementById("composer");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(app, form).catch(showError);
  });
  document
    .getElementById("cancel-reply")
    .addEventListener("click", () => app.setReplyTo(undefined));
}

/** Shows which message the next text replies to (or hides the note), and its placeholder. */
export function renderReplyTo(message, placeholder) {
  const note = document.getElementById("replying");
  note.hidden = !message;
  note.querySelector("span").textContent = message
    ? `Replying to: ${(message.text ?? message.caption ?? "a message").split("\n")[0]}`
    : "";
  document.getElementById("text").placeholder = (message && placeholder) || "";
}

/** The message each chat's force_reply last opened a reply to: a cancelled reply stays closed. */
const prompted = new Map();

/**
 * Opens the reply a bot's force_reply asks for, as Telegram's clients do when the message arrives:
 * once per message, and with `selective` only for the users it names.
 */
export function followReplyPrompt(view, app) {
  const prompt = view.replyPrompt;
  if (!prompt || prompted.get(view.id) === prompt.messageId) return;
  if (prompt.userIds && !prompt.userIds.includes(app.speaker().sender)) return;
  const message = view.messages.find((m) => m.message_id === prompt.messageId);
  if (!message) return;
  prompted.set(view.id, prompt.messageId);
  app.setReplyTo(message, prompt.placeholder);
}

/** The senders a chat allows: the user in a private chat; the members in a group. */
export function renderSenders(people) {
  const select = document.getElementById("sender");
  const kept = select.value;
  select.replaceChildren(...people.map((p) => el("option", { value: p.id }, p.name)));
  if (people.some((p) => String(p.id) === kept)) select.value = kept;
  document.getElementById("sender-field").hidden = people.length < 2;
}

/** The custom reply keyboard the bot shows: a tap sends the button's text. */
export function renderReplyKeyboard(rows, app) {
  const box = document.getElementById("reply-keyboard");
  box.hidden = !rows || rows.length === 0;
  const tap = (label) => {
    const { sender, chatId } = app.speaker();
    sendText(sender, label, { chatId }).catch(showError);
  };
  box.replaceChildren(
    ...(rows ?? []).map((row) =>
      el(
        "div",
        { className: "row" },
        ...row.map((label) => el("button", { type: "button", onclick: () => tap(label) }, label)),
      ),
    ),
  );
}
