// One chat message as a Telegram client draws it: who sent it, what it replies to, its text,
// photo, document or invoice, service notes, and its inline keyboard. Actions go to `on`.
import { el, money } from "./dom.js";
import { renderText } from "./entities.js";

function fullName(user) {
  return [user?.first_name, user?.last_name].filter(Boolean).join(" ") || "Someone";
}

function firstLine(message) {
  const text = message.text ?? message.caption ?? message.invoice?.title ?? "";
  return (
    text.split("\n")[0] || (message.photo ? "Photo" : message.document ? "Document" : "Message")
  );
}

function photo(message) {
  const widest = message.photo.at(-1);
  const label = `Photo, ${widest.width}×${widest.height}`;
  return el("div", { className: "photo", role: "img", "aria-label": label }, "🖼");
}

function documentCard(document) {
  const size =
    document.file_size === undefined ? "" : ` · ${Math.ceil(document.file_size / 1024)} KB`;
  return el("div", { className: "document" }, `📄 ${document.file_name ?? "file"}${size}`);
}

function invoiceCard(message, invoice, on) {
  const { title, description, total_amount, currency } = message.invoice;
  const price = money(total_amount, currency);
  const hasPayButton = message.reply_markup?.inline_keyboard.flat().some((b) => b.pay);
  const action = invoice?.paid
    ? el("p", { className: "paid" }, "✅ Paid")
    : invoice && !hasPayButton
      ? el("button", { type: "button", onclick: () => on.pay(message, invoice) }, `Pay ${price}`)
      : undefined;
  return el(
    "div",
    { className: "invoice", role: "group", "aria-label": `Invoice: ${title}` },
    el("strong", {}, title),
    el("p", {}, description),
    el("p", { className: "price" }, price),
    action,
  );
}

function serviceNote(message) {
  if (message.successful_payment) {
    const { total_amount, currency } = message.successful_payment;
    return `${fullName(message.from)} paid ${money(total_amount, currency)}`;
  }
  if (message.refunded_payment) return "A payment was refunded";
  if (message.new_chat_members)
    return `${message.new_chat_members.map(fullName).join(", ")} joined`;
  if (message.left_chat_member) return `${fullName(message.left_chat_member)} left`;
  if (message.migrate_to_chat_id || message.migrate_from_chat_id) return "Upgraded to a supergroup";
  return undefined;
}

function inlineButton(message, button, invoice, on) {
  const click = () => {
    if (button.pay && invoice && !invoice.paid) on.pay(message, invoice);
    else if (button.web_app) on.openApp(button.web_app.url, button.text);
    else if (button.callback_data) on.press(message, button);
  };
  if (button.url) {
    return el(
      "a",
      { className: "button", href: button.url, target: "_blank", rel: "noopener noreferrer" },
      button.text,
    );
  }
  const disabled = button.pay ? invoice?.paid : !button.callback_data && !button.web_app;
  return el("button", { type: "button", onclick: click, disabled }, button.text);
}

function keyboard(message, invoice, on) {
  const rows = message.reply_markup?.inline_keyboard ?? [];
  if (rows.length === 0) return undefined;
  return el(
    "div",
    { className: "inline-keyboard", role: "group", "aria-label": "Message buttons" },
    ...rows.map((row) =>
      el("div", { className: "row" }, ...row.map((b) => inlineButton(message, b, invoice, on))),
    ),
  );
}

function body(message, invoice, on) {
  const parts = [];
  if (message.forward_origin) parts.push(el("p", { className: "forwarded" }, "Forwarded message"));
  if (message.reply_to_message)
    parts.push(
      el("blockquote", { className: "reply-quote" }, `↩ ${firstLine(message.reply_to_message)}`),
    );
  if (message.photo) parts.push(photo(message));
  if (message.document) parts.push(documentCard(message.document));
  if (message.invoice) parts.push(invoiceCard(message, invoice, on));
  const text = message.text ?? message.caption;
  const entities = message.entities ?? message.caption_entities;
  if (text !== undefined) parts.push(el("div", { className: "text" }, renderText(text, entities)));
  return parts;
}

/** The list item for one message; `invoice` is the view's invoice entry for it, if any. */
export function renderMessage(message, { fromBot, invoice, on }) {
  const note = serviceNote(message);
  if (note) return el("li", { className: "service" }, note);
  const id = message.message_id;
  const replyButton = el(
    "button",
    {
      type: "button",
      className: "reply",
      "aria-label": `Reply to message ${id}`,
      onclick: () => on.reply(message),
    },
    "↩",
  );
  return el(
    "li",
    { className: fromBot ? "message bot" : "message user", "data-message-id": id },
    el("p", { className: "sender" }, fullName(message.from)),
    ...body(message, invoice, on),
    message.edit_date ? el("span", { className: "edited" }, "edited") : undefined,
    keyboard(message, invoice, on),
    replyButton,
  );
}
