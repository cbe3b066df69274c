// The fake's control API, as the page calls it: JSON over fetch, and a stream of changes.

async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error ?? data.description ?? `HTTP ${response.status}`);
  return data;
}

const inChat = (chatId) => (chatId === undefined ? {} : { chatId });

export const getChats = () => call("GET", "/_kit/chats");
export const getChat = (chatId) => call("GET", `/_kit/chats/${chatId}`);
export const createUser = (firstName, languageCode) =>
  call("POST", "/_kit/users", { firstName, languageCode });
export const makeAdmin = (groupId, userId) =>
  call("POST", `/_kit/groups/${groupId}/admins`, { userId });

export const sendText = (userId, text, { chatId, replyTo } = {}) =>
  call("POST", `/_kit/users/${userId}/send`, {
    text,
    ...inChat(chatId),
    ...(replyTo === undefined ? {} : { replyTo }),
  });

export const sendDocument = (userId, document, chatId) =>
  call("POST", `/_kit/users/${userId}/document`, { ...document, ...inChat(chatId) });

export const press = (userId, data, { chatId, messageId }) =>
  call("POST", `/_kit/users/${userId}/press`, { data, messageId, ...inChat(chatId) });

export const callbackAnswer = (queryId) => call("GET", `/_kit/callbacks/${queryId}/answer`);

export const pay = (userId, messageId, { chatId, buyer }) =>
  call("POST", `/_kit/users/${userId}/pay`, {
    messageId,
    ...inChat(chatId),
    ...(buyer ? { buyer } : {}),
  });

/** Calls `listener` whenever the fake's state changes (server-sent events). */
export function onChange(listener) {
  const source = new EventSource("/_kit/events");
  source.addEventListener("change", () => listener());
  return () => source.close();
}
