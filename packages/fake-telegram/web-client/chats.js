// The sidebar: simulated users and groups (with members) to open, a form to create a user, and
// one to make a user an admin of a group.
import { createUser, makeAdmin } from "./api.js";
import { el, showError, toast } from "./dom.js";

const STATUS = { creator: "owner", administrator: "admin", member: "member", kicked: "banned" };

function chatButton(label, selected, onclick) {
  return el(
    "button",
    {
      type: "button",
      className: "chat-button",
      "aria-current": selected ? "true" : undefined,
      onclick,
    },
    label,
  );
}

function userItem(user, app, namesake) {
  const selected = app.selected?.kind === "user" && app.selected.id === user.id;
  // Shoppers of a demo share names: the end of the id tells them apart.
  const language = user.languageCode ? ` (${user.languageCode})` : "";
  const id = namesake ? ` #${String(user.id).slice(-4)}` : "";
  return el(
    "li",
    {},
    chatButton(`${user.name}${language}${id}`, selected, () =>
      app.open({ kind: "user", id: user.id }),
    ),
  );
}

function groupItem(group, app) {
  const selected = app.selected?.kind === "group" && app.selected.id === group.id;
  const members = el(
    "ul",
    { className: "members", "aria-label": `Members of ${group.title}` },
    ...group.members.map((m) => el("li", {}, `${m.name} · ${STATUS[m.status] ?? m.status}`)),
  );
  return el(
    "li",
    {},
    chatButton(group.title, selected, () => app.open({ kind: "group", id: group.id })),
    members,
  );
}

function options(select, items, label) {
  const kept = select.value;
  select.replaceChildren(...items.map((item) => el("option", { value: item.id }, label(item))));
  if (items.some((item) => String(item.id) === kept)) select.value = kept;
}

/** Draws the lists and the admin form's choices from the fake's chat list. */
export function renderChats(list, app) {
  const names = list.users.map((u) => u.name);
  const shared = (name) => names.indexOf(name) !== names.lastIndexOf(name);
  document
    .getElementById("users")
    .replaceChildren(...list.users.map((u) => userItem(u, app, shared(u.name))));
  document.getElementById("groups").replaceChildren(...list.groups.map((g) => groupItem(g, app)));
  options(document.getElementById("admin-group"), list.groups, (g) => g.title);
  options(document.getElementById("admin-user"), list.users, (u) => u.name);
  document.getElementById("bot-name").textContent = `${list.bot.name} (@${list.bot.username})`;
}

/** Wires the two sidebar forms; `app.refresh()` redraws after a change. */
export function wireChatForms(app) {
  document.getElementById("new-user").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const name = form.elements["user-name"].value.trim();
    if (name === "") return showError(new Error("A user needs a name"));
    try {
      const user = await createUser(name, form.elements["user-language"].value);
      form.reset();
      await app.refresh();
      app.open({ kind: "user", id: user.id });
    } catch (error) {
      showError(error);
    }
  });
  document.getElementById("make-admin").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    try {
      await makeAdmin(
        Number(form.elements["admin-group"].value),
        Number(form.elements["admin-user"].value),
      );
      toast("Made an admin");
      await app.refresh();
    } catch (error) {
      showError(error);
    }
  });
}
